// Each run's first-layer over last-layer gradient norm, step by step: far
// below 1 where the first layers' gradient has collapsed. stepRatioPanel
// makes this chart and the update ratio's (updates.js): a log axis around 1
// and a data table of every step's ratio.
import { significant } from '../../format.js';
import { el, setText } from '../../widgets/dom.js';
import { createChartFigure, paintStepTable } from '../chart-figure.js';
import { gradientRatios } from '../conclusions.js';
import { paintRatioChart, shownRuns, stepAxis } from '../step-charts.js';

// name: the panel's and its figure's; ratiosOf(run): the ratio per step;
// keys: its strings (title, axis, line, table); cell(run, i, t): a table cell.
export function stepRatioPanel({ name, ratiosOf, keys, cell }) {
  return {
    name,
    reads: ['text', 'state', 'settings', 'steps'],

    create({ requestPaint }) {
      const figure = createChartFigure(name, 240, () => requestPaint(true));
      const line = el('p', { className: 'lab-line-note' });
      figure.figure.append(line, figure.tableBox);
      return { nodes: [figure.figure], figure, line };
    },

    paint({ figure, line }, { text, state, settings, steps }) {
      const { t } = text;
      const runs = shownRuns(state, settings);
      paintRatioChart(figure, {
        text,
        runs,
        x: stepAxis(text, state, steps),
        ratiosOf,
        title: t(keys.title),
        axis: t(keys.axis),
      });
      setText(line, t(keys.line));
      paintStepTable(figure, { text, state }, runs, () => ({
        captionText: t(keys.table),
        cell: (run, i) => cell(run, i, t),
        length: (run) => ratiosOf(run).length,
      }));
    },
  };
}

export const ratioPanel = stepRatioPanel({
  name: 'ratio',
  ratiosOf: gradientRatios,
  keys: { title: 'ratioTitle', axis: 'axisRatio', line: 'ratioLine', table: 'tableRatio' },
  cell: (run, i) => significant(run.gradFirst[i] / run.gradLast[i], 3),
});
