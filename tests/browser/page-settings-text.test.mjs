// The attention panel's settings line as the page renders it, for every
// norm and placement the settings offer, in both languages:
// the norm and placement picked, or, with no norm, no placement
// at all. Expected lines are written out here, from the control labels.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { NORM_KINDS, PLACEMENTS } from '../../web/src/constants.js';
import { fileUrl, openPage, settle, shareBrowserAndServer } from './page-support.mjs';
import { text } from './walk-support.mjs';

const shared = shareBrowserAndServer();
const LINE = '[data-widget="attention"] > .widget-note';

function expected(lang, norm, placement) {
  const t = (key) => text(lang, key);
  const normName = t(norm === 'rmsnorm' ? 'model.normRmsnorm' : 'model.normLayernorm');
  const place = t(placement === 'pre' ? 'model.placementPre' : 'model.placementPost');
  if (lang === 'en')
    return norm === 'none'
      ? 'Settings: no norm, 24 layers, 30 tokens.'
      : `Settings: ${normName}, ${place}, 24 layers, 30 tokens.`;
  return norm === 'none' ? '设置：不做归一化、24 层，30 个词元。' : `设置：${normName}、${place}、24 层，30 个词元。`;
}

for (const lang of ['en', 'zh-CN']) {
  describe(`the attention panel's settings line (${lang})`, () => {
    test('every norm and placement', async () => {
      // The prompt is fixed at 30 tokens so the line's end is known.
      const prompt = 'abcdefghijklmnopqrstuvwxyz0123';
      const { page, problems, close } = await openPage(
        shared.browser,
        `${fileUrl}?lang=${lang}&prompt=${encodeURIComponent(prompt)}`,
        { reducedMotion: 'reduce' },
      );
      try {
        await page.locator('[data-widget="attention"]').scrollIntoViewIfNeeded();
        for (const norm of NORM_KINDS) {
          for (const placement of PLACEMENTS) {
            await page.selectOption('#model-norm', norm);
            await page.selectOption('#model-placement', placement);
            const want = expected(lang, norm, placement);
            await page
              .waitForFunction(([s, w]) => document.querySelector(s)?.textContent === w, [LINE, want], {
                timeout: 30_000,
              })
              .catch(() => {});
            await settle(page);
            assert.equal(await page.textContent(LINE), want, `${norm}, ${placement}`);
          }
        }
        assert.deepEqual(problems, []);
      } finally {
        await close();
      }
    });
  });
}
