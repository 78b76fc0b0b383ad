// Each run's first-layer over last-layer relative update size, step by
// step: whether Adam still moves the first layers when their gradient has
// collapsed.
import { significant } from '../../format.js';
import { el, setText } from '../../widgets/dom.js';
import { createChartFigure, paintStepTable } from '../chart-figure.js';
import { updateRatios } from '../conclusions.js';
import { paintRatioChart, shownRuns, stepAxis } from '../step-charts.js';

export const updatesPanel = {
  name: 'updates',
  reads: ['text', 'state', 'settings', 'steps'],

  create({ requestPaint }) {
    const figure = createChartFigure('updates', 240, () => requestPaint(true));
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
      ratiosOf: updateRatios,
      title: t('updatesTitle'),
      axis: t('axisUpdate'),
    });
    setText(line, t('updatesLine'));
    paintStepTable(figure, { text, state }, runs, () => ({
      captionText: t('tableUpdates'),
      cell: (run, i) =>
        t('updateCell', {
          ratio: significant(run.updateFirst[i] / run.updateLast[i], 3),
          first: significant(run.updateFirst[i], 3),
          last: significant(run.updateLast[i], 3),
        }),
      length: (run) => run.updateFirst.length,
    }));
  },
};
