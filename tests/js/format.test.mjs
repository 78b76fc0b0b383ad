// The page's number formatter (web/src/format.js): ordinary numbers with the
// locale's grouping, powers of ten written out (1.0 × 10⁻⁴), never
// e-notation, whatever the magnitude.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  decimals,
  fixed,
  integer,
  powerOfTen,
  scientific,
  significant,
  tick,
  vectorTex,
  vectorText,
} from '../../web/src/format.js';

const E_NOTATION = /\d(\.\d+)?e[+-]?\d/i;

test('significant digits: ordinary numbers from 0.001 up to a million, trailing zeros kept', () => {
  assert.equal(significant(0.19, 2), '0.19');
  assert.equal(significant(0.19), '0.190');
  assert.equal(significant(32), '32.0');
  assert.equal(significant(9.6), '9.60');
  assert.equal(significant(1034), '1030');
  assert.equal(significant(105.2, 2), '110');
  assert.equal(significant(0.0048), '0.00480');
  assert.equal(significant(123456), '123,000');
  assert.equal(significant(-0.0123), '-0.0123');
  assert.equal(significant(0), '0');
});

test('significant digits: a power of ten outside that range, its mantissa one digit shorter', () => {
  assert.equal(significant(1e-4), '1.0 × 10⁻⁴');
  assert.equal(significant(1.12e-4), '1.1 × 10⁻⁴');
  assert.equal(significant(9e-8), '9.0 × 10⁻⁸');
  assert.equal(significant(-1e-4), '-1.0 × 10⁻⁴');
  assert.equal(significant(1.5e6), '1.5 × 10⁶');
  assert.equal(significant(1e20, 4), '1.00 × 10²⁰');
  // A factor written before a × may start ordinary notation lower.
  assert.equal(significant(1e-4, 3, { smallest: 1e-4 }), '0.000100');
  assert.equal(significant(9e-5, 3, { smallest: 1e-4 }), '9.0 × 10⁻⁵');
  assert.equal(significant(1.5e-7, 3, { smallest: 1e-9 }), '0.000000150');
  assert.equal(decimals(1.5e-7, 8), '0.00000015');
  // Rounding decides the side: 0.0009996 at 3 digits is 0.00100, ordinary.
  assert.equal(significant(0.0009996), '0.00100');
  // A mantissa that rounds up to 10 moves to the next power.
  assert.equal(scientific(0.000999, 2), '1.0 × 10⁻³');
  assert.equal(scientific(9.96e7, 2), '1.0 × 10⁸');
});

test('decimals: trimmed, and what would round to 0 keeps two significant digits', () => {
  assert.equal(decimals(1.8708), '1.87');
  assert.equal(decimals(-0.5345), '-0.53');
  assert.equal(decimals(3.5), '3.5');
  assert.equal(decimals(4), '4');
  assert.equal(decimals(0.0048), '0.0048');
  assert.equal(decimals(1e-4), '1.0 × 10⁻⁴');
  assert.equal(decimals(-0.001, 2), '-0.001');
  assert.equal(decimals(0), '0');
  assert.equal(decimals(1e20), '1.0 × 10²⁰');
});

test('fixed decimals for columns; a value that rounds to zero has no sign', () => {
  assert.equal(fixed(0.3254), '0.325');
  assert.equal(fixed(1, 1), '1.0');
  assert.equal(fixed(-0.0001), '0.000');
  assert.equal(fixed(12345.6, 1), '12,345.6');
});

test('integers, eps choices, non-finite values', () => {
  assert.equal(integer(2060.4), '2060');
  assert.equal(integer(130000), '130,000');
  assert.equal(powerOfTen(1e-6), '10⁻⁶');
  assert.equal(powerOfTen(1e-5), '10⁻⁵');
  assert.equal(powerOfTen(2e-5), '2.0 × 10⁻⁵');
  assert.equal(significant(Infinity), '∞');
  assert.equal(decimals(-Infinity), '-∞');
  assert.equal(fixed(NaN), 'NaN');
});

test('chart ticks: the shortest form of a round value, bare powers of ten outside ordinary range', () => {
  assert.deepEqual([1e-4, 2e-4, 0.001, 0.01, 0.30000000000000004, 1, 20, 1000, 1e6, 1e7].map(tick), [
    '10⁻⁴',
    '2 × 10⁻⁴',
    '0.001',
    '0.01',
    '0.3',
    '1',
    '20',
    '1000',
    '10⁶',
    '10⁷',
  ]);
});

test('vectors, as text and as TeX', () => {
  assert.equal(vectorText([2, -1, 3, 0]), '[2, -1, 3, 0]');
  assert.equal(vectorTex([1e-5, 2, -1.5, 12345]), '[{1.0 \\times 10^{-5}},\\,{2},\\,{-1.5},\\,{12{,}345}]');
});

test('no formatter writes e-notation, from 10⁻³⁰ to 10³⁰, either sign', () => {
  for (let e = -30; e <= 30; e += 0.25) {
    for (const v of [10 ** e, -(10 ** e), 1.2345 * 10 ** e]) {
      for (const text of [
        significant(v),
        significant(v, 2),
        decimals(v),
        fixed(v),
        integer(v),
        tick(v),
        scientific(v),
      ]) {
        assert.doesNotMatch(text, E_NOTATION, `${v} -> ${text}`);
      }
    }
  }
});

// One locale serves both page languages because they write numbers alike:
// Intl's zh-CN output equals its en-US output for the same options.
test('zh-CN and en-US group digits and mark decimals the same way', () => {
  const options = [
    { useGrouping: 'min2', minimumSignificantDigits: 3, maximumSignificantDigits: 3 },
    { useGrouping: 'min2', maximumFractionDigits: 2 },
    { useGrouping: 'min2', minimumFractionDigits: 3, maximumFractionDigits: 3 },
  ];
  for (const o of options) {
    for (const v of [0.19, 1034, 123456.789, -0.0123, 98765432.1]) {
      assert.equal(new Intl.NumberFormat('zh-CN', o).format(v), new Intl.NumberFormat('en-US', o).format(v));
    }
  }
});

// Below 10⁴ the formatter writes with Number's own methods, for speed: the
// text must be what Intl writes for the same options.
test('the fast path writes what Intl writes', () => {
  const intl = (options) =>
    new Intl.NumberFormat('en-US', { useGrouping: 'min2', signDisplay: 'negative', ...options });
  const s3 = intl({ minimumSignificantDigits: 3, maximumSignificantDigits: 3 });
  const s2 = intl({ minimumSignificantDigits: 2, maximumSignificantDigits: 2 });
  const d2 = intl({ maximumFractionDigits: 2 });
  const f3 = intl({ minimumFractionDigits: 3, maximumFractionDigits: 3 });
  for (let e = -3; e < 5; e += 0.01) {
    for (const v of [10 ** e, -(10 ** e), 3.14159 * 10 ** e]) {
      const r3 = Number(v.toPrecision(3));
      if (Math.abs(r3) >= 1e-3) assert.equal(significant(v), s3.format(r3), `${v}`);
      const r2 = Number(v.toPrecision(2));
      if (Math.abs(r2) >= 1e-3) assert.equal(significant(v, 2), s2.format(r2), `${v}`);
      if (Math.abs(Number(v.toFixed(2))) > 0) assert.equal(decimals(v), d2.format(Number(v.toFixed(2))), `${v}`);
      assert.equal(fixed(v), f3.format(v), `${v}`);
    }
  }
});
