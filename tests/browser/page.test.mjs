// The page in headless Chromium, opened from disk (file://, the classic-script
// build) and over HTTP from web/serve.mjs: it must load the SIMD128 backend,
// say so in its #backend element, and log no error. Screenshots go to
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

  test('over HTTP, the ES module build loads both backends', async () => {
    const { page, problems } = await openPage(shared.server.url);
    try {
      const results = await page.evaluate(async () => {
        const { loadNormlab } = await import('/normlab.mjs');
        const out = [];
        for (const backend of ['auto', 'scalar']) {
          const nl = await loadNormlab({ backend });
          out.push({ backend: nl.backend, p: Array.from(nl.softmax([0, 0, Math.log(2)])) });
          nl.dispose();
        }
        return out;
      });
      assert.deepEqual(results, [
        { backend: 'simd128', p: [0.25, 0.25, 0.5] },
        { backend: 'scalar', p: [0.25, 0.25, 0.5] },
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
