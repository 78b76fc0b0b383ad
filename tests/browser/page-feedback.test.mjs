// How the page answers a guess: a guess within the close
// range is shown as a success (green), one that was off, too high or too
// low, in the neutral warning colour and never in the success green; a
// skipped question in neither. The demo panel's curve prediction, the
// playground's and the softmax widget's guesses, in both languages, in the
// light and dark themes.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { loadNormlab } from '../../dist/normlab.mjs';
import { sliderFromCurveGuess } from '../../web/src/predictions.js';
import { fileUrl, openPage, settle, shareBrowserAndServer } from './page-support.mjs';
import { FAST_WALK, modelFigures, text, waitStatus } from './walk-support.mjs';

const shared = shareBrowserAndServer();
const nl = await loadNormlab({ backend: 'simd128' });

// A result box's class, outcome, and its border and background colours next
// to the theme's success and warning colours.
const styleOf = (locator) =>
  locator.evaluate((node) => {
    const style = getComputedStyle(node);
    const root = getComputedStyle(document.documentElement);
    // The theme's colours as the browser computes them.
    const probe = document.createElement('span');
    document.body.append(probe);
    const colour = (name) => {
      probe.style.color = root.getPropertyValue(name).trim();
      return getComputedStyle(probe).color;
    };
    const out = {
      className: node.className,
      outcome: node.dataset.outcome ?? null,
      border: style.borderLeftColor,
      background: style.backgroundColor,
      good: colour('--good'),
      goodSoft: colour('--good-soft'),
      warn: colour('--warn'),
      warnSoft: colour('--warn-soft'),
    };
    probe.remove();
    return out;
  });

function assertOff(s, what) {
  assert.match(s.className, /\bis-off\b/, what);
  assert.doesNotMatch(s.className, /\bis-close\b/, what);
  assert.equal(s.outcome, 'off', what);
  assert.equal(s.border, s.warn, `${what}: border`);
  assert.equal(s.background, s.warnSoft, `${what}: background`);
  assert.notEqual(s.border, s.good, `${what}: not the success green`);
  assert.notEqual(s.background, s.goodSoft, `${what}: not the success green`);
}

function assertClose(s, what) {
  assert.match(s.className, /\bis-close\b/, what);
  assert.doesNotMatch(s.className, /\bis-off\b/, what);
  assert.equal(s.outcome, 'close', what);
  assert.equal(s.border, s.good, `${what}: border`);
  assert.equal(s.background, s.goodSoft, `${what}: background`);
}

function assertNeutral(s, what) {
  assert.doesNotMatch(s.className, /\bis-(close|off)\b/, what);
  assert.equal(s.outcome, null, what);
  assert.notEqual(s.border, s.good, what);
  assert.notEqual(s.border, s.warn, what);
}

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
  for (const colorScheme of ['light', 'dark']) {
    describe(`feedback on a guess (${lang}, ${colorScheme})`, () => {
      test('the playground: 160 is off (10× too high), 16 is close, a skip is neither', () =>
        withPage(
          `?lang=${lang}`,
          async (page) => {
            const widget = page.locator('[data-widget="playground"]');
            const result = widget.locator('.predict-result');
            await widget.scrollIntoViewIfNeeded();
            await page.fill('#playground-guess', '160');
            await page.press('#playground-guess', 'Enter');
            await settle(page);
            assert.match(await result.textContent(), /10×|10 倍/);
            assertOff(await styleOf(result), 'a guess 10× too high');
            await widget.locator('[data-action="again"]').click();
            await page.fill('#playground-guess', '16');
            await page.press('#playground-guess', 'Enter');
            await settle(page);
            assertClose(await styleOf(result), 'a guess of 16 for 16.0');
            await widget.locator('[data-action="again"]').click();
            await widget.locator('[data-action="skip"]').click();
            await settle(page);
            assert.equal(
              await widget.locator('.predict-compare').textContent(),
              text(lang, 'playground.predict.skipped'),
            );
            assertNeutral(await styleOf(result), 'a skipped question');
          },
          { colorScheme },
        ));

      test('the softmax widget: a top probability of 0.01 is off', () =>
        withPage(
          `?lang=${lang}`,
          async (page) => {
            const widget = page.locator('[data-widget="softmax"]');
            await widget.scrollIntoViewIfNeeded();
            await page.fill('#softmax-guess', '0.01');
            await page.press('#softmax-guess', 'Enter');
            await settle(page);
            assertOff(await styleOf(widget.locator('.predict-result')), 'a top probability of 0.01');
          },
          { colorScheme },
        ));

      test('the demo panel: the untouched markers are off; markers on the measured ends are close', () =>
        withPage(
          `?lang=${lang}`,
          async (page) => {
            const figures = modelFigures(nl, text(lang, 'model.defaultPrompt'));
            const result = page.locator('[data-widget="autorun"] .predict-result');
            await page.locator('[data-widget="layer-chart"]').scrollIntoViewIfNeeded();
            // Both markers left where the stream starts: far under both ends.
            await page.click('#predict-commit');
            await waitStatus(page, 'done');
            await settle(page);
            const off = await result.textContent();
            assert.match(off, lang === 'en' ? /too low/ : /实测值是你猜测的/);
            assertOff(await styleOf(result), 'markers left at the start');
            // Again, with each marker on the nearest slider step to its end.
            await page.click('#predict-again');
            for (const [id, value] of [
              ['#predict-residual', figures.residual[24]],
              ['#predict-norm', figures.norm[23]],
            ]) {
              await page.locator(id).evaluate((input, v) => {
                input.value = String(v);
                input.dispatchEvent(new Event('input', { bubbles: true }));
              }, sliderFromCurveGuess(value));
            }
            await page.click('#predict-commit');
            await waitStatus(page, 'done');
            await settle(page);
            assert.notEqual(await result.textContent(), off);
            assertClose(await styleOf(result), 'markers on the measured ends');
          },
          { colorScheme },
        ));
    });
  }
}
