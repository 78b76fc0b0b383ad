// Numbers as the page writes them, in headless Chromium: no e-notation in
// any text (prose, labels, tables, chart ticks, attributes read aloud), in
// both languages, after the interactions that reach the extreme values; the
// gain widget's "about √d times the gains' RMS" with both numbers computed;
// the reading time computed from the text, the same on every load.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { fixed, significant } from '../../web/src/format.js';
import en from '../../web/src/i18n/en.js';
import { lookup, plain } from '../../web/src/i18n/index.js';
import zhCN from '../../web/src/i18n/zh-CN.js';
import { estimateReadingMinutes } from '../../web/src/reading-time.js';
import { GLOSSARY_KEYS } from '../../web/src/widgets/glossary.js';
import {
  fileUrl,
  openHost,
  openPage,
  settle,
  shareBrowserAndServer,
  waitPainted,
  gradientsDone,
} from './page-support.mjs';

const shared = shareBrowserAndServer();

const E_NOTATION = /\d(\.\d+)?e[+-]?\d/i;

// Every text node and every attribute a reader or a screen reader gets
// (aria-label, aria-valuetext, title, alt, placeholder), in the document
// and in every shadow root, with the e-notation found in them. MathML's
// TeX annotations are typesetting input, not text shown.
function eNotationOnPage() {
  const pattern = /\d(\.\d+)?e[+-]?\d/i;
  const found = [];
  const visit = (root) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (n.parentElement?.closest('annotation, script, style')) continue;
      if (pattern.test(n.textContent))
        found.push(`text in <${n.parentElement?.localName}>: ${n.textContent.trim().slice(0, 80)}`);
    }
    for (const el of root.querySelectorAll('*')) {
      for (const attr of ['aria-label', 'aria-valuetext', 'title', 'alt', 'placeholder']) {
        const value = el.getAttribute(attr);
        if (value && pattern.test(value)) found.push(`${attr} of <${el.localName}>: ${value.slice(0, 80)}`);
      }
      if (el.shadowRoot) visit(el.shadowRoot);
    }
  };
  visit(document);
  return found;
}

// Scrolls every chart into view so that it draws (off-screen sections skip
// rendering, and their charts draw when first seen).
// Charts in hidden figures (the factor chart without a norm) are skipped.
async function drawEveryChart(page) {
  await page.evaluate(async () => {
    const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const roots = [
      document,
      ...[...document.querySelectorAll('*')].filter((n) => n.shadowRoot).map((n) => n.shadowRoot),
    ];
    for (const box of roots.flatMap((root) => [...root.querySelectorAll('.chart-box')])) {
      if (box.getClientRects().length === 0) continue;
      box.scrollIntoView({ block: 'center' });
      await frame();
    }
  });
}

// The softmax and playground questions come before their sliders: skipped
// (the page keeps that in this browser), the sliders are free.
async function skipQuestions(page) {
  for (const name of ['softmax', 'playground']) await page.click(`[data-widget="${name}"] button[data-action="skip"]`);
  await settle(page);
}

async function setRange(page, selector, value) {
  await page.fill(selector, String(value));
  await settle(page);
}

test('no e-notation anywhere on the page, in both languages, at the extreme values', { timeout: 240_000 }, async () => {
  const { page, problems, close } = await openPage(shared.browser, fileUrl);
  try {
    const checked = [];
    const check = async (what) => {
      await drawEveryChart(page);
      const found = await page.evaluate(eNotationOnPage);
      assert.deepEqual(found, [], what);
      checked.push(what);
    };
    await gradientsDone(page);
    await check('defaults, en');
    await skipQuestions(page);
    // The playground at 10⁻⁴ (input L2 ~0.005, mean(x²) ~10⁻⁷) and at 10×.
    await setRange(page, '#playground-stretch', -4);
    await page.selectOption('#playground-eps', '0.00001');
    await settle(page);
    await check('playground at 10⁻⁴, eps 10⁻⁵');
    await setRange(page, '#playground-stretch', 1);
    // The softmax at both ends of its slider.
    await setRange(page, '#softmax-l2', 4);
    await check('playground at 10×, softmax at L2 512');
    await setRange(page, '#softmax-l2', -3);
    // The calculator with tiny and huge entries.
    await page.fill('#calc-vector', '1e20, -3e-8, 4, 0.00002');
    await settle(page);
    await check('calculator with 10²⁰ and 10⁻⁸ entries');
    // The demo panel: LayerNorm, post-norm, deepest, linear scale, the
    // gradients at 48 layers, then no norm (the stream grows past 1000).
    await page.selectOption('#model-norm', 'layernorm');
    await page.selectOption('#model-placement', 'post');
    await setRange(page, '#model-depth', 64);
    await page.selectOption('#layer-chart-scale', 'linear');
    await setRange(page, '#grad-depth', 48);
    await gradientsDone(page);
    await check('LayerNorm, post-norm, 64 layers, gradients at 48');
    await page.selectOption('#model-norm', 'none');
    await page.selectOption('#model-placement', 'pre');
    await settle(page);
    await gradientsDone(page);
    // A new stack asks its own prediction: skipped, and its walk run to the end.
    if (await page.isVisible('#predict-skip')) await page.click('#predict-skip');
    await settle(page);
    if (await page.isVisible('#autorun-finish')) await page.click('#autorun-finish');
    await settle(page);
    const growth = await page.evaluate(
      () => document.querySelector('[data-widget="layer-chart"] .chart-summary').textContent,
    );
    assert.match(growth, /× its starting length/);
    await check('no norm, 64 layers');
    // Every table's text, and a glossary popover, in Chinese too.
    for (const details of await page.locator('details.data-table').all())
      await details.evaluate((d) => {
        d.open = true;
      });
    await page.locator('#intro .summary .term').first().click();
    await page.selectOption('#lang-select', 'zh-CN');
    await settle(page);
    await gradientsDone(page);
    await check('the same, zh-CN');
    assert.equal(checked.length, 7);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('no e-notation in the custom elements either', async () => {
  const { page, problems, close } = await openHost(shared.browser, `${shared.server.url}embed-demo.html`);
  try {
    await waitPainted(page);
    await gradientsDone(page);
    // The playground at its smallest stretch, set the way a course page does.
    await page.evaluate(() => {
      for (const host of document.querySelectorAll('normlab-playground')) host.setAttribute('stretch', '0.0001');
    });
    await settle(page);
    assert.match(
      await page.locator('normlab-playground [data-readout="input-l2"]').first().textContent(),
      /^0\.00\d+$/,
    );
    await drawEveryChart(page);
    assert.deepEqual(await page.evaluate(eNotationOnPage), []);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

// The gain sentence: the length is *about* sqrt(d) times the gains' RMS, and
// the widget shows both that estimate and the length the model measured,
// each computed here from a fresh model through the page's normlab API.
for (const [lang, dictionary] of [
  ['en', en],
  ['zh-CN', zhCN],
]) {
  test(`${lang}: the gains set the output length "about" √d × RMS, shown beside the measured length`, async () => {
    const { page, problems, close } = await openPage(shared.browser, `${fileUrl}?lang=${lang}`);
    try {
      const prompt = dictionary.model.defaultPrompt;
      const { rms, measured } = await page.evaluate(async (prompt) => {
        const nl = await window.normlab.loadNormlab();
        const model = nl.createModel({ layers: 1 });
        try {
          return {
            rms: nl.stats(model.gains(0, 'inputNorm')).rms[0],
            measured: model.forward(prompt).probes['inputNorm.out'].mean.l2[0],
          };
        } finally {
          model.delete();
        }
      }, prompt);
      const predicted = 32 * rms;
      assert.ok(Math.abs(predicted - measured) / measured < 0.03, `${predicted} vs ${measured}`);
      const widget = page.locator('[data-widget="gain"]');
      assert.equal(await widget.locator('[data-readout="rms"]').textContent(), fixed(rms, 3));
      // The typeset √d as text, the rest as it reads.
      const sentence = await widget
        .locator('.gain-length')
        .evaluate((p) =>
          [...p.childNodes]
            .map((n) => (n.nodeType === Node.ELEMENT_NODE && n.classList.contains('math') ? '√d' : n.textContent))
            .join(''),
        );
      const params = {
        sqrtD: '32',
        rms: fixed(rms, 3),
        predicted: significant(predicted),
        measured: significant(measured),
        layer: 0,
      };
      const key = params.predicted === params.measured ? 'gain.lengthMatches' : 'gain.length';
      assert.equal(sentence, plain(lookup(lang, key), params).replace('$\\sqrt{d}$', '√d'));
      assert.match(sentence, lang === 'en' ? /about √d times their RMS/ : /约为 √d 乘以增益的 RMS/);

      // Without a norm there is no norm output to compare with.
      await page.selectOption('#model-norm', 'none');
      await settle(page);
      assert.match(await widget.locator('.gain-length').textContent(), lang === 'en' ? /set to “none”/ : /设为“无”/);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });
}

// Runs in the page before its scripts: the kernels arrive 1.5 s late.
function delayKernels() {
  let api = null;
  Object.defineProperty(window, 'normlab', {
    configurable: true,
    get: () =>
      api && { ...api, loadNormlab: (o) => new Promise((r) => setTimeout(r, 1500)).then(() => api.loadNormlab(o)) },
    set: (value) => {
      api = value;
    },
  });
}

// The reading time counts the chapter's prose (the static text and the
// glossary), not what the widgets show once the kernels load, so reloads
// agree whether the kernels come at once, late or never.
test('the reading time is computed from the text and the same on every load', { timeout: 180_000 }, async () => {
  const read = async (options, query = '') => {
    const { page, close } = await openPage(shared.browser, `${fileUrl}${query}`, options);
    try {
      // Late kernels: the first paint and the estimate are long done.
      if (options.lateKernels) assert.equal(await page.textContent('#backend'), 'simd128');
      // The prose: the static text but for the references and credits.
      const keys = await page.evaluate(() =>
        [...document.querySelectorAll('#content [data-i18n]')]
          .filter((n) => !n.closest('#references'))
          .map((n) => n.dataset.i18n),
      );
      assert.ok(keys.includes('intro.story1') && keys.includes('quiz.intro') && !keys.includes('references.xiong'));
      return { text: await page.textContent('#reading-time'), keys };
    } finally {
      await close();
    }
  };
  for (const [lang, format] of [
    ['en', (m) => `Reading time: about ${m} min`],
    ['zh-CN', (m) => `阅读时间：约 ${m} 分钟`],
  ]) {
    const loads = [
      await read({}, `?lang=${lang}`),
      await read({ blockKernels: true }, `?lang=${lang}`),
      await read({ lateKernels: true, initScript: delayKernels }, `?lang=${lang}`),
      await read({}, `?lang=${lang}`),
    ];
    const glossary = GLOSSARY_KEYS.flatMap((k) => [`glossary.${k}.term`, `glossary.${k}.def`]);
    const minutes = estimateReadingMinutes(
      [...loads[0].keys, ...glossary].map((key) => plain(lookup(lang, key))),
      lang,
    );
    // The chapter's own text reads in about 7 minutes; the page adds the
    // demo's explanations, the lab and the section after pre-norm.
    console.log(`  ${lang}: about ${minutes} min`);
    assert.ok(minutes >= 5 && minutes <= 15, `${lang}: ${minutes} min`);
    for (const load of loads) assert.equal(load.text, format(minutes), lang);
  }
});

test('eps choices as powers of ten, the smallest stretch as an ordinary factor', async () => {
  const { page, problems, close } = await openPage(shared.browser, fileUrl);
  try {
    for (const select of ['#calc-eps', '#playground-eps', '#model-eps']) {
      assert.deepEqual(await page.locator(`${select} option`).allTextContents(), ['10⁻⁶', '10⁻⁵'], select);
    }
    await skipQuestions(page);
    await setRange(page, '#playground-stretch', -4);
    assert.equal(await page.textContent('[data-widget="playground"] output'), '0.000100×');
    assert.equal(await page.getAttribute('#playground-stretch', 'aria-valuetext'), '0.000100×');
    // mean(x²) of the input there: a power of ten, computed.
    const meanSquare = await page.textContent('[data-widget="playground"] .readout:nth-child(3) dd');
    const [, mantissa, exponent] = meanSquare.match(/^(\d\.\d) × 10⁻([⁰¹²³⁴⁵⁶⁷⁸⁹]+)$/);
    const value = Number(mantissa) * 10 ** -Number([...exponent].map((c) => '⁰¹²³⁴⁵⁶⁷⁸⁹'.indexOf(c)).join(''));
    assert.ok(value > 1e-8 && value < 1e-6, meanSquare);
    assert.equal(significant(value), meanSquare);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});
