// Start, pause (resume) and reset, the hint that says what start waits for,
// and the status line: what the lab is doing now.
import { decimals, integer } from '../../format.js';
import { recordState } from '../../predictions.js';
import { el, setDisabled, setHidden, setText } from '../../widgets/dom.js';
import { RUN_LABEL } from '../labels.js';

const ENDED = new Set(['done', 'diverged', 'failed']);

const STATUS_KEY = {
  training: 'statusTraining',
  evaluating: 'statusEvaluating',
  sampling: 'statusSampling',
  reading: 'statusReading',
};

function statusText({ text, nl, state }) {
  const { t } = text;
  if (!nl) return t('statusNoWasm');
  if (state.phase === 'idle') return t('statusIdle');
  if (state.phase === 'done') {
    const failed = state.runs.find((run) => run.status === 'failed');
    return failed ? t('runFailed', { run: t(RUN_LABEL[failed.id]), message: failed.error }) : t('statusDone');
  }
  if (state.phase === 'paused') return t('statusPaused');
  if (state.hidden) return t('statusHidden');
  const run = state.runs[state.current];
  const name = t(RUN_LABEL[run.id]);
  const going = state.runs.filter((r) => r.status !== 'waiting' && !ENDED.has(r.status));
  const doing =
    state.engine === 'workers' && going.length > 1
      ? t('statusWorkers', { runs: text.list(going.map((r) => t(RUN_LABEL[r.id]))) })
      : t(STATUS_KEY[run.status] ?? 'statusLoading', { run: name });
  const cell = state.cell;
  const said = cell
    ? t('statusCell', { doing, run: name, layers: integer(cell.layers), lr: decimals(cell.lr, 4) })
    : doing;
  // Workers were wanted and none could start (runner.js: state.fallback).
  if (!state.fallback || state.engine !== 'slices') return said;
  return `${said}${text.lang === 'zh-CN' ? '' : ' '}${t('statusNoWorkers')}`;
}

export const controlsPanel = {
  name: 'controls',
  reads: ['text', 'nl', 'state', 'record', 'editable', 'problem', 'canStart'],

  create({ start, pauseOrResume, reset }) {
    const buttons = el('div', { className: 'button-row' });
    const startButton = el('button', { type: 'button', className: 'lab-start' });
    const pause = el('button', { type: 'button', className: 'lab-pause' });
    const resetButton = el('button', { type: 'button', className: 'button-quiet lab-reset' });
    buttons.append(startButton, pause, resetButton);
    const hint = el('p', { className: 'control-hint' });
    const status = el('p', { className: 'lab-status', role: 'status' });
    startButton.addEventListener('click', () => start());
    pause.addEventListener('click', () => pauseOrResume());
    resetButton.addEventListener('click', () => reset());
    return { nodes: [buttons, hint, status], start: startButton, pause, reset: resetButton, hint, status };
  },

  paint(part, inputs) {
    const { text, nl, state, record, editable, problem, canStart } = inputs;
    const { t } = text;
    setText(part.start, t('start'));
    setText(part.pause, state.phase === 'paused' ? t('resume') : t('pause'));
    setText(part.reset, t('reset'));
    setDisabled(part.start, !nl || !canStart);
    setDisabled(part.pause, state.phase !== 'running' && state.phase !== 'paused');
    setDisabled(part.reset, state.phase === 'idle');
    const asking = recordState(record) === 'none';
    setText(part.hint, !editable ? '' : asking ? t('startFirst') : problem ? t(problem.key, problem.params) : '');
    setHidden(part.hint, part.hint.textContent === '');
    setText(part.status, statusText(inputs));
  },
};
