// The current run's progress as readouts: which run, its step, its latest
// loss, steps per second and the time left for the contrast.
import { decimals, fixed, integer } from '../../format.js';
import { el, readout, setText } from '../../widgets/dom.js';
import { RUN_LABEL } from '../labels.js';

function duration(text, seconds) {
  const { t } = text;
  const whole = Math.ceil(seconds);
  return whole < 60
    ? t('seconds', { s: integer(whole) })
    : t('minutes', { m: integer(Math.floor(whole / 60)), s: integer(whole % 60) });
}

export const progressPanel = {
  name: 'progress',
  reads: ['text', 'state', 'stepsLeft'],

  create() {
    const readouts = el('dl', { className: 'readouts' });
    const values = {};
    for (const name of ['run', 'step', 'loss', 'rate', 'left']) {
      values[name] = readout();
      values[name].value.dataset.readout = name;
      readouts.append(values[name].wrap);
    }
    return { nodes: [readouts], values };
  },

  paint({ values }, { text, state, stepsLeft }) {
    const { t } = text;
    const run = state.runs[Math.min(state.current, state.runs.length - 1)];
    setText(values.run.label, t('progressRun'));
    setText(values.step.label, t('progressStep'));
    setText(values.loss.label, t('progressLoss'));
    setText(values.rate.label, t('progressRate'));
    setText(values.left.label, t('progressLeft'));
    const dash = t('dash');
    setText(values.run.value, run ? t(RUN_LABEL[run.id]) : dash);
    setText(
      values.step.value,
      run ? t('stepOf', { step: integer(run.loss.length), steps: integer(state.steps) }) : dash,
    );
    setText(values.loss.value, run?.loss.length ? fixed(run.loss.at(-1), 4) : dash);
    setText(values.rate.value, state.rate ? decimals(state.rate, 1) : dash);
    const left = state.rate && state.phase === 'running' ? stepsLeft() / state.rate : null;
    setText(values.left.value, left === null ? dash : duration(text, left));
  },
};
