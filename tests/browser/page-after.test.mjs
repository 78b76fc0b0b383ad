// After pre-norm's results in headless Chromium, in both languages: the
// table of the variants' sweep holds, for every run, the seeds that learned
// at the lab's learning rate at each depth and of all its runs, counted here
// from the committed rows (web/data/variant-sweep.json) without the page's
// code, and the largest attention score of any of its steps; each sentence
// is its string filled with the numbers computed from the table, nothing
// left unfilled; axe finds nothing serious in the section (en at a
// desktop's width, zh-CN at a phone's).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';

import { formatVariants } from '../../web/src/claim-params.js';
import { significant } from '../../web/src/format.js';
import { lookup, plain } from '../../web/src/i18n/index.js';
import { variantClaims } from '../../web/src/lab/claims.js';
import { LAB_DEFAULTS, VARIANT_RUNS } from '../../web/src/lab/runs.js';
import { openPage, seriousViolations, settle, shareBrowserAndServer } from './page-support.mjs';

const shared = shareBrowserAndServer();
const table = JSON.parse(readFileSync(new URL('../../web/data/variant-sweep.json', import.meta.url), 'utf8'));
const SENTENCES = ['intro', 'qk', 'stream', 'deep', 'dyt', 'scale'];

for (const lang of ['en', 'zh-CN']) {
  const t = (key, params) => plain(lookup(lang, key), params);
  describe(`After pre-norm's results (${lang})`, () => {
    test('the table counts the committed runs; every sentence is filled from the table', async () => {
      // Over HTTP: axe reads the stylesheets itself, which file:// forbids.
      const { page, problems, close } = await openPage(shared.browser, `${shared.server.url}index.html?lang=${lang}`, {
        bypassCSP: true,
        viewport: lang === 'en' ? { width: 1280, height: 900 } : { width: 390, height: 844 },
      });
      try {
        await page.locator('[data-widget="variant-results"]').scrollIntoViewIfNeeded();
        await settle(page);
        const rows = await page
          .locator('[data-widget="variant-results"] tbody tr')
          .evaluateAll((trs) => trs.map((tr) => [tr.dataset.run, ...[...tr.cells].map((c) => c.textContent)]));
        const seeds = table.grid.seeds.length;
        const each = table.grid.layers.length * table.grid.lr.length * seeds;
        const learned = (where) => table.rows.filter((r) => where(r) && r.outcome === 'learned').length;
        assert.deepEqual(
          rows,
          VARIANT_RUNS.map((run) => [
            run,
            t(`after.runs.${run}`),
            ...table.grid.layers.map((layers) =>
              t('after.results.count', {
                n: learned((r) => r.run === run && r.layers === layers && r.lr === LAB_DEFAULTS.lr),
                of: seeds,
              }),
            ),
            t('after.results.count', { n: learned((r) => r.run === run), of: each }),
            significant(Math.max(...table.rows.filter((r) => r.run === run).map((r) => r.logitPeak))),
          ]),
        );
        const params = formatVariants(variantClaims(table), lang);
        for (const key of SENTENCES) {
          const text = await page.textContent(`[data-i18n="after.results.${key}"]`);
          assert.equal(text, t(`after.results.${key}`, params), key);
          assert.doesNotMatch(text, /\{/, key);
        }
        assert.deepEqual(await seriousViolations(page, '#after'), []);
        assert.deepEqual(problems, []);
      } finally {
        await close();
      }
    });
  });
}
