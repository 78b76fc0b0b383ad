// What a student sees by default carries no build jargon, in
// both languages: the page's visible text, with the training lab
// loaded, names no committed sweep, no ./build.sh, no compiler, instruction
// set or commit. The lab's note on how its sweep was made is there for
// teachers, in a <details> that starts closed. The dictionaries are checked
// string by string in tests/js/page-wording.test.mjs.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { LAB, bringLabIn, fileUrl, openPage, settle, shareBrowserAndServer } from './page-support.mjs';

const shared = shareBrowserAndServer();

const JARGON = [
  /committed/i,
  /build\.sh/,
  /\bg\+\+/i,
  /\b(fma3|avx2)\b/i,
  /\bcommit\b/i,
  /tests\/bench|\.mjs\b/,
  /\b[0-9a-f]{7,40}\b/,
  /已提交|提交的/,
];

for (const lang of ['en', 'zh-CN']) {
  describe(`no build jargon in what a student sees (${lang})`, () => {
    test('the visible text, the lab loaded; the build details behind a closed note for teachers', async () => {
      const { page, problems, close } = await openPage(shared.browser, `${fileUrl}?lang=${lang}`, {
        reducedMotion: 'reduce',
      });
      try {
        await bringLabIn(page);
        await settle(page);
        const visible = await page.evaluate(() => document.body.innerText);
        // The page rendered its text (Chinese takes a character a word; the
        // gradient views far below wait for the screen, their text with them).
        const least = lang === 'en' ? 5000 : 3000;
        assert.ok(visible.length > least, `only ${visible.length} characters of text`);
        const lines = visible.split('\n').filter((line) => JARGON.some((re) => re.test(line)));
        assert.deepEqual(lines, []);
        // One for each of the map's sweeps, the chapter's and the variants'.
        const notes = page.locator(`${LAB} details.lab-made`);
        assert.equal(await notes.count(), 2);
        for (const note of await notes.all()) {
          assert.equal(await note.evaluate((d) => d.open), false);
          assert.match(await note.locator('summary').textContent(), lang === 'en' ? /^For teachers: / : /^给教师：/);
          // Inside it, for whoever opens it: how the sweep was made.
          const inside = await note.evaluate((d) => d.textContent);
          assert.match(inside, /build\.sh sweep/);
          assert.ok(!visible.includes(inside.slice(inside.indexOf('build.sh'), inside.indexOf('build.sh') + 20)));
        }
        assert.deepEqual(problems, []);
      } finally {
        await close();
      }
    });
  });
}
