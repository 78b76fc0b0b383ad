// The page's language from a URL's ?lang= and from the browser's preferred
// languages: any tag of a language the page speaks picks it, in any case;
// anything else falls back with a note (the URL) or to English (the browser).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { detectLanguage, pageLanguage } from '../../web/src/i18n/index.js';
import { searchFromState, stateFromSearch } from '../../web/src/state.js';

test('every Chinese tag is zh-CN, every English tag en, in any case', () => {
  for (const tag of ['zh', 'zh-Hans', 'zh-CN', 'zh-cn', 'ZH-HANS-CN', 'zh-SG', 'zh-TW', 'zh-Hant'])
    assert.equal(pageLanguage(tag), 'zh-CN', tag);
  for (const tag of ['en', 'EN', 'en-US', 'en-GB', 'en-gb', 'en-Latn-IE']) assert.equal(pageLanguage(tag), 'en', tag);
  for (const tag of [
    '',
    'xx',
    'fr-FR',
    'zh_CN',
    'english',
    'chinese',
    'en-',
    'zh--cn',
    '<img src=x>',
    'en-GB"><script>',
  ]) {
    assert.equal(pageLanguage(tag), null, tag);
  }
});

test('?lang= aliases open the page in that language with no note, and the URL keeps the canonical tag', () => {
  for (const [tag, lang] of [
    ['zh', 'zh-CN'],
    ['zh-Hans', 'zh-CN'],
    ['zh-cn', 'zh-CN'],
    ['en-US', 'en'],
    ['en-GB', 'en'],
  ]) {
    const { state, rejected, given } = stateFromSearch(`?lang=${tag}`, 'en');
    assert.equal(state.lang, lang, tag);
    assert.deepEqual(rejected, [], tag);
    assert.deepEqual(given, ['lang'], tag);
    assert.equal(new URLSearchParams(searchFromState(state)).get('lang'), lang, tag);
  }
});

test('an unknown ?lang= keeps the detected language and is reported', () => {
  const { state, rejected } = stateFromSearch('?lang=xx', 'zh-CN');
  assert.equal(state.lang, 'zh-CN');
  assert.deepEqual(rejected, [{ param: 'lang', value: 'xx' }]);
});

test("the browser's first preferred language the page speaks wins", () => {
  assert.equal(detectLanguage(['fr-FR', 'zh-TW', 'en']), 'zh-CN');
  assert.equal(detectLanguage(['de', 'en-GB']), 'en');
  assert.equal(detectLanguage(['ja']), 'en');
  assert.equal(detectLanguage([]), 'en');
  assert.equal(detectLanguage(undefined), 'en');
});
