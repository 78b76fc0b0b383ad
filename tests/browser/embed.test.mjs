// Embedding: the <normlab-*> custom elements of dist/normlab-embed.js
// on dist/embed-demo.html, and iframe mode (index.html?widget=NAME), under the
// strict Content-Security-Policy course pages use, against hostile host CSS
// and XSS payloads in every attribute and URL parameter.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { openHost, shareBrowserAndServer, waitPainted, gradientsDone } from './page-support.mjs';

// The elements on embed-demo.html. <normlab-training-lab> is not one of
// them: the demo page holds the widgets that compute as it opens, and the
// lab would add lab.js, lab.css and, once it trains, the trainer's module
// to it (and to the soak and accessibility runs of that page). The lab
// embedded under the CSP header is tested in embed-lab.test.mjs, on each
// backend and with the kernels blocked in embed-fallback.test.mjs.
const ELEMENTS = ['softmax', 'gain', 'calculator', 'layer-chart', 'playground', 'gradient-flow', 'demo'];
const PAYLOADS = ['<img src=x onerror=window.__xss=1>', '"><script>window.__xss=1</script>', 'javascript:alert(1)'];

const shared = shareBrowserAndServer();

const open = (url, options) => openHost(shared.browser, url, options);
const waitComputed = (target) => waitPainted(target, 'computed');

test('embed-demo.html under the CSP header: every element computes, one wasm instance, no violation', async () => {
  const { page, problems, scripts, close } = await open(`${shared.server.url}embed-demo.html`);
  try {
    await waitComputed(page);
    for (const name of ELEMENTS) assert.ok((await page.locator(`normlab-${name}`).count()) >= 1, name);
    // Computed figures, one per element (Playwright's CSS locators pierce open shadow roots).
    assert.equal(await page.locator('#softmax + normlab-softmax .bar-value').first().textContent(), '0.325');
    assert.equal(await page.textContent('normlab-calculator [data-step="rms-y"]'), '[1.07, -0.53, 1.6, 0]');
    assert.equal(await page.textContent('normlab-playground [data-readout="output-l2"]'), '16.0');
    assert.match(await page.locator('normlab-gain .readout dd').first().textContent(), /\d/);
    assert.ok((await page.locator('normlab-layer-chart svg.chart path').count()) > 0);
    const normOut = Number(await page.textContent('normlab-demo [data-box="inputNormOut"] [data-stat="l2"] dd'));
    assert.ok(normOut > 0, `demo's norm output ${normOut}`);
    await gradientsDone(page);
    // One backend script, one wasm instance, for the nine elements.
    assert.equal(await page.locator('normlab-softmax').count(), 4);
    assert.equal(scripts.length, 1, scripts.join(', '));
    assert.equal(await page.evaluate(() => window.normlabEmbed.wasmInstances), 1);
    assert.equal(await page.evaluate(() => document.querySelectorAll('script[src$="normlab_simd.js"]').length), 1);
    // Styles come from the linked stylesheet inside each shadow root, and do not leak out.
    assert.equal(await page.evaluate(() => getComputedStyle(document.body).fontFamily), 'Georgia, serif');
    // Theme: dark attribute and custom properties set by the host page.
    const dark = await page
      .locator('#softmax-dark + normlab-softmax .nl-root')
      .evaluate((n) => getComputedStyle(n).backgroundColor);
    assert.equal(dark, 'rgb(20, 21, 25)');
    const purple = await page
      .locator('normlab-softmax.purple .bar.is-highlight rect')
      .evaluate((n) => getComputedStyle(n).fill);
    assert.equal(purple, 'rgb(106, 27, 154)');
    // hide=: captions/notes/tables gone in the dark one, the language switch in the purple one.
    assert.equal(await page.locator('#softmax-dark + normlab-softmax .widget-note').first().isVisible(), false);
    assert.equal(await page.locator('#softmax-dark + normlab-softmax .data-table').isVisible(), false);
    assert.equal(await page.locator('normlab-softmax.purple .nl-lang').isVisible(), false);
    assert.equal(await page.locator('#softmax + normlab-softmax .nl-lang').isVisible(), true);
    // Bad values: defaults plus a visible note each.
    const notes = await page.locator('#bad-values + normlab-softmax .notice').allTextContents();
    assert.equal(notes.length, 3, notes.join(' | '));
    assert.match(notes.join(' '), /lang=xx/);
    assert.match(notes.join(' '), /hide=sparkles/);
    assert.equal(await page.locator('#bad-values + normlab-softmax .bar-value').first().textContent(), '0.325');
    // The calculator speaks Chinese; its own language switch changes only it.
    assert.equal(await page.locator('normlab-calculator .nl-lang').inputValue(), 'zh-CN');
    await page.locator('#softmax + normlab-softmax .nl-lang').selectOption('zh-CN');
    await page.waitForFunction(
      () => document.querySelector('normlab-softmax').shadowRoot.querySelector('.nl-root').lang === 'zh-CN',
    );
    assert.equal(await page.locator('normlab-gain .nl-root').getAttribute('lang'), 'en');
    // A slider inside a shadow root works.
    await page.locator('#softmax + normlab-softmax #softmax-l2').fill('3');
    await page.waitForFunction(
      () => document.querySelector('normlab-softmax').shadowRoot.querySelector('.bar-value').textContent !== '0.325',
    );
    assert.deepEqual(await page.evaluate(() => window.cspViolations), []);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('moved in the document, an element keeps what the reader changed; a later attribute still applies', async () => {
  const { page, problems, close } = await open(`${shared.server.url}embed-demo.html`);
  const barValue = (selector) =>
    page.evaluate((s) => document.querySelector(s).shadowRoot.querySelector('.bar-value').textContent, selector);
  const frames = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  try {
    await waitComputed(page);
    await page.locator('#softmax + normlab-softmax #softmax-l2').fill('3');
    await page.waitForFunction(
      () =>
        document.querySelector('#softmax + normlab-softmax').shadowRoot.querySelector('.bar-value').textContent !==
        '0.325',
    );
    const changed = await barValue('#softmax + normlab-softmax');
    // Re-parented, as slide and tab frameworks do.
    await page.evaluate(() => {
      const element = document.querySelector('#softmax + normlab-softmax');
      element.id = 'moved';
      document.body.append(element);
    });
    await frames();
    assert.equal(await page.locator('#moved #softmax-l2').inputValue(), '3');
    assert.equal(await barValue('#moved'), changed);
    // Detached, given an attribute, attached again: the attribute wins.
    await page.evaluate(() => {
      const element = document.getElementById('moved');
      element.remove();
      element.setAttribute('l2', '32');
      document.body.prepend(element);
    });
    await page.waitForFunction(
      () => document.getElementById('moved').shadowRoot.querySelector('.bar-value').textContent === '0.325',
    );
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('from another folder, hostile host-page CSS does not break the elements', async () => {
  // The host page lives in another folder: the script finds its backend and
  // stylesheet next to itself, by its own URL.
  const extra = {
    'course/unit1/hostile.html': {
      type: 'text/html',
      body: `<!doctype html><html><head><link rel="stylesheet" href="hostile.css"><script defer src="../../normlab-embed.js"></script></head>
<body><div><p>host text</p></div><normlab-softmax lang="en"></normlab-softmax><normlab-calculator lang="en"></normlab-calculator></body></html>`,
    },
    'course/unit1/hostile.css': {
      type: 'text/css',
      body: `* { color: red !important; font-size: 40px !important; }
div, p, span, svg, dl, dd, label, input, output, details, table { display: none !important; color: red !important; }
.widget, .bar-value, .notice, .control { display: none !important; }
normlab-softmax, normlab-calculator { display: block; }`,
    },
  };
  const { page, problems, close } = await open(`${shared.server.url}course/unit1/hostile.html`, { extra });
  try {
    await waitComputed(page);
    const inside = await page.locator('normlab-softmax .bar-value').first();
    assert.equal(await inside.textContent(), '0.325');
    const style = await inside.evaluate((n) => ({
      display: getComputedStyle(n).display,
      color: getComputedStyle(n).fill,
    }));
    assert.notEqual(style.display, 'none');
    const note = page.locator('normlab-softmax .widget-note').first();
    assert.notEqual(await note.evaluate((n) => getComputedStyle(n).color), 'rgb(255, 0, 0)');
    assert.notEqual(await note.evaluate((n) => getComputedStyle(n).display), 'none');
    assert.notEqual(
      await page.locator('normlab-calculator .widget').evaluate((n) => getComputedStyle(n).display),
      'none',
    );
    assert.ok((await page.locator('normlab-softmax').boundingBox()).height > 200);
    assert.deepEqual(await page.evaluate(() => window.cspViolations), []);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

const parentPage = (src) => ({
  'parent.html': {
    type: 'text/html',
    body: `<!doctype html><html><head><script src="parent.js"></script></head><body><iframe id="f" src="${src.replace(/&/g, '&amp;')}" width="900" height="300"></iframe></body></html>`,
  },
  'parent.js': {
    type: 'text/javascript',
    body: `window.__messages = []; addEventListener('message', (e) => window.__messages.push(e.data));`,
  },
});

test('?widget=softmax shows that widget alone and posts lti.frameResize to its parent', async () => {
  const { page, problems, close } = await open(`${shared.server.url}parent.html`, {
    extra: parentPage('index.html?widget=softmax&lang=en'),
  });
  try {
    const frame = page.frameLocator('#f');
    await page.waitForFunction(() => window.__messages.some((m) => m?.subject === 'lti.frameResize'));
    const inner = page.frames().find((f) => f.url().includes('widget=softmax'));
    await waitComputed(inner);
    assert.equal(await frame.locator('normlab-softmax .bar-value').first().textContent(), '0.325');
    assert.equal(await inner.locator('.toolbar, #intro, #glossary, .page-footer').count(), 0);
    assert.equal(
      await inner.evaluate(
        () => [...document.querySelectorAll('*')].filter((n) => n.localName.startsWith('normlab-')).length,
      ),
      1,
    );
    const messages = await page.evaluate(() => window.__messages);
    const lti = messages.filter((m) => m?.subject === 'lti.frameResize');
    assert.ok(lti.at(-1).height > 100, JSON.stringify(lti));
    assert.ok(messages.some((m) => m?.context === 'h5p' && m.action === 'resize' && m.scrollHeight > 100));
    // Without ?allowOrigin the frame ignores the parent's messages.
    await page.evaluate(() =>
      document
        .getElementById('f')
        .contentWindow.postMessage({ type: 'normlab:set', attributes: { lang: 'zh-CN' } }, '*'),
    );
    await page.waitForTimeout(200);
    assert.equal(await inner.locator('normlab-softmax .nl-root').getAttribute('lang'), 'en');
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('?allowOrigin= lets that origin (only) drive the frame', async () => {
  const origin = shared.server.url.replace(/\/$/, '');
  const src = `index.html?widget=softmax&lang=en&allowOrigin=${encodeURIComponent(`https://lms.example,${origin},not an origin`)}`;
  const { page, problems, close } = await open(`${shared.server.url}parent.html`, { extra: parentPage(src) });
  try {
    await page.waitForFunction(() => window.__messages.some((m) => m?.subject === 'lti.frameResize'));
    const inner = page.frames().find((f) => f.url().includes('widget=softmax'));
    await waitComputed(inner);
    assert.match(await inner.locator('normlab-softmax .nl-notices').textContent(), /allowOrigin=not an origin/);
    await page.evaluate(() =>
      document
        .getElementById('f')
        .contentWindow.postMessage({ type: 'normlab:set', attributes: { lang: 'zh-CN', onclick: 'x' } }, '*'),
    );
    await inner.waitForFunction(
      () => document.querySelector('normlab-softmax').shadowRoot.querySelector('.nl-root').lang === 'zh-CN',
    );
    assert.equal(await inner.locator('normlab-softmax').getAttribute('onclick'), null);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('XSS payloads in attributes stay text or fall back with a note', async () => {
  const { page, problems, close } = await open(`${shared.server.url}embed-demo.html`);
  try {
    await waitComputed(page);
    await page.evaluate((payloads) => {
      for (const payload of payloads) {
        for (const tag of ['normlab-softmax', 'normlab-demo']) {
          const node = document.createElement(tag);
          node.className = 'xss';
          for (const attr of ['prompt', 'lang', 'hide', 'norm', 'layer', 'theme', 'backend'])
            node.setAttribute(attr, payload);
          document.body.append(node);
        }
      }
    }, PAYLOADS);
    await waitComputed(page);
    await page.waitForTimeout(300);
    assert.equal(await page.evaluate(() => window.__xss), undefined);
    const notes = await page.locator('normlab-softmax.xss .notice').allTextContents();
    for (const payload of PAYLOADS)
      assert.ok(
        notes.some((n) => n.includes(`lang=${payload}`)),
        payload,
      );
    // The demo keeps the payload as its prompt, as text in the input.
    assert.equal(await page.locator('normlab-demo.xss #model-prompt').first().inputValue(), PAYLOADS[0]);
    assert.equal(
      await page.locator('normlab-demo.xss img, normlab-softmax.xss img, normlab-demo.xss script').count(),
      0,
    );
    assert.deepEqual(await page.evaluate(() => window.cspViolations), []);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('XSS payloads in URL parameters stay text; an unknown widget shows the page with a note', async () => {
  for (const payload of PAYLOADS) {
    const q = encodeURIComponent(payload);
    // As the widget name: the whole page, with a note naming it.
    {
      const { page, problems, close } = await open(`${shared.server.url}index.html?widget=${q}`);
      try {
        await page.waitForFunction(() => document.getElementById('backend')?.dataset.backend === 'simd128');
        assert.ok((await page.textContent('#notices')).includes(`widget=${payload}`));
        assert.equal(await page.evaluate(() => window.__xss), undefined);
        assert.equal(await page.locator('#notices img').count(), 0);
        assert.deepEqual(problems, []);
      } finally {
        await close();
      }
    }
    // As every other parameter of a widget frame.
    {
      const { page, problems, close } = await open(
        `${shared.server.url}index.html?widget=demo&prompt=${q}&lang=${q}&hide=${q}&allowOrigin=${q}&theme=${q}`,
      );
      try {
        await waitComputed(page);
        const notes = await page.locator('normlab-demo .nl-notices').textContent();
        assert.ok(notes.includes(`lang=${payload}`) && notes.includes(`allowOrigin=`), notes);
        assert.equal(await page.locator('normlab-demo #model-prompt').inputValue(), payload);
        assert.equal(await page.evaluate(() => window.__xss), undefined);
        assert.deepEqual(await page.evaluate(() => window.cspViolations), []);
        assert.deepEqual(problems, []);
      } finally {
        await close();
      }
    }
  }
});

test('an unknown widget name is never a blank page', async () => {
  const { page, problems, close } = await open(`${shared.server.url}index.html?widget=nonsense&lang=en`);
  try {
    await page.waitForFunction(() => document.getElementById('backend')?.dataset.backend === 'simd128');
    assert.match(await page.textContent('#notices'), /widget=nonsense/);
    assert.ok(await page.locator('#notices').isVisible());
    assert.equal(await page.locator('[data-widget="softmax"] .bar-value').first().textContent(), '0.325');
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});
