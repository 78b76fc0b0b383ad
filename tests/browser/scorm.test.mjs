// normlab as a SCORM package in a course platform, both versions: the
// packages `./build.sh dist` writes are built here, unpacked, and launched
// in an iframe by a harness page running scorm-again as the LMS
// (scorm-support.mjs). A learner skips the prediction and the rest of the
// walk and answers the quiz, once wrong and once right; the runtime must
// have received the score, the statuses and suspend_data; leaving the page
// commits and terminates once; a second launch with the kept CMI data finds
// the answers and the view again. Then the faults: no API, Initialize
// refused, Commit failing, the platform terminating first.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { lookup } from '../../web/src/i18n/index.js';
import { decodeResume } from '../../web/src/resume-data.js';
import { SCORM_METHODS } from '../js/scorm-methods.mjs';
import { launchBrowser, settle } from './page-support.mjs';
import { FOLDER, buildHarnessSite, installLms, serve } from './scorm-support.mjs';
import { FAST_WALK, text, waitStatus } from './walk-support.mjs';

const shared = { browser: null, site: null, server: null };
before(async () => {
  shared.browser = await launchBrowser();
  shared.site = buildHarnessSite();
  shared.server = await serve(shared.site.dir);
});
after(async () => {
  await shared.browser?.close();
  shared.server?.stop();
  shared.site?.remove();
});

const NOT_SAVING = { en: lookup('en', 'notice.lmsNotSaving'), 'zh-CN': lookup('zh-CN', 'notice.lmsNotSaving') };
const STORE_KEY = 'normlab:learner:v1';

// A launch: the harness page with the runtime installed as `options` says,
// and the SCO's frame once its kernels have loaded.
async function launch(flavour, options = {}) {
  const context = await shared.browser.newContext({ viewport: { width: 1240, height: 900 }, locale: 'en-US' });
  const page = await context.newPage();
  const problems = [];
  const warnings = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
    if (m.type() === 'warning') warnings.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  await page.addInitScript(FAST_WALK);
  await page.goto(`${shared.server.url}harness.html`);
  await page.evaluate(installLms, { flavour, names: SCORM_METHODS[flavour], folder: FOLDER[flavour], ...options });
  const frameHandle = await page.waitForSelector('#sco');
  const frame = await frameHandle.contentFrame();
  await frame.waitForFunction(() => document.getElementById('backend')?.dataset.backend !== 'loading', null, {
    timeout: 60_000,
  });
  await settle(frame);
  return { page, frame, problems, warnings, close: () => context.close() };
}

// What the SCO sent: every call, and the last value the runtime accepted
// for each element.
async function received(page) {
  const calls = await page.evaluate(() => window.lmsCalls);
  const values = {};
  for (const [name, element, value, answer] of calls) {
    if (/SetValue$/.test(name) && answer === 'true') values[element] = value;
  }
  const count = (re) => calls.filter(([name]) => re.test(name)).length;
  return { calls, values, count };
}

// The runtime's own data model (what an LMS stores).
const runtimeCmi = (page, flavour) =>
  page.evaluate((flavour) => {
    const { cmi } = window.lms;
    return flavour === '1.2'
      ? {
          status: cmi.core.lesson_status,
          raw: cmi.core.score.raw,
          min: cmi.core.score.min,
          max: cmi.core.score.max,
          suspend: cmi.suspend_data,
        }
      : {
          completion: cmi.completion_status,
          success: cmi.success_status,
          raw: cmi.score.raw,
          min: cmi.score.min,
          max: cmi.score.max,
          scaled: cmi.score.scaled,
          suspend: cmi.suspend_data,
        };
  }, flavour);

const notices = (frame) => frame.locator('#notices .notice p').allTextContents();
const quizOption = (frame, q, o) => frame.locator(`[data-question="${q}"] [data-option="${o}"]`);

async function answerQuiz(frame, picks) {
  for (const [q, o] of picks) {
    await quizOption(frame, q, o).click();
    await settle(frame);
  }
  await settle(frame);
}

// The walk: the prediction skipped, then the walk skipped to its end (or,
// at the test's speed, already at it).
async function skipWalk(frame) {
  await frame.locator('[data-widget="layer-chart"]').scrollIntoViewIfNeeded();
  await settle(frame);
  await frame.click('#predict-skip');
  await frame.evaluate(() => {
    const finish = document.getElementById('autorun-finish');
    if (!finish.disabled) finish.click();
  });
  await waitStatus(frame, 'done');
  await settle(frame);
}

// Q1 and Q6 wrong then right, Q2 to Q5 and Q7 right: 5 of 7 on the first
// try, the pass mark (two thirds of the questions).
const WRONG_THEN_RIGHT = [
  ['q1', 'a'],
  ['q1', 'c'],
  ['q2', 'b'],
  ['q3', 'b'],
  ['q4', 'a'],
  ['q5', 'c'],
  ['q6', 'b'],
  ['q6', 'a'],
  ['q7', 'b'],
];
const QUIZ_KEPT = {
  q1: { f: 'a', r: 0, c: 'c', w: 1 },
  q2: { f: 'b', r: 1, c: 'b', w: 1 },
  q3: { f: 'b', r: 1, c: 'b', w: 1 },
  q4: { f: 'a', r: 1, c: 'a', w: 1 },
  q5: { f: 'c', r: 1, c: 'c', w: 1 },
  q6: { f: 'b', r: 0, c: 'a', w: 1 },
  q7: { f: 'b', r: 1, c: 'b', w: 1 },
};

for (const flavour of ['1.2', '2004']) {
  const status = (values) =>
    flavour === '1.2'
      ? values['cmi.core.lesson_status']
      : [values['cmi.completion_status'], values['cmi.success_status']];
  const e =
    flavour === '1.2'
      ? {
          raw: 'cmi.core.score.raw',
          min: 'cmi.core.score.min',
          max: 'cmi.core.score.max',
          time: 'cmi.core.session_time',
          exit: 'cmi.core.exit',
          finish: /^LMSFinish$/,
          commit: /^LMSCommit$/,
          set: /^LMSSetValue$/,
        }
      : {
          raw: 'cmi.score.raw',
          min: 'cmi.score.min',
          max: 'cmi.score.max',
          time: 'cmi.session_time',
          exit: 'cmi.exit',
          finish: /^Terminate$/,
          commit: /^Commit$/,
          set: /^SetValue$/,
        };

  describe(`SCORM ${flavour}`, () => {
    test("a learner's session reaches the runtime; a second launch resumes it", async () => {
      const first = await launch(flavour);
      let kept;
      try {
        // At once: Initialize, the status, the exit mode, and a commit.
        let sent = await received(first.page);
        assert.deepEqual(sent.calls[0].slice(0, 1), [flavour === '1.2' ? 'LMSInitialize' : 'Initialize']);
        assert.equal(sent.calls[0].at(-1), 'true');
        assert.deepEqual(status(sent.values), flavour === '1.2' ? 'incomplete' : ['incomplete', 'unknown']);
        assert.equal(sent.values[e.exit], 'suspend');
        assert.equal(sent.count(e.commit), 1);
        assert.deepEqual(await notices(first.frame), []);

        await answerQuiz(first.frame, WRONG_THEN_RIGHT);
        sent = await received(first.page);
        // The quiz done, the walk not: the score, but not complete.
        assert.deepEqual([sent.values[e.raw], sent.values[e.min], sent.values[e.max]], ['5', '0', '7']);
        assert.deepEqual(status(sent.values), flavour === '1.2' ? 'incomplete' : ['incomplete', 'passed']);
        if (flavour === '2004') assert.equal(sent.values['cmi.score.scaled'], '0.7143');
        assert.deepEqual(decodeResume(sent.values['cmi.suspend_data']).learner, { quiz: QUIZ_KEPT });

        await skipWalk(first.frame);
        sent = await received(first.page);
        assert.deepEqual(status(sent.values), flavour === '1.2' ? 'passed' : ['completed', 'passed']);
        const cmi = await runtimeCmi(first.page, flavour);
        assert.deepEqual(
          cmi,
          flavour === '1.2'
            ? { status: 'passed', raw: '5', min: '0', max: '7', suspend: sent.values['cmi.suspend_data'] }
            : {
                completion: 'completed',
                success: 'passed',
                raw: '5',
                min: '0',
                max: '7',
                scaled: '0.7143',
                suspend: sent.values['cmi.suspend_data'],
              },
        );
        // The learner's state is the platform's, not this browser's.
        assert.equal(await first.frame.evaluate((key) => localStorage.getItem(key), STORE_KEY), null);

        // A view setting: the language. It goes into suspend_data (with
        // the next commit: here, leaving).
        await first.frame.selectOption('#lang-select', 'zh-CN');
        await first.frame.waitForFunction(() => new URL(location.href).searchParams.get('lang') === 'zh-CN');
        const commits = (await received(first.page)).count(e.commit);
        // Leaving the page (the player navigates the frame away).
        await first.page.evaluate(() => document.getElementById('sco').remove());
        sent = await received(first.page);
        assert.equal(sent.count(e.finish), 1);
        assert.equal(sent.calls.at(-1)[0], flavour === '1.2' ? 'LMSFinish' : 'Terminate');
        assert.equal(sent.calls.at(-1).at(-1), 'true');
        assert.equal(sent.count(e.commit), commits + 1);
        assert.match(sent.values[e.time], flavour === '1.2' ? /^\d{2,4}:\d\d:\d\d\.\d\d$/ : /^PT\d+H\d+M[\d.]+S$/);
        assert.equal(sent.values[e.exit], 'suspend');
        const resume = decodeResume(sent.values['cmi.suspend_data']);
        assert.deepEqual(resume.learner, { quiz: QUIZ_KEPT, walk: { d: 1 }, predictions: { d: { s: 1 } } });
        assert.ok(sent.values['cmi.suspend_data'].length <= 4096, `${sent.values['cmi.suspend_data'].length}`);
        assert.equal(resume.view.lang, 'zh-CN');
        assert.equal(resume.view.layer, '23');
        assert.deepEqual(first.problems, []);
        kept =
          flavour === '1.2'
            ? {
                'cmi.suspend_data': sent.values['cmi.suspend_data'],
                'cmi.core.lesson_status': 'passed',
                'cmi.core.score.raw': '5',
                'cmi.core.entry': 'resume',
              }
            : {
                'cmi.suspend_data': sent.values['cmi.suspend_data'],
                'cmi.completion_status': 'completed',
                'cmi.success_status': 'passed',
                'cmi.score.raw': '5',
              };
      } finally {
        await first.close();
      }

      // The second launch: the platform hands the kept data back.
      const second = await launch(flavour, { cmi: kept });
      try {
        const { frame } = second;
        assert.equal(await frame.evaluate(() => document.documentElement.lang), 'zh-CN');
        assert.equal(await frame.inputValue('#lang-select'), 'zh-CN');
        for (const [q, o, mark] of [
          ['q1', 'c', 'correct'],
          ['q2', 'b', 'correct'],
          ['q3', 'b', 'correct'],
          ['q4', 'a', 'correct'],
          ['q5', 'c', 'correct'],
          ['q6', 'a', 'correct'],
          ['q7', 'b', 'correct'],
        ]) {
          assert.equal(await quizOption(frame, q, o).getAttribute('data-mark'), mark, q);
        }
        assert.equal(
          await frame.textContent('.quiz-score'),
          text('zh-CN', 'quiz.score', { firstTry: 5, answered: 7, total: 7 }),
        );
        // The walk is not asked again: its prediction was skipped and the
        // view is at the last layer, as a reload would find it.
        assert.equal(await frame.getAttribute('[data-widget="autorun"]', 'data-prediction'), 'skipped');
        const sent = await received(second.page);
        assert.deepEqual(status(sent.values), flavour === '1.2' ? 'passed' : ['completed', 'passed']);
        assert.deepEqual(await notices(frame), []);
        assert.deepEqual(second.problems, []);
      } finally {
        await second.close();
      }
    });

    test('Initialize refused: the page works as a plain page and says once that progress is not saved', async () => {
      // The runtime was already initialized (by the harness): the SCO's
      // Initialize answers false.
      const lms = await launch(flavour, { initializeFirst: true });
      try {
        const { frame, page } = lms;
        assert.deepEqual(await notices(frame), [NOT_SAVING.en]);
        await answerQuiz(frame, WRONG_THEN_RIGHT);
        assert.equal(await quizOption(frame, 'q1', 'c').getAttribute('data-mark'), 'correct');
        // Nothing but the refused Initialize reached the runtime; the
        // answers are kept in this browser, as on the plain page.
        const sent = await received(page);
        assert.deepEqual(
          sent.calls.map(([name]) => name),
          [flavour === '1.2' ? 'LMSInitialize' : 'Initialize'],
        );
        assert.equal(sent.calls[0].at(-1), 'false');
        assert.deepEqual(
          JSON.parse(await frame.evaluate((key) => localStorage.getItem(key), STORE_KEY)).quiz,
          QUIZ_KEPT,
        );
        assert.deepEqual(await notices(frame), [NOT_SAVING.en]);
        assert.deepEqual(lms.problems, []);
      } finally {
        await lms.close();
      }
    });

    test('Commit failing: said once, quietly; the values still go out and the page keeps working', async () => {
      const lms = await launch(flavour, { commitFails: true });
      try {
        const { frame, page } = lms;
        assert.deepEqual(await notices(frame), [NOT_SAVING.en]);
        await answerQuiz(frame, WRONG_THEN_RIGHT);
        await frame.selectOption('#lang-select', 'zh-CN');
        await settle(frame);
        // One note, in the page's language now.
        assert.deepEqual(await notices(frame), [NOT_SAVING['zh-CN']]);
        const sent = await received(page);
        // One commit at the start, one per pick.
        assert.equal(sent.count(e.commit), 1 + WRONG_THEN_RIGHT.length);
        assert.equal(sent.values[e.raw], '5');
        // Dismissed, it stays away.
        await frame.click('#notices .notice button');
        await answerQuiz(frame, [['q1', 'b']]);
        assert.deepEqual(await notices(frame), []);
        assert.deepEqual(lms.problems, []);
      } finally {
        await lms.close();
      }
    });

    test('the platform ends the session first: the SCO is told no, says so once, and terminates once', async () => {
      const lms = await launch(flavour);
      try {
        const { frame, page } = lms;
        await page.evaluate((flavour) => window.lms[flavour === '1.2' ? 'LMSFinish' : 'Terminate'](''), flavour);
        await answerQuiz(frame, [['q1', 'c']]);
        let sent = await received(page);
        if (flavour === '2004') {
          // The 2004 runtime refuses values after Terminate (error 133,
          // store data after termination).
          assert.deepEqual(await notices(frame), [NOT_SAVING.en]);
          assert.ok(sent.calls.some(([name, , , answer]) => e.set.test(name) && answer === 'false'));
          assert.equal(lms.warnings.length, 1);
          assert.match(lms.warnings[0], /^normlab: the course platform refused cmi\.\S+ \(133 /);
        } else {
          // SCORM 1.2 leaves values after LMSFinish to the LMS, and this
          // runtime takes them: nothing to say.
          assert.deepEqual(await notices(frame), []);
          assert.ok(sent.calls.every(([name, , , answer]) => !e.set.test(name) || answer === 'true'));
        }
        await page.evaluate(() => document.getElementById('sco').remove());
        sent = await received(page);
        // The SCO's own Terminate, once; the 2004 runtime answers no, as
        // the session had ended (the 1.2 runtime takes it).
        assert.equal(sent.count(e.finish), 1);
        assert.equal(
          sent.calls.filter(([name]) => e.finish.test(name))[0].at(-1),
          flavour === '2004' ? 'false' : 'true',
        );
        assert.deepEqual(lms.problems, []);
      } finally {
        await lms.close();
      }
    });
  });
}

test('no API: the page is the plain page, and nothing of the LMS side runs', async () => {
  const lms = await launch('1.2', { noApi: true });
  try {
    const { frame, page } = lms;
    assert.equal(await page.evaluate(() => 'API' in window || 'API_1484_11' in window), false);
    assert.deepEqual(await notices(frame), []);
    await answerQuiz(frame, WRONG_THEN_RIGHT);
    // Kept in this browser, as today; the runtime heard nothing.
    assert.deepEqual(JSON.parse(await frame.evaluate((key) => localStorage.getItem(key), STORE_KEY)).quiz, QUIZ_KEPT);
    assert.deepEqual(await page.evaluate(() => window.lmsCalls), []);
    assert.equal(await page.evaluate(() => window.lms.isInitialized()), false);
    await page.evaluate(() => document.getElementById('sco').remove());
    assert.deepEqual(await page.evaluate(() => window.lmsCalls), []);
    assert.deepEqual(lms.problems, []);
  } finally {
    await lms.close();
  }
});
