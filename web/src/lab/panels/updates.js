// Each run's first-layer over last-layer relative update size, step by
// step: whether Adam still moves the first layers when their gradient has
// collapsed.
import { significant } from '../../format.js';
import { updateRatios } from '../conclusions.js';
import { stepRatioPanel } from './ratio.js';

export const updatesPanel = stepRatioPanel({
  name: 'updates',
  ratiosOf: updateRatios,
  keys: { title: 'updatesTitle', axis: 'axisUpdate', line: 'updatesLine', table: 'tableUpdates' },
  cell: (run, i, t) =>
    t('updateCell', {
      ratio: significant(run.updateFirst[i] / run.updateLast[i], 3),
      first: significant(run.updateFirst[i], 3),
      last: significant(run.updateLast[i], 3),
    }),
});
