// Embedding without SIMD128 or without WebAssembly at all: the
// <normlab-*> elements and ?widget= frames on the scalar backend (forced with
// backend="scalar" / ?backend=scalar, and picked by themselves in a browser
// whose WebAssembly lacks SIMD128) show the same figures as on SIMD128, and
// the training lab trains on the trainer's module of the same flavour; with
// the backend scripts blocked they say so plainly and keep their text.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { openHost, shareBrowserAndServer, waitPainted, gradientsDone } from './page-support.mjs';

const SOFTMAX_AT_DEFAULT = ['0.325', '0.218', '0.161', '0.132', '0.098', '0.066'];
const ELEMENTS = [
  'softmax',
  'gain',
  'calculator',
  'layer-chart',
  'playground',
  'gradient-flow',
  'demo',
  'training-lab',
];

const shared = shareBrowserAndServer();

// A course page in another folder with every element, on `backend`.
function hostPage(backend) {
  const attr = backend ? ` backend="${backend}"` : '';
  return {
    'course/all.html': {
      type: 'text/html',
      body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><script defer src="../normlab-embed.js"></script></head><body>
${ELEMENTS.map((name) => `<normlab-${name} lang="en"${attr}${name === 'demo' ? ' autorun="off"' : ''}${name === 'gradient-flow' ? ' gdepth="12"' : ''}></normlab-${name}>`).join('\n')}
</body></html>`,
    },
  };
}

const rows = (page, selector) =>
  page.locator(selector).evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
const texts = (page, selector) => page.locator(selector).allTextContents();

// Every figure the elements show, as text.
async function figures(page) {
  await gradientsDone(page);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  return {
    softmax: await texts(page, 'normlab-softmax .bar-value'),
    calculator: await texts(page, 'normlab-calculator [data-step]'),
    playground: await texts(page, 'normlab-playground [data-readout]'),
    gain: await texts(page, 'normlab-gain .readout dd'),
    layerChart: await rows(page, 'normlab-layer-chart [data-widget="layer-chart"] tbody tr'),
    gradientFlow: await rows(page, 'normlab-gradient-flow [data-widget="gradient-flow"] tbody tr'),
    demoBreakdown: await texts(page, 'normlab-demo [data-box] [data-stat] dd'),
    demoAttention: await rows(page, 'normlab-demo [data-widget="attention"] tbody tr'),
    demoGradients: await rows(page, 'normlab-demo [data-widget="gradient-flow"] tbody tr'),
  };
}

// The training lab's pre-norm run alone, one step (NORMLAB_LAB_STEPS): the
// guess skipped, started, waited for. Returns its drawn losses.
async function trainOneStep(page) {
  const lab = 'normlab-training-lab';
  await page.waitForSelector(`${lab} .lab-start`);
  // Unchecked by the boxes' own click(): the elements above the lab may
  // still change height as they paint, which can move a box away from the
  // point a pointer click aims at.
  for (const id of ['post', 'warmup']) {
    const box = page.locator(`${lab} #lab-run-${id}`);
    await box.evaluate((input) => input.checked && input.click());
    assert.equal(await box.isChecked(), false, id);
  }
  await page.locator(`${lab} .lab-predict button.button-quiet`).first().click();
  await page.waitForFunction(
    (tag) => !document.querySelector(tag).shadowRoot.querySelector('.lab-start').disabled,
    lab,
  );
  await page.locator(`${lab} .lab-start`).click();
  await page.waitForFunction(
    (tag) => document.querySelector(tag).shadowRoot.querySelector('.lab').dataset.phase === 'done',
    lab,
    { timeout: 5 * 60 * 1000 },
  );
  const values = await page
    .locator(`${lab} [data-chart="lab-loss"] .chart-box g.series-lab-pre`)
    .getAttribute('data-values');
  return values.split(',').map(Number);
}

async function allBackends(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('*')].filter((n) => n.localName.startsWith('normlab-')).map((n) => n.dataset.backend),
  );
}

test('backend="scalar": every element computes on the scalar build, the same figures as on SIMD128', async () => {
  const results = {};
  for (const backend of ['simd128', 'scalar']) {
    const { page, problems, scripts, close } = await open(`${shared.server.url}course/all.html`, {
      extra: hostPage(backend),
      initScript: 'window.NORMLAB_LAB_STEPS = 1;',
    });
    const trainScripts = [];
    page.on('request', (r) => /normlab_train_/.test(r.url()) && trainScripts.push(r.url().replace(/^.*\//, '')));
    try {
      await waitPainted(page);
      assert.deepEqual(
        await allBackends(page),
        ELEMENTS.map(() => backend),
      );
      // Only the backend asked for is downloaded, once for all elements.
      assert.deepEqual(
        scripts.map((s) => s.replace(/^.*\//, '')),
        [backend === 'scalar' ? 'normlab_scalar.js' : 'normlab_simd.js'],
      );
      assert.equal(await page.evaluate(() => window.normlabEmbed.wasmInstances), 1);
      results[backend] = await figures(page);
      // The lab trains on the trainer's module of the same flavour, loaded
      // for its first run only.
      assert.deepEqual(trainScripts, []);
      const loss = await trainOneStep(page);
      assert.deepEqual(trainScripts, [backend === 'scalar' ? 'normlab_train_scalar.js' : 'normlab_train_simd.js']);
      assert.equal(loss.length, 1);
      // A byte-level model's first loss is near ln(256) = 5.55.
      assert.ok(Math.abs(loss[0] - Math.log(256)) < 0.5, `first loss ${loss[0]}`);
      assert.deepEqual(await page.evaluate(() => window.cspViolations), []);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  }
  const scalar = results.scalar;
  assert.deepEqual(scalar.softmax, SOFTMAX_AT_DEFAULT);
  assert.ok(scalar.calculator.includes('[1.07, -0.53, 1.6, 0]'), scalar.calculator.join(' | '));
  assert.ok(scalar.playground.includes('16.0'), scalar.playground.join(' | '));
  assert.equal(scalar.layerChart.length, 25, 'residual stream at 24 layers + the final norm');
  assert.equal(scalar.gradientFlow.length, 12);
  assert.ok(
    scalar.demoBreakdown.length > 10 && scalar.demoBreakdown.every((v) => /\d/.test(v)),
    scalar.demoBreakdown.join(' | '),
  );
  // The two builds run the same C++; what the widgets print agrees digit for digit.
  for (const key of Object.keys(scalar)) assert.deepEqual(scalar[key], results.simd128[key], key);
});

test('without SIMD128 in the browser, the elements pick the scalar build by themselves', async () => {
  // wasm-feature-detect asks WebAssembly.validate about a SIMD module; an
  // engine without SIMD128 says no.
  const initScript = () => {
    WebAssembly.validate = () => false;
  };
  const { page, problems, scripts, close } = await open(`${shared.server.url}course/all.html`, {
    extra: hostPage(null),
    initScript,
  });
  try {
    await waitPainted(page);
    assert.deepEqual(
      await allBackends(page),
      ELEMENTS.map(() => 'scalar'),
    );
    assert.deepEqual(
      scripts.map((s) => s.replace(/^.*\//, '')),
      ['normlab_scalar.js'],
    );
    assert.deepEqual(await texts(page, 'normlab-softmax .bar-value'), SOFTMAX_AT_DEFAULT);
    assert.ok((await texts(page, 'normlab-calculator [data-step]')).includes('[1.07, -0.53, 1.6, 0]'));
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('?widget=NAME&backend=scalar: the frame computes on the scalar build', async () => {
  for (const widget of ['softmax', 'calculator', 'demo']) {
    const { page, problems, close } = await open(
      `${shared.server.url}index.html?widget=${widget}&lang=en&backend=scalar`,
    );
    try {
      await waitPainted(page);
      assert.equal(await page.getAttribute(`normlab-${widget}`, 'data-backend'), 'scalar');
      if (widget === 'softmax') assert.deepEqual(await texts(page, 'normlab-softmax .bar-value'), SOFTMAX_AT_DEFAULT);
      if (widget === 'calculator')
        assert.ok((await texts(page, 'normlab-calculator [data-step]')).includes('[1.07, -0.53, 1.6, 0]'));
      if (widget === 'demo') {
        const normOut = Number(await page.textContent('normlab-demo [data-box="inputNormOut"] [data-stat="l2"] dd'));
        assert.ok(Math.abs(normOut - 32) < 3.2, `scalar model's norm output ${normOut}`);
      }
      assert.deepEqual(await page.evaluate(() => window.cspViolations), []);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  }
});

const WASM_FAILED = /The WebAssembly module could not be loaded/;
// Only the blocked backend script itself may show up as a problem: its
// failed request, and the browser's own console line about it.
const onlyBlockedScript = (problems) =>
  problems.filter(
    (p) =>
      !/^request failed: .*normlab_(simd|scalar)\.js net::ERR_FAILED$/.test(p) &&
      p !== 'console: Failed to load resource: net::ERR_FAILED',
  );

test('with the kernels blocked, every element says so plainly and keeps its text', async () => {
  for (const backend of [null, 'scalar']) {
    const { page, problems, close } = await open(`${shared.server.url}course/all.html`, {
      extra: hostPage(backend),
      blockKernels: true,
    });
    try {
      await waitPainted(page, 'text');
      assert.deepEqual(
        await allBackends(page),
        ELEMENTS.map(() => 'failed'),
      );
      for (const name of ELEMENTS) {
        const notice = page.locator(`normlab-${name} .nl-notices .notice`);
        assert.match(await notice.textContent(), WASM_FAILED, name);
        assert.ok(await notice.isVisible(), name);
      }
      // The text still reads: labels, notes, the demo panel's headings and captions.
      assert.match(await page.textContent('normlab-softmax .widget-note'), /\d/);
      assert.equal(await page.textContent('normlab-softmax label[for="softmax-l2"]'), 'Per-token magnitude (L2)');
      const titles = await texts(page, 'normlab-demo .nl-title');
      assert.ok(titles.includes('Gradient flow: pre-norm vs post-norm'), titles.join(' | '));
      assert.ok((await texts(page, 'normlab-demo .nl-caption')).every((c) => c.length > 40));
      // No figure pretends to be computed.
      assert.equal(await page.locator('normlab-softmax .bar-value').count(), 0);
      assert.deepEqual(await page.evaluate(() => window.cspViolations), []);
      assert.deepEqual(onlyBlockedScript(problems), []);
    } finally {
      await close();
    }
  }
});

test('with the kernels blocked, a ?widget= frame says so and keeps its text', async () => {
  const { page, problems, close } = await open(`${shared.server.url}index.html?widget=demo&lang=en`, {
    blockKernels: true,
  });
  try {
    await waitPainted(page, 'text');
    assert.equal(await page.getAttribute('normlab-demo', 'data-backend'), 'failed');
    assert.match(await page.textContent('normlab-demo .nl-notices'), WASM_FAILED);
    assert.ok((await texts(page, 'normlab-demo .nl-title')).includes('The model and its settings'));
    assert.deepEqual(onlyBlockedScript(problems), []);
  } finally {
    await close();
  }
});

function open(url, options) {
  return openHost(shared.browser, url, options);
}
