// The calculator's vector-text parser (web/src/vector-parse.js): what it
// accepts, and which error each malformed entry gets. The C++ parser in
// src/normlab/vector_text.cpp implements the same grammar (Catch2 tests).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { parseVector } from '../../web/src/vector-parse.js';

const parse = (text) => parseVector(text, { max: 64 });

test('numbers with commas, spaces, full-width separators, brackets and the minus sign', () => {
  assert.deepEqual(parse('[2, -1, 3, 0]'), { ok: true, values: [2, -1, 3, 0] });
  assert.deepEqual(parse('1，−2；3e2  .5'), { ok: true, values: [1, -2, 300, 0.5] });
});

test('a token that is not a number is named, with its position', () => {
  for (const token of ['a5', '..5', '1e]5', '+-1', '0x10']) {
    assert.deepEqual(parse(`1, ${token}`), { ok: false, error: { code: 'errToken', params: { token, index: 2 } } });
  }
});

test('empty text, too many entries and values beyond float32 are refused', () => {
  assert.deepEqual(parse('  '), { ok: false, error: { code: 'errEmpty', params: {} } });
  assert.deepEqual(parseVector('1 2 3', { max: 2 }), { ok: false, error: { code: 'errTooMany', params: { count: 3, max: 2 } } });
  assert.deepEqual(parse('1, -1e39'), { ok: false, error: { code: 'errRange', params: { index: 2 } } });
});
