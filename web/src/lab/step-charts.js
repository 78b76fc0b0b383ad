// What the step charts (loss, gradient ratio, update ratio) share: the runs
// they show, their step axis and legend, and the ratio charts' log axis
// around 1.
import { drawLineChart } from '../charts/line-chart.js';
import { setText } from '../widgets/dom.js';
import { RUN_LABEL } from './labels.js';
import { emptySeries } from './runner.js';

// The runs trained, or before a start the ones chosen, without points.
export function shownRuns(state, settings) {
  if (state.runs.length) return state.runs;
  return settings.runs.map((id) => ({ id, ...emptySeries() }));
}

// Steps 1 to the contrast's length (before a start, the lab's).
export function stepAxis(text, state, steps) {
  return { type: 'linear', domain: [1, Math.max(2, state.steps || steps)], label: text.t('axisStep'), integer: true };
}

export function runKeys(text, runs) {
  return runs.map((run) => ({ id: `lab-${run.id}`, label: text.t(RUN_LABEL[run.id]) }));
}

// A first/last-layer ratio per step, ratiosOf(run) -> [ratio per step], on
// a log axis that always holds 0.1 to 10, with 1 (as much at both ends) ruled.
export function paintRatioChart(figure, { text, runs, x, ratiosOf, title, axis }) {
  const series = runs.map((run) => ({
    id: `lab-${run.id}`,
    label: text.t(RUN_LABEL[run.id]),
    endDot: true,
    points: ratiosOf(run)
      .map((v, i) => [i + 1, v])
      .filter(([, v]) => Number.isFinite(v) && v > 0),
  }));
  const values = series.flatMap((s) => s.points.map((p) => p[1]));
  setText(figure.caption, title);
  figure.legend.update(runKeys(text, runs));
  figure.chart.render(
    (svg, width, height) =>
      drawLineChart(svg, width, height, {
        x,
        y: {
          type: 'log',
          domain: [Math.min(0.1, ...values) / 1.5, Math.max(10, ...values) * 1.5],
          label: axis,
        },
        rules: [{ id: 'one', value: 1, label: '' }],
        series,
        legend: true,
      }),
    title,
  );
}
