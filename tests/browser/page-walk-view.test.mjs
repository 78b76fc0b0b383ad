// The walk keeps what it narrates in view: at 1280 × 900
// (the chart and the narration side by side) and at 390 × 844 (the
// narration right under the chart), in both languages, at the walk's first
// step, its middle step and its last step, wherever a reader following it
// has scrolled to (the chart centred, the narration centred, the walk's
// buttons at the bottom of the screen), at least half of the chart and half
// of the narrated sentence are on screen together. Once the walk is done,
// the chart's note and table are back under it.
// The walk is stepped by hand (a step time no test waits out), so each
// position is measured on the step it names. Screenshots of each mid-point
// go to build/screenshots/walk-mid-<lang>-<width>.png.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';

import { fileUrl, measured, openPage, screenshotDir, settle, shareBrowserAndServer } from './page-support.mjs';
import { waitStatus, walkStatus } from './walk-support.mjs';

const shared = shareBrowserAndServer();

const CHART = '[data-widget="layer-chart"] .chart-box';
const WHERE = '[data-widget="autorun"] .autorun-where';
const RESULT = '[data-widget="autorun"] .predict-compare';

// The fraction of an element's height inside the viewport.
const visibleShare = (page, selector) =>
  page.locator(selector).evaluate((node) => {
    const r = node.getBoundingClientRect();
    if (r.height === 0) return 0;
    return Math.max(0, Math.min(r.bottom, innerHeight) - Math.max(r.top, 0)) / r.height;
  });

// The places a reader following the walk scrolls to: the chart centred,
// the narration centred, the walk's buttons at the bottom; and on a wide screen,
// where the narration is beside the chart, the narration at the top.
function readerPositions(narration, wide) {
  const positions = [
    { name: 'the chart centred', selector: CHART, block: 'center' },
    { name: 'the narration centred', selector: narration, block: 'center' },
    { name: 'the buttons at the bottom', selector: '[data-widget="autorun"] .button-row', block: 'end' },
  ];
  if (wide) positions.push({ name: 'the narration at the top', selector: narration, block: 'start' });
  return positions;
}

async function checkInView(page, narration, wide, moment) {
  for (const { name, selector, block } of readerPositions(narration, wide)) {
    await page.locator(selector).evaluate((node, b) => node.scrollIntoView({ block: b }), block);
    await settle(page);
    const chart = await visibleShare(page, CHART);
    const sentence = await visibleShare(page, narration);
    assert.ok(chart >= 0.5, `${moment}, ${name}: only ${(chart * 100).toFixed(0)}% of the chart is on screen`);
    assert.ok(
      sentence >= 0.5,
      `${moment}, ${name}: only ${(sentence * 100).toFixed(0)}% of the narration is on screen`,
    );
  }
}

const progress = (page) =>
  page.locator('#autorun-progress').evaluate((p) => ({ value: Number(p.value), max: Number(p.max) }));

async function stepTo(page, target) {
  while ((await progress(page)).value < target) {
    await page.click('#autorun-next');
    await settle(page);
  }
}

for (const lang of ['en', 'zh-CN']) {
  for (const viewport of [
    { width: 1280, height: 900 },
    { width: 390, height: 844 },
  ]) {
    const wide = viewport.width >= 1200;
    describe(`the walk in view (${lang}, ${viewport.width} × ${viewport.height})`, () => {
      test('the chart and the sentence narrating it are on screen together at the start, the middle and the end', async () => {
        const { page, problems, close } = await openPage(shared.browser, `${fileUrl}?lang=${lang}`, {
          viewport,
          // A step time no test waits out: the walk moves only when told to.
          initScript: () => {
            window.NORMLAB_WALK_STEP_MS = 600_000;
          },
        });
        try {
          await measured(page);
          await page.locator(CHART).scrollIntoViewIfNeeded();
          await page.click('#predict-skip');
          await waitStatus(page, 'running');
          await page.click('#autorun-pause');
          await waitStatus(page, 'paused');
          await settle(page);
          const { value: first, max } = await progress(page);
          assert.equal(first, 1);
          assert.ok(max >= 6, `a walk of ${max} steps`);
          // Side by side on a wide screen, one under the other on a phone.
          const [chartBox, whereBox] = await Promise.all(
            [CHART, WHERE].map((s) => page.locator(s).evaluate((n) => n.getBoundingClientRect().toJSON())),
          );
          if (wide) assert.ok(whereBox.left >= chartBox.right, 'the narration beside the chart');
          else assert.ok(whereBox.top >= chartBox.bottom, 'the narration under the chart');
          assert.notEqual((await page.textContent(WHERE)).trim(), '');
          await checkInView(page, WHERE, wide, 'first step');

          await stepTo(page, Math.ceil(max / 2));
          assert.equal(await walkStatus(page), 'paused');
          await checkInView(page, WHERE, wide, 'middle step');
          await page.locator(CHART).evaluate((node) => node.scrollIntoView({ block: 'center' }));
          await settle(page);
          await page.screenshot({ path: join(screenshotDir, `walk-mid-${lang}-${viewport.width}.png`) });

          await stepTo(page, max);
          assert.equal(await walkStatus(page), 'paused');
          await checkInView(page, WHERE, wide, 'last step');

          // Done: the closing sentence, and the chart's note and table back.
          await page.click('#autorun-next');
          await waitStatus(page, 'done');
          await settle(page);
          assert.notEqual((await page.textContent(RESULT)).trim(), '');
          for (const part of ['.widget-note', '.data-table'])
            assert.ok(await page.locator(`[data-widget="layer-chart"] > ${part}`).isVisible(), `${part} is back`);
          assert.deepEqual(problems, []);
        } finally {
          await close();
        }
      });
    });
  }
}
