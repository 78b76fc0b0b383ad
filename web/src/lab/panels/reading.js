// When the runs end, the reading: sentences chosen and filled from their
// numbers (conclusions.js), the reader's guess against them, and what the
// committed tables' other seeds say of the same settings (sweep.js).
import { recordState } from '../../predictions.js';
import { el, setText } from '../../widgets/dom.js';
import { finalLoss, labConclusions } from '../conclusions.js';
import { fourDecimals, hundredths, runName, runNames, sentenceParagraphs, twoFigures, whole } from '../sentences.js';
import { seedsReading } from '../sweep.js';
import { ROBUSTNESS, SWEEPS } from '../tables.js';

// Each parameter of the reading's sentences as it is shown.
const FORMATS = {
  run: runName,
  guessed: runNames,
  learned: runNames,
  step: whole,
  steps: whole,
  window: whole,
  warmup: whole,
  count: whole,
  seeds: whole,
  seed: whole,
  layers: whole,
  learnedCount: whole,
  collapsedCount: whole,
  stalledCount: whole,
  divergedCount: whole,
  lr: fourDecimals,
  final: fourDecimals,
  committed: fourDecimals,
  ratio: twoFigures,
  update: twoFigures,
  heldout: hundredths,
  entropy: hundredths,
  gap: hundredths,
  warm: hundredths,
  cold: hundredths,
};

export const readingPanel = {
  name: 'reading',
  reads: ['text', 'state', 'record'],
  formats: FORMATS,

  create() {
    const box = el('div', { className: 'reading lab-reading' });
    const title = el('h4');
    const sentences = el('div', { className: 'reading-text' });
    box.append(title, sentences);
    return { nodes: [box], title, sentences };
  },

  paint({ title, sentences }, { text, state, record }) {
    const { t } = text;
    setText(title, t('conclusionsTitle'));
    if (state.phase !== 'done') {
      if (sentences.dataset.state !== 'pending' || sentences.dataset.lang !== text.lang) {
        sentences.replaceChildren(el('p', { textContent: t('conclusionsPending') }));
        sentences.dataset.state = 'pending';
        sentences.dataset.lang = text.lang;
      }
      return;
    }
    const contrast = state.settings;
    const runs = labConclusions(state.runs, {
      settings: contrast,
      steps: state.steps,
      guess: recordState(record) === 'made' && !state.cell ? record : null,
    });
    const seeds = seedsReading(
      { sweep: SWEEPS[text.lang], robust: ROBUSTNESS[text.lang] },
      contrast,
      state.steps,
      state.runs
        .filter((run) => run.status === 'done' || run.status === 'diverged')
        .map((run) => ({ id: run.id, final: run.status === 'done' ? finalLoss(run) : null })),
    );
    sentences.replaceChildren(...sentenceParagraphs([...runs, ...seeds], FORMATS, text));
    sentences.dataset.state = 'done';
  },
};
