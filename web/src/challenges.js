// The calculator's challenges: five common misreadings of the norms, each
// settled by the kernels' own results on the student's vector (the
// calculator's steps, compute.js).
//
//   flat   a constant vector: LayerNorm gives zeros, RMSNorm gives ±1
//   shift  the same number added to every entry: LayerNorm's y stays, RMSNorm's moves
//   unit   "is y a unit vector?" (a question): mean(y²) = 1, so L2 = √d
//   size   "does RMSNorm make activations smaller?" (a question): it sets
//          their length to √d, larger or smaller; the demo panel's layer 0
//          takes its input up to √d
//   zero   a vector with mean 0: std = RMS, and both norms agree
//
// challenge-machine.js decides when each one is done and what it says;
// widgets/challenges.js draws it. This module holds what both they and the
// page share: the ids, the questions, the stored progress's check, what the
// tasks' buttons put in the calculator and the examples a task done on an
// earlier visit is shown with.
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
// The button of each task, by the event it sends (challenge-machine.js).
export const TASK_BUTTONS = Object.freeze({ flat: 'flat', shift: 'shift', zero: 'center' });
// What the buttons of the tasks put in the calculator: a constant vector,
// and the shift the "add" button applies.
export const FLAT_EXAMPLE = Object.freeze([3, 3, 3, 3]);
export const SHIFT_BY = 10;

export function isChallengeSection(value) {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return Object.entries(value).every(([id, v]) =>
    CHALLENGE_TASKS.includes(id) ? v === 1 : id in CHALLENGE_QUESTIONS && CHALLENGE_QUESTIONS[id].options.includes(v),
  );
}

export function doneCount(section) {
  return CHALLENGE_IDS.filter((id) => section[id] !== undefined).length;
}

// The calculator text a task's button puts in place of `text`: the constant
// example, the vector with SHIFT_BY added to every entry, or the vector with
// its mean subtracted; null when the text is not a vector (the button then
// does nothing).
export function buttonText(button, text) {
  if (button === 'flat') return FLAT_EXAMPLE.join(', ');
  if (button === 'shift') return shiftedText(text, SHIFT_BY);
  if (button === 'center') return centeredText(text);
  return null;
}

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

// Each task worked on its example, for a task done on an earlier visit:
// the constant example, Example A shifted by SHIFT_BY, Example A centred.
// Computed once per kernel module and eps.
const examples = new WeakMap();
export function challengeExamples(nl, eps) {
  if (!examples.has(nl)) examples.set(nl, new Map());
  const byEps = examples.get(nl);
  if (!byEps.has(eps)) {
    const mean = EXAMPLE_A.reduce((a, b) => a + b, 0) / EXAMPLE_A.length;
    byEps.set(eps, {
      flat: calculatorSteps(nl, FLAT_EXAMPLE, eps),
      shift: {
        before: calculatorSteps(nl, EXAMPLE_A, eps),
        after: calculatorSteps(
          nl,
          EXAMPLE_A.map((v) => v + SHIFT_BY),
          eps,
        ),
      },
      zero: calculatorSteps(
        nl,
        EXAMPLE_A.map((v) => v - mean),
        eps,
      ),
    });
  }
  return byEps.get(eps);
}
