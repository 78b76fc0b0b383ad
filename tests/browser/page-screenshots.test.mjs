// Full-page screenshots at desktop and phone widths, in both languages and
// both themes, saved under build/screenshots/ for a person to look at; and
// the layout checks a screenshot cannot be trusted to catch: nothing is
// wider than a 375 px phone, and every chart has its text alternative.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { fileUrl, launchBrowser, openPage, screenshotDir, settle } from './page-support.mjs';

let browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

const SHOTS = [
  { file: 'page-desktop-en.png', query: '?lang=en', width: 1280, colorScheme: 'light' },
  { file: 'page-desktop-zh-CN-dark.png', query: '?lang=zh-CN', width: 1280, colorScheme: 'dark' },
  { file: 'page-phone-en-dark.png', query: '?lang=en&theme=dark', width: 375, colorScheme: 'light' },
  { file: 'page-phone-zh-CN.png', query: '?lang=zh-CN', width: 375, colorScheme: 'light' },
];

for (const shot of SHOTS) {
  test(`${shot.file}: ${shot.width} px wide, nothing overflows`, async () => {
    const { page, problems, close } = await openPage(browser, `${fileUrl}${shot.query}`, {
      viewport: { width: shot.width, height: 900 }, colorScheme: shot.colorScheme,
    });
    try {
      // Show the interactive states too: an answered quiz question.
      await page.locator('[data-question="q1"] [data-option="b"]').click();
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
    const charts = await page.locator('svg.chart').evaluateAll((svgs) => svgs.map((svg) => ({
      role: svg.getAttribute('role'),
      label: svg.getAttribute('aria-label'),
      table: Boolean(svg.closest('.widget')?.querySelector('details.data-table table tbody tr')),
    })));
    assert.equal(charts.length, 2);
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
