// The student's predictions: the `predictions` section of the learner store
// (learner.js), theirs and never in a link. One short record per question:
//   d  the demo panel: where the two curves end, { r, n, k }
//      (r: residual stream, n: input-norm output, k: the settings they were
//      predicted for, settingsKey below)
//   s  the softmax widget: the top probability at SOFTMAX_QUESTION_L2, { g },
//      with q: 1 when it was asked with the scores growing with L2's square
//   p  the playground: the output's L2 at PLAYGROUND_QUESTION_STRETCH, { g }
//   l  the training lab: which runs of its contrast will learn, { g }, g a
//      list of LAB_RUNS ids (empty: none will)
// or { s: 1 } when the student skipped that question. Nothing derived is
// kept: the measured values are computed again whenever they are shown.
import { DEPTH_MAX, DEPTH_MIN, NORM_KINDS, PLACEMENTS } from './constants.js';

export const SECTION = 'predictions';
export const QUESTIONS = ['d', 's', 'p', 'l'];
// The training lab's runs, in the order it trains them.
export const LAB_RUNS = ['pre', 'post', 'warmup'];

// The softmax widget asks for the top probability at this magnitude, the
// playground for the output's length at this stretch.
export const SOFTMAX_QUESTION_L2 = 128;
export const PLAYGROUND_QUESTION_STRETCH = 10;

// The demo's prediction inputs cover L2 per token from 1 to 1000, on a log
// scale in steps of a twentieth of a decade (about 12%).
export const CURVE_GUESS_MIN = 1;
export const CURVE_GUESS_MAX = 1000;
export const CURVE_GUESS_STEP_LOG10 = 0.05;
// A playground guess may be any length up to this.
export const LENGTH_GUESS_MAX = 1e6;

// A guess within this factor of the measured value counts as close.
export const CLOSE_FACTOR = 1.1;

const finiteIn = (v, lo, hi) => typeof v === 'number' && Number.isFinite(v) && v >= lo && v <= hi;
const isSkip = (v) => v.s === 1 && Object.keys(v).length === 1;

const onlyKeys = (v, keys) => Object.keys(v).every((key) => keys.includes(key));

const CHECKS = {
  d: (v) =>
    isSkip(v) ||
    (onlyKeys(v, ['r', 'n', 'k']) &&
      finiteIn(v.r, CURVE_GUESS_MIN, CURVE_GUESS_MAX) &&
      finiteIn(v.n, CURVE_GUESS_MIN, CURVE_GUESS_MAX) &&
      typeof v.k === 'string' &&
      v.k.length <= 64 &&
      settingsFromKey(v.k) !== null),
  s: (v) => isSkip(v) || (onlyKeys(v, ['g', 'q']) && finiteIn(v.g, 0, 1) && (v.q === undefined || v.q === 1)),
  p: (v) => isSkip(v) || (onlyKeys(v, ['g']) && finiteIn(v.g, 0, LENGTH_GUESS_MAX)),
  l: (v) =>
    isSkip(v) ||
    (onlyKeys(v, ['g']) && Array.isArray(v.g) && v.g.every((id, i) => LAB_RUNS.includes(id) && v.g.indexOf(id) === i)),
};

// The section as stored; a record that fails its check reads as absent.
export function readPredictions(store) {
  const raw = store?.read(SECTION, (v) => typeof v === 'object' && v !== null && !Array.isArray(v), {}) ?? {};
  const out = {};
  for (const id of QUESTIONS) {
    const value = raw[id];
    if (typeof value === 'object' && value !== null && CHECKS[id](value)) out[id] = value;
  }
  return out;
}

// Sets (or, with null, forgets) one question's record.
export function writePrediction(store, id, record) {
  if (!store) return;
  if (record !== null && !CHECKS[id](record)) throw new RangeError(`prediction ${id} is not a valid record`);
  const next = { ...readPredictions(store) };
  if (record === null) delete next[id];
  else next[id] = record;
  store.write(SECTION, Object.keys(next).length ? next : null);
}

// A record's state: 'none' (not answered), 'skipped' or 'made'.
export const recordState = (record) => (!record ? 'none' : record.s === 1 ? 'skipped' : 'made');

// The demo settings a curve prediction holds for: the ones that set the
// curves' shape. The prompt and eps move the numbers a little, not the shape.
// Without a norm both placements compute x + F(x): one key for both.
export const settingsKey = ({ norm, placement, depth }) => `${norm}.${norm === 'none' ? 'pre' : placement}.${depth}`;

// The settings a key names, or null when it names none.
export function settingsFromKey(key) {
  const [norm, placement, depth, ...rest] = String(key).split('.');
  const settings = { norm, placement, depth: Number(depth) };
  const valid =
    rest.length === 0 &&
    NORM_KINDS.includes(norm) &&
    PLACEMENTS.includes(placement) &&
    /^\d+$/.test(depth ?? '') &&
    settings.depth >= DEPTH_MIN &&
    settings.depth <= DEPTH_MAX;
  return valid ? settings : null;
}

// Where a guess stands against the measured value:
//   { verdict: 'close' | 'high' | 'low', factor }
// factor >= 1: how many times too high (guess / measured) or too low
// (measured / guess) it was; 'close' within CLOSE_FACTOR.
export function guessVerdict(guess, measured) {
  if (guess <= 0 || measured <= 0) {
    // A zero guess or value has no factor; only the direction is known.
    if (guess === measured) return { verdict: 'close', factor: 1 };
    return { verdict: guess > measured ? 'high' : 'low', factor: Infinity };
  }
  const factor = Math.max(guess / measured, measured / guess);
  if (factor <= CLOSE_FACTOR) return { verdict: 'close', factor };
  return { verdict: guess > measured ? 'high' : 'low', factor };
}

// The demo's curve prediction against a forward view: the measured ends of
// the two curves (the stream after the last layer, the input norm's output
// at the last layer) and a verdict for each.
// With no norm there is no norm output to compare (norm: null).
export function compareCurves(record, view) {
  const residual = view.residualL2.at(-1);
  const norm = view.config.norm === 'none' ? null : view.probes['inputNorm.out'].l2[view.layers - 1];
  return {
    last: view.layers - 1,
    residual: { guess: record.r, measured: residual, ...guessVerdict(record.r, residual) },
    norm: norm === null ? null : { guess: record.n, measured: norm, ...guessVerdict(record.n, norm) },
  };
}

// A curve prediction input works in log10 units.
export const curveGuessFromSlider = (position) => 10 ** position;
export const sliderFromCurveGuess = (value) =>
  Math.round(Math.log10(value) / CURVE_GUESS_STEP_LOG10) * CURVE_GUESS_STEP_LOG10;

// A typed number: '0.8', ' .8 ', '8e-1'; a comma as the decimal mark too.
// Returns the number, or null when the text is not one.
export function parseGuess(text) {
  const cleaned = String(text).trim().replace(',', '.');
  if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(cleaned)) return null;
  const value = Number(cleaned);
  return Number.isFinite(value) ? value : null;
}
