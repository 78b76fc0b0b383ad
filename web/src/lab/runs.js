// What the training lab trains: its settings, their defaults (the trainer's
// demonstration config, issue 13), and the trainer options of each run.
import { LAB_RUNS } from '../predictions.js';

export { LAB_RUNS };
export const LAB_DEPTHS = [6, 12, 24, 48];
export const LAB_LRS = [1e-3, 3e-3, 5e-3, 1e-2];
// The model's shape, the same in every run (nl.createTrainer's defaults).
export const LAB_SHAPE = { hidden: 32, heads: 4, seq: 64, batch: 8 };
// Steps per run: the trainer's default, the count its thesis test uses.
export const LAB_STEPS = 400;
export const LAB_WARMUP_MAX = 400;
export const LAB_SEED_MAX = 4294967295;
// The trainer holds back the text's last tenth and needs ten sequences.
export const LAB_MIN_TEXT_BYTES = 10 * (LAB_SHAPE.seq + 1);

// What every trained model writes: the same prompt (on the committed text
// "归一化", normalization, a word it uses often; on the reader's own text,
// its first three characters), length, temperature and sampling seed.
export const LAB_SAMPLE = Object.freeze({ bytes: 48, temperature: 0.8, seed: 1, promptChars: 3 });
export const DEFAULT_SAMPLE_PROMPT = '归一化';
export function samplePrompt(settings) {
  return settings.text === null
    ? DEFAULT_SAMPLE_PROMPT
    : [...settings.text.trim()].slice(0, LAB_SAMPLE.promptChars).join('');
}

// text: null for the committed default text, else the reader's own.
export const LAB_DEFAULTS = Object.freeze({
  layers: 24,
  lr: 3e-3,
  warmup: 100,
  norm: 'rmsnorm',
  runs: Object.freeze([...LAB_RUNS]),
  seed: 1,
  text: null,
});

// Test-only: window.NORMLAB_LAB_STEPS, set before the page's scripts run,
// shortens every run to that many steps (an integer in 1..LAB_STEPS; any
// other value is ignored), as NORMLAB_WALK_STEP_MS shortens the walk.
export function labSteps(win) {
  const steps = win.NORMLAB_LAB_STEPS;
  return Number.isInteger(steps) && steps >= 1 && steps <= LAB_STEPS ? steps : LAB_STEPS;
}

// The trainer options of run `id` ('pre', 'post' or 'warmup').
export function runOptions(id, settings, steps) {
  const options = {
    ...LAB_SHAPE,
    layers: settings.layers,
    norm: settings.norm,
    placement: id === 'pre' ? 'pre' : 'post',
    lr: settings.lr,
    warmup: id === 'warmup' ? settings.warmup : 0,
    steps,
    seed: settings.seed,
  };
  if (settings.text !== null) options.text = settings.text;
  return options;
}

export const utf8Bytes = (text) => new TextEncoder().encode(text).length;
