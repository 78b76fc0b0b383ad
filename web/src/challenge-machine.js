// The calculator's five checks (challenges.js) as a state machine: an event
// goes in with the state, a new state comes out (nextChecks), and
// challengeView(state) says what each check shows, as sentences (keys under
// 'challenges' in the dictionaries, with their numbers) about a named
// vector. Pure and synchronous: everything it judges by is in the kernels'
// results it is handed (compute.js calculatorSteps), so Node runs it as the
// page does.
//
// Events:
//   { type: 'vector', result }    a vector shown: typed, a preset, a link,
//                                 another eps
//   { type: 'flat' | 'shift' | 'center', result }
//                                 a task's button, with the calculator's
//                                 result after it
//   { type: 'answer', id, option } a question answered
//   { type: 'stored', section }   the learner store's progress (a reload, a
//                                 course's resume, a cleared store)
//
// What completes a task. "eps is negligible" for a vector when it is at most
// 0.01% of mean(x²) + eps, i.e. the RMS is at least 100·√eps (eps-share.js).
//   flat   the vector shown has two or more entries, all equal in float32,
//          and eps is negligible. Typed or from the button alike.
//   shift  the vector shown is an earlier one with one number c ≠ 0 added
//          to every entry (float32, relative tolerance 10⁻⁶), where the
//          earlier vector's entries differ, eps is negligible for both, and
//          the kernels show the point: RMSNorm's y moved by at least 0.01 in
//          some entry, LayerNorm's by at most 0.001. After the button the
//          earlier vector is the one it was pressed on; after any other
//          change it is any of the last HISTORY distinct vectors (a shift
//          typed key by key, or the mean subtracted, which is a shift too).
//   zero   the vector shown has two or more entries, not all 0, a mean
//          within 10⁻⁵·RMS of 0, and eps is negligible.
//   unit, size   any option picked; the feedback says if it is right.
//
// What a task shows, first that applies:
//   'now'      the vector shown completes it; or does not, and either came
//              from its button or (task not done, two or more entries) is
//              the kind of vector the task asks for: a note on why not;
//   'earlier'  the last vector of this visit that completed it; else (not
//              done) the last vector its button gave, with its note;
//   'example'  done, with no such vector at this eps (an earlier visit,
//              another eps since): the task's example, computed anew;
// in every case only with the eps now chosen. The questions speak of the
// vector shown: a length of √d where eps is negligible, else what eps did,
// and for the zero vector its own explanation.
import { CHALLENGE_QUESTIONS, CHALLENGE_TASKS, SHIFT_BY, TASK_BUTTONS } from './challenges.js';
import { clearRoot, epsShare, rmsRegime } from './eps-share.js';

// Earlier vectors of this visit (distinct ones) a typed shift is looked for
// against: enough to span a vector retyped keystroke by keystroke.
export const HISTORY = 64;
// Relative tolerances of float32 values: entries that differ by one shift,
// and a mean that counts as zero next to the RMS.
export const SHIFT_TOLERANCE = 1e-6;
export const ZERO_MEAN_TOLERANCE = 1e-5;
// What a shift must show: RMSNorm's y moved (0.01 shows in the page's
// two-decimal vectors), LayerNorm's y kept (float32 rounding aside).
export const SHIFT_SHOWS = 0.01;
export const SHIFT_KEEPS = 1e-3;

const TASKS = Object.freeze({ flat: null, shift: null, zero: null });

export function initialChecks(section = {}) {
  return {
    // The stored progress, as the learner store keeps it.
    section: { ...section },
    // The calculator's result shown, how it came ('vector' or a button),
    // and the shift it shows: after the button whatever the button gave,
    // else a shift of an earlier vector that completes the task, or null.
    current: null,
    cause: null,
    pair: null,
    history: [],
    // Per task, the last subject of this visit that completed it, and the
    // last one its button gave that did not: { subject, verdict }.
    evidence: { ...TASKS },
    attempts: { ...TASKS },
    // Counts the changes, for the page's repaint.
    revision: 0,
  };
}

// ---------------------------------------------------------------- judging

const isConstant = (x) => x.every((v) => v === x[0]);
const sameEntries = (a, b) => a.length === b.length && a.every((v, i) => v === b[i]);
const sameVector = (a, b) => a.eps === b.eps && sameEntries(a.x, b.x);
const largestChange = (a, b) => a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i])), 0);

// The common difference when b is a plus one number c ≠ 0, else null.
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

export function hasZeroMean(result) {
  return Math.abs(result.ln.mean) <= ZERO_MEAN_TOLERANCE * result.rms.rms;
}

// A vector before and after a shift (or an attempt at one), both results of
// the same length and eps.
export function shiftPair(before, after) {
  return {
    before,
    after,
    c: shiftBetween(before.x, after.x),
    lnChange: largestChange(before.ln.y, after.ln.y),
    rmsChange: largestChange(before.rms.y, after.rms.y),
  };
}

// 'done', or null (not the kind of vector the task asks for), or the note's
// name: 'zero' all entries 0, 'small' eps not negligible.
export function flatVerdict(result) {
  if (result.x.length < 2 || !isConstant(result.x)) return null;
  const regime = rmsRegime(result);
  return regime === 'clear' ? 'done' : regime === 'zero' ? 'zero' : 'small';
}

// 'done', null, 'allZero' (any length: the button on one entry gives [0]),
// 'small'.
export function zeroVerdict(result) {
  const regime = rmsRegime(result);
  if (regime === 'zero') return 'allZero';
  if (result.x.length < 2 || !hasZeroMean(result)) return null;
  return regime === 'clear' ? 'done' : 'small';
}

// 'done' or why not: 'absorbed' (float32 left the vector as it was),
// 'uneven' (rounding moved the entries by different amounts), 'constant'
// (no two entries of the earlier vector differ), 'small' (eps not
// negligible for one of them), 'tiny' (RMSNorm's y barely moves),
// 'rounding' (float32 rounding moved LayerNorm's y).
export function shiftVerdict(pair) {
  const { before, after } = pair;
  if (pair.c === null) return sameEntries(before.x, after.x) ? 'absorbed' : 'uneven';
  if (isConstant(before.x)) return 'constant';
  if (rmsRegime(before) !== 'clear' || rmsRegime(after) !== 'clear') return 'small';
  if (pair.rmsChange < SHIFT_SHOWS) return 'tiny';
  if (pair.lnChange > SHIFT_KEEPS) return 'rounding';
  return 'done';
}

// The newest earlier vector that `result` is a completing shift of.
function typedShift(history, result) {
  for (let i = history.length - 1; i >= 0; i--) {
    const before = history[i];
    if (before.eps !== result.eps || before.x.length !== result.x.length) continue;
    if (shiftBetween(before.x, result.x) === null) continue;
    const pair = shiftPair(before, result);
    if (shiftVerdict(pair) === 'done') return pair;
  }
  return null;
}

function remember(history, result) {
  const kept = history.length && sameVector(history.at(-1), result) ? history.slice(0, -1) : history.slice();
  kept.push(result);
  return kept.length > HISTORY ? kept.slice(-HISTORY) : kept;
}

// ---------------------------------------------------------------- events

// Two progress records alike, whatever the order of their keys.
export function sameSection(a, b) {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((id) => a[id] === b[id]);
}

export function nextChecks(state, event) {
  switch (event.type) {
    case 'vector':
    case 'flat':
    case 'shift':
    case 'center':
      return shown(state, event.type, event.result);
    case 'answer': {
      const question = CHALLENGE_QUESTIONS[event.id];
      if (!question?.options.includes(event.option) || state.section[event.id] === event.option) return state;
      return { ...state, section: { ...state.section, [event.id]: event.option }, revision: state.revision + 1 };
    }
    case 'stored': {
      if (sameSection(event.section, state.section)) return state;
      const section = { ...event.section };
      // Evidence only for what the store still counts as done.
      const evidence = Object.fromEntries(
        CHALLENGE_TASKS.map((id) => [id, section[id] === 1 ? state.evidence[id] : null]),
      );
      return { ...state, section, evidence, revision: state.revision + 1 };
    }
    default:
      throw new RangeError(`unknown challenge event "${event.type}"`);
  }
}

// One paint of the page: the checks follow the stored progress, then the
// calculator (compute.js createCalculatorModel's data): each result it shows
// that they have not seen, and each task button pressed since the last
// paint, whose vector may be the one already shown. A button whose vector the
// calculator refused sends nothing (the calculator's error says why).
// seen: the result the checks last saw. Returns { checks, seen }.
export function paintChecks(state, { section, calculator, pressed, seen }) {
  let checks = nextChecks(state, { type: 'stored', section });
  const result = calculator?.result ?? null;
  const button = calculator?.error ? null : pressed;
  if (!result || (result === seen && !button)) return { checks, seen };
  checks = nextChecks(checks, { type: button ?? 'vector', result });
  return { checks, seen: result };
}

function shown(state, cause, result) {
  const before = state.current;
  // The same vector again (a repaint, another language): nothing happened.
  if (cause === 'vector' && before && sameVector(before, result)) return state;
  const pair =
    cause === 'shift' && before && before.x.length === result.x.length
      ? shiftPair(before, result)
      : typedShift(state.history, result);
  const subjects = { flat: result, zero: result, shift: pair };
  const verdicts = { flat: flatVerdict(result), zero: zeroVerdict(result), shift: pair && shiftVerdict(pair) };
  const section = { ...state.section };
  const evidence = { ...state.evidence };
  const attempts = { ...state.attempts };
  for (const id of CHALLENGE_TASKS) {
    if (verdicts[id] === 'done') {
      section[id] = 1;
      evidence[id] = subjects[id];
      attempts[id] = null;
    } else if (TASK_BUTTONS[id] === cause) {
      attempts[id] = verdicts[id] ? { subject: subjects[id], verdict: verdicts[id] } : null;
    }
  }
  return {
    ...state,
    section,
    current: result,
    cause,
    pair,
    history: remember(state.history, result),
    evidence,
    attempts,
    revision: state.revision + 1,
  };
}

// ---------------------------------------------------------------- what each check says

// A sentence: a dictionary key and its parameters. A parameter is a number,
// a vector (an array of numbers) or a sentence of its own (the lead-in that
// names the vector, the verdict of a question).
const say = (key, params = {}) => ({ key: `challenges.${key}`, params });
const lead = (source, x) => say(`source.${source}`, { x });
const subjectEps = (subject) => (subject.after ?? subject).eps;

// examples: challenges.js challengeExamples(nl, eps) for the eps now chosen,
// or null while the kernels load.
export function challengeView(state, examples = null) {
  const items = {};
  for (const id of CHALLENGE_TASKS) items[id] = taskItem(state, id, examples);
  for (const id of Object.keys(CHALLENGE_QUESTIONS)) items[id] = questionItem(state, id);
  return items;
}

function nowFor(state, id) {
  const r = state.current;
  if (!r) return null;
  if (id === 'flat') return { subject: r, verdict: flatVerdict(r) };
  if (id === 'zero') return { subject: r, verdict: zeroVerdict(r) };
  return state.pair && { subject: state.pair, verdict: shiftVerdict(state.pair) };
}

function taskItem(state, id, examples) {
  const done = state.section[id] === 1;
  const item = (source, subject, verdict) => ({
    id,
    done,
    source,
    subject,
    verdict,
    sentences: source ? TASK_SENTENCES[id](subject, verdict, source) : [],
    // The demo panel's figures follow a zero mean shown (widgets/challenges.js).
    modelFacts: id === 'zero' && verdict === 'done',
    closing: [],
  });
  const now = nowFor(state, id);
  if (now?.verdict) {
    const ownButton = state.cause === TASK_BUTTONS[id];
    if (now.verdict === 'done' || ownButton || (!done && state.current.x.length >= 2))
      return item('now', now.subject, now.verdict);
  }
  const eps = state.current?.eps;
  const evidence = state.evidence[id];
  if (evidence && subjectEps(evidence) === eps) return item('earlier', evidence, 'done');
  const attempt = state.attempts[id];
  if (!done && attempt && subjectEps(attempt.subject) === eps) return item('earlier', attempt.subject, attempt.verdict);
  if (done && examples) {
    const example = id === 'shift' ? shiftPair(examples.shift.before, examples.shift.after) : examples[id];
    return item('example', example, 'done');
  }
  return item(null, null, null);
}

// The zero vector, and a vector for which eps is not negligible: what the
// norms do with them, said once for every check.
const zeroVector = (r) =>
  say('zeroVector', { rms: r.rms.rms, std: r.ln.std, eps: r.eps, sqrtD: Math.sqrt(r.x.length) });
const epsPart = (r) =>
  say('epsShare', {
    x: r.x,
    eps: r.eps,
    share: 100 * epsShare(r.rms.meanSquare, r.eps),
    rmsSquare: r.rms.meanSquare + r.eps,
    least: clearRoot(r.eps),
  });

const TASK_SENTENCES = {
  flat(r, verdict, source) {
    const opening = lead(source, r.x);
    if (verdict === 'zero') return [say('flat.zero', { lead: opening })];
    if (verdict === 'small')
      return [say('flat.small', { lead: opening, rmsY: r.rms.y, lnY: r.ln.y, least: clearRoot(r.eps) }), epsPart(r)];
    return [
      say('flat.result', { lead: opening, lnY: r.ln.y, rmsY: r.rms.y }),
      say('flat.why', { mean: r.ln.mean, std: r.ln.std, rms: r.rms.rms }),
    ];
  },
  shift(p, verdict, source) {
    const { before, after, c } = p;
    const opening = lead(source, after.x);
    switch (verdict) {
      case 'absorbed':
        return [say('shift.absorbed', { lead: opening, by: SHIFT_BY })];
      case 'uneven':
        return [say('shift.uneven', { lead: opening, by: SHIFT_BY, before: before.x })];
      case 'constant':
        return [say('shift.constant', { lead: opening, before: before.x, c })];
      case 'small': {
        const small = rmsRegime(before) !== 'clear' ? before : after;
        return [
          say('shift.small', { lead: opening, before: before.x, c, small: small.x, least: clearRoot(small.eps) }),
          rmsRegime(small) === 'zero' ? zeroVector(small) : epsPart(small),
        ];
      }
      case 'tiny':
        return [say('shift.tiny', { lead: opening, before: before.x, c, rmsChange: p.rmsChange })];
      case 'rounding':
        return [
          say('shift.rounding', {
            lead: opening,
            before: before.x,
            c,
            lnChange: p.lnChange,
            rmsChange: p.rmsChange,
          }),
        ];
      default:
        return [
          say('shift.result', {
            lead: opening,
            c,
            before: before.x,
            lnBefore: before.ln.y,
            lnAfter: after.ln.y,
            lnChange: p.lnChange,
            rmsBefore: before.rms.y,
            rmsAfter: after.rms.y,
            rmsChange: p.rmsChange,
          }),
          say('shift.why', { c, rmsBefore: before.rms.rms, rmsAfter: after.rms.rms }),
        ];
    }
  },
  zero(r, verdict, source) {
    const opening = lead(source, r.x);
    if (verdict === 'allZero') return [say('zero.allZero', { lead: opening, rms: r.rms.rms })];
    const figures = { lead: opening, mean: r.ln.mean, std: r.ln.std, rms: r.rms.rms };
    if (verdict === 'small') return [say('zero.small', { ...figures, least: clearRoot(r.eps) }), epsPart(r)];
    return [say('zero.result', { ...figures, lnY: r.ln.y, rmsY: r.rms.y }), say('zero.why')];
  },
};

function questionItem(state, id) {
  const pick = state.section[id] ?? null;
  const right = pick === CHALLENGE_QUESTIONS[id].key;
  const r = state.current;
  const item = {
    id,
    done: pick !== null,
    pick,
    right,
    source: null,
    subject: r,
    verdict: null,
    sentences: [],
    modelFacts: false,
    closing: [],
  };
  if (pick === null || !r) return item;
  const regime = rmsRegime(r);
  const verdict = say(right ? 'right' : 'notQuite');
  const d = r.x.length;
  const sqrtD = Math.sqrt(d);
  if (id === 'unit') {
    const sentences =
      regime === 'zero'
        ? [say('unit.zero', { verdict, least: clearRoot(r.eps) }), zeroVector(r)]
        : regime === 'eps'
          ? [say('unit.small', { verdict, x: r.x, d, meanSquare: r.yMeanSquare, l2: r.rmsL2, sqrtD }), epsPart(r)]
          : [
              say('unit.result', {
                verdict,
                x: r.x,
                d,
                meanSquare: r.yMeanSquare,
                sum: r.yMeanSquare * d,
                l2: r.rmsL2,
                sqrtD,
              }),
              say(d === 1 ? 'unit.whyOne' : 'unit.why'),
            ];
    return { ...item, source: 'now', verdict: regime, sentences };
  }
  // size: what RMSNorm did to this vector's length, then the demo panel's
  // figures, then the rule.
  const lengths = { verdict, x: r.x, before: r.xL2, after: r.rmsL2, d, sqrtD };
  let sentences;
  if (regime === 'zero') sentences = [say('size.zero', { verdict })];
  else if (regime === 'eps') sentences = [say('size.small', lengths), epsPart(r)];
  else {
    // Lengths within a printed digit of each other count as kept.
    const change =
      Math.abs(r.rmsL2 - r.xL2) <= 5e-4 * Math.max(r.xL2, r.rmsL2) ? 'same' : r.rmsL2 > r.xL2 ? 'larger' : 'smaller';
    sentences = [say(`size.${change}`, lengths)];
  }
  return { ...item, source: 'now', verdict: regime, sentences, modelFacts: true, closing: [say('size.why')] };
}
