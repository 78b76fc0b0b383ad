// The residual stream's length layer by layer, for every run measured, on
// the initial weights and on the weights the run ended with: two charts on
// one log axis (a line per run in each) and one table.
//
// The numbers are trainer.layerNorms()'s residual (runner.js keeps it as
// run.layerNorms.before and .after): the mean L2 per token on the held-out
// text's first window, entering each layer and leaving the last. Not the
// steps' own streamNorm probe: that one is measured on each step's training
// batch, which differs from run to run only by chance, and its last step
// precedes the last update; the held-out window is one text for every run,
// measured once before the first step and once on the final weights (for a
// run that diverged, the last ones it updated), and it is already in every
// checkpoint, so a resumed run draws the same numbers.
import { createChartFrame } from '../../charts/chart-frame.js';
import { drawLineChart } from '../../charts/line-chart.js';
import { integer } from '../../format.js';
import { el, setHidden, setText } from '../../widgets/dom.js';
import { createChartFigure } from '../chart-figure.js';
import { RUN_LABEL } from '../labels.js';
import { float32Text } from '../layer-norms.js';
import { runKeys } from '../step-charts.js';

const WHEN = ['before', 'after'];
const HEADING = { before: 'streamBefore', after: 'streamAfter' };

export const streamPanel = {
  name: 'stream',
  reads: ['text', 'state'],

  create({ requestPaint }) {
    const figure = createChartFigure('stream', 220, () => requestPaint(true));
    const pending = el('p', { className: 'slot-pending' });
    // The figure's own chart shows the stream before training; a second
    // frame below it, after.
    const headings = {
      before: el('p', { className: 'lab-chart-sub' }),
      after: el('p', { className: 'lab-chart-sub' }),
    };
    const firstBox = figure.figure.querySelector('.chart-box');
    figure.figure.insertBefore(headings.before, firstBox);
    const afterBox = el('div', { className: 'chart-box' });
    figure.figure.append(headings.after, afterBox);
    const charts = { before: figure.chart, after: createChartFrame(afterBox, { height: 220 }) };
    const line = el('p', { className: 'lab-line-note' });
    figure.figure.append(line, figure.tableBox);
    return { nodes: [pending, figure.figure], figure, pending, headings, charts, line, shown: null };
  },

  paint(part, { text, state }) {
    const { t } = text;
    const { figure } = part;
    const runs = state.runs.filter((run) => run.layerNorms?.before);
    setText(part.pending, t('streamPending'));
    setHidden(part.pending, runs.length > 0);
    setHidden(figure.figure, runs.length === 0);
    if (!runs.length) return;
    // Redrawn only when a run's probes or the language changed.
    const shown = [text.lang, ...runs.flatMap((run) => [run.id, run.layerNorms.before, run.layerNorms.after])];
    if (part.shown && part.shown.length === shown.length && part.shown.every((v, i) => v === shown[i])) return;
    part.shown = shown;
    const points = (probe) =>
      probe ? probe.residual.map((v, l) => [l, v]).filter(([, v]) => Number.isFinite(v) && v > 0) : [];
    const seriesOf = (when) =>
      runs.map((run) => ({
        id: `lab-${run.id}`,
        label: t(RUN_LABEL[run.id]),
        endDot: true,
        points: points(run.layerNorms[when]),
      }));
    const series = { before: seriesOf('before'), after: seriesOf('after') };
    const values = WHEN.flatMap((when) => series[when].flatMap((s) => s.points.map((p) => p[1])));
    const L = runs[0].layerNorms.before.residual.length - 1;
    const y = { type: 'log', domain: [Math.min(...values) / 1.4, Math.max(...values) * 1.4], label: t('axisL2') };
    const x = { type: 'linear', domain: [0, Math.max(1, L)], label: t('axisLayer'), integer: true };
    setText(figure.caption, t('streamTitle'));
    figure.legend.update(runKeys(text, runs));
    for (const when of WHEN) {
      setText(part.headings[when], t(HEADING[when]));
      part.charts[when].render(
        (svg, width, height) => drawLineChart(svg, width, height, { x, y, series: series[when], legend: true }),
        `${t('streamTitle')}: ${t(HEADING[when])}`,
      );
    }
    const tokens = integer(runs[0].layerNorms.before.tokens);
    setText(part.line, t('streamLine', { tokens }));
    const cell = (probe, l) => (probe ? float32Text(probe.residual[l]) : '');
    figure.table.update({
      summaryText: t('tableShow'),
      captionText: t('tableStream', { tokens }),
      columns: [
        t('colLayer'),
        ...runs.flatMap((run) => [
          t('colBefore', { run: t(RUN_LABEL[run.id]) }),
          t('colAfter', { run: t(RUN_LABEL[run.id]) }),
        ]),
      ],
      rows: runs[0].layerNorms.before.residual.map((_, l) => [
        l === L ? t('normsOutputRow') : String(l),
        ...runs.flatMap((run) => [cell(run.layerNorms.before, l), cell(run.layerNorms.after, l)]),
      ]),
    });
  },
};
