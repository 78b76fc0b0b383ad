// Each run's training loss step by step, against two lines from the text:
// ln 256 (an even guess over the byte values) and the unigram entropy (the
// plateau of a model that only counts bytes); the table holds every value.
import { drawLineChart } from '../../charts/line-chart.js';
import { decimals, fixed } from '../../format.js';
import { el, setHidden, setText } from '../../widgets/dom.js';
import { createChartFigure, paintStepTable } from '../chart-figure.js';
import { RUN_LABEL } from '../labels.js';
import { runKeys, shownRuns, stepAxis } from '../step-charts.js';

// ln 256: the loss of an even guess over the 256 byte values.
const UNIFORM = Math.log(256);

export const lossPanel = {
  name: 'loss',
  reads: ['text', 'state', 'settings', 'steps'],

  create({ requestPaint }) {
    const figure = createChartFigure('loss', 260, () => requestPaint(true));
    const entropyLine = el('p', { className: 'lab-line-note' });
    const uniformLine = el('p', { className: 'lab-line-note' });
    figure.figure.append(entropyLine, uniformLine, figure.tableBox);
    return { nodes: [figure.figure], figure, entropyLine, uniformLine };
  },

  paint({ figure, entropyLine, uniformLine }, { text, state, settings, steps }) {
    const { t } = text;
    const runs = shownRuns(state, settings);
    const entropy = runs.find((run) => Number.isFinite(run.entropy))?.entropy ?? null;
    const series = runs.map((run) => ({
      id: `lab-${run.id}`,
      label: t(RUN_LABEL[run.id]),
      endDot: true,
      points: run.loss.map((v, i) => [i + 1, v]).filter(([, v]) => Number.isFinite(v)),
    }));
    const values = series.flatMap((s) => s.points.map((p) => p[1]));
    const lo = Math.max(0, Math.min(entropy ?? UNIFORM, ...values) - 0.25);
    const hi = Math.max(UNIFORM, ...values) + 0.15;
    const rules = [{ id: 'uniform', value: UNIFORM, label: t('ruleUniform', { value: decimals(UNIFORM, 2) }) }];
    if (entropy !== null)
      rules.push({ id: 'entropy', value: entropy, label: t('ruleEntropy', { value: decimals(entropy, 2) }) });
    setText(figure.caption, t('lossTitle'));
    figure.legend.update(runKeys(text, runs));
    figure.chart.render(
      (svg, width, height) =>
        drawLineChart(svg, width, height, {
          x: stepAxis(text, state, steps),
          y: { type: 'linear', domain: [lo, hi], label: t('axisLoss') },
          series,
          rules,
          legend: true,
        }),
      t('lossTitle'),
    );
    setText(entropyLine, entropy === null ? '' : t('entropyLine', { entropy: decimals(entropy, 2) }));
    setHidden(entropyLine, entropy === null);
    setText(uniformLine, t('uniformLine', { uniform: decimals(UNIFORM, 2) }));
    paintStepTable(figure, { text, state }, runs, () => ({
      captionText: t('tableLoss', {
        entropy: entropy === null ? t('dash') : decimals(entropy, 4),
        uniform: decimals(UNIFORM, 4),
      }),
      cell: (run, i) => fixed(run.loss[i], 4),
      length: (run) => run.loss.length,
    }));
  },
};
