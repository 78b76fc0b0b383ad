// The calculator's challenges: five common misreadings of the norms, each
// settled by the kernels' own results on the student's vector (the
// calculator's steps, compute.js). This module decides what each challenge
// shows; widgets/challenges.js draws it.
//
//   flat   a constant vector: LayerNorm gives zeros, RMSNorm gives ±1
//   shift  the same number added to every entry: LayerNorm's y stays, RMSNorm's moves
//   unit   "is y a unit vector?" (a question): mean(y²) = 1, so L2 = √d
//   size   "does RMSNorm make activations smaller?" (a question): it sets
//          their length to √d, larger or smaller; the demo panel's layer 0
//          takes its input up to √d
//   zero   a vector with mean 0: std = RMS, and both norms agree
//
// Progress is the student's own, in the learner store's 'challenges'
// section: { flat: 1, shift: 1, zero: 1, unit: 'b', size: 'c' } (a task
// done, or the option picked for a question).
import { calculatorSteps } from './compute.js';
import { CALCULATOR_MAX_ENTRIES, EXAMPLE_A } from './constants.js';
import { parseVector } from './vector-parse.js';

export const CHALLENGE_IDS = Object.freeze(['flat', 'shift', 'unit', 'size', 'zero']);
export const CHALLENGE_TASKS = Object.freeze(['flat', 'shift', 'zero']);
// The questions: their options and the right one.
export const CHALLENGE_QUESTIONS = Object.freeze({
  unit: Object.freeze({ options: Object.freeze(['a', 'b', 'c']), key: 'b' }),
  size: Object.freeze({ options: Object.freeze(['a', 'b', 'c']), key: 'c' }),
});
// What the buttons of the tasks put in the calculator: a constant vector,
// and the shift the "add" button applies.
export const FLAT_EXAMPLE = Object.freeze([3, 3, 3, 3]);
export const SHIFT_BY = 10;

// Earlier vectors of this visit (distinct ones) a shift is looked for
// against: enough to span a vector retyped keystroke by keystroke.
const HISTORY = 64;
// Relative tolerances of float32 values: entries that differ by one shift,
// and a mean that counts as zero next to the RMS.
const SHIFT_TOLERANCE = 1e-6;
const ZERO_MEAN_TOLERANCE = 1e-5;

export function isChallengeSection(value) {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return Object.entries(value).every(([id, v]) =>
    CHALLENGE_TASKS.includes(id) ? v === 1 : id in CHALLENGE_QUESTIONS && CHALLENGE_QUESTIONS[id].options.includes(v),
  );
}

export function doneCount(section) {
  return CHALLENGE_IDS.filter((id) => section[id] !== undefined).length;
}

// x: the float32 entries of a calculator result.
export function isFlat(x) {
  return x.length >= 2 && x[0] !== 0 && x.every((v) => v === x[0]);
}

// The common difference when b is a plus one number c != 0, else null.
export function shiftBetween(a, b) {
  if (a.length !== b.length || a.length === 0) return null;
  const c = b[0] - a[0];
  if (c === 0 || !Number.isFinite(c)) return null;
  for (let i = 0; i < a.length; i++) {
    const scale = Math.max(Math.abs(a[i]), Math.abs(b[i]), Math.abs(c));
    if (Math.abs(b[i] - a[i] - c) > SHIFT_TOLERANCE * scale) return null;
  }
  return c;
}

// result: a calculator result (calculatorSteps).
// All zeros does not count: both outputs are zero, there is nothing to compare.
export function hasZeroMean(result) {
  return result.x.length >= 2 && result.xL2 > 0 && Math.abs(result.ln.mean) <= ZERO_MEAN_TOLERANCE * result.rms.rms;
}

const largestChange = (a, b) => a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i])), 0);

// What a shift did to both outputs.
function shiftEvidence(before, after, c) {
  return {
    before,
    after,
    c,
    lnChange: largestChange(before.ln.y, after.ln.y),
    rmsChange: largestChange(before.rms.y, after.rms.y),
  };
}

// The calculator text for the vector in `text` with `by` added to every
// entry, or with its mean subtracted; null when the text is not a vector.
export function shiftedText(text, by) {
  const parsed = parseVector(text, { max: CALCULATOR_MAX_ENTRIES });
  return parsed.ok ? vectorInput(parsed.values.map((v) => v + by)) : null;
}

export function centeredText(text) {
  const parsed = parseVector(text, { max: CALCULATOR_MAX_ENTRIES });
  if (!parsed.ok) return null;
  const mean = parsed.values.reduce((a, b) => a + b, 0) / parsed.values.length;
  return vectorInput(parsed.values.map((v) => v - mean));
}

// Entries as the text field takes them, rounded to 12 significant digits so
// that float residue (0.6 - 1e-16) does not show up in the student's field.
function vectorInput(values) {
  return values.map((v) => String(roundSignificant(v, 12))).join(', ');
}

function roundSignificant(v, digits) {
  if (v === 0 || !Number.isFinite(v)) return v;
  const k = digits - 1 - Math.floor(Math.log10(Math.abs(v)));
  return k >= 0 ? Math.round(v * 10 ** k) / 10 ** k : Math.round(v / 10 ** -k) * 10 ** -k;
}

// Returns compute(nl, result, section, eps) -> { items, newlyDone } where
// items[id] is what challenge id shows and newlyDone lists the tasks the
// current vector has just completed (the page writes them to the store).
// A task's evidence is the current vector when it qualifies, else the last
// vector of this visit that did, else (a task done in an earlier visit) the
// same point worked on the task's example, computed here.
export function createChallengeModel() {
  const history = [];
  const latest = { flat: null, shift: null, zero: null };
  const examples = new Map();

  function example(nl, eps) {
    if (!examples.has(eps)) {
      const base = calculatorSteps(nl, EXAMPLE_A, eps);
      const shifted = calculatorSteps(
        nl,
        EXAMPLE_A.map((v) => v + SHIFT_BY),
        eps,
      );
      const mean = EXAMPLE_A.reduce((a, b) => a + b, 0) / EXAMPLE_A.length;
      examples.set(eps, {
        flat: calculatorSteps(nl, FLAT_EXAMPLE, eps),
        shift: shiftEvidence(base, shifted, SHIFT_BY),
        zero: calculatorSteps(
          nl,
          EXAMPLE_A.map((v) => v - mean),
          eps,
        ),
      });
    }
    return examples.get(eps);
  }

  const sameEntries = (a, b) => a.length === b.length && a.every((v, i) => v === b[i]);

  function remember(result) {
    const now = {
      flat: isFlat(result.x) ? result : null,
      zero: hasZeroMean(result) ? result : null,
      shift: null,
    };
    for (let i = history.length - 1; i >= 0 && !now.shift; i--) {
      const c = shiftBetween(history[i].x, result.x);
      if (c !== null) now.shift = shiftEvidence(history[i], result, c);
    }
    for (const id of CHALLENGE_TASKS) if (now[id]) latest[id] = now[id];
    // "1, 2" and "1, 2," are one vector: keep the newest result of it.
    if (history.length && sameEntries(history.at(-1).x, result.x)) history.pop();
    history.push(result);
    if (history.length > HISTORY) history.shift();
    return now;
  }

  let current = { flat: null, zero: null, shift: null };
  let seen = null;
  return function compute(nl, result, section, eps) {
    if (result && result !== seen) {
      current = remember(result);
      seen = result;
    }
    const items = {};
    const newlyDone = [];
    for (const id of CHALLENGE_TASKS) {
      const now = result && current[id];
      if (now && section[id] !== 1) newlyDone.push(id);
      const done = section[id] === 1 || Boolean(now);
      const evidence = now ?? latest[id] ?? (done && nl ? example(nl, eps)[id] : null);
      const source = now ? 'now' : latest[id] ? 'earlier' : evidence ? 'example' : null;
      items[id] = { id, done, evidence, source };
    }
    for (const id of Object.keys(CHALLENGE_QUESTIONS)) {
      const pick = section[id] ?? null;
      items[id] = { id, done: pick !== null, pick, right: pick === CHALLENGE_QUESTIONS[id].key, evidence: result };
    }
    return { items, newlyDone };
  };
}
