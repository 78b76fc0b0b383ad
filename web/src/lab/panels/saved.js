// The contrast kept in the browser (checkpoints.js): before a start, the
// offer to go on from one saved by an earlier page, or to forget it; while
// the runs train, the step their progress is saved at (or why it could not
// be), and a button that forgets it.
import { integer } from '../../format.js';
import { el, setHidden, setText } from '../../widgets/dom.js';
import { RUN_LABEL } from '../labels.js';
import { savedRuns } from '../runner.js';

// Each run's part of a saved contrast, as a list: "pre-norm at step 120 of
// 400, post-norm not started".
function runsText(text, runs, steps) {
  const { t } = text;
  return text.list(
    runs.map(({ id, step, ended }) => {
      const run = t(RUN_LABEL[id]);
      if (ended) return t('savedRunEnded', { run });
      if (step === 0) return t('savedRunWaiting', { run });
      return t('savedRun', { run, step: integer(step), steps: integer(steps) });
    }),
  );
}

export const savedPanel = {
  name: 'saved',
  reads: ['text', 'nl', 'state', 'saved'],

  create({ resumeSaved, forgetSaved }) {
    const box = el('div', { className: 'lab-saved' });
    const line = el('p', { className: 'lab-saved-line' });
    const buttons = el('div', { className: 'button-row' });
    const resume = el('button', { type: 'button', className: 'lab-resume' });
    const forget = el('button', { type: 'button', className: 'button-quiet lab-forget' });
    buttons.append(resume, forget);
    box.append(line, buttons);
    resume.addEventListener('click', () => resumeSaved());
    forget.addEventListener('click', () => forgetSaved());
    return { nodes: [box], box, line, resume, forget };
  },

  paint(part, { text, nl, state, saved }) {
    const { t } = text;
    const offer = saved !== null && state.phase === 'idle';
    const training = state.phase === 'running' || state.phase === 'paused';
    const progress = training && state.saving !== null && state.saving !== 'off';
    setHidden(part.box, !offer && !progress);
    setHidden(part.resume, !offer);
    part.box.dataset.when = offer ? 'offer' : 'training';
    if (offer) {
      setText(part.line, t('savedOffer', { runs: runsText(text, savedRuns(saved), saved.steps) }));
      setText(part.resume, t('savedResume'));
      part.resume.disabled = !nl;
      setText(part.forget, t('savedForget'));
      setHidden(part.forget, false);
    } else if (progress) {
      const failed = 'error' in state.saving;
      setText(
        part.line,
        failed
          ? t('savedFailed', { message: state.saving.error })
          : t('savedProgress', { runs: runsText(text, state.saving.runs, state.steps) }),
      );
      setText(part.forget, t('savedClear'));
      setHidden(part.forget, failed);
    }
  },
};
