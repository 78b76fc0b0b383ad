// At the test-only speed (window.NORMLAB_LAB_STEPS), a note that the runs
// are shorter than a reader's.
import { integer } from '../../format.js';
import { el, setHidden, setText } from '../../widgets/dom.js';
import { LAB_STEPS } from '../runs.js';

export const notePanel = {
  name: 'note',
  reads: ['text', 'steps'],

  create() {
    const note = el('p', { className: 'widget-note' });
    return { nodes: [note], note };
  },

  paint({ note }, { text, steps }) {
    setText(note, steps === LAB_STEPS ? '' : text.t('testSpeed', { steps: integer(steps), full: integer(LAB_STEPS) }));
    setHidden(note, steps === LAB_STEPS);
  },
};
