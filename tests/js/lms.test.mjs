// The page's side of a course platform (web/src/lms.js): finding the SCORM
// API as the specifications describe, one adapter for SCORM 1.2 and 2004,
// and what the reporter sends for a learner's progress, with fake API
// objects that record every call and fail on demand.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { courseProgress as courseOf } from '../../web/src/course-progress.js';
import { createMemoryLearnerStore } from '../../web/src/learner.js';
import {
  MAX_PARENTS,
  connectLms,
  createLmsAdapter,
  createLmsReporter,
  findLmsApi,
  progressValues,
  scorm12Time,
  scorm2004Time,
} from '../../web/src/lms.js';
import { QUIZ_IDS, QUIZ_KEY, pickAnswer } from '../../web/src/quiz-answers.js';
import { decodeResume } from '../../web/src/resume-data.js';
import { SCORM_METHODS as NAMES } from './scorm-methods.mjs';

// A platform's API object: every call is logged; values are kept in cmi.
// fail: { initialize, commit, terminate, set: element -> true } answer
// 'false'; throws: method names that throw.
function fakeApi(flavour, { cmi = {}, fail = {}, throws = [] } = {}) {
  const [initialize, terminate, get, set, commit, lastError, errorString, diagnostic] = NAMES[flavour];
  const api = { calls: [], cmi: { ...cmi }, error: '0' };
  const answer = (ok, code) => {
    api.error = ok ? '0' : code;
    return ok ? 'true' : 'false';
  };
  const method = (name, fn) => {
    api[name] = (...args) => {
      api.calls.push([name, ...args]);
      if (throws.includes(name)) throw new Error(`${name} broke`);
      return fn(...args);
    };
  };
  method(initialize, () => answer(!fail.initialize, '101'));
  method(terminate, () => answer(!fail.terminate, '101'));
  method(get, (element) => api.cmi[element] ?? '');
  method(set, (element, value) => {
    if (fail.set?.[element]) return answer(false, '405');
    api.cmi[element] = value;
    return answer(true);
  });
  method(commit, () => answer(!fail.commit, '391'));
  method(lastError, () => api.error);
  method(errorString, (code) => `error ${code}`);
  method(diagnostic, () => '');
  return api;
}

// A window: its own properties, a parent (itself at the top) and an opener.
function fakeWindow({ parent = null, opener = null, ...own } = {}) {
  const win = new EventTarget();
  win.parent = parent ?? win;
  win.opener = opener;
  win.document = new EventTarget();
  win.document.visibilityState = 'visible';
  Object.assign(win, own);
  return win;
}

const setCalls = (api) =>
  api.calls
    .filter(([name]) => name === 'LMSSetValue' || name === 'SetValue')
    .map(([, element, value]) => [element, value]);
const count = (api, name) => api.calls.filter(([n]) => n === name).length;

test('the API is found in the window itself, up its parents, then from its opener', () => {
  const api12 = fakeApi('1.2');
  const api2004 = fakeApi('2004');
  assert.deepEqual(findLmsApi(fakeWindow({ API: api12 })), { api: api12, flavour: '1.2' });
  const top = fakeWindow({ API_1484_11: api2004 });
  const middle = fakeWindow({ parent: top });
  assert.deepEqual(findLmsApi(fakeWindow({ parent: middle })), { api: api2004, flavour: '2004' });
  // A platform that offers both runs 2004, even when 1.2's is nearer.
  assert.deepEqual(findLmsApi(fakeWindow({ API: api12, parent: top })), { api: api2004, flavour: '2004' });
  // A popup: the opener's parents.
  const openerTop = fakeWindow({ API: api12 });
  const popup = fakeWindow({ opener: fakeWindow({ parent: openerTop }) });
  assert.deepEqual(findLmsApi(popup), { api: api12, flavour: '1.2' });
  // The page in a frame of a popup: the opener is the popup's (the top
  // window's), not the frame's.
  assert.deepEqual(findLmsApi(fakeWindow({ parent: fakeWindow({ parent: popup }) })), { api: api12, flavour: '1.2' });
  const framed = fakeWindow({ parent: fakeWindow(), opener: fakeWindow({ API: api12 }) });
  assert.equal(findLmsApi(framed), null);
  // The parents before the opener.
  assert.deepEqual(findLmsApi(fakeWindow({ parent: top, opener: openerTop })), { api: api2004, flavour: '2004' });
});

test('no API: nothing found, and nothing that only looks like one', () => {
  assert.equal(findLmsApi(fakeWindow()), null);
  assert.equal(connectLms(fakeWindow()), null);
  // An element named API (browsers expose ids as window properties), or an
  // object missing a method.
  const partial = fakeApi('1.2');
  delete partial.LMSCommit;
  assert.equal(findLmsApi(fakeWindow({ API: { id: 'API' }, parent: fakeWindow({ API: partial }) })), null);
  // A parent of another origin throws on every read: the search stops there.
  const foreign = new Proxy(
    {},
    {
      get() {
        throw new DOMException('Blocked a frame', 'SecurityError');
      },
    },
  );
  assert.equal(findLmsApi(fakeWindow({ parent: foreign })), null);
  // An endless chain of parents is searched to MAX_PARENTS and no further.
  let reads = 0;
  const endless = () =>
    new Proxy({}, { get: (target, property) => (property === 'parent' ? (reads++, endless()) : undefined) });
  assert.equal(findLmsApi(fakeWindow({ parent: endless() })), null);
  // Both names, each up the chain once (the opener is null).
  assert.equal(reads, 2 * MAX_PARENTS);
});

for (const flavour of ['1.2', '2004']) {
  const [initialize, terminate, get, set, commit] = NAMES[flavour];
  test(`the adapter speaks SCORM ${flavour}: nothing before Initialize or after Terminate, Terminate once`, () => {
    const api = fakeApi(flavour, { cmi: { 'cmi.suspend_data': 'kept' } });
    const lms = createLmsAdapter(api, flavour);
    assert.equal(lms.get('cmi.suspend_data'), '');
    assert.equal(lms.set('cmi.suspend_data', 'x'), false);
    assert.equal(lms.commit(), false);
    assert.equal(api.calls.length, 0);
    assert.equal(lms.initialize(), true);
    assert.equal(lms.initialize(), true);
    assert.equal(lms.status, 'open');
    assert.equal(lms.get('cmi.suspend_data'), 'kept');
    assert.equal(lms.set('cmi.suspend_data', 'new'), true);
    assert.equal(lms.commit(), true);
    assert.equal(lms.terminate(), true);
    assert.equal(lms.terminate(), true);
    assert.equal(lms.set('cmi.suspend_data', 'late'), false);
    assert.equal(lms.status, 'closed');
    assert.deepEqual(api.calls, [
      [initialize, ''],
      [get, 'cmi.suspend_data'],
      [set, 'cmi.suspend_data', 'new'],
      [commit, ''],
      [terminate, ''],
    ]);
    assert.equal(api.cmi['cmi.suspend_data'], 'new');
  });

  test(`SCORM ${flavour} faults: Initialize refused, calls that fail or throw, the last error`, () => {
    const refused = fakeApi(flavour, { fail: { initialize: true } });
    const lms = createLmsAdapter(refused, flavour);
    assert.equal(lms.initialize(), false);
    assert.equal(lms.status, 'refused');
    assert.equal(lms.set('cmi.suspend_data', 'x'), false);
    assert.equal(lms.terminate(), false);
    assert.deepEqual(refused.calls, [[initialize, '']]);
    const connection = connectLms(fakeWindow({ [flavour === '1.2' ? 'API' : 'API_1484_11']: refused }));
    assert.equal(connection.connected, false);
    assert.equal(connection.resume, null);

    const failing = fakeApi(flavour, { fail: { commit: true, set: { 'cmi.suspend_data': true } } });
    const open = createLmsAdapter(failing, flavour);
    open.initialize();
    assert.equal(open.set('cmi.suspend_data', 'x'), false);
    assert.deepEqual(open.lastError(), { code: '405', message: 'error 405' });
    assert.equal(open.commit(), false);
    assert.deepEqual(open.lastError(), { code: '391', message: 'error 391' });

    const broken = createLmsAdapter(fakeApi(flavour, { throws: [initialize] }), flavour);
    assert.equal(broken.initialize(), false);
    const throwing = createLmsAdapter(fakeApi(flavour, { throws: [get, set, commit, terminate] }), flavour);
    assert.equal(throwing.initialize(), true);
    assert.equal(throwing.get('cmi.suspend_data'), '');
    assert.equal(throwing.set('cmi.suspend_data', 'x'), false);
    assert.equal(throwing.commit(), false);
    assert.equal(throwing.terminate(), false);
    // Booleans are taken as the platform's answers too.
    const booleans = createLmsAdapter({ ...fakeApi(flavour), [initialize]: () => true }, flavour);
    assert.equal(booleans.initialize(), true);
    assert.throws(() => createLmsAdapter(fakeApi(flavour), '1.3'), {
      name: 'RangeError',
      message: `flavour must be '1.2' or '2004', not "1.3"`,
    });
  });
}

test("session times in each version's format", () => {
  assert.equal(scorm12Time(0), '00:00:00.00');
  assert.equal(scorm12Time(3_723_456), '01:02:03.46');
  assert.equal(scorm12Time(59_999), '00:01:00.00');
  assert.equal(scorm12Time(100 * 3_600_000), '100:00:00.00');
  assert.equal(scorm2004Time(0), 'PT0H0M0S');
  assert.equal(scorm2004Time(3_723_456), 'PT1H2M3.46S');
  assert.equal(scorm2004Time(90_500), 'PT0H1M30.5S');
});

// A store after these quiz picks (each [id, option]).
function quizStore(picks, { walk = false } = {}) {
  const store = createMemoryLearnerStore();
  let quiz = {};
  for (const [id, option] of picks) quiz = pickAnswer(quiz, id, option);
  if (picks.length) store.write('quiz', quiz);
  if (walk) store.write('walk', { d: 1 });
  return store;
}
// q1 wrong then right, q2 to q4 right, q5 and q6 wrong then right, q7
// right: 4 of 7 on the first try, under the pass mark (5, two thirds of 7).
const FOUR_OF_SEVEN = [
  ['q1', 'a'],
  ['q1', 'c'],
  ['q2', 'b'],
  ['q3', 'b'],
  ['q4', 'a'],
  ['q5', 'a'],
  ['q5', 'c'],
  ['q6', 'b'],
  ['q6', 'a'],
  ['q7', 'b'],
];
// The same with q5 right on the first try: 5 of 7, passed.
const FIVE_OF_SEVEN = FOUR_OF_SEVEN.filter(([id, option]) => !(id === 'q5' && option === 'a'));

test('what each version is told: completion, score and success', () => {
  const progress = (picks, walk) => {
    const store = quizStore(picks, { walk });
    return Object.fromEntries(['1.2', '2004'].map((f) => [f, Object.fromEntries(progressValues(f, courseOf(store)))]));
  };
  // Nothing yet.
  assert.deepEqual(progress([], false), {
    '1.2': { 'cmi.core.lesson_status': 'incomplete' },
    '2004': { 'cmi.completion_status': 'incomplete', 'cmi.success_status': 'unknown' },
  });
  // The quiz done (5 of 7, passed) but not the walk: 2004 says passed and
  // incomplete; 1.2 has one status, incomplete, and the score.
  assert.deepEqual(progress(FIVE_OF_SEVEN, false), {
    '1.2': {
      'cmi.core.score.min': '0',
      'cmi.core.score.max': '7',
      'cmi.core.score.raw': '5',
      'cmi.core.lesson_status': 'incomplete',
    },
    '2004': {
      'cmi.score.min': '0',
      'cmi.score.max': '7',
      'cmi.score.raw': '5',
      'cmi.score.scaled': '0.7143',
      'cmi.completion_status': 'incomplete',
      'cmi.success_status': 'passed',
    },
  });
  // Walk and quiz: complete.
  assert.equal(progress(FIVE_OF_SEVEN, true)['1.2']['cmi.core.lesson_status'], 'passed');
  assert.equal(progress(FIVE_OF_SEVEN, true)['2004']['cmi.completion_status'], 'completed');
  // 4 of 7: one under the pass mark, failed.
  const failed = progress(FOUR_OF_SEVEN, true);
  assert.deepEqual(failed, {
    '1.2': {
      'cmi.core.score.min': '0',
      'cmi.core.score.max': '7',
      'cmi.core.score.raw': '4',
      'cmi.core.lesson_status': 'failed',
    },
    '2004': {
      'cmi.score.min': '0',
      'cmi.score.max': '7',
      'cmi.score.raw': '4',
      'cmi.score.scaled': '0.5714',
      'cmi.completion_status': 'completed',
      'cmi.success_status': 'failed',
    },
  });
  // All seven: scaled 1.
  const all = progress(
    QUIZ_IDS.map((id) => [id, QUIZ_KEY[id]]),
    true,
  );
  assert.deepEqual([all['2004']['cmi.score.raw'], all['2004']['cmi.score.scaled']], ['7', '1']);
  // Two answered: no score yet, whatever the walk.
  assert.equal(
    progress(
      [
        ['q1', 'c'],
        ['q2', 'b'],
      ],
      true,
    )['2004']['cmi.success_status'],
    'unknown',
  );
  assert.equal(
    progress(
      [
        ['q1', 'c'],
        ['q2', 'b'],
      ],
      true,
    )['1.2']['cmi.core.score.raw'],
    undefined,
  );
});

// A reporter on a fake platform, with a clock the test moves.
function session(flavour, options = {}) {
  const api = fakeApi(flavour, options);
  const win = fakeWindow({ [flavour === '1.2' ? 'API' : 'API_1484_11']: api });
  const connection = connectLms(win);
  const store = createMemoryLearnerStore();
  if (connection.resume) store.restore(connection.resume.learner);
  let search = '?lang=en';
  let clock = 1000;
  const faults = [];
  const reporter = createLmsReporter({
    connection,
    store,
    view: () => search,
    win,
    onFault: (f) => faults.push(f),
    now: () => clock,
  });
  return {
    api,
    win,
    store,
    faults,
    reporter,
    connection,
    setView: (s) => {
      search = s;
    },
    tick: (ms) => {
      clock += ms;
    },
  };
}

test("SCORM 1.2: a learner's session as the platform receives it, then a second launch resumes it", () => {
  const s = session('1.2');
  // At once: the exit mode, the status and the (empty) state, committed.
  assert.deepEqual(setCalls(s.api), [
    ['cmi.core.exit', 'suspend'],
    ['cmi.core.lesson_status', 'incomplete'],
    ['cmi.suspend_data', '1{"l":{},"v":{"lang":"en"}}'],
    ['cmi.core.session_time', '00:00:00.00'],
  ]);
  assert.equal(count(s.api, 'LMSCommit'), 1);
  // The quiz, wrong then right: one commit per change of the store, and
  // only the values that changed.
  s.tick(61_000);
  let quiz = {};
  for (const [id, option] of FIVE_OF_SEVEN) {
    quiz = pickAnswer(quiz, id, option);
    s.store.write('quiz', quiz);
  }
  assert.equal(count(s.api, 'LMSCommit'), 1 + FIVE_OF_SEVEN.length);
  assert.equal(s.api.cmi['cmi.core.score.raw'], '5');
  assert.equal(s.api.cmi['cmi.core.score.max'], '7');
  assert.equal(s.api.cmi['cmi.core.lesson_status'], 'incomplete');
  assert.equal(s.api.cmi['cmi.core.session_time'], '00:01:01.00');
  s.store.write('walk', { d: 1 });
  assert.equal(s.api.cmi['cmi.core.lesson_status'], 'passed');
  assert.equal(setCalls(s.api).filter(([e]) => e === 'cmi.core.score.raw').length, 1);
  // The view's settings go into suspend_data without a commit.
  s.setView('?lang=en&depth=12');
  const commits = count(s.api, 'LMSCommit');
  s.reporter.viewChanged();
  assert.equal(count(s.api, 'LMSCommit'), commits);
  assert.deepEqual(decodeResume(s.api.cmi['cmi.suspend_data']).view, { lang: 'en', depth: '12' });
  // Hidden: a commit; closed: a commit and LMSFinish, once.
  s.win.document.visibilityState = 'hidden';
  s.win.document.dispatchEvent(new Event('visibilitychange'));
  assert.equal(count(s.api, 'LMSCommit'), commits + 1);
  s.tick(1000);
  s.win.dispatchEvent(new Event('pagehide'));
  s.win.dispatchEvent(new Event('pagehide'));
  s.store.write('exercise', { r: 1 });
  assert.equal(count(s.api, 'LMSFinish'), 1);
  assert.equal(count(s.api, 'LMSCommit'), commits + 2);
  assert.equal(s.api.calls.at(-1)[0], 'LMSFinish');
  assert.equal(s.api.cmi['cmi.core.session_time'], '00:01:02.00');
  assert.deepEqual(s.faults, []);

  // The next launch starts from what the platform kept.
  const next = session('1.2', { cmi: s.api.cmi });
  assert.deepEqual(next.connection.resume.view, { lang: 'en', depth: '12' });
  assert.deepEqual(next.store.snapshot(), { quiz, walk: { d: 1 } });
  assert.equal(next.api.cmi['cmi.core.lesson_status'], 'passed');
});

test('SCORM 2004: completion, success, the scaled score', () => {
  const s = session('2004');
  assert.equal(s.api.cmi['cmi.completion_status'], 'incomplete');
  assert.equal(s.api.cmi['cmi.success_status'], 'unknown');
  assert.equal(s.api.cmi['cmi.exit'], 'suspend');
  s.store.write('walk', { d: 1 });
  let quiz = {};
  // Every question wrong on the first try.
  for (const [id, option] of [
    ['q1', 'a'],
    ['q2', 'a'],
    ['q3', 'a'],
    ['q3', 'b'],
    ['q4', 'b'],
    ['q5', 'a'],
    ['q6', 'c'],
    ['q7', 'a'],
  ])
    quiz = pickAnswer(quiz, id, option);
  s.tick(3_723_456);
  s.store.write('quiz', quiz);
  assert.deepEqual(
    [
      'cmi.completion_status',
      'cmi.success_status',
      'cmi.score.raw',
      'cmi.score.min',
      'cmi.score.max',
      'cmi.score.scaled',
      'cmi.session_time',
    ].map((e) => s.api.cmi[e]),
    ['completed', 'failed', '0', '0', '7', '0', 'PT1H2M3.46S'],
  );
  s.win.dispatchEvent(new Event('pagehide'));
  assert.equal(count(s.api, 'Terminate'), 1);
  assert.deepEqual(s.faults, []);
});

test('a Commit that fails is said once; the store keeps working and later commits are tried', () => {
  for (const flavour of ['1.2', '2004']) {
    const s = session(flavour, { fail: { commit: true } });
    assert.equal(s.faults.length, 1);
    assert.deepEqual(s.faults[0], { call: 'commit', code: '391', message: 'error 391' });
    s.store.write('quiz', pickAnswer({}, 'q1', 'c'));
    s.store.write('walk', { d: 1 });
    assert.equal(s.faults.length, 1);
    assert.equal(count(s.api, NAMES[flavour][4]), 3);
    assert.deepEqual(s.store.snapshot(), { quiz: { q1: { f: 'c', r: 1, c: 'c', w: 1 } }, walk: { d: 1 } });
  }
  // A value the platform refuses (its suspend_data full, say) is a fault too.
  const refused = session('2004', { fail: { set: { 'cmi.suspend_data': true } } });
  assert.deepEqual(refused.faults, [{ element: 'cmi.suspend_data', code: '405', message: 'error 405' }]);
});

test('a platform whose calls throw: the reporter carries on, said once', () => {
  const s = session('1.2', { throws: ['LMSSetValue', 'LMSCommit', 'LMSFinish'] });
  s.store.write('quiz', pickAnswer({}, 'q1', 'c'));
  s.win.dispatchEvent(new Event('pagehide'));
  assert.equal(s.faults.length, 1);
  assert.equal(s.faults[0].element, 'cmi.core.exit');
  assert.equal(count(s.api, 'LMSFinish'), 1);
});

test('a Terminate that fails, or comes twice, ends the session once', () => {
  const s = session('2004', { fail: { terminate: true } });
  s.reporter.close();
  s.reporter.close();
  s.win.dispatchEvent(new Event('pagehide'));
  assert.equal(count(s.api, 'Terminate'), 1);
  const calls = s.api.calls.length;
  s.store.write('quiz', pickAnswer({}, 'q1', 'c'));
  s.reporter.viewChanged();
  assert.equal(s.api.calls.length, calls);
  // stop() lets go of the store and the window.
  const t = session('1.2');
  t.reporter.stop();
  const before = t.api.calls.length;
  t.store.write('walk', { d: 1 });
  t.win.dispatchEvent(new Event('pagehide'));
  assert.equal(t.api.calls.length, before);
});
