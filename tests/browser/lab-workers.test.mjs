// The training lab's two engines (web/src/lab/runner.js) in headless
// Chromium, at the test-only speed: the default contrast trained in Web
// Workers from file:// (blob: workers, the page's own policy) and over http
// under the strict policy course pages use plus worker-src 'self' (workers
// from their URL), and on the main thread in idle slices where a policy
// forbids workers (the lab says so in its status) or the test asks for it
// (window.NORMLAB_LAB_WORKERS = false): every drawn number and sample the
// same bit for bit in all four. Then a reload mid-contrast, resumed from the
// checkpoints in workers (one at a time, the lab's number on two cores) and
// in slices: the same bits again. The workers' instances are tracked as the
// soak tracks the trainer's (trainer-tracker.mjs): one worker per run, each
// terminated when its run ends, and every one at once when a contrast is
// reset while its runs train.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { LAB_DEFAULTS } from '../../web/src/lab/runs.js';
import { LAB_DICTIONARIES } from '../../web/src/lab/text.js';
import { liveTrainerModules, trackTrainerModules } from './trainer-tracker.mjs';
import {
  CSP,
  LAB as lab,
  bringLabIn,
  cspViolations,
  fileUrl,
  openPage,
  settle,
  shareBrowserAndServer,
} from './page-support.mjs';

const shared = shareBrowserAndServer();
const STEPS = 12;
const EN = LAB_DICTIONARIES.en;
const fewSteps = `window.NORMLAB_LAB_STEPS = ${STEPS};`;
// All three runs at once (the lab's own number is one per core but one).
const allAtOnce = 'window.NORMLAB_LAB_WORKERS = 3;';

const engineOf = (page) => page.evaluate((sel) => document.querySelector(sel).dataset.engine, lab);
const waitPhase = (page, phase) =>
  page.waitForFunction(([sel, want]) => document.querySelector(sel).dataset.phase === want, [lab, phase], {
    timeout: 5 * 60 * 1000,
  });

async function startContrast(page) {
  await bringLabIn(page);
  await settle(page);
  await page.check('#lab-guess-pre');
  await page.locator(`${lab} .lab-predict button`).first().click();
  await page.waitForFunction((sel) => !document.querySelector(`${sel} .lab-start`).disabled, lab);
  await page.locator(`${lab} .lab-start`).click();
}

// Every number the lab drew of each run, and its sample, as text.
async function drawn(page) {
  return page.evaluate((sel) => {
    const out = {};
    for (const g of document.querySelectorAll(`${sel} [data-chart] .chart-box g[data-values]`)) {
      const chart = g.closest('[data-chart]').dataset.chart;
      out[`${chart} ${g.getAttribute('class')}`] = g.getAttribute('data-values');
    }
    out.samples = [...document.querySelectorAll(`${sel} .lab-sample`)].map((n) => n.textContent);
    out.nextChars = [...document.querySelectorAll(`${sel} .lab-next-chars`)].map((n) => n.textContent);
    out.readouts = document.querySelector(`${sel} .readouts`)?.textContent;
    return out;
  }, lab);
}

// Trains the default contrast in a fresh page; while it trains the status
// line must match `saying` (a RegExp). Returns the page and what it drew.
async function contrast(url, options, engine, saying) {
  const { page, problems, close } = await openPage(shared.browser, url, options);
  try {
    await startContrast(page);
    await page.waitForFunction(
      ([sel, source]) => new RegExp(source).test(document.querySelector(`${sel} .lab-status`).textContent),
      [lab, saying.source],
    );
    await waitPhase(page, 'done');
    assert.equal(await engineOf(page), engine);
    return { page, problems, close, numbers: await drawn(page) };
  } catch (error) {
    await close();
    throw error;
  }
}

// The status while the three train at once, and where workers were refused.
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const [before, after] = EN.statusWorkers.split('{runs}').map(escape);
const AT_ONCE = new RegExp(`^${before}.+, .+,? and .+${after}$`);
const NO_WORKERS = new RegExp(`${escape(EN.statusNoWorkers)}$`);
const SLICES = new RegExp(`^${escape(EN.statusTraining).replace('\\{run\\}', '.+')}$`);

test('workers from file:// and over http, idle slices where a policy forbids workers or a test asks: the same bits', async () => {
  const fromFile = await contrast(
    fileUrl,
    { initScript: `${fewSteps} ${allAtOnce} (${trackTrainerModules})();` },
    'workers',
    AT_ONCE,
  );
  const served = `${shared.server.url}index.html`;
  const withWorkers = await contrast(
    served,
    { initScript: `${fewSteps} ${allAtOnce}`, csp: `${CSP}; worker-src 'self'` },
    'workers',
    AT_ONCE,
  );
  const forbidden = await contrast(
    served,
    { initScript: fewSteps, csp: `${CSP}; worker-src 'none'` },
    'slices',
    NO_WORKERS,
  );
  const asked = await contrast(
    fileUrl,
    { initScript: `${fewSteps} window.NORMLAB_LAB_WORKERS = false;` },
    'slices',
    SLICES,
  );
  try {
    const reference = fromFile.numbers;
    assert.ok(Object.keys(reference).filter((k) => k.startsWith('lab-loss')).length >= 3, 'three loss curves drawn');
    assert.ok(reference.samples.length >= 3 && reference.samples.every((s) => s.length > 0), 'three samples');
    for (const [name, other] of [
      ['http, worker-src self', withWorkers],
      ['http, worker-src none', forbidden],
      ['file://, slices asked', asked],
    ]) {
      assert.deepEqual(other.numbers, reference, `${name}: the same numbers as the workers from file://`);
    }
    // No policy broken where workers are allowed; where they are not, the
    // one refused worker is all the policy reports, and the lab says why it
    // trains on the page.
    assert.deepEqual(fromFile.problems, []);
    assert.deepEqual(await cspViolations(fromFile.page), []);
    assert.deepEqual(withWorkers.problems, []);
    assert.deepEqual(await cspViolations(withWorkers.page), []);
    const violations = await cspViolations(forbidden.page);
    assert.ok(violations.length >= 1, 'the refused worker is reported');
    for (const v of violations) assert.match(v, /^worker-src blocked /);
    for (const p of forbidden.problems) assert.match(p, /worker|Content Security Policy/i, p);
    assert.deepEqual(asked.problems, []);

    // One worker per run, each holding a trainer's instance (its memory
    // reported), each terminated when its run ended.
    const seen = await liveTrainerModules(fromFile.page, await fromFile.page.context().newCDPSession(fromFile.page));
    const workers = seen.instances.filter((m) => m.backend.startsWith('worker'));
    assert.equal(workers.length, LAB_DEFAULTS.runs.length, 'one worker per run');
    for (const w of workers) {
      assert.equal(w.backend, 'worker simd128');
      assert.ok(w.maxBytes > 1 << 20, `a worker's instance reported its memory: ${w.maxBytes}`);
    }
    assert.deepEqual(seen.live, [], 'no worker or instance left once the runs ended');
  } finally {
    for (const c of [fromFile, withWorkers, forbidden, asked]) await c.close();
  }
});

test('a reset while the runs train in workers terminates every worker', async () => {
  const { page, problems, close } = await openPage(shared.browser, fileUrl, {
    initScript: `${allAtOnce} (${trackTrainerModules})();`,
  });
  try {
    const cdp = await page.context().newCDPSession(page);
    await startContrast(page);
    // Every run's worker has made its trainer and reported its memory.
    await page.waitForFunction(
      (n) => window.__trainerModules.read().filter((m) => m.alive && m.bytes > 0).length >= n,
      LAB_DEFAULTS.runs.length,
      { timeout: 120_000 },
    );
    assert.equal(await engineOf(page), 'workers');
    await page.locator(`${lab} .lab-reset`).click();
    await waitPhase(page, 'idle');
    const seen = await liveTrainerModules(page, cdp);
    assert.equal(seen.instances.length, LAB_DEFAULTS.runs.length, 'the three workers, no trainer on the page');
    assert.deepEqual(seen.live, [], 'a reset terminates every worker');
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

// A reload mid-contrast: the lab offers the saved contrast and, resumed,
// ends with every drawn number and sample equal to an uninterrupted run's.
// Checkpoints every 200 ms here (the lab's own: every 5 s).
async function resumedContrast(options) {
  const { page, problems, close } = await openPage(shared.browser, fileUrl, {
    initScript: `window.NORMLAB_LAB_STEPS = ${RESUME_STEPS}; window.NORMLAB_LAB_CHECKPOINT_MS = 200; ${options}`,
  });
  try {
    await startContrast(page);
    // The first run saved part-way through its training.
    await page.waitForFunction(
      (sel) => {
        const step = Number(
          document.querySelector(`${sel} .lab-saved-line`)?.textContent.match(/pre-norm at step (\d+)/)?.[1],
        );
        return step >= 5 && step <= 40;
      },
      lab,
      { timeout: 120_000, polling: 20 },
    );
    const savedLine = await page.locator(`${lab} .lab-saved-line`).textContent();
    await page.reload();
    await page.waitForFunction(() => document.getElementById('backend')?.dataset.backend !== 'loading');
    await bringLabIn(page);
    const offer = page.locator(`${lab} .lab-resume`);
    await offer.waitFor({ state: 'visible', timeout: 60_000 });
    const offerLine = await page.locator(`${lab} .lab-saved-line`).textContent();
    await offer.click();
    await waitPhase(page, 'done');
    return { page, problems, close, savedLine, offerLine, numbers: await drawn(page) };
  } catch (error) {
    await close();
    throw error;
  }
}

const RESUME_STEPS = 60;

test('a reload mid-contrast: the lab offers to go on, and the resumed runs end bit for bit as uninterrupted ones', async () => {
  const whole = await contrast(
    fileUrl,
    { initScript: `window.NORMLAB_LAB_STEPS = ${RESUME_STEPS}; ${allAtOnce}` },
    'workers',
    AT_ONCE,
  );
  const resumed = await resumedContrast('');
  const resumedSlices = await resumedContrast('window.NORMLAB_LAB_WORKERS = false;');
  try {
    for (const r of [resumed, resumedSlices]) {
      assert.match(r.savedLine, /^Progress saved in this browser \(pre-norm at step \d+ of 60, /);
      const step = Number(r.offerLine.match(/pre-norm at step (\d+) of 60/)?.[1]);
      assert.ok(step >= 1 && step < 60, r.offerLine);
      assert.deepEqual(r.numbers, whole.numbers, 'the resumed contrast draws what the uninterrupted one drew');
      assert.deepEqual(r.problems, []);
      // The contrast ended: nothing is offered any more.
      await r.page.reload();
      await bringLabIn(r.page);
      await settle(r.page);
      assert.equal(await r.page.locator(`${lab} .lab-resume`).isVisible(), false);
    }
  } finally {
    for (const c of [whole, resumed, resumedSlices]) await c.close();
  }
});
