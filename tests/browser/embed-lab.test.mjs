// The training lab as an embedded widget: <normlab-training-lab> from
// dist/normlab-embed.js on a host page under the strict CSP (lab.js fetched
// only once the element is built, once however many elements, lab.css linked
// in each shadow root; the trainer's wasm module fetched at the first run),
// a run at test speed whose layer-norm chart and table appear inside the
// element; the iframe form (index.html?widget=training-lab)
// from file://; and axe on the widget at 375 and 1280 px, light and dark.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, test } from 'node:test';

import { layerNormsReading } from '../../web/src/lab/layer-norms.js';
import { LAB_DICTIONARIES } from '../../web/src/lab/text.js';
import { fileUrl, openHost, openPage, settle, shareBrowserAndServer } from './page-support.mjs';

const shared = shareBrowserAndServer();
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const fewSteps = (steps) => `window.NORMLAB_LAB_STEPS = ${steps};`;
const RUN_TIMEOUT_MS = 10 * 60 * 1000;
const HOST = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>lab host</title>
<script defer src="normlab-embed.js"></script></head>
<body><h1>A course page</h1><main id="slot"></main></body></html>`;

// Skips the guess, trains one pre-norm run and waits for its end.
async function trainOne(page, lab) {
  await page.locator(`${lab} #lab-run-post`).uncheck();
  await page.locator(`${lab} #lab-run-warmup`).uncheck();
  await page.locator(`${lab} .lab-predict button.button-quiet`).first().click();
  await page.waitForFunction((sel) => {
    const host = document.querySelector(sel.split(' ')[0]);
    return !host.shadowRoot.querySelector('.lab-start').disabled;
  }, lab);
  await page.locator(`${lab} .lab-start`).click();
  await page.waitForFunction(
    (tag) => document.querySelector(tag).shadowRoot.querySelector('.lab').dataset.phase === 'done',
    lab.split(' ')[0],
    { timeout: RUN_TIMEOUT_MS },
  );
  await settle(page);
}

describe('<normlab-training-lab>', () => {
  test('under the CSP: lab.js loads when the element is built, once; the run and its layer-norm chart show', async () => {
    const { page, problems, close } = await openHost(shared.browser, `${shared.server.url}lab-host.html`, {
      extra: { 'lab-host.html': { type: 'text/html', body: HOST } },
      initScript: fewSteps(2),
    });
    const labRequests = [];
    page.on('request', (r) => /\/lab\.(js|css)$/.test(r.url()) && labRequests.push(new URL(r.url()).pathname));
    const trainRequests = [];
    page.on('request', (r) => /normlab_train_/.test(r.url()) && trainRequests.push(new URL(r.url()).pathname));
    try {
      await page.waitForFunction(() => customElements.get('normlab-training-lab') !== undefined);
      await settle(page);
      assert.deepEqual(labRequests, [], 'nothing of the lab before an element exists');
      await page.evaluate(() => {
        for (let i = 0; i < 2; i++) {
          const lab = document.createElement('normlab-training-lab');
          lab.setAttribute('lang', 'en');
          document.querySelector('#slot').append(lab);
        }
      });
      await page.waitForSelector('normlab-training-lab .lab-start');
      assert.equal(await page.locator('normlab-training-lab .lab').count(), 2);
      assert.equal(labRequests.filter((p) => p.endsWith('lab.js')).length, 1, labRequests.join(', '));
      assert.equal(
        await page.evaluate(() => document.querySelectorAll('script[src$="lab.js"]').length),
        1,
        'one lab.js for both elements',
      );
      assert.equal(
        await page
          .locator('normlab-training-lab')
          .first()
          .evaluate((n) => n.shadowRoot.querySelector('link[href$="lab.css"]') !== null),
        true,
      );
      assert.deepEqual(trainRequests, [], "the trainer's module waits for the first run");
      // The first of the two elements trains.
      await trainOne(page, 'normlab-training-lab:first-of-type');
      // The trainer's module of the kernels' flavour, from beside the embed script.
      assert.deepEqual(trainRequests, ['/normlab_train_simd.js']);
      const figure = page.locator('normlab-training-lab:first-of-type [data-chart="lab-norms"]');
      assert.equal(await figure.getAttribute('data-run'), 'pre');
      const values = (id) =>
        figure
          .locator(`.chart-box g.series-lab-${id}`)
          .getAttribute('data-values')
          .then((text) => text.split(',').map(Number));
      const before = await values('before-norm1');
      const after = await values('after-norm1');
      assert.equal(before.length, 24);
      assert.equal(after.length, 24);
      for (const v of before) assert.ok(Math.abs(v - Math.sqrt(32)) < 0.01, `norm output at init ${v}`);
      assert.equal(
        await page.locator('normlab-training-lab:first-of-type .lab-norms h4').textContent(),
        LAB_DICTIONARIES.en.normsTitle,
      );
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  test('as ?widget=training-lab from file://, in Chinese', async () => {
    const { page, problems, close } = await openHost(shared.browser, `${fileUrl}?widget=training-lab&lang=zh-CN`, {
      initScript: fewSteps(1),
    });
    try {
      await page.waitForSelector('normlab-training-lab .lab-start');
      assert.equal(await page.locator('normlab-training-lab').count(), 1);
      await trainOne(page, 'normlab-training-lab');
      const reading = await page
        .locator('normlab-training-lab .lab-norms-reading [data-reading]')
        .evaluateAll((ps) => ps.map((p) => [p.dataset.when, p.dataset.reading]));
      // The sentences the drawn numbers choose (pre-norm: the stream's own).
      const values = (id) =>
        page
          .locator(`normlab-training-lab [data-chart="lab-norms"] .chart-box g.series-lab-${id}`)
          .getAttribute('data-values')
          .then((text) => text.split(',').map(Number));
      const expected = [];
      for (const when of ['before', 'after']) {
        const probe = {
          residual: await values(`${when}-residual`),
          norms: {
            inputNorm: { out: await values(`${when}-norm1`) },
            postAttentionNorm: { out: await values(`${when}-norm2`) },
          },
        };
        for (const { key } of layerNormsReading(probe, { when, placement: 'pre', hidden: 32 }))
          expected.push([when, key]);
      }
      assert.deepEqual(reading, expected);
      assert.equal(
        await page.locator('normlab-training-lab .lab-norms h4').textContent(),
        LAB_DICTIONARIES['zh-CN'].normsTitle,
      );
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  for (const [colorScheme, width] of [
    ['light', 375],
    ['dark', 1280],
    ['dark', 375],
    ['light', 1280],
  ]) {
    test(`axe: no serious or critical violation in the widget, ${colorScheme}, ${width} px, after a run`, async () => {
      const lang = width === 375 ? 'zh-CN' : 'en';
      const { page, problems, close } = await openPage(
        shared.browser,
        `${shared.server.url}index.html?widget=training-lab&lang=${lang}`,
        { colorScheme, viewport: { width, height: 900 }, bypassCSP: true, initScript: fewSteps(1) },
      );
      try {
        await page.waitForSelector('normlab-training-lab .lab-start');
        await trainOne(page, 'normlab-training-lab');
        await page.locator('normlab-training-lab [data-chart="lab-norms"] summary').click();
        await settle(page);
        await page.addScriptTag({ content: axeSource });
        const results = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
        const serious = results.violations
          .filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
        assert.deepEqual(serious, []);
        assert.deepEqual(problems, []);
      } finally {
        await close();
      }
    });
  }
});
