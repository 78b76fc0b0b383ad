// The auto-run walk inside <normlab-demo>: as on the page, it asks
// for a prediction first (kept in the element's own memory), walks layer
// 0 -> 23 once the panel's chart has come into view and the prediction is
// in or skipped, with pause, resume and replay, compares, and hands the
// controls over; it does not start by itself under prefers-reduced-motion,
// with autorun="off" (or ?autorun=off in a frame), or when the element names
// a layer. The walks run at the test-only speed (NORMLAB_WALK_STEP_MS).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { significant } from '../../web/src/format.js';
import { guessVerdict } from '../../web/src/predictions.js';
import { factorText } from '../../web/src/widgets/autorun.js';
import { openHost, shareBrowserAndServer, waitPainted } from './page-support.mjs';

const verdict = (guess, measured) => {
  const v = guessVerdict(guess, measured);
  return {
    close: 'within 10% of your guess',
    high: `your guess was ${factorText(v.factor)}× too high`,
    low: `your guess was ${factorText(v.factor)}× too low`,
  }[v.verdict];
};

const shared = shareBrowserAndServer();

// A course page with one <normlab-demo attrs> below a screenful of text.
const hostPage = (attrs = '') => ({
  'course/demo.html': {
    type: 'text/html',
    body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><script defer src="../normlab-embed.js"></script>
<link rel="stylesheet" href="demo.css"></head><body><p class="spacer">Read this first.</p>
<normlab-demo lang="en" ${attrs}></normlab-demo></body></html>`,
  },
  'course/demo.css': { type: 'text/css', body: '.spacer { height: 1200px; }' },
});

const fast = () => {
  window.NORMLAB_WALK_STEP_MS = 300;
};

async function open(attrs, options = {}) {
  const opened = await openHost(shared.browser, `${shared.server.url}course/demo.html`, {
    extra: hostPage(attrs),
    initScript: fast,
    ...options,
  });
  await waitPainted(opened.page);
  return opened;
}

const inDemo = (selector) => `normlab-demo ${selector}`;
const status = (page) => page.getAttribute(inDemo('[data-widget="autorun"]'), 'data-status');
const layer = (page) => page.inputValue(inDemo('#layer-select'));
const waitStatus = (page, want, timeout = 30_000) =>
  page.waitForFunction(
    (s) =>
      document.querySelector('normlab-demo').shadowRoot.querySelector('[data-widget="autorun"]').dataset.status === s,
    want,
    { timeout },
  );
const showChart = (page) => page.locator(inDemo('[data-widget="layer-chart"]')).scrollIntoViewIfNeeded();

test('asks for a prediction, walks layer 0 -> 23 once it is in, compares, then hands over', async () => {
  const { page, problems, close } = await open('');
  try {
    // Below the fold: waiting, and asking.
    await page.waitForTimeout(500);
    assert.equal(await status(page), 'waiting');
    assert.equal(
      await page.textContent(inDemo('.autorun-status')),
      'Make your prediction, or skip it: the walk starts after that.',
    );
    assert.equal(await page.getAttribute(inDemo('[data-widget="autorun"]'), 'data-prediction'), 'asking');
    assert.equal(await layer(page), '0');
    await showChart(page);
    await page.waitForTimeout(500);
    assert.equal(await status(page), 'waiting', 'in view, the walk waits for the prediction');
    await page.locator(inDemo('#predict-residual')).fill('2');
    await page.locator(inDemo('#predict-norm')).fill('1.5');
    await page.click(inDemo('#predict-commit'));
    await waitStatus(page, 'running');
    // The chart's marker and the breakdown follow the walk.
    const markerX = () => page.getAttribute(inDemo('[data-widget="layer-chart"] .marker line'), 'x1');
    await page.waitForFunction(() =>
      document.querySelector('normlab-demo').shadowRoot.querySelector('.autorun-where').textContent.startsWith('Layer'),
    );
    assert.match(
      await page.textContent(inDemo('.autorun-where')),
      /^Layers? \d+(–\d+)? \(of 0–23\): the stream arrives at L2\/tok [\d.]+/,
    );
    assert.equal(await page.getAttribute(inDemo('.strip-compact .is-current'), 'data-stage'), 'layers');
    const first = await markerX();
    await page.waitForFunction(
      (x) =>
        document
          .querySelector('normlab-demo')
          .shadowRoot.querySelector('[data-widget="layer-chart"] .marker line')
          .getAttribute('x1') !== x,
      first,
    );
    await waitStatus(page, 'done');
    assert.equal(await layer(page), '23');
    assert.match(await page.textContent(inDemo('.autorun-status')), /^Done: the controls are yours/);
    assert.equal(
      await page.getAttribute(inDemo('#autorun-progress'), 'value'),
      await page.getAttribute(inDemo('#autorun-progress'), 'max'),
    );
    assert.equal(await page.textContent(inDemo('#autorun-play')), 'Replay');
    // The prediction against the model's numbers, read from the chart it drew.
    const values = (id) =>
      page
        .getAttribute(inDemo(`[data-widget="layer-chart"] .chart-box .series-${id}`), 'data-values')
        .then((v) => v.split(',').map(Number));
    const residual = (await values('residual')).at(-1);
    const norm = (await values('norm-input')).at(-1);
    assert.equal((await values('residual')).length, 25);
    assert.equal(
      await page.textContent(inDemo('.predict-compare')),
      `You put the stream at 100 after layer 23 and the input RMSNorm output at 31.6; the model measured ${significant(residual)} (${verdict(100, residual)}) and ${significant(norm)} (${verdict(10 ** 1.5, norm)}).`,
    );
    // The reader's choice stays.
    await page.locator(inDemo('#layer-select')).fill('5');
    await page.waitForTimeout(600);
    assert.equal(await layer(page), '5');
    assert.equal(await status(page), 'done');
    assert.deepEqual(await page.evaluate(() => window.cspViolations), []);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('pause, resume and replay; moving the layer selector takes over', async () => {
  const { page, problems, close } = await open('');
  try {
    await showChart(page);
    await page.click(inDemo('#predict-skip'));
    await waitStatus(page, 'running');
    await page.waitForFunction(
      () => Number(document.querySelector('normlab-demo').shadowRoot.querySelector('#layer-select').value) >= 2,
    );
    await page.click(inDemo('#autorun-pause'));
    await waitStatus(page, 'paused');
    assert.equal(await page.textContent(inDemo('#autorun-pause')), 'Resume');
    const paused = await layer(page);
    await page.waitForTimeout(700);
    assert.equal(await layer(page), paused);
    await page.click(inDemo('#autorun-pause'));
    await waitStatus(page, 'running');
    await page.waitForFunction(
      (l) => document.querySelector('normlab-demo').shadowRoot.querySelector('#layer-select').value !== l,
      paused,
    );
    // Replay starts from the beginning.
    await page.click(inDemo('#autorun-play'));
    await page.waitForFunction(() =>
      document
        .querySelector('normlab-demo')
        .shadowRoot.querySelector('.autorun-where')
        .textContent.startsWith('Tokenize'),
    );
    assert.equal(await layer(page), '0');
    await page.locator(inDemo('#layer-select')).fill('1');
    await waitStatus(page, 'done');
    await page.waitForTimeout(600);
    assert.equal(await layer(page), '1');
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('taken out of the page the walk pauses; put back, it goes on', async () => {
  const { page, problems, close } = await open('');
  try {
    await showChart(page);
    await page.click(inDemo('#predict-skip'));
    await waitStatus(page, 'running');
    await page.evaluate(() => {
      window.__demo = document.querySelector('normlab-demo');
      window.__demo.remove();
    });
    await page.waitForFunction(
      () => window.__demo.shadowRoot.querySelector('[data-widget="autorun"]').dataset.status === 'paused',
    );
    const step = await page.evaluate(() => window.__demo.shadowRoot.querySelector('#autorun-progress').value);
    await page.waitForTimeout(700);
    assert.equal(await page.evaluate(() => window.__demo.shadowRoot.querySelector('#autorun-progress').value), step);
    await page.evaluate(() => document.body.append(window.__demo));
    await waitStatus(page, 'running');
    // It goes on from where it was, to the end.
    await waitStatus(page, 'done');
    assert.equal(await layer(page), '23');
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('autorun="off": no walk by itself; a prediction shows the curves at once; Play still walks', async () => {
  const { page, problems, close } = await open('autorun="off"');
  try {
    await showChart(page);
    await page.waitForTimeout(600);
    assert.equal(await status(page), 'off');
    assert.equal(await layer(page), '0');
    assert.match(await page.textContent(inDemo('.autorun-status')), /^Press “Play the walk”/);
    const count = (id) =>
      page
        .getAttribute(inDemo(`[data-widget="layer-chart"] .chart-box .series-${id}`), 'data-values')
        .then((v) => (v ? v.split(',').length : 0));
    assert.equal(await count('residual'), 1, 'asked first: only the starting point');
    await page.click(inDemo('#predict-commit'));
    await page.waitForFunction(
      () => document.querySelector('normlab-demo').shadowRoot.querySelector('.predict-compare').textContent !== '',
    );
    assert.equal(await status(page), 'off');
    assert.equal(await count('residual'), 25);
    assert.equal(await count('norm-input'), 24);
    assert.match(
      await page.textContent(inDemo('.predict-compare')),
      /^You put the stream at 9\.6 after layer 23 and the input RMSNorm output at 9\.6; the model measured /,
    );
    await page.click(inDemo('#autorun-play'));
    await waitStatus(page, 'running');
    await waitStatus(page, 'done');
    assert.equal(await layer(page), '23');
    assert.equal(await page.locator(inDemo('.nl-notices .notice')).count(), 0);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('hide="controls": a read-only figure asks nothing and walks once in view', async () => {
  const { page, problems, close } = await open('hide="controls"');
  try {
    assert.equal(await page.getAttribute(inDemo('[data-widget="autorun"]'), 'data-prediction'), 'none');
    await showChart(page);
    await waitStatus(page, 'running');
    await waitStatus(page, 'done');
    assert.equal(await layer(page), '23');
    assert.equal(await page.textContent(inDemo('.predict-compare')), '');
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('prefers-reduced-motion: no walk by itself, and the widget says why', async () => {
  const { page, problems, close } = await open('', { reducedMotion: 'reduce' });
  try {
    await showChart(page);
    await page.waitForTimeout(600);
    assert.equal(await status(page), 'off');
    assert.match(await page.textContent(inDemo('.autorun-status')), /reduced motion/);
    assert.equal(await layer(page), '0');
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('a layer attribute keeps that layer; a bad autorun value gets a note', async () => {
  {
    const { page, problems, close } = await open('layer="3"');
    try {
      await showChart(page);
      await page.waitForTimeout(600);
      assert.equal(await status(page), 'off');
      assert.equal(await layer(page), '3');
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  }
  {
    const { page, problems, close } = await open('autorun="sometimes"');
    try {
      assert.match(await page.textContent(inDemo('.nl-notices')), /autorun=sometimes/);
      await showChart(page);
      await page.click(inDemo('#predict-skip'));
      await waitStatus(page, 'running');
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  }
});

test('?widget=demo&autorun=off in a frame; ?widget=demo walks on first view', async () => {
  for (const [query, want] of [
    ['&autorun=off', 'off'],
    ['', 'running'],
  ]) {
    const { page, problems, close } = await openHost(
      shared.browser,
      `${shared.server.url}index.html?widget=demo&lang=en${query}`,
    );
    try {
      await waitPainted(page);
      await showChart(page);
      if (want === 'running') {
        await page.click(inDemo('#predict-skip'));
        await waitStatus(page, 'running');
      } else await page.waitForTimeout(600);
      assert.equal(await status(page), want, query);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  }
});
