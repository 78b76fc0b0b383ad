// Learned-gain widget: one norm's gains drawn as bars up (amplify) or down
// (suppress) from 1.0. Two sources: a fixed sample of the synthetic model's
// gains (the default), or, once the training lab has finished a run with a
// norm, all the gains of one norm of the model it trained (the reader picks
// the run, the layer and the norm). Either arrives computed (compute.js:
// gainView, trainedGainView): the values, their counts, extremes and the RMS
// over all the norm's gains, and the length its output measured.
//
// createGainWidget(root, { choose, withLab }): choose(change) when the reader
// picks a source, run, layer or norm; change holds the fields that changed.
// withLab false (an embedded element, which has no lab): no source choice.
import { drawBaselineBars } from '../charts/gain-bars.js';
import { createChartFrame } from '../charts/chart-frame.js';
import { decimals, fixed, significant } from '../format.js';
import { createDataTable } from './data-table.js';
import { el, labelledControl, readout, setDisabled, setHidden, setOptions, setText } from './dom.js';

const SOURCES = ['synthetic', 'trained'];
const SIDES = { inputNorm: 'gain.sideAttention', postAttentionNorm: 'gain.sideMlp' };

export function createGainWidget(root, { choose = () => {}, withLab = true } = {}) {
  // Which gains: a fieldset of two radio buttons, then the trained model's
  // run, layer and norm.
  const sourceBox = el('fieldset', { className: 'control growth-choice gain-source' });
  const sourceLegend = el('legend', { className: 'control-label' });
  sourceBox.append(sourceLegend);
  const radios = {};
  for (const source of SOURCES) {
    const label = el('label', { className: 'growth-option' });
    const input = el('input', { type: 'radio', name: 'gain-source', id: `gain-source-${source}`, value: source });
    input.addEventListener('change', () => {
      if (input.checked) choose({ source });
    });
    const text = el('span');
    label.append(input, text);
    sourceBox.append(label);
    radios[source] = { input, text };
  }
  const unavailable = el('p', { className: 'widget-note gain-unavailable', id: 'gain-trained-unavailable' });
  sourceBox.append(unavailable);
  radios.trained.input.setAttribute('aria-describedby', unavailable.id);
  const picks = el('div', { className: 'control-row gain-picks' });
  const run = labelledControl('gain-run', 'select');
  const layer = labelledControl('gain-layer', 'select');
  const side = labelledControl('gain-side', 'select');
  picks.append(run.wrap, layer.wrap, side.wrap);
  run.input.addEventListener('change', () => choose({ run: run.input.value, layer: 0 }));
  layer.input.addEventListener('change', () => choose({ layer: Number(layer.input.value) }));
  side.input.addEventListener('change', () => choose({ which: side.input.value }));

  const source = el('p', { className: 'widget-note gain-described' });
  const legend = el('p', { className: 'chart-legend' });
  const figure = el('figure', { className: 'chart-figure' });
  const chartBox = el('div', { className: 'chart-box' });
  figure.append(chartBox);
  const chart = createChartFrame(chartBox, { height: 220 });

  const amplified = readout();
  const suppressed = readout();
  const min = readout();
  const max = readout();
  const rms = readout();
  for (const [r, name] of [
    [amplified, 'amplified'],
    [suppressed, 'suppressed'],
    [min, 'min'],
    [max, 'max'],
    [rms, 'rms'],
  ]) {
    r.value.dataset.readout = name;
  }
  const readouts = el('dl', { className: 'readouts' });
  readouts.append(amplified.wrap, suppressed.wrap, min.wrap, max.wrap, rms.wrap);
  const pending = el('p', { className: 'slot-pending' });
  const note = el('p', { className: 'widget-note synthetic-note' });
  const length = el('p', { className: 'widget-note gain-length' });
  root.append(sourceBox, picks, pending, source, legend, figure, readouts, note, length);
  const table = createDataTable(root);
  let painted = null;

  setHidden(sourceBox, !withLab);
  setHidden(picks, true);

  function paintControls({ choice, runs }, { t }) {
    if (!withLab) return;
    setText(sourceLegend, t('gain.sourceLegend'));
    setText(radios.synthetic.text, t('gain.sourceSynthetic'));
    setText(radios.trained.text, t('gain.sourceTrained'));
    radios.synthetic.input.checked = choice.source === 'synthetic';
    radios.trained.input.checked = choice.source === 'trained';
    setDisabled(radios.trained.input, runs.length === 0);
    setHidden(unavailable, runs.length > 0);
    setText(unavailable, t('gain.trainedUnavailable'));
    const trained = choice.source === 'trained' && runs.length > 0;
    setHidden(picks, !trained);
    if (!trained) return;
    const chosen = runs.find((r) => r.id === choice.run) ?? runs[0];
    setText(run.label, t('gain.run'));
    setText(layer.label, t('gain.layer'));
    setText(side.label, t('gain.norm'));
    setOptions(
      run.input,
      runs.map((r) => [r.id, runLabel(r, t)]),
      chosen.id,
    );
    setOptions(
      layer.input,
      chosen.gains.layers.map((_, l) => [l, String(l)]),
      choice.layer,
    );
    setOptions(
      side.input,
      Object.entries(SIDES).map(([which, key]) => [which, t(key)]),
      choice.which,
    );
  }

  return {
    // data: { choice: { source: 'synthetic' | 'trained', run, layer, which },
    //   runs: the lab's trained runs (lab-widget.js trainedRuns, each with a
    //   serial the page gave it), gains: what is shown, or null until the
    //   model has run }. gains: { source, layer, which, hidden, features,
    //   values, amplified, suppressed, min, max, rmsAll, outputL2 }; the
    //   synthetic sample also has seed, a trained norm run ({ id, options,
    //   steps, diverged, serial }); outputL2: the norm's output L2 per token
    //   (the demo panel's forward pass; the lab's held-out window after
    //   training), null without one
    update(data, { lang, t, rich }) {
      paintControls(data, { t });
      const gains = data.gains;
      setHidden(pending, Boolean(gains));
      setText(pending, t('model.pending'));
      setHidden(figure, !gains);
      setHidden(readouts, !gains);
      setHidden(length, !gains);
      const trained = gains?.source === 'trained';
      rich(note, trained ? 'gain.trainedNote' : 'gain.synthetic', trained ? { hidden: gains.hidden } : {});
      if (!gains) return;
      paintLength(length, gains, rich);
      const key = trained ? `${lang}|trained|${gains.run.serial}|${gains.layer}|${gains.which}` : `${lang}|synthetic`;
      if (painted === key) return;
      painted = key;

      if (trained) {
        const o = gains.run.options;
        rich(source, gains.run.diverged ? 'gain.trainedSourceDiverged' : 'gain.trainedSource', {
          hidden: gains.hidden,
          layer: gains.layer,
          side: t(SIDES[gains.which]),
          norm: t(o.norm === 'layernorm' ? 'gain.layerNorm' : 'gain.rmsNorm'),
          run: runName(gains.run, t),
          layers: o.layers,
          lr: String(o.lr),
          steps: gains.run.steps,
        });
      } else {
        rich(source, 'gain.source', {
          count: gains.values.length,
          hidden: gains.hidden,
          layer: gains.layer,
          seed: gains.seed,
        });
      }
      legend.replaceChildren(
        el('span', { className: 'legend-swatch is-above', ariaHidden: 'true' }),
        el('span', { textContent: t('gain.amplified') }),
        el('span', { className: 'legend-swatch is-below', ariaHidden: 'true' }),
        el('span', { textContent: t('gain.suppressed') }),
      );
      setText(amplified.label, t('gain.amplified'));
      setText(suppressed.label, t('gain.suppressed'));
      setText(min.label, t('gain.min'));
      setText(max.label, t('gain.max'));
      setText(rms.label, t('gain.rmsAll', { hidden: gains.hidden }));
      setText(amplified.value, String(gains.amplified));
      setText(suppressed.value, String(gains.suppressed));
      setText(min.value, fixed(gains.min, 2));
      setText(max.value, fixed(gains.max, 2));
      setText(rms.value, fixed(gains.rmsAll, 3));

      const bars = gains.features.map((feature, i) => ({ key: feature, value: gains.values[i] }));
      // The sample's axis runs from 0 (or below) to 2 (or above); a trained
      // norm's gains, which Adam moves about lr a step, on an axis centred
      // on 1 that just holds the farthest of them, so small moves show.
      const span = Math.max(0.02, 1.1 * Math.max(gains.max - 1, 1 - gains.min));
      const domain = trained ? [1 - span, 1 + span] : [Math.min(0, gains.min), Math.max(2, gains.max * 1.05)];
      chart.render(
        (svg, width, height) =>
          drawBaselineBars(svg, width, height, {
            bars,
            baseline: 1,
            domain,
            baselineLabel: t('gain.baseline'),
            xLabel: t(trained ? 'gain.axisAll' : 'gain.axisFeatures', { count: bars.length }),
          }),
        t('gain.chartLabel', {
          count: bars.length,
          amplified: gains.amplified,
          suppressed: gains.suppressed,
          min: fixed(gains.min, 2),
          max: fixed(gains.max, 2),
        }),
      );
      table.update({
        summaryText: t('table.show'),
        captionText: t(trained ? 'gain.tableCaptionAll' : 'gain.tableCaption', { count: bars.length }),
        columns: [t('gain.feature'), t('gain.value')],
        rows: bars.map((b) => [String(b.key), decimals(b.value, 3)]),
      });
    },
  };
}

// The output's length into node: about sqrt(d) times the gains' RMS, beside
// the length measured at this norm's output.
function paintLength(node, gains, rich) {
  const sqrtD = Math.sqrt(gains.hidden);
  const predicted = sqrtD * gains.rmsAll;
  const params = {
    sqrtD: decimals(sqrtD, 2),
    rms: fixed(gains.rmsAll, 3),
    predicted: significant(predicted),
    layer: gains.layer,
    measured: gains.outputL2 === null ? '' : significant(gains.outputL2),
    ratio: gains.outputL2 === null ? '' : fixed(gains.outputL2 / predicted, 3),
  };
  const matches = params.measured === params.predicted;
  let key;
  if (gains.source === 'trained') {
    const layerNorm = gains.run.options.norm === 'layernorm';
    key =
      gains.outputL2 === null
        ? 'gain.lengthEstimate'
        : layerNorm
          ? 'gain.lengthTrainedLayerNorm'
          : matches
            ? 'gain.lengthTrainedMatches'
            : 'gain.lengthTrained';
  } else {
    key = gains.outputL2 === null ? 'gain.lengthNoNorm' : matches ? 'gain.lengthMatches' : 'gain.length';
  }
  rich(node, key, params);
}

// A lab run's name: pre-norm, post-norm, or post-norm with its warmup.
function runName(r, t) {
  if (r.options.placement === 'pre') return t('gain.runPre');
  return r.options.warmup > 0 ? t('gain.runWarmup', { warmup: r.options.warmup }) : t('gain.runPost');
}

// A run as the run selector lists it: its name, depth and learning rate.
function runLabel(r, t) {
  return t('gain.runOption', { name: runName(r, t), layers: r.options.layers, lr: String(r.options.lr) });
}
