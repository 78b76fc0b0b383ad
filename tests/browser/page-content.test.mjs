// The chapter page's content and interactions in headless Chromium, opened
// from disk (file://) and over HTTP: every figure shown is the one the
// chapter states, computed by the wasm kernels, and the controls work.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { fileUrl, mathText, openPage, settle, shareBrowserAndServer, showWorkedExample } from './page-support.mjs';

const SOFTMAX_AT_DEFAULT = ['0.325', '0.218', '0.161', '0.132', '0.098', '0.066'];

const shared = shareBrowserAndServer();

const origins = [
  ['file://', () => fileUrl],
  ['HTTP', () => `${shared.server.url}index.html`],
];

for (const [origin, baseUrl] of origins) {
  describe(`the page over ${origin}`, () => {
    // Opens the page, runs check(page), then asserts nothing went wrong.
    async function withPage(query, check) {
      const { page, problems, close } = await openPage(shared.browser, `${baseUrl()}${query}`);
      try {
        await check(page);
        assert.deepEqual(problems, []);
      } finally {
        await close();
      }
    }

    test('loads the SIMD128 kernels and logs no error', () =>
      withPage('', async (page) => {
        assert.equal(await page.textContent('#backend'), 'simd128');
        assert.equal(await page.getAttribute('html', 'lang'), 'en');
        assert.match(await page.textContent('#reading-time'), /^Reading time: about \d+ min$/);
      }));

    test("the softmax widget shows the chapter's six probabilities at L2 32", () =>
      withPage('', async (page) => {
        const widget = page.locator('[data-widget="softmax"]');
        assert.deepEqual(await widget.locator('.bar-value').allTextContents(), SOFTMAX_AT_DEFAULT);
        assert.deepEqual(await widget.locator('tbody td:last-child').allTextContents(), SOFTMAX_AT_DEFAULT);
        assert.equal(await widget.locator('.readout dd').first().textContent(), '0.325');
        assert.equal(await widget.locator('.zone-badge').textContent(), 'informative');
        assert.equal(await widget.locator('output').textContent(), 'L2 32, logit scale 1×');

        // The question comes first; skipping it frees the slider.
        assert.equal(await page.isDisabled('#softmax-l2'), true);
        await widget.locator('button[data-action="skip"]').click();
        await settle(page);
        assert.equal(await page.isDisabled('#softmax-l2'), false);
        // Four octaves up (L2 512, scale 16x) the distribution is near one-hot.
        await page.fill('#softmax-l2', '4');
        await settle(page);
        assert.equal(await widget.locator('.zone-badge').textContent(), 'saturated');
        const top = Number(await widget.locator('.readout dd').first().textContent());
        assert.ok(top > 0.99, `top probability ${top}`);
        // One octave up (L2 64) it drifts.
        await page.fill('#softmax-l2', '1');
        await settle(page);
        assert.equal(await widget.locator('.zone-badge').textContent(), 'drift');
        await page.click('text=Back to 32');
        await settle(page);
        assert.deepEqual(await widget.locator('.bar-value').allTextContents(), SOFTMAX_AT_DEFAULT);
      }));

    test('worked example A is computed step by step', () =>
      withPage('', async (page) => {
        // Off screen at load: KaTeX not loaded, yet every formula of the
        // page's own text shows, typeset in the build.
        const formulas = await page.evaluate(() => ({
          katex: 'normlabKatex' in window,
          shown: [...document.querySelectorAll('.math')]
            .filter((m) => !m.closest('[data-widget="worked-example"]'))
            .map((m) => Boolean(m.querySelector(':scope > .katex > math'))),
        }));
        assert.equal(formulas.katex, false);
        assert.ok(formulas.shown.length >= 20, `${formulas.shown.length} formulas`);
        assert.ok(formulas.shown.every(Boolean));
        const steps = (await showWorkedExample(page)).locator('.step-math');
        assert.equal(await steps.count(), 4);
        assert.match(await mathText(steps.nth(0)), /=\[4,1,9,0\]$/);
        assert.match(await mathText(steps.nth(1)), /=3\.5$/);
        assert.match(await mathText(steps.nth(2)), /≈1\.87$/);
        assert.match(await mathText(steps.nth(3)), /≈\[1\.07,−0\.53,1\.6,0\]$/);
      }));

    test('the calculator shows RMSNorm beside LayerNorm, and example B', () =>
      withPage('', async (page) => {
        const step = (name) => page.textContent(`[data-step="${name}"]`);
        assert.equal(await page.inputValue('#calc-vector'), '2, -1, 3, 0');
        assert.equal(await step('rms-squares'), '[4, 1, 9, 0]');
        assert.equal(await step('rms-meanSquare'), '3.5');
        assert.equal(await step('rms-rmsValue'), '1.871');
        assert.equal(await step('rms-y'), '[1.07, -0.53, 1.6, 0]');
        assert.equal(await step('rms-outL2'), '2');
        assert.equal(await step('ln-mean'), '1');
        assert.equal(await step('ln-centered'), '[1, -2, 2, -1]');
        assert.equal(await step('ln-variance'), '2.5');
        assert.equal(await step('ln-lnY'), '[0.63, -1.26, 1.26, -0.63]');

        await page.click('text=Example B');
        await settle(page);
        assert.equal(await page.inputValue('#calc-vector'), '2, 4, 4, 8');
        assert.equal(await step('rms-squares'), '[4, 16, 16, 64]');
        assert.equal(await step('rms-meanSquare'), '25');
        assert.equal(await step('rms-rmsValue'), '5');
        assert.equal(await step('rms-y'), '[0.4, 0.8, 0.8, 1.6]');
      }));

    test('invalid calculator input gets a message and the last result stays', () =>
      withPage('', async (page) => {
        await page.fill('#calc-vector', '3, 4');
        await settle(page);
        assert.equal(await page.textContent('[data-step="rms-y"]'), '[0.85, 1.13]');
        assert.equal(await page.isVisible('#calc-error'), false);

        await page.fill('#calc-vector', '3, four, 5');
        await settle(page);
        assert.equal(await page.textContent('#calc-error'), '“four” (entry 2) is not a number.');
        assert.equal(await page.getAttribute('#calc-vector', 'aria-invalid'), 'true');
        assert.equal(await page.textContent('[data-step="rms-y"]'), '[0.85, 1.13]');

        await page.fill('#calc-vector', '  ');
        await settle(page);
        assert.equal(await page.textContent('#calc-error'), 'Type at least one number.');
        await page.fill('#calc-vector', Array(65).fill('1').join(' '));
        await settle(page);
        assert.equal(await page.textContent('#calc-error'), 'That is 65 entries; the calculator takes at most 64.');

        await page.fill('#calc-vector', '[1, 1, 1, 1]');
        await settle(page);
        assert.equal(await page.isVisible('#calc-error'), false);
        assert.equal(await page.textContent('[data-step="rms-y"]'), '[1, 1, 1, 1]');
      }));

    test('the playground keeps the output L2 at 16.0 from 0.1x to 10x', () =>
      withPage('', async (page) => {
        const read = async (name) => page.textContent(`[data-widget="playground"] [data-readout="${name}"]`);
        await page.click('[data-widget="playground"] button[data-action="skip"]');
        const inputs = [];
        for (const position of ['-1', '-0.5', '0', '0.5', '1']) {
          await page.fill('#playground-stretch', position);
          await settle(page);
          assert.equal(await read('output-l2'), '16.0', `output L2 at 10^${position}x`);
          inputs.push(Number(await read('input-l2')));
        }
        // The input follows the stretch: 100 times longer at 10x than at 0.1x.
        assert.ok(Math.abs(inputs.at(-1) / inputs[0] - 100) < 0.5, `input L2 ${inputs}`);
        assert.equal(
          await page.getAttribute('[data-widget="playground"] .zone-text[role="status"]', 'data-regime'),
          'inside',
        );

        // Far below the chapter's range, eps is no longer negligible.
        await page.fill('#playground-stretch', '-4');
        await settle(page);
        const shrunk = Number(await read('output-l2'));
        assert.ok(shrunk < 15, `output L2 at 1e-4x is ${shrunk}`);
        assert.equal(
          await page.getAttribute('[data-widget="playground"] .zone-text[role="status"]', 'data-regime'),
          'belowBreaks',
        );
        // A larger eps breaks it sooner.
        await page.selectOption('#playground-eps', '0.00001');
        await settle(page);
        assert.ok(Number(await read('output-l2')) < shrunk);
      }));

    test('the quiz marks answers: a hint on a first wrong pick, the explanation on a right one', () =>
      withPage('', async (page) => {
        const option = (q, o) => page.locator(`[data-question="${q}"] [data-option="${o}"]`);
        await option('q1', 'c').click();
        await settle(page);
        assert.equal(await option('q1', 'c').getAttribute('data-mark'), 'correct');
        assert.equal(await option('q1', 'c').locator('.quiz-verdict').textContent(), 'right');
        assert.equal(await page.textContent('[data-question="q1"] .quiz-verdict-line'), 'Right, on the first try.');
        assert.match(
          await page.textContent('[data-question="q1"] .quiz-explanation'),
          /^Why:LayerNorm moves the vector’s average to zero/,
        );

        await option('q2', 'a').click();
        await settle(page);
        assert.equal(await option('q2', 'a').getAttribute('data-mark'), 'wrong');
        assert.equal(await page.textContent('[data-question="q2"] .quiz-verdict-line'), 'Not this one.');
        assert.match(
          await page.textContent('[data-question="q2"] .quiz-hint'),
          /^Count the norms in one layer of each layout/,
        );
        assert.equal(await page.isVisible('[data-question="q2"] .quiz-explanation'), false);
        // Changing the answer moves the mark.
        await option('q2', 'b').click();
        await settle(page);
        assert.equal(await option('q2', 'a').getAttribute('data-mark'), null);
        assert.equal(await option('q2', 'b').getAttribute('data-mark'), 'correct');
        assert.equal(await page.textContent('.quiz-score'), 'Right on the first try: 1 of 7 (2 of 7 answered).');

        await page.keyboard.press('Tab');
        await option('q3', 'a').locator('input').check();
        await settle(page);
        assert.equal(await option('q3', 'a').getAttribute('data-mark'), 'wrong');
      }));

    test('switching the language keeps the state, and the URL keeps both', () =>
      withPage('', async (page) => {
        await page.click('[data-widget="softmax"] button[data-action="skip"]');
        await page.click('[data-widget="playground"] button[data-action="skip"]');
        await page.fill('#softmax-l2', '1');
        await page.fill('#calc-vector', '1, 2, 3');
        await page.fill('#playground-stretch', '0.5');
        await page.locator('[data-question="q1"] [data-option="a"]').click();
        await settle(page);
        await page.selectOption('#lang-select', 'zh-CN');
        await settle(page);

        assert.equal(await page.getAttribute('html', 'lang'), 'zh-CN');
        assert.equal(await page.textContent('#softmax-title'), '量级一漂移，softmax 就饱和');
        assert.equal(await page.inputValue('#softmax-l2'), '1');
        assert.equal(await page.textContent('[data-widget="softmax"] .zone-badge'), '漂移');
        assert.equal(await page.inputValue('#calc-vector'), '1, 2, 3');
        assert.equal(await page.textContent('[data-step="rms-y"]'), '[0.46, 0.93, 1.39]');
        assert.equal(await page.inputValue('#playground-stretch'), '0.5');
        assert.equal(await page.getAttribute('[data-question="q1"] [data-option="a"]', 'data-mark'), 'wrong');
        assert.equal(await page.textContent('[data-question="q1"] .quiz-verdict >> nth=0'), '不是这个');
        assert.equal(await page.textContent('[data-question="q1"] .quiz-verdict-line'), '不是这个。');
        assert.match(await page.textContent('#reading-time'), /^阅读时间：约 \d+ 分钟$/);

        // The view is in the URL (after a short debounce), so a link reopens it.
        await page.waitForFunction(() => location.search.includes('lang=zh-CN'));
        const params = new URL(page.url()).searchParams;
        assert.equal(params.get('l2'), '64');
        assert.equal(params.get('x'), '1, 2, 3');
        const reopened = await openPage(shared.browser, page.url());
        try {
          assert.equal(await reopened.page.getAttribute('html', 'lang'), 'zh-CN');
          assert.equal(await reopened.page.inputValue('#softmax-l2'), '1');
          assert.equal(await reopened.page.textContent('[data-step="rms-y"]'), '[0.46, 0.93, 1.39]');
          assert.deepEqual(reopened.problems, []);
        } finally {
          await reopened.close();
        }
      }));

    test('bad URL parameters fall back to defaults with a visible note', () =>
      withPage('?lang=xx&l2=abc&layer=99', async (page) => {
        assert.equal(await page.getAttribute('html', 'lang'), 'en');
        assert.equal(await page.locator('#notices .notice').count(), 3);
        assert.match(await page.textContent('#notices'), /lang=xx, which is not valid here/);
        assert.deepEqual(
          await page.locator('[data-widget="softmax"] .bar-value').allTextContents(),
          SOFTMAX_AT_DEFAULT,
        );
      }));

    test('?lang= takes any tag of a language the page speaks, in any case', async () => {
      for (const [tag, lang] of [
        ['zh', 'zh-CN'],
        ['zh-Hans', 'zh-CN'],
        ['ZH-cn', 'zh-CN'],
        ['en-GB', 'en'],
        ['en-US', 'en'],
      ]) {
        await withPage(`?lang=${tag}`, async (page) => {
          assert.equal(await page.getAttribute('html', 'lang'), lang, tag);
          assert.equal(await page.inputValue('#lang-select'), lang, tag);
          assert.equal(await page.locator('#notices .notice').count(), 0, tag);
          // The address bar settles on the canonical tag.
          await page.waitForFunction((want) => new URL(location.href).searchParams.get('lang') === want, lang);
        });
      }
    });
  });
}
