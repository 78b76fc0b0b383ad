// Gradient flow, pre-norm vs post-norm: the backward pass of two stacks of
// the same depth and weights that differ only in where the norm sits, at
// initialization. Per layer: the norm of all its parameters' gradients, the
// residual stream's gradient where it enters the layer, and each norm's
// factor, the number its backward multiplies the gradient by (pre-norm: read
// off its forward pass, next to the residual stream's L2; post-norm: measured
// by its backward pass). Below them, a reading of what these numbers show
// and what a snapshot at initialization cannot show, its sentences chosen and
// filled by the numbers themselves.
import { claimParams } from '../claim-params.js';
import { drawLineChart } from '../charts/line-chart.js';
import { createChartFrame } from '../charts/chart-frame.js';
import { createLegend } from '../charts/legend.js';
import { GRAD_DEPTH_MAX, GRAD_DEPTH_MIN } from '../constants.js';
import { decimals, significant } from '../format.js';
import { createDataTable } from './data-table.js';
import { depthSlider, el, readout, setAttr, setHidden, setText } from './dom.js';

// Last-layer and first-layer parameter gradients within this factor of each
// other read as "about level".
const LEVEL_WITHIN = 2;
// The model's vocabulary: one token per byte value.
const VOCABULARY = 256;

// on: { depth(n) }
export function createGradientFlow(root, on) {
  const {
    wrap: depthWrap,
    input: slider,
    label: sliderLabel,
    output: depthOut,
  } = depthSlider('grad-depth', GRAD_DEPTH_MIN, GRAD_DEPTH_MAX, (n) => on.depth(n));

  const status = el('p', { className: 'gradient-status', role: 'status' });
  const error = el('p', { className: 'input-error' });
  const body = el('div', { className: 'gradient-body' });
  const readouts = el('dl', { className: 'readouts' });
  const values = {};
  for (const name of ['pre-ratio', 'post-ratio', 'stream', 'factor', 'loss']) {
    values[name] = readout();
    values[name].value.dataset.readout = name;
    readouts.append(values[name].wrap);
  }

  const figures = {};
  for (const [name, height] of [
    ['params', 250],
    ['residual', 230],
    ['factor', 230],
  ]) {
    const figure = el('figure', { className: 'chart-figure' });
    const caption = el('figcaption', { className: 'chart-caption' });
    const legendBox = el('div');
    const box = el('div', { className: 'chart-box' });
    figure.append(caption, legendBox, box);
    figure.dataset.chart = name;
    figures[name] = { figure, caption, legend: createLegend(legendBox), chart: createChartFrame(box, { height }) };
  }
  const reading = el('div', { className: 'reading' });
  const readingTitle = el('h4');
  const readingText = el('div', { className: 'reading-text' });
  reading.append(readingTitle, readingText);
  const note = el('p', { className: 'widget-note' });
  body.append(readouts, figures.params.figure, figures.residual.figure, figures.factor.figure, reading);
  root.append(depthWrap, status, error, body, note);
  const table = createDataTable(root);
  let painted = null;

  return {
    // data: { depth, busy, result: null | { depth, norm, pre, post, error },
    //   deferred }
    //   pre / post: compute.js's gradientView() results; pre.scaling:
    //   normScaling() of the pre-norm stack; deferred: the passes wait for
    //   the view to come near the screen (data-deferred, with busy)
    update({ depth, busy, result, deferred = false }, { t, lang }) {
      setText(sliderLabel, t('gradient.depth'));
      if (Number(slider.value) !== depth) slider.value = String(depth);
      const depthText = t('gradient.depthValue', { depth });
      setText(depthOut, depthText);
      setAttr(slider, 'aria-valuetext', depthText);
      setText(note, t('gradient.note'));
      setText(status, busy ? t('gradient.updating') : result ? '' : t('model.pending'));
      setAttr(body, 'aria-busy', String(busy));
      if (root.dataset.busy !== String(busy)) root.dataset.busy = String(busy);
      if (root.dataset.deferred !== String(deferred)) root.dataset.deferred = String(deferred);
      const problem = result?.error ?? null;
      setHidden(error, !problem);
      setText(error, problem ? t(`model.${problem.code}`, problem.params) : '');
      const good = result && !result.error ? result : (painted?.result ?? null);
      setHidden(body, !good);
      if (!good) return;
      if (painted && painted.result === good && painted.lang === lang) return;
      painted = { result: good, lang };
      paint(good, t, lang);
    },
  };

  function paint(result, t, lang) {
    const { pre, post } = result;
    const numbers = readingNumbers(result);
    const L = numbers.depth;
    const hasNorm = result.norm !== 'none';
    const scaling = hasNorm ? pre.scaling : null;
    const postFactor = hasNorm ? post.rescale.factor : null;

    setText(values['pre-ratio'].label, t('gradient.preRatio'));
    setText(values['post-ratio'].label, t('gradient.postRatio'));
    setText(values.loss.label, t('gradient.loss'));
    setText(values['pre-ratio'].value, `${numbers.preRatio}×`);
    setText(values['post-ratio'].value, `${numbers.postRatio}×`);
    setText(values.loss.value, t('gradient.lossValue', numbers));
    for (const name of ['stream', 'factor']) setHidden(values[name].wrap, !scaling);
    if (scaling) {
      setText(values.stream.label, t('gradient.stream', numbers));
      setText(values.factor.label, t('gradient.factor', numbers));
      setText(values.stream.value, t('gradient.fromTo', { from: numbers.streamFirst, to: numbers.streamLast }));
      setText(values.factor.value, t('gradient.fromTo', { from: numbers.factorFirst, to: numbers.factorLast }));
    }

    const x = { type: 'linear', domain: [0, L - 1], label: t('gradient.axisLayer'), integer: true };
    const points = (values) => values.map((v, l) => [l, v]);
    const logDomain = (values) => {
      const positive = values.filter((v) => v > 0);
      return [Math.min(...positive) / 1.5, Math.max(...positive) * 1.5];
    };
    const pair = (preValues, postValues) => [
      { id: 'grad-pre', label: t('gradient.seriesPre'), points: points(preValues) },
      { id: 'grad-post', label: t('gradient.seriesPost'), points: points(postValues) },
    ];
    const keys = (series) => series.map(({ id, label, dots }) => ({ id, label, dots }));

    setText(figures.params.caption, t('gradient.paramsTitle'));
    figures.params.legend.update(keys(pair(pre.layer, post.layer)));
    figures.params.chart.render(
      (svg, width, height) =>
        drawLineChart(svg, width, height, {
          x,
          y: { type: 'log', domain: logDomain([...pre.layer, ...post.layer]), label: t('gradient.axisGrad') },
          series: pair(pre.layer, post.layer),
          legend: true,
        }),
      `${t('gradient.paramsTitle')}: ${t('gradient.preRatio')} ${numbers.preRatio}×, ${t('gradient.postRatio')} ${numbers.postRatio}×`,
    );

    setText(figures.residual.caption, t('gradient.residualTitle'));
    figures.residual.legend.update(keys(pair(pre.residual, post.residual)));
    figures.residual.chart.render(
      (svg, width, height) =>
        drawLineChart(svg, width, height, {
          x: { ...x, domain: [0, L] },
          y: { type: 'log', domain: logDomain([...pre.residual, ...post.residual]), label: t('gradient.axisGrad') },
          series: pair(pre.residual, post.residual),
          legend: true,
        }),
      t('gradient.residualTitle'),
    );

    setHidden(figures.factor.figure, !scaling);
    if (scaling) {
      // Norm n of layer l sits at l + n / 2 on the layer axis.
      const at = (values) => values.map((v, i) => [Math.floor(i / 2) + (i % 2) / 2, v]);
      setText(figures.factor.caption, t('gradient.factorTitle'));
      const series = [
        { id: 'factor-pre', label: t('gradient.seriesPre'), points: at(scaling.factor), dots: true },
        { id: 'factor-post', label: t('gradient.seriesPost'), points: at(postFactor), dots: true },
      ];
      figures.factor.legend.update(keys(series));
      figures.factor.chart.render(
        (svg, width, height) =>
          drawLineChart(svg, width, height, {
            x: { ...x, domain: [0, L - 0.5] },
            y: {
              type: 'log',
              domain: logDomain([...scaling.factor, ...postFactor, 1]),
              label: t('gradient.axisFactor'),
            },
            // The axis names 1; the line marks where a norm leaves the gradient as it is.
            rules: [{ id: 'one', value: 1, label: '' }],
            series,
            legend: true,
          }),
        `${t('gradient.factorTitle')}: ${t('gradient.factor', numbers)} ${numbers.factorFirst} → ${numbers.factorLast}`,
      );
    }

    setText(readingTitle, t('gradient.readingTitle'));
    const claims = claimParams(lang);
    const say = (key) => {
      const p = el('p', { textContent: t(`gradient.${key}`, key === 'readingInit' ? claims : numbers) });
      p.dataset.reading = key;
      return p;
    };
    const paragraphs = [say('readingRatios')];
    if (!hasNorm) paragraphs.push(say('readingNoNorm'));
    else {
      paragraphs.push(say('readingMechanism'));
      paragraphs.push(say(numbers.preShape === 'falls' ? 'readingPreFalls' : 'readingPreOther'));
      paragraphs.push(say(numbers.postLevel ? 'readingPostLevel' : 'readingPostOther'));
      paragraphs.push(say('readingInit'));
      paragraphs.push(say('trainingRun'));
    }
    paragraphs.push(say(numbers.lossAbove ? 'readingLossAbove' : 'readingLossOther'));
    readingText.replaceChildren(...paragraphs);

    const columns = [
      t('gradient.layerCol'),
      t('gradient.colParamsPre'),
      t('gradient.colParamsPost'),
      t('gradient.colResidualPre'),
      t('gradient.colResidualPost'),
    ];
    if (scaling) columns.push(t('gradient.colStreamPre'), t('gradient.colFactorPre'), t('gradient.colFactorPost'));
    table.update({
      summaryText: t('table.show'),
      captionText: t('gradient.tableCaption', { depth: L }),
      columns,
      rows: pre.layer.map((_, l) => {
        const row = [
          String(l),
          significant(pre.layer[l]),
          significant(post.layer[l]),
          significant(pre.residual[l]),
          significant(post.residual[l]),
        ];
        if (scaling) {
          row.push(
            significant(scaling.streamL2[l]),
            significant(scaling.factor[2 * l]),
            significant(postFactor[2 * l]),
          );
        }
        return row;
      }),
    });
  }
}

// Every number the reading and the read-outs state, formatted, and the
// choices the reading makes from them.
export function readingNumbers({ norm, pre, post }) {
  const L = pre.layers;
  // First layer over last, the direction the training lab's ratios take.
  const ratio = (g) => g.layer[0] / g.layer[L - 1];
  const uniform = Math.log(VOCABULARY);
  const numbers = {
    depth: L,
    last: L - 1,
    vocabulary: VOCABULARY,
    preRatio: significant(ratio(pre), 2),
    postRatio: significant(ratio(post), 2),
    lossPre: decimals(pre.loss, 2),
    lossPost: decimals(post.loss, 2),
    uniform: decimals(uniform, 2),
    // exp(loss): the geometric mean, over the prompt's next tokens, of one
    // over the probability the model gave the true one.
    oddsPre: significant(Math.exp(pre.loss), 2),
    oddsPost: significant(Math.exp(post.loss), 2),
    lossAbove: pre.loss > uniform && post.loss > uniform,
    topPre: decimals(pre.scaling.top, 2),
    topShare: significant(pre.scaling.top * VOCABULARY, 2),
    preShape: ratio(pre) > LEVEL_WITHIN ? 'falls' : 'other',
    postLevel: ratio(post) >= 1 / LEVEL_WITHIN && ratio(post) <= LEVEL_WITHIN,
  };
  if (norm === 'none') return numbers;
  const { factor, streamL2 } = pre.scaling;
  // After layer 0's first norm, which reads the embedding, not a sum.
  const postLater = post.rescale.factor.slice(1);
  return {
    ...numbers,
    streamFirst: significant(streamL2[0]),
    streamLast: significant(streamL2[L - 1]),
    factorFirst: significant(factor[0], 2),
    factorLast: significant(factor[2 * (L - 1)], 2),
    // The stream's gradient where it leaves layer 0 against where it leaves
    // the last layer.
    streamGradRatio: significant(pre.residual[1] / pre.residual[L], 2),
    postFactorLo: significant(Math.min(...postLater), 2),
    postFactorHi: significant(Math.max(...postLater), 2),
  };
}
