// The browser tests render with the fonts build.sh installs and nothing else
// (tests/browser/page-support.mjs launches Chromium with build.sh's
// fontconfig file): the phone layout depends on glyph widths, and a layout
// test must give the same answer on a fresh machine as on a developer's.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';

import { browserEnv, openPage, shareBrowserAndServer, showWorkedExample } from './page-support.mjs';

const shared = shareBrowserAndServer();

// fonts-dejavu-core, fonts-dejavu-extra and fonts-wqy-microhei (build.sh's
// APT_FONTS).
const FAMILIES = [
  'DejaVu Math TeX Gyre',
  'DejaVu Sans',
  'DejaVu Sans Condensed',
  'DejaVu Sans Light',
  'DejaVu Sans Mono',
  'DejaVu Serif',
  'DejaVu Serif Condensed',
  'WenQuanYi Micro Hei',
  'WenQuanYi Micro Hei Mono',
];

test('fontconfig, as the browser tests configure it, lists exactly the fonts build.sh installs', () => {
  // Every family name of every font, as `fc-list : family` prints them
  // (comma-separated), without the Chinese fonts' Chinese names.
  const listed = execFileSync('fc-list', [':', 'family'], { env: browserEnv, encoding: 'utf8' });
  const families = new Set(
    listed
      .split('\n')
      .flatMap((line) => line.split(','))
      .filter((name) => /^[\x20-\x7e]+$/.test(name)),
  );
  assert.deepEqual([...families].sort(), FAMILIES);
});

// The fonts Chromium actually drew each element's text with (DevTools'
// CSS.getPlatformFontsForNode): prose, headings, code, formulas, in both
// languages.
for (const lang of ['en', 'zh-CN']) {
  test(`${lang}: Chromium draws the page's text with those fonts only`, async () => {
    const { page, problems, close } = await openPage(shared.browser, `${shared.server.url}index.html?lang=${lang}`);
    try {
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('DOM.enable');
      await cdp.send('CSS.enable');
      const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
      const used = new Set();
      for (const selector of [
        '#intro .summary',
        '#intro-title',
        '#compare pre.code',
        '#formula .math-display math',
        '[data-widget="worked-example"] math',
        '#calc-vector',
        '.toolbar-brand',
      ]) {
        // Drawn where it is on screen (the browser skips a section's
        // rendering off screen; the worked example's formulas wait for it).
        if (selector.includes('worked-example')) await showWorkedExample(page);
        else await page.locator(selector).first().scrollIntoViewIfNeeded();
        const { nodeIds } = await cdp.send('DOM.querySelectorAll', { nodeId: root.nodeId, selector });
        assert.ok(nodeIds.length > 0, selector);
        for (const nodeId of nodeIds) {
          const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
          for (const font of fonts) used.add(font.familyName);
        }
      }
      assert.ok(used.size > 0);
      for (const family of used) assert.ok(FAMILIES.includes(family), `${family} is not one of build.sh's fonts`);
      if (lang === 'zh-CN') assert.ok(used.has('WenQuanYi Micro Hei'), [...used].join(', '));
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });
}
