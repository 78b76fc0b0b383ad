// The quiz's answer key and the student's answers, as the learner store keeps
// them (its 'quiz' section, web/src/learner.js). Pure functions: the quiz
// widget draws what they return and writes it back to the store.
//
// Section format, one entry per question answered at least once:
//   { q1: { f: 'a', r: 0, c: 'c', w: 1 }, ... }
//   f  the first pick        r  1 if that first pick was right (the score)
//   c  the current pick      w  1 once the explanation is open
// The explanation opens on a right pick, on a second wrong pick, or when the
// student asks for it; never on a first wrong pick. Once open it stays open.
//
// The questions, in the page's order (the i18n files hold their text):
//   q1 what LayerNorm has that RMSNorm drops    q4 scale invariance, and where eps ends it
//   q2 where the norm sits, the gradient path    q5 softmax saturation, and what a norm does
//   q3 the length √d of a normalized vector      q6 the training lab's learning-rate window
//   q7 what QK-norm bounds (after pre-norm)
export const QUIZ_IDS = Object.freeze(['q1', 'q2', 'q3', 'q4', 'q5', 'q6', 'q7']);
export const QUIZ_OPTIONS = Object.freeze(['a', 'b', 'c']);
export const QUIZ_KEY = Object.freeze({ q1: 'c', q2: 'b', q3: 'b', q4: 'a', q5: 'c', q6: 'a', q7: 'b' });

const isFlag = (v) => v === 0 || v === 1;

// True when value is a well-formed 'quiz' section.
export function isQuizSection(value) {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return Object.entries(value).every(([id, record]) => QUIZ_IDS.includes(id) && isQuizRecord(record));
}

function isQuizRecord(record) {
  return (
    typeof record === 'object' &&
    record !== null &&
    QUIZ_OPTIONS.includes(record.f) &&
    QUIZ_OPTIONS.includes(record.c) &&
    isFlag(record.r) &&
    (record.w === undefined || isFlag(record.w))
  );
}

// The section after the student picks `option` for question `id`.
export function pickAnswer(section, id, option) {
  if (!QUIZ_IDS.includes(id) || !QUIZ_OPTIONS.includes(option)) return section;
  const right = option === QUIZ_KEY[id];
  const record = section[id];
  if (!record) return { ...section, [id]: { f: option, r: right ? 1 : 0, c: option, w: right ? 1 : 0 } };
  if (record.c === option) return section;
  // A wrong pick after a wrong pick: both wrong options have been tried.
  const secondWrong = !right && record.c !== QUIZ_KEY[id];
  const w = record.w === 1 || right || secondWrong ? 1 : 0;
  return { ...section, [id]: { ...record, c: option, w } };
}

// The section after the student asks to see why (only an answered question
// has an explanation to open).
export function showExplanation(section, id) {
  const record = section[id];
  if (!record || record.w === 1) return section;
  return { ...section, [id]: { ...record, w: 1 } };
}

// What one question shows: the current pick and its mark, whether the
// explanation is open, and whether the right option is to be pointed out
// (the explanation is open while the current pick is wrong).
export function questionView(section, id) {
  const record = section[id];
  const key = QUIZ_KEY[id];
  if (!record) return { id, chosen: null, mark: null, explained: false, revealKey: false, firstTryRight: false };
  const right = record.c === key;
  const explained = record.w === 1;
  return {
    id,
    chosen: record.c,
    mark: right ? 'correct' : 'wrong',
    explained,
    revealKey: explained && !right,
    firstTryRight: record.r === 1,
  };
}

// Questions answered, and answered right on the first try.
export function quizScore(section) {
  const records = QUIZ_IDS.map((id) => section[id]).filter(Boolean);
  return { answered: records.length, firstTry: records.filter((r) => r.r === 1).length, total: QUIZ_IDS.length };
}
