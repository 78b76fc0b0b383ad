// "L2/tok across layers": the residual stream's length per token where it
// enters each layer (and once more after the last), against the norms'
// outputs (pink), with a reference line at sqrt(d). A marker follows the
// Layer selector and the walk; the pointer gets a read-out of any layer.
//
// With the demo panel's walk (data.walk), the chart shows only what the walk
// has drawn so far: before it, the stream's starting point and the reader's
// prediction (two hollow markers they may drag), then the curves layer by
// layer. Its text, table and read-out show no more than the drawing does.
import { drawLineChart } from '../charts/line-chart.js';
import { createChartFrame } from '../charts/chart-frame.js';
import { createLegend } from '../charts/legend.js';
import { decimals, significant } from '../format.js';
import { CURVE_GUESS_MAX, CURVE_GUESS_MIN } from '../predictions.js';
import { CHART_SCALES } from '../state.js';
import { createDataTable } from './data-table.js';
import { el, labelledControl, setHidden, setOptions, setText } from './dom.js';

const SCALE_TEXT = { log: 'layerChart.scaleLog', linear: 'layerChart.scaleLinear' };

// on: { scale('log' | 'linear'), predictMove('r' | 'n', value) (optional:
// the reader dragged a prediction marker) }
export function createLayerChart(root, on) {
  const { wrap: scaleWrap, input: scaleSelect, label: scaleLabel } = labelledControl('layer-chart-scale', 'select');
  scaleWrap.classList.add('control-inline');
  scaleSelect.addEventListener('change', () => on.scale(scaleSelect.value));
  const pending = el('p', { className: 'slot-pending' });
  const summary = el('p', { className: 'chart-summary' });
  const figure = el('figure', { className: 'chart-figure' });
  const legendBox = el('div');
  const chartBox = el('div', { className: 'chart-box' });
  const readoutLine = el('p', { className: 'chart-readout' });
  figure.append(legendBox, chartBox, readoutLine);
  const legend = createLegend(legendBox);
  const chart = createChartFrame(chartBox, { height: 300 });
  const note = el('p', { className: 'widget-note' });
  root.append(scaleWrap, pending, summary, figure, note);
  const table = createDataTable(root);

  let last = null;
  let lastKey = null;
  let hover = null;
  let ctx = null;

  function paintChart() {
    const { view, layer, scale } = last;
    const walk = last.walk ?? null;
    const { t } = ctx;
    const L = view.layers;
    const hasNorm = view.config.norm !== 'none';
    const names = normSeriesNames(view, t);
    const inputOut = view.probes['inputNorm.out'].l2;
    const postOut = view.probes['postAttentionNorm.out'].l2;
    const drawn = walk?.drawn ?? { residual: L, norms: L - 1 };
    const upTo = (values, n) =>
      Array.from(values)
        .slice(0, n + 1)
        .map((v, l) => [l, v]);
    // While the walk draws, a dot marks where each curve has got to (the
    // stream's starting point alone before the walk).
    const endDot = Boolean(walk?.drawn);
    const series = [
      { id: 'residual', label: t('layerChart.seriesResidual'), points: upTo(view.residualL2, drawn.residual), endDot },
    ];
    if (hasNorm) {
      series.push(
        { id: 'norm-input', label: names.first, points: upTo(inputOut, drawn.norms), endDot },
        // Both norms' outputs sit near sqrt(d): the second is drawn over the
        // first with a hollow dot at every layer, so neither hides the other.
        { id: 'norm-post', label: names.second, points: upTo(postOut, drawn.norms), dots: true },
      );
    }
    legend.update(series.map(({ id, label, dots }) => ({ id, label, dots })));

    const guesses = guessMarkers(walk, view, t, on);
    // The frame does not move while the walk draws: before the reader has
    // answered it spans every value a guess may take (the data would give
    // the answer away), after it the whole result and the guesses.
    const asking = walk?.prediction.state === 'asking';
    let values = [
      ...view.residualL2,
      ...(hasNorm ? [...inputOut, ...postOut] : []),
      view.sqrtD,
      ...guesses.map((g) => g.y),
    ];
    if (asking) values = [CURVE_GUESS_MIN, CURVE_GUESS_MAX];
    const lo = Math.min(...values);
    const hi = Math.max(...values);
    const pad = asking ? 1 : 1.4;

    const shownLayer = Math.min(layer, drawn.residual);
    const markerPoints = [];
    if (shownLayer >= 0 && !asking) markerPoints.push({ id: 'residual', y: view.residualL2[shownLayer] });
    if (hasNorm && !asking && layer <= drawn.norms) markerPoints.push({ id: 'norm-input', y: inputOut[layer] });
    const xs = view.residualL2.map((_, l) => l).filter((l) => l <= drawn.residual);
    chart.render(
      (svg, width, height) =>
        drawLineChart(svg, width, height, {
          x: { type: 'linear', domain: [0, L], label: t('layerChart.axisLayer'), integer: true },
          y:
            scale === 'log'
              ? { type: 'log', domain: [lo / pad, hi * pad], label: t('layerChart.axisL2') }
              : { type: 'linear', domain: [0, hi * (asking ? 1 : 1.08)], label: t('layerChart.axisL2') },
          rules: [
            {
              id: 'sqrt-d',
              value: view.sqrtD,
              label: t('layerChart.reference', { d: view.hidden, sqrtD: decimals(view.sqrtD, 2) }),
            },
          ],
          series,
          marker: markerPoints.length ? { x: shownLayer, points: markerPoints } : null,
          guesses,
          legend: true,
          hover:
            asking || !xs.length
              ? null
              : {
                  xs,
                  x: hover !== null && hover <= drawn.residual ? hover : null,
                  onMove: (x) => {
                    if (x === hover) return;
                    hover = x;
                    paintChart();
                  },
                },
        }),
      summary.textContent,
    );
    const readLayer = hover !== null && hover <= drawn.residual ? hover : layer;
    const readable = !asking && readLayer <= drawn.residual;
    setText(readoutLine, readable ? readoutText(view, readLayer, drawn, t) : '');
    readoutLine.dataset.layer = readable ? String(readLayer) : '';
  }

  return {
    // data: { view: forward view | null, layer, scale, walk (optional: the
    //   demo controller's walk view, { drawn, prediction, ... }) }
    update(data, context) {
      const { t, lang } = context;
      setText(scaleLabel, t('layerChart.scale'));
      setOptions(
        scaleSelect,
        CHART_SCALES.map((s) => [s, t(SCALE_TEXT[s])]),
        data.scale,
      );
      setHidden(pending, Boolean(data.view));
      setText(pending, t('model.pending'));
      setHidden(figure, !data.view);
      context.rich(note, 'layerChart.note');
      if (!data.view) return;
      const walk = data.walk ?? null;
      const key = JSON.stringify([lang, data.layer, data.scale, walk?.drawn, walk?.prediction]);
      if (last && last.view === data.view && key === lastKey) return;
      if (last?.view !== data.view) hover = null;
      last = data;
      lastKey = key;
      ctx = context;
      const view = data.view;
      const drawn = walk?.drawn ?? null;
      setText(summary, drawn ? drawingText(view, walk, t) : summaryText(view, t));
      paintChart();
      const hasNorm = view.config.norm !== 'none';
      const names = normSeriesNames(view, t);
      const columns = [t('layerChart.layerCol'), t('layerChart.seriesResidual')];
      if (hasNorm) columns.push(names.first, names.second);
      const rows = view.residualL2
        .map((residual, l) => {
          const row = [l < view.layers ? String(l) : t('layerChart.finalRow'), significant(residual)];
          if (hasNorm) {
            const shown = l < view.layers && (!drawn || l <= drawn.norms);
            row.push(shown ? significant(view.probes['inputNorm.out'].l2[l]) : '–');
            row.push(shown ? significant(view.probes['postAttentionNorm.out'].l2[l]) : '–');
          }
          return row;
        })
        .filter((_, l) => !drawn || l <= drawn.residual);
      table.update({
        summaryText: t('table.show'),
        captionText: t(drawn ? 'layerChart.tableCaptionDrawn' : 'layerChart.tableCaption'),
        columns,
        rows,
      });
    },
  };
}

// The reader's prediction on the chart: where they think the stream ends
// (after the last layer) and the input norm's output at the last layer.
function guessMarkers(walk, view, t, on) {
  const markers = walk?.prediction.markers;
  if (!markers) return [];
  const editable = walk.prediction.state === 'asking' && typeof on.predictMove === 'function';
  const L = view.layers;
  // The stream's guess is labelled above its marker, the norm's below, so
  // the two labels stay apart when the guesses are close.
  const guesses = [
    {
      id: 'residual',
      x: L,
      y: markers.r,
      label: t('layerChart.guessResidual'),
      labelAt: markers.r >= markers.n ? 'above' : 'below',
      onDrag: editable ? (v) => on.predictMove('r', v) : null,
    },
  ];
  if (view.config.norm !== 'none') {
    guesses.push({
      id: 'norm-input',
      x: L - 1,
      y: markers.n,
      label: t('layerChart.guessNorm'),
      labelAt: markers.r >= markers.n ? 'below' : 'above',
      onDrag: editable ? (v) => on.predictMove('n', v) : null,
    });
  }
  return guesses;
}

// The sentence above the chart while the walk has drawn only part of it.
function drawingText(view, walk, t) {
  const start = significant(view.residualL2[0]);
  if (walk.prediction.state === 'asking') return t('layerChart.summaryAsking', { start, last: view.layers - 1 });
  if (walk.status === 'waiting') return t('layerChart.summaryWaiting', { start });
  const { residual } = walk.drawn;
  if (residual < 0) return t('layerChart.summaryEmpty');
  return t('layerChart.summaryDrawn', { layer: Math.min(residual, view.layers - 1), last: view.layers - 1 });
}

// The sentence above the chart: what the curves did, in computed numbers.
function summaryText(view, t) {
  const first = view.residualL2[0];
  const lastValue = view.residualL2.at(-1);
  const params = {
    depth: view.layers,
    first: significant(first),
    last: significant(lastValue),
    ratio: significant(lastValue / first, 2),
    sqrtD: decimals(view.sqrtD, 2),
  };
  if (view.config.norm === 'none') return t('layerChart.summaryNone', params);
  const outs = [...view.probes['inputNorm.out'].l2, ...view.probes['postAttentionNorm.out'].l2];
  return t('layerChart.summary', { ...params, lo: significant(Math.min(...outs)), hi: significant(Math.max(...outs)) });
}

// The two norms' series, named by where they sit: before attention and
// before the MLP in pre-norm, after attention and after the MLP in post-norm.
function normSeriesNames(view, t) {
  const norm = t(`model.short.${view.config.norm}`);
  return view.config.placement === 'post'
    ? { first: t('layerChart.seriesAfterAttention', { norm }), second: t('layerChart.seriesAfterMlp', { norm }) }
    : { first: t('layerChart.seriesInputNorm', { norm }), second: t('layerChart.seriesPostNorm', { norm }) };
}

function readoutText(view, layer, drawn, t) {
  const residual = significant(view.residualL2[layer]);
  if (layer === view.layers) return t('layerChart.readoutFinal', { last: view.layers - 1, residual });
  if (view.config.norm === 'none' || layer > drawn.norms) return t('layerChart.readoutNone', { layer, residual });
  return t(view.config.placement === 'post' ? 'layerChart.readoutPost' : 'layerChart.readout', {
    layer,
    residual,
    norm: t(`model.short.${view.config.norm}`),
    inputOut: significant(view.probes['inputNorm.out'].l2[layer]),
    postOut: significant(view.probes['postAttentionNorm.out'].l2[layer]),
  });
}
