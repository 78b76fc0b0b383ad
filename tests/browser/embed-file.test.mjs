// dist/embed-demo.html opened from disk (file://), the way a teacher tries it
// before uploading: every custom element and the ?widget= iframe render live
// numbers, under the page's own <meta> Content-Security-Policy, with no
// console error. (Over HTTP with the CSP header: embed.test.mjs.)
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { distDir, openHost, shareBrowserAndServer, waitPainted, gradientsDone } from './page-support.mjs';

// The elements on embed-demo.html. <normlab-training-lab> is not one of
// them: the demo page holds the widgets that compute as it opens, and the
// lab would add lab.js, lab.css and, once it trains, the trainer's module
// to it (and to the soak and accessibility runs of that page). The lab
// from file:// (as ?widget=training-lab) is tested in embed-lab.test.mjs.
const ELEMENTS = ['softmax', 'gain', 'calculator', 'layer-chart', 'playground', 'gradient-flow', 'demo'];
const SOFTMAX_AT_DEFAULT = ['0.325', '0.218', '0.161', '0.132', '0.098', '0.066'];
const demoUrl = new URL('embed-demo.html', `file://${distDir}`).href;

const shared = shareBrowserAndServer();

async function checkDemoPage({ initScript, backend }) {
  const { page, problems, scripts, close } = await openHost(shared.browser, demoUrl, { initScript });
  try {
    await waitPainted(page);
    const elements = await page.evaluate(() =>
      [...document.querySelectorAll('*')]
        .filter((n) => n.localName.startsWith('normlab-'))
        .map((n) => ({ name: n.localName, backend: n.dataset.backend, painted: n.dataset.painted })),
    );
    assert.deepEqual([...new Set(elements.map((e) => e.name))].sort(), ELEMENTS.map((n) => `normlab-${n}`).sort());
    for (const e of elements) assert.deepEqual(e, { name: e.name, backend, painted: 'computed' });
    // Live numbers in every element.
    assert.deepEqual(await page.locator('#softmax + normlab-softmax .bar-value').allTextContents(), SOFTMAX_AT_DEFAULT);
    // l2="96": the scores times 3.
    assert.equal(await page.locator('#softmax-dark + normlab-softmax .bar-value').first().textContent(), '0.655');
    assert.match(await page.locator('normlab-gain .readout dd').first().textContent(), /^\d+$/);
    assert.equal(await page.textContent('normlab-calculator [data-step="rms-y"]'), '[1.07, -0.53, 1.6, 0]');
    assert.equal(await page.locator('normlab-layer-chart [data-widget="layer-chart"] tbody tr').count(), 25);
    assert.equal(await page.textContent('normlab-playground [data-readout="output-l2"]'), '16.0');
    await gradientsDone(page);
    assert.equal(await page.locator('normlab-gradient-flow [data-widget="gradient-flow"] tbody tr').count(), 12);
    const normOut = Number(await page.textContent('normlab-demo [data-box="inputNormOut"] [data-stat="l2"] dd'));
    assert.ok(normOut > 0, `demo's norm output ${normOut}`);
    // One backend script for all of them.
    assert.equal(scripts.length, 1, scripts.join(', '));
    assert.equal(await page.evaluate(() => window.normlabEmbed.wasmInstances), 1);
    // The iframe of index.html?widget=softmax, from disk too. From file://
    // it counts as cross-origin, and Chromium does not render such a frame
    // while it is off screen: it paints once scrolled into view.
    const frame = page.frames().find((f) => f.url().includes('widget=softmax'));
    assert.ok(frame, 'the iframe loaded');
    await page.locator('iframe.normlab-frame').scrollIntoViewIfNeeded();
    await waitPainted(frame);
    assert.deepEqual(await frame.locator('normlab-softmax .bar-value').allTextContents(), SOFTMAX_AT_DEFAULT);
    assert.equal(await frame.getAttribute('normlab-softmax', 'data-backend'), backend);
    // embed-demo.js sized the frame from its height message.
    await page.waitForFunction(() => document.querySelector('iframe.normlab-frame').style.height !== '');
    const height = await page.locator('iframe.normlab-frame').evaluate((n) => n.getBoundingClientRect().height);
    assert.ok(height > 300 && height !== 400, `iframe height ${height}`);
    // A slider inside a shadow root works from disk too.
    await page.locator('#softmax + normlab-softmax #softmax-l2').fill('3');
    await page.waitForFunction(
      () => document.querySelector('normlab-softmax').shadowRoot.querySelector('.bar-value').textContent !== '0.325',
    );
    assert.ok(Number(await page.locator('#softmax + normlab-softmax .bar-value').first().textContent()) > 0.9);
    assert.deepEqual(await page.evaluate(() => window.cspViolations), []);
    assert.deepEqual(await frame.evaluate(() => window.cspViolations), []);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
}

test('embed-demo.html from file://: every element renders live numbers, no console error', async () => {
  await checkDemoPage({ backend: 'simd128' });
});

test('embed-demo.html from file:// without SIMD128: the scalar build, the same numbers', async () => {
  await checkDemoPage({
    backend: 'scalar',
    initScript: () => {
      WebAssembly.validate = () => false;
    },
  });
});
