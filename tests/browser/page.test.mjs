// The page in headless Chromium, opened from disk (file://, the classic-script
// build) and over HTTP from web/serve.mjs: it must load the SIMD128 backend,
// say so in its #backend element, and log no error; the trainer's module of
// each flavour loads on the first createTrainer() only. Screenshots go to
// build/screenshots/ for a human to look at.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { distDir, screenshotDir, shareBrowserAndServer } from './page-support.mjs';

const shared = shareBrowserAndServer();

// Open url in a fresh page, collecting every console error, page error and
// failed request (a CSP violation shows up as a console error).
async function openPage(url) {
  const page = await shared.browser.newPage();
  const problems = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()} (${m.location().url})`));
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()} ${r.failure()?.errorText}`));
  await page.goto(url);
  // The page names the backend in #backend once the module has loaded.
  await page
    .waitForFunction(() => /simd128|scalar/.test(document.getElementById('backend')?.textContent), null, {
      timeout: 20_000,
    })
    .catch((error) => {
      throw new Error(`${url}: no backend shown (${error.message}); problems: ${problems.join('; ') || 'none'}`);
    });
  return { page, problems };
}

async function checkPage(url, screenshotName) {
  const { page, problems } = await openPage(url);
  try {
    assert.match(await page.textContent('#backend'), /simd128/);
    // The scalar backend loads on demand too, as a second script beside the first.
    const scalar = await page.evaluate(async () => {
      const nl = await window.normlab.loadNormlab({ backend: 'scalar' });
      try {
        return { backend: nl.backend, y: Array.from(nl.rmsnorm([2, 4, 4, 8], { eps: 0 })) };
      } finally {
        nl.dispose();
      }
    });
    assert.deepEqual(scalar, { backend: 'scalar', y: [0.4, 0.8, 0.8, 1.6].map(Math.fround) });
    // The trainer's module is not part of the page's load: the first
    // createTrainer() adds the one of its backend's flavour, beside the rest.
    const trainScripts = () =>
      page.evaluate(() =>
        [...document.querySelectorAll('script[src*="normlab_train_"]')].map((s) => s.src.split('/').pop()),
      );
    assert.deepEqual(await trainScripts(), []);
    const trained = [];
    for (const backend of ['simd128', 'scalar']) {
      trained.push(
        await page.evaluate(async (backend) => {
          const nl = await window.normlab.loadNormlab({ backend });
          try {
            const refused = await nl.createTrainer({ layers: 0 }).catch((e) => `${e.constructor.name}: ${e.message}`);
            const trainer = await nl.createTrainer({ layers: 2, hidden: 16, heads: 2, seq: 16, batch: 2, steps: 2 });
            const run = trainer.step(2);
            return { backend, refused, stepsDone: run.stepsDone, loss: Array.from(run.loss) };
          } finally {
            nl.dispose();
          }
        }, backend),
      );
      assert.deepEqual(
        await trainScripts(),
        backend === 'simd128' ? ['normlab_train_simd.js'] : ['normlab_train_simd.js', 'normlab_train_scalar.js'],
      );
    }
    for (const run of trained) {
      assert.equal(run.refused, 'RangeError: layers must be an integer in 1..64', run.backend);
      assert.equal(run.stepsDone, 2, run.backend);
      // A byte-level model's first loss is near ln(256) = 5.55.
      assert.ok(Math.abs(run.loss[0] - Math.log(256)) < 0.5, `${run.backend}: first loss ${run.loss[0]}`);
    }
    await page.screenshot({ path: `${screenshotDir}${screenshotName}` });
    assert.deepEqual(problems, []);
  } finally {
    await page.close();
  }
}

describe('the page in Chromium', () => {
  test('opened from file:// uses SIMD128 and logs no error', async () => {
    await checkPage(new URL('index.html', `file://${distDir}`).href, 'page-file.png');
  });

  test('served over HTTP uses SIMD128 and logs no error', async () => {
    await checkPage(`${shared.server.url}index.html`, 'page-http.png');
  });

  test("one language's text comes with the page, the other on a switch", async () => {
    const requested = [];
    const page = await shared.browser.newPage();
    const errors = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('request', (r) => requested.push(new URL(r.url()).pathname.split('/').pop()));
    // The reader switches while the kernels load, and the kernels' first
    // paint (over several tasks) runs before the English dictionary is
    // here: that paint is in the language shown, and English follows.
    let switched;
    const onSwitch = new Promise((resolve) => (switched = resolve));
    const later = (ms) => onSwitch.then(() => new Promise((resolve) => setTimeout(resolve, ms)));
    await page.route('**/normlab_simd.js', (route) => onSwitch.then(() => route.continue()));
    await page.route('**/i18n.en.js', (route) => later(1500).then(() => route.continue()));
    try {
      // (The load event waits for the kernels' script.)
      await page.goto(`${shared.server.url}index.html?lang=zh-CN`, { waitUntil: 'domcontentloaded' });
      await page.waitForFunction(() => document.documentElement.dataset.built !== undefined);
      const dictionaries = () => requested.filter((f) => f.startsWith('i18n.'));
      assert.deepEqual(dictionaries(), ['i18n.zh-CN.js']);
      assert.equal(await page.textContent('#quiz-title'), '自测');
      assert.equal(await page.textContent('#backend'), '加载中…');
      await page.selectOption('#lang-select', 'en');
      switched();
      await page.waitForFunction(() => /simd128/.test(document.getElementById('backend').textContent));
      await page.waitForFunction(() => document.getElementById('quiz-title').textContent === 'Check yourself');
      assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
      assert.equal(await page.textContent('h1'), 'RMSNorm: the brake on the residual stream');
      await page.selectOption('#lang-select', 'zh-CN');
      await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
      assert.equal(await page.textContent('#quiz-title'), '自测');
      assert.deepEqual(dictionaries(), ['i18n.zh-CN.js', 'i18n.en.js']);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  test('over HTTP, the ES module build loads both backends', async () => {
    const { page, problems } = await openPage(shared.server.url);
    try {
      const results = await page.evaluate(async () => {
        const { loadNormlab } = await import('/normlab.mjs');
        const out = [];
        for (const backend of ['auto', 'scalar']) {
          const nl = await loadNormlab({ backend });
          const trainer = await nl.createTrainer({ layers: 2, hidden: 16, heads: 2, seq: 16, batch: 2, steps: 1 });
          out.push({
            backend: nl.backend,
            p: Array.from(nl.softmax([0, 0, Math.log(2)])),
            trained: trainer.step(1).stepsDone,
          });
          nl.dispose();
        }
        return out;
      });
      // Each with its trainer's module, imported beside normlab.mjs.
      assert.deepEqual(results, [
        { backend: 'simd128', p: [0.25, 0.25, 0.5], trained: 1 },
        { backend: 'scalar', p: [0.25, 0.25, 0.5], trained: 1 },
      ]);
      assert.deepEqual(problems, []);
    } finally {
      await page.close();
    }
  });

  test('the server sends the right MIME types', async () => {
    for (const [file, type] of [
      ['index.html', 'text/html'],
      ['normlab.js', 'text/javascript'],
      ['normlab.mjs', 'text/javascript'],
      ['style.css', 'text/css'],
    ]) {
      const response = await fetch(`${shared.server.url}${file}`);
      assert.equal(response.status, 200, file);
      assert.match(response.headers.get('content-type'), new RegExp(`^${type}`), file);
      await response.arrayBuffer();
    }
    assert.equal((await fetch(`${shared.server.url}../package.json`)).status, 404);
    assert.equal((await fetch(`${shared.server.url}%2e%2e/package.json`)).status, 404);
  });
});
