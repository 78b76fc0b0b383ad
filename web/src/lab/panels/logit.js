// Each run's largest attention logit step by step: the largest score any
// head gave a key before its softmax, over every layer (run-work.js
// stepMaxLogits: the max over layers of the trainer's run.maxLogit), on the
// step's own training batch. The table holds every step's value as the
// trainer returned it.
import { drawLineChart } from '../../charts/line-chart.js';
import { decimals } from '../../format.js';
import { el, setText } from '../../widgets/dom.js';
import { createChartFigure, paintStepTable } from '../chart-figure.js';
import { RUN_LABEL } from '../labels.js';
import { float32Text } from '../layer-norms.js';
import { LAB_SHAPE } from '../runs.js';
import { runKeys, shownRuns, stepAxis } from '../step-charts.js';

export const logitPanel = {
  name: 'logit',
  reads: ['text', 'state', 'settings', 'steps'],

  create({ requestPaint }) {
    const figure = createChartFigure('logit', 240, () => requestPaint(true));
    const line = el('p', { className: 'lab-line-note' });
    figure.figure.append(line, figure.tableBox);
    return { nodes: [figure.figure], figure, line };
  },

  paint({ figure, line }, { text, state, settings, steps }) {
    const { t } = text;
    const { batch, seq } = LAB_SHAPE;
    const runs = shownRuns(state, settings);
    const series = runs.map((run) => ({
      id: `lab-${run.id}`,
      label: t(RUN_LABEL[run.id]),
      endDot: true,
      points: run.maxLogit.map((v, i) => [i + 1, v]).filter(([, v]) => Number.isFinite(v)),
    }));
    const values = series.flatMap((s) => s.points.map((p) => p[1]));
    // A run whose logits climb by orders of magnitude (a stream no norm
    // bounds before attention) would flatten the others on a linear axis:
    // positive logits spanning a decade or more go on a log axis.
    const lo = Math.min(0, ...values);
    const hi = Math.max(1, ...values);
    const log = values.length > 0 && Math.min(...values) > 0 && Math.max(...values) / Math.min(...values) >= 10;
    const y = log
      ? { type: 'log', domain: [Math.min(...values) / 1.3, Math.max(...values) * 1.3], label: t('axisLogit') }
      : { type: 'linear', domain: [lo, hi + (hi - lo) * 0.08], label: t('axisLogit') };
    const title = t(log ? 'logitTitleLog' : 'logitTitle');
    setText(figure.caption, title);
    figure.legend.update(runKeys(text, runs));
    figure.chart.render(
      (svg, width, height) =>
        drawLineChart(svg, width, height, {
          x: stepAxis(text, state, steps),
          y,
          series,
          legend: true,
        }),
      title,
    );
    // QK-norm's ceiling with unit gains: q and k of length sqrt(head size)
    // each, so q.k / sqrt(head size) <= sqrt(head size).
    const headSize = LAB_SHAPE.hidden / LAB_SHAPE.heads;
    setText(line, t('logitLine', { batch, seq, headSize, bound: decimals(Math.sqrt(headSize), 2) }));
    paintStepTable(figure, { text, state }, runs, () => ({
      captionText: t('tableLogit', { batch }),
      cell: (run, i) => float32Text(run.maxLogit[i]),
      length: (run) => run.maxLogit.length,
    }));
  },
};
