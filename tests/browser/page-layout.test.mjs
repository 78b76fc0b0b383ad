// Phone layout: at 320 and 375 px, in both languages, nothing on the page is
// cut off, hidden in a scroll region or pushed past the viewport. Each
// section is scrolled into view before it is measured: off screen, sections
// skip rendering (content-visibility), and their charts draw only once seen.
// A table may scroll sideways inside a region the keyboard can reach (it has
// tabindex="0"); nothing else may.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { openPage, settle, shareBrowserAndServer, gradientsDone } from './page-support.mjs';

const shared = shareBrowserAndServer();

// What a reader of a too-narrow page would see go wrong, per element: the
// element or one of its text runs reaches past the viewport, or its content
// is wider (or taller) than its box while its overflow is not visible
// (clipped, or put in a scroll region).
function layoutProblems(sectionSelector) {
  const width = document.documentElement.clientWidth;
  const problems = [];
  const describe = (node) => {
    const parts = [];
    for (let n = node; n && n !== document.body && parts.length < 4; n = n.parentElement) {
      const id = n.id ? `#${n.id}` : '';
      const cls = typeof n.className === 'string' && n.className ? `.${n.className.trim().split(/\s+/).join('.')}` : '';
      const widget = n.dataset?.widget ? `[data-widget=${n.dataset.widget}]` : '';
      parts.unshift(`${n.localName}${id}${widget}${cls}`);
    }
    return parts.join(' > ');
  };
  // Content meant for assistive technology only (clipped to a pixel), and
  // the skip link, which sits above the page until it takes focus.
  const offscreenByDesign = (node) => {
    for (let n = node; n; n = n.parentElement) {
      if (n.classList?.contains('skip-link')) return true;
      const r = n.getBoundingClientRect();
      const style = getComputedStyle(n);
      if (
        r.width <= 1 &&
        r.height <= 1 &&
        (style.clip !== 'auto' || style.clipPath !== 'none' || style.overflow === 'hidden')
      )
        return true;
    }
    return false;
  };
  // A table's own scroll region, which the keyboard can reach: what is
  // inside scrolls within it by design.
  const tableRegion = (node) => node.getAttribute('tabindex') === '0' && node.querySelector('table') !== null;
  const insideTableRegion = (node) => {
    for (let n = node.parentElement; n; n = n.parentElement) if (tableRegion(n)) return true;
    return false;
  };
  const section = document.querySelector(sectionSelector);
  for (const node of [section, ...section.querySelectorAll('*')]) {
    if (node.getClientRects().length === 0 || offscreenByDesign(node) || insideTableRegion(node)) continue;
    const r = node.getBoundingClientRect();
    if (r.width > 0 && (r.right > width + 0.5 || r.left < -0.5)) {
      problems.push(
        `${describe(node)}: spans ${Math.round(r.left)}..${Math.round(r.right)} px in a ${width} px viewport`,
      );
      continue;
    }
    const style = getComputedStyle(node);
    const clipsX = style.overflowX !== 'visible' && node.scrollWidth > node.clientWidth + 1;
    const clipsY =
      style.overflowY !== 'visible' && node.localName !== 'textarea' && node.scrollHeight > node.clientHeight + 1;
    if ((clipsX || clipsY) && !tableRegion(node) && !(node instanceof SVGElement)) {
      problems.push(
        `${describe(node)}: ${node.scrollWidth}x${node.scrollHeight} px of content in a ${node.clientWidth}x${node.clientHeight} px box (overflow ${style.overflowX}/${style.overflowY})`,
      );
    }
    for (const child of node.childNodes) {
      if (child.nodeType !== Node.TEXT_NODE || !child.textContent.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(child);
      const t = range.getBoundingClientRect();
      if (t.width > 0 && (t.right > width + 0.5 || t.left < -0.5)) {
        problems.push(
          `${describe(node)}: text "${child.textContent.trim().slice(0, 30)}" spans ${Math.round(t.left)}..${Math.round(t.right)} px`,
        );
      }
    }
  }
  return problems;
}

const CASES = [
  { lang: 'en', width: 320, colorScheme: 'light' },
  { lang: 'en', width: 375, colorScheme: 'dark' },
  { lang: 'zh-CN', width: 320, colorScheme: 'dark' },
  { lang: 'zh-CN', width: 375, colorScheme: 'light' },
];

for (const c of CASES) {
  test(`${c.lang} at ${c.width} px: every section fits, nothing clipped or scrolled sideways`, async () => {
    const { page, problems, close } = await openPage(shared.browser, `${shared.server.url}index.html?lang=${c.lang}`, {
      viewport: { width: c.width, height: 720 },
      colorScheme: c.colorScheme,
    });
    try {
      // The states a reader reaches: answered questions (a hint, an
      // explanation), the challenges' feedback, the exercise's answer, the
      // open tables and details, an error under the calculator, the
      // gradient views.
      await page.locator('[data-question="q1"] [data-option="b"]').click();
      await page.locator('[data-question="q2"] [data-option="b"]').click();
      await page.locator('[data-challenge="flat"] .challenge-action').click();
      await page.locator('[data-challenge="shift"] .challenge-action').click();
      await page.locator('[data-challenge="unit"] [data-option="b"]').click();
      await page.locator('[data-challenge="size"] [data-option="c"]').click();
      await page.locator('#exercise-reveal').click();
      await page.fill('#calc-vector', '1e20, 2, 3');
      await settle(page);
      await page.fill('#calc-vector', '1, x');
      // Every table a reader can open: the lab's layer-norm table stays
      // hidden until a run has measured the model.
      for (const summary of await page.locator('main details > summary').all()) {
        if (await summary.isVisible()) await summary.click();
      }
      await gradientsDone(page);
      const sections = await page.evaluate(() =>
        [...document.querySelectorAll('.chapter > section, .demo-part')].map((s) =>
          s.id ? `#${s.id}` : `[aria-labelledby="${s.getAttribute('aria-labelledby')}"]`,
        ),
      );
      assert.ok(sections.length >= 18, `found ${sections.length} sections`);
      const found = [];
      for (const selector of sections) {
        await page.locator(selector).first().scrollIntoViewIfNeeded();
        await settle(page);
        await settle(page);
        found.push(...(await page.evaluate(layoutProblems, selector)));
      }
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      if (overflow > 0) found.push(`the page scrolls sideways by ${overflow} px`);
      assert.deepEqual([...new Set(found)], []);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });
}
