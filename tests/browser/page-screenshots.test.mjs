// Full-page screenshots at desktop and phone widths, in both languages and
// both themes, saved under build/screenshots/ for a person to look at; and
// the layout checks a screenshot cannot be trusted to catch: nothing is
// wider than a 375 px phone, and every chart has its text alternative.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { fileUrl, launchBrowser, openPage, screenshotDir, settle, gradientsDone } from './page-support.mjs';

let browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

// layer=22 shows the hands-on exercise's layer (and, naming a layer, keeps
// the auto-run from moving it while the picture is taken).
const SHOTS = [
  { file: 'page-desktop-en.png', query: '?lang=en&layer=22', width: 1280, colorScheme: 'light' },
  { file: 'page-desktop-zh-CN-dark.png', query: '?lang=zh-CN&layer=22', width: 1280, colorScheme: 'dark' },
  { file: 'page-phone-en-dark.png', query: '?lang=en&theme=dark&layer=22', width: 375, colorScheme: 'light' },
  { file: 'page-phone-zh-CN.png', query: '?lang=zh-CN&layer=22', width: 375, colorScheme: 'light' },
];

for (const shot of SHOTS) {
  test(`${shot.file}: ${shot.width} px wide, nothing overflows`, async () => {
    const { page, problems, close } = await openPage(browser, `${fileUrl}${shot.query}`, {
      viewport: { width: shot.width, height: 900 },
      colorScheme: shot.colorScheme,
    });
    try {
      // Show the interactive states too: an answered quiz question.
      await page.locator('[data-question="q1"] [data-option="b"]').click();
      await gradientsDone(page);
      // On screen the page skips rendering the sections far from the
      // viewport (content-visibility), so a full-page capture would show
      // them blank, and their overflow would go unmeasured. Print media
      // renders every section, with the same styles otherwise.
      await page.emulateMedia({ media: 'print' });
      await settle(page);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `the page is ${overflow} px wider than the viewport`);
      await page.screenshot({ path: `${screenshotDir}${shot.file}`, fullPage: true });
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });
}

test('every chart has a table beside it and an accessible name', async () => {
  const { page, problems, close } = await openPage(browser, fileUrl);
  try {
    await gradientsDone(page);
    await settle(page);
    // Every figure: the legends' little line keys are decoration, hidden from
    // assistive technology.
    // (The lab's charts, loaded when the gradient views were scrolled in,
    // are lab.test.mjs's.)
    const charts = await page.locator('svg.chart:not(.legend-key)').evaluateAll((svgs) =>
      svgs
        .filter((svg) => !svg.closest('[data-widget="training-lab"]'))
        .map((svg) => ({
          role: svg.getAttribute('role'),
          label: svg.getAttribute('aria-label'),
          table: Boolean(svg.closest('.widget')?.querySelector('details.data-table table tbody tr')),
        })),
    );
    // softmax, gain, layer chart, playground, attention (2), gradients (3)
    assert.equal(charts.length, 9);
    for (const chart of charts) {
      assert.equal(chart.role, 'img');
      assert.ok(chart.label.length > 20, chart.label);
      assert.ok(chart.table);
    }
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});
