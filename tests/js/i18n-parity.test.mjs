// Both languages of the page say the same things: every string exists in en
// and zh-CN, with the same placeholders, glossary terms and formulas, and
// every key the page uses exists.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

import { DICTIONARIES, LANGUAGE_CODES, LANGUAGE_NAMES, lookup } from '../../web/src/i18n/index.js';
import { GLOSSARY_KEYS } from '../../web/src/widgets/glossary.js';

const web = fileURLToPath(new URL('../../web/', import.meta.url));

function flatten(node, prefix = '') {
  return Object.entries(node).flatMap(([key, value]) =>
    typeof value === 'object' ? flatten(value, `${prefix}${key}.`) : [[`${prefix}${key}`, value]],
  );
}

const flat = Object.fromEntries(LANGUAGE_CODES.map((code) => [code, Object.fromEntries(flatten(DICTIONARIES[code]))]));
const matches = (text, pattern) => [...text.matchAll(pattern)].map((m) => m[1]).sort();

test('the page speaks English and Simplified Chinese', () => {
  assert.deepEqual(LANGUAGE_CODES, ['en', 'zh-CN']);
  assert.deepEqual(Object.keys(DICTIONARIES), LANGUAGE_CODES);
  // The switches' names, known before a dictionary is loaded, are each
  // dictionary's own.
  for (const code of LANGUAGE_CODES) assert.equal(LANGUAGE_NAMES[code], DICTIONARIES[code].meta.langName, code);
});

test('every key exists in both languages, as a non-empty string', () => {
  assert.deepEqual(Object.keys(flat['zh-CN']).sort(), Object.keys(flat.en).sort());
  for (const code of LANGUAGE_CODES) {
    for (const [key, value] of Object.entries(flat[code])) {
      assert.equal(typeof value, 'string', `${code} ${key}`);
      assert.ok(value.trim().length > 0, `${code} ${key} is empty`);
    }
  }
  assert.ok(Object.keys(flat.en).length > 200, 'the dictionaries look truncated');
});

test('translations keep placeholders, glossary terms and formulas', () => {
  for (const [key, english] of Object.entries(flat.en)) {
    const chinese = flat['zh-CN'][key];
    assert.deepEqual(
      matches(chinese, /\{([a-zA-Z][a-zA-Z0-9]*)\}/g),
      matches(english, /\{([a-zA-Z][a-zA-Z0-9]*)\}/g),
      `placeholders of ${key}`,
    );
    assert.deepEqual(
      matches(chinese, /\[\[([a-z0-9]+)\|/g),
      matches(english, /\[\[([a-z0-9]+)\|/g),
      `glossary terms of ${key}`,
    );
    assert.deepEqual(matches(chinese, /\$([^$]+)\$/g), matches(english, /\$([^$]+)\$/g), `formulas of ${key}`);
  }
});

test('every glossary term used in the text has an entry', () => {
  for (const code of LANGUAGE_CODES) {
    for (const [key, value] of Object.entries(flat[code])) {
      for (const term of matches(value, /\[\[([a-z0-9]+)\|/g))
        assert.ok(GLOSSARY_KEYS.includes(term), `${code} ${key}: [[${term}|]]`);
    }
    for (const term of GLOSSARY_KEYS) {
      assert.ok(
        lookup(code, `glossary.${term}.term`) && lookup(code, `glossary.${term}.def`),
        `${code} glossary.${term}`,
      );
    }
  }
  assert.equal(GLOSSARY_KEYS.length, 8);
});

test('every key the page refers to exists', () => {
  const html = readFileSync(join(web, 'index.html'), 'utf8');
  const keys = new Set([
    ...matches(html, /data-i18n="([^"]+)"/g),
    ...matches(html, /data-what="([^"]+)"/g),
    ...[...html.matchAll(/data-i18n-attr="([^"]+)"/g)].flatMap((m) =>
      m[1].split(';').map((pair) => pair.split(':')[1]),
    ),
  ]);
  // Literal keys in the scripts: t('a.b'), rich(node, 'a.b'), whatKey etc.
  const sources = readdirSync(join(web, 'src'), { recursive: true }).filter(
    (f) => f.endsWith('.js') && !f.startsWith('i18n'),
  );
  for (const file of sources) {
    const source = readFileSync(join(web, 'src', file), 'utf8');
    for (const key of matches(source, /\b(?:t|rich\([^,]+,)\s*\(?'([a-z][a-zA-Z]*\.[a-zA-Z0-9.]+)'/g)) keys.add(key);
  }
  assert.ok(keys.size > 100, `only ${keys.size} keys found`);
  for (const code of LANGUAGE_CODES) {
    for (const key of keys) assert.doesNotThrow(() => lookup(code, key), `${code} lacks ${key}`);
  }
});
