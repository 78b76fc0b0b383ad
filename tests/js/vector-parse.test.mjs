// The calculator's vector-text parser (web/src/vector-parse.js), by example:
// what it accepts, and which error each malformed entry gets, with its
// parameters. vector-parse.property.test.mjs checks the same rules on
// generated text and on the saved corpus.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { parseVector } from '../../web/src/vector-parse.js';

const MAX = 64; // the page's CALCULATOR_MAX_ENTRIES
const parse = (text, max = MAX) => parseVector(text, { max });
const values = (text) => {
  const result = parse(text);
  assert.equal(result.ok, true, `${JSON.stringify(text)}: ${JSON.stringify(result.error)}`);
  return result.values;
};
const failure = (code, params) => ({ ok: false, error: { code, params } });

test('the worked example in every notation the page meets', () => {
  const expected = [2, -1, 3, 0];
  for (const text of [
    '2, -1, 3, 0',
    '[2, -1, 3, 0]',
    '  [ 2 -1\t3\n0 ]  ',
    '2;-1;;3,,0',
    // Full-width comma and semicolon, ideographic space, the Unicode minus
    // sign, as a Chinese keyboard or copied text gives them.
    '2，\u22121；3\u30000',
    '\u00a02\u2003-1\u20283\ufeff0\u00a0',
  ]) {
    assert.deepEqual(values(text), expected, JSON.stringify(text));
  }
  assert.deepEqual(parse('1，−2；3e2  .5'), { ok: true, values: [1, -2, 300, 0.5] });
});

test('number spellings, correctly rounded as Number() reads them', () => {
  assert.deepEqual(values('1.5 .5 5. +7 -0.25'), [1.5, 0.5, 5, 7, -0.25]);
  assert.deepEqual(values('1e3 2E-2 3e+1 4e\u22122'), [1000, 0.02, 30, 0.04]);
  assert.equal(values('0.1')[0], 0.1);
  assert.equal(values('3.4e38')[0], 3.4e38);
  assert.equal(values('1e-400')[0], 0); // below the double range: 0
  assert.ok(Object.is(values('-0')[0], -0));
  assert.ok(Object.is(values('\u22120')[0], -0));
});

test('empty text, and separators alone', () => {
  for (const text of ['', '   ', '[]', '[ ]', '[', ']', '\u3000\n']) {
    assert.deepEqual(parse(text), failure('errEmpty', {}), JSON.stringify(text));
  }
  // A body of separators only has no tokens, and no error.
  assert.deepEqual(parse(' ; , '), { ok: true, values: [] });
});

test('too many entries are counted before any is read', () => {
  assert.deepEqual(parseVector('1 2 3', { max: 2 }), failure('errTooMany', { count: 3, max: 2 }));
  assert.deepEqual(parse('1 2 x 4 5', 4), failure('errTooMany', { count: 5, max: 4 }));
  assert.deepEqual(parse('1 2 3 4', 4), { ok: true, values: [1, 2, 3, 4] });
});

test('a token that is not a number is named, with its position', () => {
  for (const [text, token, index] of [
    ['1, x, 3', 'x', 2],
    ['1 2 3.4.5', '3.4.5', 3],
    ['[[1]]', '[1]', 1],
    ['1e', '1e', 1],
    ['--1', '--1', 1],
    ['+-1', '+-1', 1],
    ['0x10', '0x10', 1],
    ['Infinity', 'Infinity', 1],
    ['NaN', 'NaN', 1],
    ['1_000', '1_000', 1],
    ['５', '５', 1], // a full-width digit is no digit
    ['＋5', '＋5', 1],
    ['5\u2212', '5\u2212', 1],
    ['1\u200b2', '1\u200b2', 1], // a zero-width space is no white space
    ['1\u00852', '1\u00852', 1], // nor is U+0085
    ['1\ud8002', '1\ud8002', 1], // a lone surrogate
    // The sign is one of three characters: read as the class [+-−] it would
    // be the range U+002B..U+2212, which takes 'a'.
    ['a5', 'a5', 1],
    ['..5', '..5', 1],
    ['1e]5', '1e]5', 1],
  ]) {
    assert.deepEqual(parse(text), failure('errToken', { token, index }), JSON.stringify(text));
  }
  for (const token of ['a5', '..5', '1e]5', '+-1', '0x10']) {
    assert.deepEqual(parse(`1, ${token}`), failure('errToken', { token, index: 2 }));
  }
});

test('values beyond float32 are out of range; the first bad entry decides', () => {
  for (const [text, index] of [
    ['3.41e38', 1],
    ['1 -1e39', 2],
    ['1e999', 1],
    [`0 0 ${'9'.repeat(400)}`, 3],
    ['1, -1e39', 2],
  ]) {
    assert.deepEqual(parse(text), failure('errRange', { index }), text);
  }
  assert.deepEqual(parse('1e39 x'), failure('errRange', { index: 1 }));
  assert.deepEqual(parse('x 1e39'), failure('errToken', { token: 'x', index: 1 }));
});
