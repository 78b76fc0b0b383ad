// The learner's state as a course platform keeps it (web/src/resume-data.js):
// back exactly as it was written, within SCORM 1.2's 4096 characters in the
// worst case the page can produce, and cut least important part first,
// never the quiz.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { DEPTH_MAX, NORM_KINDS, PLACEMENTS, PROMPT_TEXT_MAX } from '../../web/src/constants.js';
import { isWalkSection } from '../../web/src/course-progress.js';
import { createMemoryLearnerStore } from '../../web/src/learner.js';
import { readPredictions, settingsKey } from '../../web/src/predictions.js';
import { QUIZ_IDS, QUIZ_KEY, QUIZ_OPTIONS, isQuizSection, pickAnswer } from '../../web/src/quiz-answers.js';
import {
  DROP_ORDER,
  SCORM12_SUSPEND_DATA_MAX,
  decodeResume,
  encodeResume,
  searchFromParams,
  viewParams,
} from '../../web/src/resume-data.js';
import { defaultState, searchFromState, stateFromSearch } from '../../web/src/state.js';
import { isChallengeSection } from '../../web/src/challenges.js';
import { isExerciseSection } from '../../web/src/widgets/exercise.js';

// The calculator's text is kept up to this many characters (state.js).
const VECTOR_TEXT_MAX = 2000;

// A learner as the page leaves one: the quiz answered wrong then right, two
// predictions, the walk ended, challenges and the exercise.
function learner() {
  const store = createMemoryLearnerStore();
  let quiz = {};
  for (const [id, option] of [
    ['q1', 'a'],
    ['q1', 'c'],
    ['q2', 'b'],
    ['q3', 'c'],
  ])
    quiz = pickAnswer(quiz, id, option);
  store.write('quiz', quiz);
  store.write('predictions', { d: { r: 31.622776601683793, n: 12.589254117941675, k: 'rmsnorm.pre.24' }, s: { s: 1 } });
  store.write('walk', { d: 1 });
  store.write('challenges', { flat: 1, unit: 'b' });
  store.write('exercise', { r: 1 });
  return store;
}

test('a learner and a view come back exactly as they were written', () => {
  const store = learner();
  const state = {
    ...defaultState('zh-CN'),
    prompt: '残差流每层都在增长',
    vector: '3, -1, 4e2, 0.5',
    depth: 12,
    layer: 11,
    stretch: 0.01,
  };
  const { text, dropped } = encodeResume({ learner: store.snapshot(), view: viewParams(searchFromState(state)) });
  assert.deepEqual(dropped, []);
  assert.match(text, /^1\{"l":\{"quiz":/);
  const back = decodeResume(text);
  assert.deepEqual(back.learner, store.snapshot());
  // Restored into a new store, every section passes its owner's check.
  const next = createMemoryLearnerStore();
  next.restore(back.learner);
  assert.deepEqual(next.read('quiz', isQuizSection), {
    q1: { f: 'a', r: 0, c: 'c', w: 1 },
    q2: { f: 'b', r: 1, c: 'b', w: 1 },
    q3: { f: 'c', r: 0, c: 'c', w: 0 },
  });
  assert.deepEqual(readPredictions(next), store.snapshot().predictions);
  assert.deepEqual(next.read('walk', isWalkSection), { d: 1 });
  assert.deepEqual(next.read('challenges', isChallengeSection), { flat: 1, unit: 'b' });
  assert.deepEqual(next.read('exercise', isExerciseSection), { r: 1 });
  // The view reads back as the page reads its link.
  const view = stateFromSearch(searchFromParams(back.view), 'en');
  assert.deepEqual(view.rejected, []);
  assert.deepEqual(view.state, state);
  assert.deepEqual(view.given.sort(), ['depth', 'lang', 'layer', 'prompt', 'stretch', 'vector']);
});

test('only the store sections the page keeps are written; unreadable text starts afresh', () => {
  const { text } = encodeResume({
    learner: { quiz: { q1: { f: 'c', r: 1, c: 'c', w: 1 } }, other: { big: 'x'.repeat(100) } },
    view: {},
  });
  assert.equal(text, '1{"l":{"quiz":{"q1":{"f":"c","r":1,"c":"c","w":1}}}}');
  for (const bad of ['', 'x', '2{"l":{}}', '1{"l":', '1[1]', '1{"l":5}', null, undefined, 7])
    assert.equal(decodeResume(bad), null, String(bad));
  // Unknown sections and non-text view values are left out.
  assert.deepEqual(decodeResume('1{"l":{"quiz":{},"evil":1},"v":{"lang":"en","depth":5}}'), {
    learner: { quiz: {} },
    view: { lang: 'en' },
  });
});

// The largest values each part of the state accepts: every quiz question
// with its explanation open, predictions with the longest numbers their
// ranges print as and a settings key at its 64-character limit, all
// challenges, the exercise and the walk; the training lab's guess naming
// all three runs; every view setting away from its
// default with its longest value.
function worstLearner() {
  // Every record has all four fields; its length does not depend on which
  // options were picked.
  const quiz = Object.fromEntries(
    QUIZ_IDS.map((id) => [id, { f: QUIZ_OPTIONS.find((o) => o !== QUIZ_KEY[id]), r: 0, c: QUIZ_KEY[id], w: 1 }]),
  );
  assert.equal(Object.keys(quiz).length, 7);
  assert.ok(isQuizSection(quiz));
  const longest = 999.9999999999999; // 17 significant digits in [1, 1000]
  // The longest key that names settings (any other reads as no prediction).
  const longestKey = NORM_KINDS.flatMap((norm) =>
    PLACEMENTS.map((placement) => settingsKey({ norm, placement, depth: DEPTH_MAX })),
  ).reduce((a, b) => (b.length > a.length ? b : a));
  const small = 1.2345678901234567e-6; // printed as 0.0000012345678901234567
  assert.equal(String(small).length, 24);
  const predictions = {
    d: { r: longest, n: longest, k: longestKey },
    s: { g: small, q: 1 },
    p: { g: small },
    l: { g: ['pre', 'post', 'warmup'] },
  };
  const store = createMemoryLearnerStore();
  store.write('predictions', predictions);
  assert.deepEqual(readPredictions(store), predictions);
  return {
    quiz,
    predictions,
    walk: { d: 1 },
    exercise: { r: 1 },
    challenges: { flat: 1, shift: 1, zero: 1, unit: 'a', size: 'a' },
  };
}

function worstView(prompt, vector) {
  const state = {
    ...defaultState('zh-CN'),
    theme: 'light',
    backend: 'simd128',
    l2: 32 * 2 ** 3.875,
    softmaxGrowth: 'square',
    vector,
    eps: 1e-5,
    stretch: 1.2345678901234567e-4,
    prompt,
    norm: 'layernorm',
    placement: 'post',
    depth: 63,
    layer: 62,
    layerScale: 'linear',
    gradDepth: 47,
  };
  const search = searchFromState(state);
  // Each value is one the page accepts from its link.
  const read = stateFromSearch(search, 'en');
  assert.deepEqual(read.rejected, []);
  assert.deepEqual(read.state, state);
  return viewParams(search);
}

test('the worst case: a 256-character Chinese prompt and a full calculator text fit in 4096 characters whole', () => {
  const prompt = '残'.repeat(PROMPT_TEXT_MAX);
  // The longest text the calculator keeps, of entries as a reader types them.
  const vector = '-1.25e-3, '.repeat(VECTOR_TEXT_MAX / 10);
  assert.equal(vector.length, VECTOR_TEXT_MAX);
  assert.deepEqual(stateFromSearch(`?x=${encodeURIComponent(`${vector}1`)}`, 'en').rejected, [
    { param: 'x', value: `${vector}1` },
  ]);
  assert.deepEqual(
    stateFromSearch(`?prompt=${encodeURIComponent(`${prompt}残`)}`, 'en').rejected.map((r) => r.param),
    ['prompt'],
  );
  const state = { learner: worstLearner(), view: worstView(prompt, vector) };
  const { text, dropped } = encodeResume(state);
  assert.deepEqual(dropped, []);
  assert.ok(text.length <= SCORM12_SUSPEND_DATA_MAX, `${text.length} characters`);
  // The README's figure, with seven quiz records of 35 characters each.
  assert.equal(text.length, 3083);
  assert.deepEqual(decodeResume(text), state);
});

test('the worst case for the encoding: texts whose every character JSON writes as six', () => {
  // A control character is written \u0001: the longest escape there is.
  const prompt = '\u0001'.repeat(PROMPT_TEXT_MAX);
  const vector = '\u0001'.repeat(VECTOR_TEXT_MAX);
  assert.equal(JSON.stringify(vector).length, 6 * VECTOR_TEXT_MAX + 2);
  const state = { learner: worstLearner(), view: worstView(prompt, vector) };
  const { text, dropped } = encodeResume(state);
  // The calculator's text goes first, and that is enough: the prompt, the
  // rest of the view and the whole learner stay.
  assert.deepEqual(dropped, ['view.x']);
  assert.ok(text.length <= SCORM12_SUSPEND_DATA_MAX, `${text.length} characters`);
  const { x, ...kept } = state.view;
  assert.equal(x, vector);
  assert.deepEqual(decodeResume(text), { learner: state.learner, view: kept });
  // Without the calculator's text it would not have fitted.
  const whole = `1${JSON.stringify({ l: state.learner, v: state.view })}`;
  assert.ok(whole.length > SCORM12_SUSPEND_DATA_MAX, `${whole.length}`);
});

test('parts are left out in their order of importance, and the quiz never', () => {
  const state = { learner: worstLearner(), view: worstView('残'.repeat(40), '1, 2, 3, 4, 5') };
  const full = encodeResume(state).text;
  const quizOnly = `1${JSON.stringify({ l: { quiz: state.learner.quiz } })}`;
  assert.equal(encodeResume({ learner: { quiz: state.learner.quiz }, view: {} }).text, quizOnly);
  assert.deepEqual(DROP_ORDER, ['view.x', 'view.prompt', 'view', 'challenges', 'predictions', 'exercise', 'walk']);
  // Each limit one character short of what is left after a step: the next
  // part goes, and only it.
  let seen = [];
  for (let limit = full.length; limit >= 1; limit--) {
    const { text, dropped } = encodeResume(state, { limit });
    assert.deepEqual(dropped.slice(0, seen.length), seen, `limit ${limit}`);
    seen = dropped;
    assert.ok(text.length <= limit || dropped.length === DROP_ORDER.length, `limit ${limit}`);
    assert.deepEqual(decodeResume(text).learner.quiz, state.learner.quiz);
  }
  assert.deepEqual(seen, DROP_ORDER);
  // With everything else gone the quiz is still written, whatever the limit.
  assert.equal(encodeResume(state, { limit: 10 }).text, quizOnly);
  // A limit that needs only the calculator's text and the prompt gone.
  const noTexts = { ...state.view };
  delete noTexts.x;
  delete noTexts.prompt;
  const needed = `1${JSON.stringify({ l: state.learner, v: noTexts })}`.length;
  assert.deepEqual(encodeResume(state, { limit: needed }).dropped, ['view.x', 'view.prompt']);
  assert.deepEqual(encodeResume(state, { limit: needed - 1 }).dropped, ['view.x', 'view.prompt', 'view']);
});
