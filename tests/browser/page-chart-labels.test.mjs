// Every chart on the page, in the states a reader brings it to, keeps its
// text readable: no two text boxes of a chart overlap (tick labels, axis
// titles, rule, band, series, bar and guess labels), no series' line runs
// through a label and no point's symbol covers one. At 320, 390 and
// 1280 px, in English and Chinese, each state checked in the light and the
// dark scheme: the demo panel asking for a prediction (its markers at
// several places, near the sqrt(d) rule among them) and after the walk, on
// both scales, for every norm and placement, 1 and 64 layers; the softmax
// bars after a guess and at their largest L2; the playground across its
// stretch; the gradient panel at 6 and 48 layers; the gain bars; the
// training lab's learning-rate window. The lab's training charts are
// checked after a run in lab.test.mjs.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import {
  LAB,
  bringLabIn,
  chartCollisions,
  drawEveryChart,
  fileUrl,
  gradientsDone,
  openPage,
  settle,
  shareBrowserAndServer,
} from './page-support.mjs';
import { FAST_WALK, waitStatus } from './walk-support.mjs';

const shared = shareBrowserAndServer();

// The collisions under `scope` in the light and the dark scheme, each
// prefixed with the state's name; the page is left in the light scheme.
async function collisionsBothSchemes(page, state, scope = 'main') {
  const found = [];
  for (const colorScheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme });
    await settle(page);
    for (const c of await chartCollisions(page, scope)) found.push(`${state}, ${colorScheme}: ${c}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  return found;
}

const DEMO = '[data-widget="layer-chart"], [data-widget="attention"]';

describe('chart labels: none over another, none under a line', () => {
  for (const lang of ['en', 'zh-CN']) {
    for (const width of [320, 390, 1280]) {
      test(`${lang}, ${width} px, light and dark`, async () => {
        const { page, problems, close } = await openPage(shared.browser, `${fileUrl}?lang=${lang}`, {
          viewport: { width, height: 900 },
          initScript: FAST_WALK,
        });
        try {
          const found = [];
          await gradientsDone(page);
          await drawEveryChart(page);
          found.push(...(await collisionsBothSchemes(page, 'as opened')));

          // The demo panel's prediction: the markers where the reader may
          // leave them, the two together on the sqrt(d) rule among them
          // (10^1.5 = 31.6), then the walk's result with them.
          await page.locator('[data-widget="layer-chart"]').scrollIntoViewIfNeeded();
          const guessed = async (r, n) => {
            await page.fill('#predict-residual', String(r));
            await page.fill('#predict-norm', String(n));
            await settle(page);
            assert.equal(
              await page.locator('[data-widget="layer-chart"] .guess-label').count(),
              2,
              'both markers are labelled',
            );
          };
          for (const [r, n] of [
            [1.5, 1.5],
            [1.5, 1.45],
            [1.55, 1.5],
            [3, 3],
            [0, 0],
            [2, 1],
          ]) {
            await guessed(r, n);
            found.push(...(await collisionsBothSchemes(page, `asking, guesses 10^${r} and 10^${n}`, DEMO)));
          }
          await guessed(1.5, 1.5);
          await page.click('#predict-commit');
          await waitStatus(page, 'done');
          await settle(page);
          assert.equal(await page.locator('[data-widget="layer-chart"] .guess-label').count(), 2);
          found.push(...(await collisionsBothSchemes(page, 'walk done, log', DEMO)));
          await page.selectOption('#layer-chart-scale', 'linear');
          found.push(...(await collisionsBothSchemes(page, 'walk done, linear', DEMO)));
          await page.selectOption('#layer-chart-scale', 'log');

          for (const [norm, placement] of [
            ['rmsnorm', 'post'],
            ['layernorm', 'pre'],
            ['none', 'pre'],
          ]) {
            await page.selectOption('#model-norm', norm);
            await page.selectOption('#model-placement', placement);
            await settle(page);
            for (const scale of ['log', 'linear']) {
              await page.selectOption('#layer-chart-scale', scale);
              found.push(...(await collisionsBothSchemes(page, `${norm}, ${placement}, ${scale}`, DEMO)));
            }
          }
          await page.selectOption('#model-norm', 'rmsnorm');
          await page.selectOption('#model-placement', 'pre');
          await page.selectOption('#layer-chart-scale', 'log');
          for (const depth of ['1', '64']) {
            await page.fill('#model-depth', depth);
            await settle(page);
            await drawEveryChart(page);
            found.push(...(await collisionsBothSchemes(page, `${depth} layers`, DEMO)));
          }

          // The softmax bars after a guess, then at the largest L2.
          await page.fill('#softmax-guess', '0.5');
          await page.click('[data-widget="softmax"] button[data-action="check"]');
          await settle(page);
          found.push(...(await collisionsBothSchemes(page, 'softmax after a guess', '[data-widget="softmax"]')));
          await page.fill('#softmax-l2', await page.getAttribute('#softmax-l2', 'max'));
          found.push(...(await collisionsBothSchemes(page, 'softmax at its largest L2', '[data-widget="softmax"]')));

          // The playground across its stretch.
          await page.click('[data-widget="playground"] button[data-action="skip"]');
          for (const stretch of ['-4', '0', '1', '4']) {
            await page.fill('#playground-stretch', stretch);
            await settle(page);
            const state = `playground at stretch 10^${stretch}`;
            found.push(...(await collisionsBothSchemes(page, state, '[data-widget="playground"]')));
          }

          // The gradient panel at its smallest and largest depth.
          for (const depth of ['6', '48']) {
            await page.fill('#grad-depth', depth);
            await settle(page);
            await gradientsDone(page);
            await drawEveryChart(page);
            found.push(...(await collisionsBothSchemes(page, `gradients at ${depth} layers`)));
          }

          // The training lab before a run: its learning-rate window.
          await bringLabIn(page);
          await page.locator(`${LAB} .lab-window`).scrollIntoViewIfNeeded();
          await settle(page);
          assert.equal((await page.locator(`${LAB} .lab-window svg.chart text`).count()) > 0, true);
          found.push(...(await collisionsBothSchemes(page, 'the lab', LAB)));

          assert.deepEqual(found, []);
          assert.deepEqual(problems, []);
        } finally {
          await close();
        }
      });
    }
  }
});
