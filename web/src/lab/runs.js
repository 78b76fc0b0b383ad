// What the training lab trains: its settings, their defaults (the trainer's
// demonstration config: web/data/lab-setup.md says how it was chosen), and
// the trainer options of each run. The trainer's defaults and ranges are
// read from its option table, as the trainer module describes it
// (dist/normlab-options.json, written by wasm/bundle.mjs from
// src/train/options.h); what the lab chooses for itself is written here.
import OPTION_TABLES from '../../../dist/normlab-options.json' with { type: 'json' };
import { LAB_RUNS } from '../predictions.js';

// createTrainer()'s options by name: { name, kind, default, lo, hi, ... }.
const TRAINER = Object.fromEntries(OPTION_TABLES.trainer.map((row) => [row.name, row]));

export { LAB_RUNS };
export const LAB_DEPTHS = [6, 12, 24, 48];
export const LAB_LRS = [3e-4, 1e-3, 2e-3, 3e-3, 1e-2, 3e-2];
// The model's shape, the same in every run: the trainer's defaults.
export const LAB_SHAPE = {
  hidden: TRAINER.hidden.default,
  heads: TRAINER.heads.default,
  seq: TRAINER.seq.default,
  batch: TRAINER.batch.default,
};
// Steps per run: the trainer's default, the length the lab's tables measure.
export const LAB_STEPS = TRAINER.steps.default;
// Warmup up to a whole run's steps: the lab's own bound, within the trainer's.
export const LAB_WARMUP_MAX = Math.min(LAB_STEPS, TRAINER.warmup.hi);
export const LAB_SEED_MAX = TRAINER.seed.hi;
// The smallest text the trainer takes at the lab's seq: its held-out last
// part (one heldOutParts-th) must hold one window of seq + 1 bytes.
export const LAB_MIN_TEXT_BYTES = TRAINER.text.heldOutParts * (LAB_SHAPE.seq + 1);

// What every trained model writes: the same prompt (on a language's
// committed text, a word that text uses often: "归一化", normalization, or
// "norm"; on the reader's own text, its first three characters), length,
// temperature and sampling seed.
export const LAB_SAMPLE = Object.freeze({ bytes: 48, temperature: 0.8, seed: 1, promptChars: 3 });
export const DEFAULT_SAMPLE_PROMPTS = Object.freeze({ 'zh-CN': '归一化', en: 'norm' });
export function samplePrompt(settings, lang) {
  return settings.text === null
    ? DEFAULT_SAMPLE_PROMPTS[lang]
    : [...settings.text.trim()].slice(0, LAB_SAMPLE.promptChars).join('');
}

// text: null for the committed text of the page's language, else the
// reader's own.
// layers, lr, norm and seed are the trainer's defaults; warmup (for the
// warmup run) is the lab's own.
export const LAB_DEFAULTS = Object.freeze({
  layers: TRAINER.layers.default,
  lr: TRAINER.lr.default,
  warmup: 200,
  norm: TRAINER.norm.default,
  runs: Object.freeze([...LAB_RUNS]),
  seed: TRAINER.seed.default,
  text: null,
});

// Test-only: window.NORMLAB_LAB_STEPS, set before the page's scripts run,
// shortens every run to that many steps (an integer in 1..LAB_STEPS; any
// other value is ignored), as NORMLAB_WALK_STEP_MS shortens the walk.
export function labSteps(win) {
  const steps = win.NORMLAB_LAB_STEPS;
  return Number.isInteger(steps) && steps >= 1 && steps <= LAB_STEPS ? steps : LAB_STEPS;
}

// What each run changes of the trainer's options, beside the settings':
// the lab's three runs, then the normalization choices current models make
// (the variant sweep, tests/bench/variant-sweep.mjs, trains them all):
//   qknorm    pre-norm with RMSNorm on each head's queries and keys (Qwen3,
//             OLMo 2, Gemma 3)
//   sandwich  a norm before and after each sublayer (Gemma 2 and 3)
//   output    a norm after each sublayer only (OLMo 2)
//   deepnorm  post-norm with DeepNorm's up-weighted stream and down-scaled
//             branch initialization
//   dyt       pre-norm with each norm replaced by a learned tanh
export const RUN_CHANGES = Object.freeze({
  pre: { placement: 'pre' },
  post: { placement: 'post' },
  warmup: { placement: 'post', warmup: (settings) => settings.warmup },
  qknorm: { placement: 'pre', qkNorm: true },
  sandwich: { placement: 'sandwich' },
  output: { placement: 'output' },
  deepnorm: { placement: 'deepnorm' },
  dyt: { placement: 'pre', norm: 'dyt' },
});
export const VARIANT_RUNS = Object.freeze(['pre', 'post', 'qknorm', 'sandwich', 'output', 'deepnorm', 'dyt']);

// Whether the trainer this page loads takes run `id`'s changes: each option
// it changes is a row of the trainer's option table, and a choice's value is
// one of the row's choices. A variant the trainer does not take yet is not
// offered (trainerRows: the option table's trainer rows).
export function runAccepted(id, trainerRows) {
  const rows = Object.fromEntries(trainerRows.map((row) => [row.name, row]));
  return Object.entries(RUN_CHANGES[id]).every(([name, value]) => {
    const row = rows[name];
    if (!row) return false;
    return row.kind !== 'choice' || typeof value !== 'string' || row.choices.includes(value);
  });
}

// The runs the settings offer, in this order: the chapter's three, then the
// variants' own, each once; and the two contrasts the settings set in one
// press: the chapter's (the default, which the guess is about) and the
// normalization choices of current models (the variants the trainer takes).
const accepted = (ids) => ids.filter((id) => runAccepted(id, OPTION_TABLES.trainer));
export const RUN_CHOICES = Object.freeze(accepted([...new Set([...LAB_RUNS, ...VARIANT_RUNS])]));
export const CONTRAST_PRESETS = Object.freeze({
  chapter: Object.freeze([...LAB_RUNS]),
  current: Object.freeze(accepted(VARIANT_RUNS)),
});

// The variant sweep's depths (a shallow stack, the lab's, twice the lab's)
// and learning rates, from the lab's default up tenfold, toward where
// attention logits grow (Wortsman et al. 2023 see them grow above a rate
// that falls as models grow).
export const VARIANT_DEPTHS = Object.freeze([6, 24, 48]);
export const VARIANT_LRS = Object.freeze([3e-3, 1e-2, 3e-2]);

// The trainer options of run `id` (a RUN_CHANGES key); languageText: the
// committed text of the page's language (web/src/lab/texts.js), trained on
// when settings.text is null.
export function runOptions(id, settings, steps, languageText) {
  const options = {
    ...LAB_SHAPE,
    layers: settings.layers,
    norm: settings.norm,
    placement: 'pre',
    lr: settings.lr,
    warmup: 0,
    steps,
    seed: settings.seed,
  };
  for (const [name, value] of Object.entries(RUN_CHANGES[id])) {
    options[name] = typeof value === 'function' ? value(settings) : value;
  }
  options.text = settings.text ?? languageText;
  return options;
}

export const utf8Bytes = (text) => new TextEncoder().encode(text).length;
