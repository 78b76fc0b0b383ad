// The page under the strict Content-Security-Policy course pages embed it
// with (sent as a header by the server, on top of the page's own <meta>
// policy), and with the scalar fallback forced: every view still computes
// and not one violation is reported while the reader uses every control.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { cspViolations, fileUrl, openPage, settle, shareBrowserAndServer, gradientsDone } from './page-support.mjs';

const SOFTMAX_AT_DEFAULT = ['0.325', '0.218', '0.161', '0.132', '0.098', '0.066'];

const shared = shareBrowserAndServer();

// Moves every control once, so code paths that only run on input (chart
// redraws, tooltips, typesetting, notices) run under the policy too.
async function exercise(page) {
  // The questions asked before the sliders move: a guess, then a skip.
  await page.fill('#softmax-guess', '0.6');
  await page.click('[data-widget="softmax"] button[data-action="check"]');
  await page.check('#softmax-growth-square');
  await page.check('#softmax-growth-linear');
  await page.click('[data-widget="playground"] button[data-action="skip"]');
  await page.fill('#softmax-l2', '3');
  await page.fill('#calc-vector', '1, oops');
  await page.fill('#calc-vector', '5, -5, 1e3');
  await page.selectOption('#calc-eps', '0.00001');
  await page.fill('#playground-stretch', '-3.5');
  await page.fill('#model-prompt', '残差流 stream');
  await page.selectOption('#model-norm', 'layernorm');
  await page.selectOption('#model-placement', 'post');
  await page.fill('#model-depth', '30');
  await page.selectOption('#layer-chart-scale', 'linear');
  await page.locator('[data-widget="layer-chart"]').scrollIntoViewIfNeeded();
  await page.fill('#predict-residual', '2');
  await page.click('#predict-commit');
  await page.click('#autorun-play');
  await page.click('#autorun-pause');
  await page.click('#autorun-next');
  await page.click('#autorun-finish');
  await page.fill('#layer-select', '12');
  await page.hover('[data-widget="layer-chart"] .hover-overlay');
  await page.click('#predict-again');
  await page.fill('#grad-depth', '10');
  await gradientsDone(page);
  await page.locator('[data-question="q3"] [data-option="b"]').click();
  await page.hover('#intro .summary .term');
  await page.click('#intro .summary .term');
  await page.locator('[data-widget="softmax"] summary').click();
  await page.selectOption('#theme-select', 'dark');
  await page.selectOption('#lang-select', 'zh-CN');
  await page.setViewportSize({ width: 375, height: 800 });
  await settle(page);
}

test('served with the CSP header: no violation while every control is used', async () => {
  const { page, problems, close } = await openPage(shared.browser, `${shared.server.url}index.html`, { csp: true });
  try {
    assert.equal(await page.textContent('#backend'), 'simd128');
    assert.deepEqual(await page.locator('[data-widget="softmax"] .bar-value').allTextContents(), SOFTMAX_AT_DEFAULT);
    await exercise(page);
    assert.equal(await page.textContent('[data-widget="softmax"] .zone-badge'), '饱和');
    assert.deepEqual(await cspViolations(page), []);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test("from file://, under the page's own <meta> policy: no violation", async () => {
  const { page, problems, close } = await openPage(shared.browser, fileUrl);
  try {
    await exercise(page);
    assert.deepEqual(await cspViolations(page), []);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('with ?backend=scalar the fallback computes the same figures', async () => {
  const { page, problems, close } = await openPage(shared.browser, `${shared.server.url}index.html?backend=scalar`, {
    csp: true,
  });
  try {
    assert.equal(await page.textContent('#backend'), 'scalar');
    assert.deepEqual(await page.locator('[data-widget="softmax"] .bar-value').allTextContents(), SOFTMAX_AT_DEFAULT);
    assert.equal(await page.textContent('[data-step="rms-y"]'), '[1.07, -0.53, 1.6, 0]');
    assert.equal(await page.textContent('[data-widget="playground"] [data-readout="output-l2"]'), '16.0');
    // The model runs on the scalar build too: its norm outputs sit near 32.
    const normOut = Number(await page.textContent('[data-box="inputNormOut"] [data-stat="l2"] dd'));
    assert.ok(Math.abs(normOut - 32) < 3.2, `scalar model's norm output ${normOut}`);
    assert.deepEqual(await cspViolations(page), []);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('if the kernels cannot load, the page says so and keeps its text', async () => {
  const { page, close } = await openPage(shared.browser, `${shared.server.url}index.html`, {
    csp: true,
    blockKernels: true,
  });
  try {
    assert.equal(await page.textContent('#backend'), 'unavailable');
    assert.match(await page.textContent('#notices'), /The WebAssembly module could not be loaded/);
    assert.equal(await page.textContent('#softmax-title'), 'Large inputs push softmax toward one-hot');
    assert.equal(await page.locator('#glossary dt').count(), 8);
  } finally {
    await close();
  }
});
