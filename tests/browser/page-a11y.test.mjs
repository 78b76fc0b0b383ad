// Accessibility audit with axe-core (injected from node_modules) in both
// languages and both themes, on phones (375 and 320 px) and a desktop, with the dynamic
// parts shown (quiz feedback, the challenges' feedback, the exercise's answer,
// open data tables, an error message, the model's views filled in): no serious or critical violation. The same for the
// custom elements of embed-demo.html, whose shadow roots axe enters.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { launchBrowser, openPage, seriousViolations, settle, startServer, gradientsDone } from './page-support.mjs';

let browser;
let server;
before(async () => {
  browser = await launchBrowser();
  server = await startServer();
});
after(async () => {
  await browser?.close();
  server?.stop();
});

const CASES = [
  { name: 'English, light, desktop', query: '?lang=en', colorScheme: 'light', viewport: { width: 1280, height: 900 } },
  { name: 'English, dark, phone', query: '?lang=en', colorScheme: 'dark', viewport: { width: 375, height: 800 } },
  { name: 'Chinese, light, phone', query: '?lang=zh-CN', colorScheme: 'light', viewport: { width: 375, height: 800 } },
  {
    name: 'Chinese, dark, desktop',
    query: '?lang=zh-CN&theme=dark',
    colorScheme: 'light',
    viewport: { width: 1280, height: 900 },
  },
  {
    name: 'English, light, small phone',
    query: '?lang=en',
    colorScheme: 'light',
    viewport: { width: 320, height: 640 },
  },
  {
    name: 'Chinese, dark, small phone',
    query: '?lang=zh-CN',
    colorScheme: 'dark',
    viewport: { width: 320, height: 640 },
  },
];

for (const c of CASES) {
  test(`axe finds no serious or critical violation: ${c.name}`, async () => {
    // Over HTTP: axe reads the stylesheets itself, which file:// forbids.
    // bypassCSP only so the audit script can be injected; the page itself
    // is checked under its policy in page-csp.test.mjs.
    const { page, problems, close } = await openPage(browser, `${server.url}index.html${c.query}`, {
      colorScheme: c.colorScheme,
      viewport: c.viewport,
      bypassCSP: true,
    });
    try {
      await page.locator('[data-question="q1"] [data-option="b"]').click();
      await page.locator('[data-question="q2"] [data-option="a"]').click();
      await page.locator('[data-question="q3"] [data-option="b"]').click();
      // The challenges' feedback (a task done, a question answered) and the
      // exercise's model answer.
      await page.locator('[data-challenge="flat"] .challenge-action').click();
      await page.locator('[data-challenge="size"] [data-option="a"]').click();
      await page.locator('#exercise-reveal').click();
      await page.locator('[data-widget="playground"] summary').click();
      await page.fill('#calc-vector', '1, x');
      await page.locator('[data-widget="layer-chart"] summary').click();
      await gradientsDone(page);
      await settle(page);
      assert.deepEqual(await seriousViolations(page), []);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });
}

for (const colorScheme of ['light', 'dark']) {
  test(`axe finds no serious or critical violation inside the custom elements: embed-demo.html, ${colorScheme}`, async () => {
    const { page, problems, close } = await openPage(browser, `${server.url}embed-demo.html`, {
      colorScheme,
      viewport: { width: 1280, height: 900 },
      bypassCSP: true,
    });
    try {
      await gradientsDone(page);
      await settle(page);
      assert.ok((await page.evaluate(() => document.querySelectorAll('normlab-softmax').length)) > 0);
      assert.deepEqual(await seriousViolations(page), []);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });
}
