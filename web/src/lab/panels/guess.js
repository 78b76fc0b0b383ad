// The reader's guess, asked before the first contrast: which runs will
// learn. Locked or skipped, it is kept in the learner store (predictions.js)
// and stated; "again" asks anew between contrasts.
import { recordState } from '../../predictions.js';
import { el, setHidden, setText } from '../../widgets/dom.js';
import { choiceBoxes } from '../choice-boxes.js';
import { RUN_LABEL } from '../labels.js';
import { LAB_RUNS } from '../runs.js';
import { runNames } from '../sentences.js';

export const guessPanel = {
  name: 'guess',
  reads: ['text', 'state', 'record'],

  create({ guess }) {
    const box = el('fieldset', { className: 'lab-predict' });
    const legend = el('legend');
    const intro = el('p');
    const choices = el('div', { className: 'lab-choices-inline' });
    const checks = choiceBoxes(choices, 'lab-guess', 'checkbox', LAB_RUNS);
    const buttons = el('div', { className: 'button-row' });
    const lock = el('button', { type: 'button' });
    const skip = el('button', { type: 'button', className: 'button-quiet' });
    buttons.append(lock, skip);
    const made = el('p', { className: 'lab-guess' });
    const again = el('button', { type: 'button', className: 'button-quiet' });
    box.append(legend, intro, choices, buttons, made, again);
    lock.addEventListener('click', () => guess({ g: LAB_RUNS.filter((id) => checks[id].checked) }));
    skip.addEventListener('click', () => guess({ s: 1 }));
    again.addEventListener('click', () => guess(null));
    return { nodes: [box], box, legend, intro, choices, checks, buttons, lock, skip, made, again };
  },

  paint(part, { text, state, record }) {
    const { t } = text;
    const asked = recordState(record);
    setText(part.legend, t('predictTitle'));
    setText(part.intro, t('predictIntro'));
    for (const id of LAB_RUNS) setText(part.checks[id].labels[0], t(RUN_LABEL[id]));
    setText(part.lock, t('predictLock'));
    setText(part.skip, t('predictSkip'));
    setText(part.again, t('predictAgain'));
    const asking = asked === 'none';
    setHidden(part.choices, !asking);
    setHidden(part.buttons, !asking);
    setHidden(part.made, asking);
    setHidden(part.again, asking || !(state.phase === 'idle' || state.phase === 'done'));
    part.box.dataset.state = asked;
    setText(
      part.made,
      asked === 'made'
        ? t('predictMade', { runs: runNames(record.g, text) })
        : asked === 'skipped'
          ? t('predictSkipped')
          : '',
    );
  },
};
