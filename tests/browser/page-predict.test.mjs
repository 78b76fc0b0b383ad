// Predict, then reveal, as a student meets it in headless Chromium, in
// both languages: on the demo panel a prediction of where the two curves
// end, then the walk drawing them layer by layer (at the test-only speed,
// window.NORMLAB_WALK_STEP_MS), each drawn point equal to the model's own
// figure, and the comparison sentence with the computed numbers; the softmax
// widget's guess and its reveal (both ways for the scores to grow); the
// playground's guess; the predictions kept across a reload and never put in
// the URL; reduced motion, where nothing moves by itself.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { computeSoftmax } from '../../web/src/compute.js';
import { decimals, fixed, significant } from '../../web/src/format.js';
import { guessVerdict, sliderFromCurveGuess } from '../../web/src/predictions.js';
import { guessText } from '../../web/src/widgets/autorun.js';
import { loadNormlab } from '../../dist/normlab.mjs';
import { fileUrl, openPage, seriousViolations, settle, shareBrowserAndServer } from './page-support.mjs';
import {
  FAST_WALK,
  WALK_COMPARE,
  comparison,
  drawn,
  modelFigures,
  scrollToChart,
  text,
  waitStatus,
  walkStatus,
} from './walk-support.mjs';

const shared = shareBrowserAndServer();
const nl = await loadNormlab({ backend: 'simd128' });

async function withPage(query, check, options = {}) {
  const { page, problems, close } = await openPage(shared.browser, `${fileUrl}${query}`, {
    initScript: FAST_WALK,
    ...options,
  });
  try {
    await check(page);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
}

for (const lang of ['en', 'zh-CN']) {
  describe(`predict, then reveal (${lang})`, () => {
    test("the demo panel: predict, watch the walk draw the model's values, read the comparison; kept after a reload", () =>
      withPage(`?lang=${lang}`, async (page) => {
        const figures = modelFigures(nl, text(lang, 'model.defaultPrompt'));
        await scrollToChart(page);
        await settle(page);
        // Asked first: the walk waits, the chart holds only the starting point.
        assert.equal(await walkStatus(page), 'waiting');
        assert.equal(await page.getAttribute('[data-widget="autorun"]', 'data-prediction'), 'asking');
        assert.deepEqual(await drawn(page, 'residual'), [figures.residual[0]]);
        assert.deepEqual(await drawn(page, 'norm-input'), []);
        assert.equal(await page.locator('[data-widget="layer-chart"] tbody tr').count(), 1);
        assert.equal(
          await page.textContent('[data-widget="layer-chart"] .chart-summary'),
          text(lang, 'layerChart.summaryAsking', { start: significant(figures.residual[0]), last: 23 }),
        );
        // The prediction inputs start where the stream starts.
        assert.equal(
          await page.textContent('#predict-residual + output'),
          text(lang, 'autorun.predict.value', { value: guessText(figures.residual[0]) }),
        );

        // 10^1.5 and 10^1: the residual stream at 31.6, the norm's output at 10.
        await page.fill('#predict-residual', '1.5');
        await page.fill('#predict-norm', '1');
        await settle(page);
        const r = 10 ** 1.5;
        const n = 10;
        assert.equal(Number(await page.getAttribute('.guess-residual', 'data-value')), r);
        assert.equal(Number(await page.getAttribute('.guess-norm-input', 'data-value')), n);
        assert.equal(
          await page.getAttribute('#predict-norm', 'aria-valuetext'),
          text(lang, 'autorun.predict.value', { value: '10' }),
        );
        await page.click('#predict-commit');

        // Mid-walk: part of each curve, every point the model's own.
        await page.waitForFunction(() => {
          const values = document
            .querySelector('[data-widget="layer-chart"] .chart-box .series-residual')
            .dataset.values.split(',');
          return values.length >= 6 && values.length <= 20;
        });
        const partResidual = await drawn(page, 'residual');
        const partNorm = await drawn(page, 'norm-input');
        assert.ok(partResidual.length < 25, `${partResidual.length} points drawn mid-walk`);
        assert.deepEqual(partResidual, figures.residual.slice(0, partResidual.length));
        assert.deepEqual(partNorm, figures.norm.slice(0, partNorm.length));

        await waitStatus(page, 'done');
        await settle(page);
        assert.deepEqual(await drawn(page, 'residual'), figures.residual);
        assert.deepEqual(await drawn(page, 'norm-input'), figures.norm);
        assert.equal(await page.locator('[data-widget="layer-chart"] tbody tr').count(), 25);
        assert.equal(await page.textContent(WALK_COMPARE), comparison(lang, figures, r, n));
        // The stream grows about tenfold, so a guess of 31.6 is about 3x too low.
        assert.ok(figures.residual[24] / r > 2.5 && figures.residual[24] / r < 4, `${figures.residual[24]}`);

        // Kept in this browser, not in the link.
        const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('normlab:learner:v1')));
        assert.deepEqual(stored.predictions.d, { r, n, k: 'rmsnorm.pre.24' });
        await page.waitForTimeout(400);
        assert.doesNotMatch(await page.evaluate(() => location.search), /predict|31\.6|guess/);
        await page.reload();
        await page.waitForFunction(() => document.getElementById('backend').dataset.backend !== 'loading');
        await scrollToChart(page);
        // The walk left the view at layer 23 and the URL says so; a link that
        // names a layer starts no walk, so the kept prediction is compared at
        // once with the curves drawn whole.
        assert.match(await page.evaluate(() => location.search), /layer=23/);
        assert.equal(await walkStatus(page), 'off');
        assert.equal(await page.getAttribute('[data-widget="autorun"]', 'data-prediction'), 'made');
        await settle(page);
        assert.equal(await page.textContent(WALK_COMPARE), comparison(lang, figures, r, n));
        assert.deepEqual(await drawn(page, 'residual'), figures.residual);
        // Opened again without a layer: nothing to ask, the walk draws once in
        // view and compares at its end.
        await page.goto(`${fileUrl}?lang=${lang}`);
        await page.waitForFunction(() => document.getElementById('backend').dataset.backend !== 'loading');
        await scrollToChart(page);
        await page.waitForFunction(() =>
          ['running', 'done'].includes(document.querySelector('[data-widget="autorun"]').dataset.status),
        );
        assert.equal(await page.getAttribute('[data-widget="autorun"]', 'data-prediction'), 'made');
        if ((await walkStatus(page)) === 'running') await page.click('#autorun-finish');
        await waitStatus(page, 'done');
        await settle(page);
        assert.equal(await page.textContent(WALK_COMPARE), comparison(lang, figures, r, n));
      }));

    test('the softmax widget: a guess unlocks the slider; the reveal gives the computed value and the difference', () =>
      withPage(`?lang=${lang}`, async (page) => {
        const widget = page.locator('[data-widget="softmax"]');
        assert.equal(await page.isDisabled('#softmax-l2'), true);
        const at128 = computeSoftmax(nl, 128, 'linear');
        // The question at L2 128, the scores scaled by `scale` there.
        const question = (scale) =>
          text(lang, 'softmax.predict.question', { unit: '32', base: '0.325', l2: '128', scale });
        assert.equal(await widget.locator('.predict-question').textContent(), question('4'));
        // Not a probability: the question says so and stays.
        await page.fill('#softmax-guess', '1.5');
        await widget.locator('button[data-action="check"]').click();
        assert.equal(await widget.locator('.input-error').isVisible(), true);
        assert.equal(await widget.locator('.input-error').textContent(), text(lang, 'softmax.predict.invalid'));
        assert.equal(await page.getAttribute('#softmax-guess', 'aria-invalid'), 'true');
        assert.equal(await page.isDisabled('#softmax-l2'), true);

        await page.fill('#softmax-guess', '0.5');
        await widget.locator('button[data-action="check"]').click();
        await settle(page);
        const difference = fixed(at128.maxProb - 0.5);
        assert.equal(difference, '0.269');
        const revealed = text(lang, 'softmax.predict.revealLow', {
          l2: '128',
          scale: '4',
          value: fixed(at128.maxProb),
          guess: '0.5',
          difference,
        });
        assert.equal(await widget.locator('.predict-compare').textContent(), revealed);
        // The slider is free and shows L2 128.
        assert.equal(await page.isDisabled('#softmax-l2'), false);
        assert.equal(await page.inputValue('#softmax-l2'), '2');
        assert.deepEqual(
          await widget.locator('.bar-value').allTextContents(),
          at128.probs.map((p) => fixed(p)),
        );

        // The square mode: queries and keys both grow, the scores by 16 here.
        const square = computeSoftmax(nl, 128, 'square');
        await page.check('#softmax-growth-square');
        await settle(page);
        assert.deepEqual(
          await widget.locator('.bar-value').allTextContents(),
          square.probs.map((p) => fixed(p)),
        );
        assert.equal(
          await widget.locator('output').textContent(),
          text(lang, 'softmax.sliderValue', { l2: '128', scale: '16' }),
        );
        assert.equal(
          await widget.locator('.growth-note').textContent(),
          text(lang, 'softmax.growthNoteSquare', {
            l2: '128',
            scale: '16',
            top: fixed(square.maxProb),
            otherScale: '4',
            otherTop: fixed(at128.maxProb),
          }),
        );
        assert.equal(await widget.locator('.zone-badge').getAttribute('data-zone'), 'saturated');
        // The guess was made with the chapter's scores: its reveal stays theirs.
        assert.match(await widget.locator('.predict-compare').textContent(), new RegExp(fixed(at128.maxProb)));
        await page.waitForTimeout(400);
        assert.match(await page.evaluate(() => location.search), /growth=square/);
        assert.doesNotMatch(await page.evaluate(() => location.search), /guess|0\.5/);

        // Kept after a reload; "ask me again" asks again and locks the slider.
        await page.reload();
        await page.waitForFunction(() => document.getElementById('backend').dataset.backend !== 'loading');
        await settle(page);
        assert.equal(await widget.locator('.predict-compare').textContent(), revealed);
        await widget.locator('button[data-action="again"]').click();
        await settle(page);
        assert.equal(await page.isDisabled('#softmax-l2'), true);
        assert.equal(await page.inputValue('#softmax-l2'), '0');
        // Asked now in the square mode: its own numbers.
        assert.equal(await widget.locator('.predict-question').textContent(), question('16'));
        await widget.locator('button[data-action="skip"]').click();
        await settle(page);
        assert.equal(await page.isDisabled('#softmax-l2'), false);
        assert.equal(await widget.locator('.predict-compare').textContent(), text(lang, 'softmax.predict.skipped'));
      }));

    test("the playground: guess the output's L2 at 10x before the slider moves", () =>
      withPage(`?lang=${lang}`, async (page) => {
        const widget = page.locator('[data-widget="playground"]');
        await widget.scrollIntoViewIfNeeded();
        assert.equal(await page.isDisabled('#playground-stretch'), true);
        await page.fill('#playground-guess', '160');
        await page.press('#playground-guess', 'Enter');
        await settle(page);
        assert.equal(await page.isDisabled('#playground-stretch'), false);
        assert.equal(await page.inputValue('#playground-stretch'), '1');
        const output = await widget.locator('[data-readout="output-l2"]').textContent();
        const input = await widget.locator('[data-readout="input-l2"]').textContent();
        assert.equal(output, '16.0');
        const { factor } = guessVerdict(160, Number(output));
        assert.equal(
          await widget.locator('.predict-compare').textContent(),
          text(lang, 'playground.predict.reveal', {
            stretch: '10',
            input,
            output,
            guess: '160',
            verdict: text(lang, 'predict.verdict.high', { factor: decimals(factor, 0), percent: '10' }),
          }),
        );
        assert.equal(decimals(factor, 0), '10');
        const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('normlab:learner:v1')));
        assert.deepEqual(stored.predictions.p, { g: 160 });
        const reveal = await widget.locator('.predict-compare').textContent();
        await page.reload();
        await page.waitForFunction(() => document.getElementById('backend').dataset.backend !== 'loading');
        await widget.scrollIntoViewIfNeeded();
        await settle(page);
        assert.equal(await widget.locator('.predict-compare').textContent(), reveal);
        assert.equal(await page.isDisabled('#playground-stretch'), false);
      }));
  });
}

test('the markers move by keyboard and by dragging them on the chart', () =>
  withPage('?lang=en', async (page) => {
    await scrollToChart(page);
    await settle(page);
    // Keyboard: ten steps of a twentieth of a decade from 10^1.
    await page.focus('#predict-residual');
    for (let i = 0; i < 10; i++) await page.keyboard.press('ArrowRight');
    await settle(page);
    assert.equal(await page.inputValue('#predict-residual'), '1.5');
    assert.equal(await page.textContent('#predict-residual + output'), 'L2/tok 31.6');
    assert.equal(Number(await page.getAttribute('.guess-residual', 'data-value')), 10 ** 1.5);
    // Pointer: the norm's marker dragged up the chart; its slider follows.
    const before = Number(await page.getAttribute('.guess-norm-input', 'data-value'));
    const box = await page.locator('.guess-norm-input .guess-handle').boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    for (let dy = 10; dy <= 80; dy += 10) await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2 - dy);
    await page.mouse.up();
    await settle(page);
    const after = Number(await page.getAttribute('.guess-norm-input', 'data-value'));
    assert.ok(after > before * 2, `dragged from ${before} to ${after}`);
    assert.equal(await page.textContent('#predict-norm + output'), `L2/tok ${guessText(after)}`);
    assert.ok(Math.abs(Number(await page.inputValue('#predict-norm')) - sliderFromCurveGuess(after)) < 1e-9);
    // Dragged past the top, a guess stops at 1000.
    // The chart in the middle of the viewport: its top, and the frame's
    // largest value, below the viewport's.
    await page.evaluate(() =>
      document.querySelector('[data-widget="layer-chart"] .chart-box').scrollIntoView({ block: 'center' }),
    );
    const top = await page.locator('.guess-norm-input .guess-handle').boundingBox();
    await page.mouse.move(top.x + top.width / 2, top.y + top.height / 2);
    await page.mouse.down();
    await page.mouse.move(top.x + top.width / 2, 0);
    await page.mouse.up();
    await settle(page);
    assert.equal(Number(await page.getAttribute('.guess-norm-input', 'data-value')), 1000);
    await page.click('#predict-commit');
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('normlab:learner:v1')));
    assert.deepEqual(stored.predictions.d, { r: 10 ** 1.5, n: 1000, k: 'rmsnorm.pre.24' });
  }));

for (const lang of ['en', 'zh-CN']) {
  test(`reduced motion: the same predict-and-compare, nothing moving by itself (${lang})`, () =>
    withPage(
      `?lang=${lang}`,
      async (page) => {
        const figures = modelFigures(nl, text(lang, 'model.defaultPrompt'));
        await scrollToChart(page);
        await page.waitForTimeout(300);
        assert.equal(await walkStatus(page), 'off');
        assert.equal(await page.getAttribute('[data-widget="autorun"]', 'data-prediction'), 'asking');
        assert.equal(await page.textContent('.autorun-status'), text(lang, 'autorun.reduced'));
        assert.equal(
          await page.textContent('[data-widget="autorun"] .predict-question'),
          text(lang, 'autorun.predict.questionAtOnce', {
            start: significant(figures.residual[0]),
            last: 23,
          }),
        );
        await page.fill('#predict-residual', '2');
        await page.fill('#predict-norm', '1.5');
        await page.click('#predict-commit');
        await settle(page);
        // At once: both curves whole, and the comparison.
        assert.equal(await walkStatus(page), 'off');
        assert.deepEqual(await drawn(page, 'residual'), figures.residual);
        assert.deepEqual(await drawn(page, 'norm-input'), figures.norm);
        assert.equal(await page.textContent(WALK_COMPARE), comparison(lang, figures, 100, 10 ** 1.5));
        // Play steps by hand: nothing moves until "Next step".
        await page.click('#autorun-play');
        await settle(page);
        assert.equal(await walkStatus(page), 'paused');
        assert.equal(await page.isHidden('#autorun-pause'), true);
        assert.deepEqual(await drawn(page, 'residual'), []);
        await page.waitForTimeout(500);
        assert.deepEqual(await drawn(page, 'residual'), []);
        await page.click('#autorun-next');
        await page.click('#autorun-next');
        await settle(page);
        // Tokenize, embed, then the first group of layers at once.
        assert.deepEqual(await drawn(page, 'residual'), figures.residual.slice(0, 4));
        assert.equal(await page.getAttribute('.strip-compact .is-current', 'data-stage'), 'layers');
        assert.equal(
          await page.textContent('.strip-compact .is-current .strip-detail'),
          text(lang, 'strip.layersRange', { from: 0, to: 3 }),
        );
        await page.click('#autorun-finish');
        await settle(page);
        assert.equal(await walkStatus(page), 'done');
        assert.equal(await page.textContent(WALK_COMPARE), comparison(lang, figures, 100, 10 ** 1.5));
      },
      { reducedMotion: 'reduce' },
    ));
}

test('skipping never blocks: the walk runs, the slider moves, and a link that chose a view asks nothing', async () => {
  await withPage('?lang=en', async (page) => {
    await scrollToChart(page);
    await page.click('#predict-skip');
    await waitStatus(page, 'done');
    await settle(page);
    assert.equal(await page.textContent(WALK_COMPARE), text('en', 'autorun.predict.skipped'));
    assert.equal(await page.textContent('#predict-again'), text('en', 'autorun.predict.start'));
    assert.equal((await drawn(page, 'residual')).length, 25);
  });
  await withPage('?lang=en&layer=5&l2=64&stretch=2', async (page) => {
    await scrollToChart(page);
    await settle(page);
    assert.equal(await page.isDisabled('#softmax-l2'), false);
    assert.equal(await page.locator('[data-widget="softmax"] .guess').isHidden(), true);
    assert.equal(await page.isDisabled('#playground-stretch'), false);
    assert.equal(await page.getAttribute('[data-widget="autorun"]', 'data-prediction'), 'none');
    assert.equal((await drawn(page, 'residual')).length, 25);
  });
});

// The questions' other states, audited as page-a11y.test.mjs audits the
// page: the input error, the reveals, the walk half way (the compact strip)
// and its comparison.
for (const [lang, colorScheme, width] of [
  ['en', 'dark', 375],
  ['zh-CN', 'light', 1280],
]) {
  test(`axe: no serious or critical violation in the questions' states (${lang}, ${colorScheme}, ${width} px)`, async () => {
    const { page, problems, close } = await openPage(shared.browser, `${shared.server.url}index.html?lang=${lang}`, {
      colorScheme,
      viewport: { width, height: 800 },
      bypassCSP: true,
      initScript: () => {
        window.NORMLAB_WALK_STEP_MS = 60_000;
      },
    });
    try {
      await page.fill('#softmax-guess', '2');
      await page.click('[data-widget="softmax"] button[data-action="check"]');
      await page.fill('#playground-guess', '20');
      await page.click('[data-widget="playground"] button[data-action="check"]');
      await scrollToChart(page);
      await page.click('#predict-commit');
      await page.click('#autorun-pause');
      await page.click('#autorun-next');
      await page.click('#autorun-next');
      await settle(page);
      assert.equal(await page.locator('.strip-compact').isVisible(), true);
      assert.deepEqual(await seriousViolations(page), []);
      await page.click('#autorun-finish');
      await settle(page);
      assert.equal(await page.locator(WALK_COMPARE).isVisible(), true);
      assert.deepEqual(await seriousViolations(page), []);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });
}
