// Each run's first-layer over last-layer gradient norm, step by step: far
// below 1 where the first layers' gradient has collapsed.
import { significant } from '../../format.js';
import { el, setText } from '../../widgets/dom.js';
import { createChartFigure, paintStepTable } from '../chart-figure.js';
import { gradientRatios } from '../conclusions.js';
import { paintRatioChart, shownRuns, stepAxis } from '../step-charts.js';

export const ratioPanel = {
  name: 'ratio',
  reads: ['text', 'state', 'settings', 'steps'],

  create({ requestPaint }) {
    const figure = createChartFigure('ratio', 240, () => requestPaint(true));
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
      ratiosOf: gradientRatios,
      title: t('ratioTitle'),
      axis: t('axisRatio'),
    });
    setText(line, t('ratioLine'));
    paintStepTable(figure, { text, state }, runs, () => ({
      captionText: t('tableRatio'),
      cell: (run, i) => significant(run.gradFirst[i] / run.gradLast[i], 3),
      length: (run) => run.gradFirst.length,
    }));
  },
};
