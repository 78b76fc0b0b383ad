// Property tests of the calculator's parser (web/src/vector-parse.js), the
// code the page runs, with fast-check:
//   - on any text and any max, it never throws and returns exactly what
//     referenceParse below returns: the rules of vector-parse.js's header
//     written out character by character, without regular expressions;
//   - vectors printed in any of the page's notations parse back to the
//     same numbers, bit for bit;
//   - a bad token, a value beyond float32, too many entries and empty text
//     each get their error code and parameters, the first bad entry winning;
//   - the limits (max entries, 3.4e38) hold at their edges.
// Every saved input of the corpus (tests/js/corpus/vector-text: byte 0 is
// max mod 80, the rest the text in UTF-8, invalid bytes read as U+FFFD as a
// page reads them) is replayed against the reference and the invariants.
//
// The runs use a fixed seed, so every test run checks the same cases;
// NORMLAB_FC_SEED and NORMLAB_FC_RUNS explore others (./build.sh fuzz).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

import fc from 'fast-check';

import { parseVector } from '../../web/src/vector-parse.js';

const SEED = Number(process.env.NORMLAB_FC_SEED ?? 20261130);
const RUNS = Number(process.env.NORMLAB_FC_RUNS ?? 2000);
const check = (property) => fc.assert(property, { seed: SEED, numRuns: RUNS });

const MAX_MAGNITUDE = 3.4e38;
const CODES = ['errEmpty', 'errTooMany', 'errToken', 'errRange'];

// ---------------------------------------------------------------- reference

// ECMAScript's WhiteSpace and LineTerminator: what trim() removes.
const SPACES = new Set(
  [
    0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007,
    0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff,
  ].map((c) => String.fromCharCode(c)),
);
const SEPARATORS = new Set([...SPACES, ',', ';', '，', '；']);
const SIGNS = new Set(['+', '-', '−']);
const isDigit = (c) => c >= '0' && c <= '9';

function trimSpaces(s) {
  let begin = 0;
  let end = s.length;
  while (begin < end && SPACES.has(s[begin])) begin++;
  while (end > begin && SPACES.has(s[end - 1])) end--;
  return s.slice(begin, end);
}

function splitTokens(body) {
  const tokens = [];
  let token = '';
  for (const c of body) {
    if (SEPARATORS.has(c)) {
      if (token !== '') tokens.push(token);
      token = '';
    } else {
      token += c;
    }
  }
  if (token !== '') tokens.push(token);
  return tokens;
}

// The token's ASCII spelling if it is a number by the grammar, else null.
function spellNumber(token) {
  let i = 0;
  let ascii = '';
  const sign = () => {
    if (SIGNS.has(token[i])) ascii += token[i++] === '+' ? '+' : '-';
  };
  const digits = () => {
    const start = i;
    while (i < token.length && isDigit(token[i])) ascii += token[i++];
    return i - start;
  };
  const at = (c) => {
    if (token[i] !== c) return false;
    ascii += token[i++];
    return true;
  };
  sign();
  if (digits() > 0) {
    if (at('.')) digits();
  } else if (!(at('.') && digits() > 0)) {
    return null;
  }
  if (at('e') || at('E')) {
    sign();
    if (digits() === 0) return null;
  }
  return i === token.length ? ascii : null;
}

function referenceParse(text, max) {
  let body = trimSpaces(text);
  if (body.startsWith('[')) body = body.slice(1);
  if (body.endsWith(']')) body = body.slice(0, -1);
  body = trimSpaces(body);
  if (body === '') return { ok: false, error: { code: 'errEmpty', params: {} } };
  const tokens = splitTokens(body);
  if (tokens.length > max) return { ok: false, error: { code: 'errTooMany', params: { count: tokens.length, max } } };
  const values = [];
  for (const [k, token] of tokens.entries()) {
    const ascii = spellNumber(token);
    if (ascii === null) return { ok: false, error: { code: 'errToken', params: { token, index: k + 1 } } };
    const value = parseFloat(ascii);
    if (!(Math.abs(value) <= MAX_MAGNITUDE))
      return { ok: false, error: { code: 'errRange', params: { index: k + 1 } } };
    values.push(value);
  }
  return { ok: true, values };
}

// What any result must satisfy, whatever the text (the invariants the
// C++-side fuzzer held its parser to).
function assertConsistent(result, text, max) {
  if (result.ok) {
    assert.ok(result.values.length <= max, 'no more values than max');
    for (const v of result.values) assert.ok(Math.abs(v) <= MAX_MAGNITUDE, `value ${v} within float32`);
    if (result.values.length > 0) {
      // Printed back as the page prints a vector, the values come back bit for bit.
      const again = parseVector(`[${result.values.map(String).join(', ')}]`, { max });
      assert.equal(again.ok, true);
      assert.deepEqual(
        again.values.map((v) => (Object.is(v, -0) ? 0 : v)),
        result.values.map((v) => (Object.is(v, -0) ? 0 : v)),
      );
    }
    return;
  }
  const { code, params } = result.error;
  assert.ok(CODES.includes(code), `code ${code}`);
  if (code === 'errEmpty') assert.deepEqual(params, {});
  if (code === 'errTooMany') {
    assert.equal(params.max, max);
    assert.ok(params.count > max, 'too many only with more tokens than max');
  }
  if (code === 'errToken' || code === 'errRange') {
    assert.ok(Number.isInteger(params.index) && params.index >= 1 && params.index <= max, `index ${params.index}`);
  }
  if (code === 'errToken') {
    assert.ok(params.token.length > 0 && text.includes(params.token), 'the bad token is a piece of the text');
    // On its own it is still a bad token, unless it carries the brackets
    // that parsing it alone would strip.
    if (!params.token.startsWith('[') && !params.token.endsWith(']')) {
      assert.deepEqual(parseVector(params.token, { max: 1 }), {
        ok: false,
        error: { code: 'errToken', params: { token: params.token, index: 1 } },
      });
    }
  }
}

function assertAsReference(text, max) {
  let result;
  assert.doesNotThrow(() => {
    result = parseVector(text, { max });
  }, JSON.stringify(text));
  assert.deepEqual(result, referenceParse(text, max), `${JSON.stringify(text)}, max ${max}`);
  assertConsistent(result, text, max);
  return result;
}

// ---------------------------------------------------------------- arbitraries

// The characters the grammar treats specially, near misses, and others.
const GRAMMAR_CHARS = [
  '0',
  '1',
  '2',
  '5',
  '9',
  '.',
  'e',
  'E',
  '+',
  '-',
  '−',
  ',',
  ';',
  '，',
  '；',
  '[',
  ']',
  ' ',
  '\t',
  '\n',
  '\u3000',
  '\u00a0',
  '\u2028',
  '\ufeff',
  '\u2003',
  'x',
  'a',
  'I',
  'N',
  '５',
  '＋',
  '\u200b',
  '\u0085',
  '\ud800',
  '😀',
  '_',
];
const grammarText = fc.string({ unit: fc.constantFrom(...GRAMMAR_CHARS), maxLength: 40 });
const anyText = fc.string({ unit: 'binary', maxLength: 40 });
const maxArb = fc.integer({ min: 0, max: 80 });

const separatorRun = fc.string({
  unit: fc.constantFrom(' ', ',', ';', '，', '；', '\t', '\n', '\u3000', '\u00a0'),
  minLength: 1,
  maxLength: 3,
});
const finiteValue = fc.double({ min: -MAX_MAGNITUDE, max: MAX_MAGNITUDE, noNaN: true });
// A number as a person or the page may write it: String(v) ('-0' for -0,
// which String() writes as '0'), with '−' for '-', a '+' in front, or an
// uppercase exponent.
const spelled = (v) =>
  fc.constantFrom('plain', 'minus-sign', 'plus', 'upper').map((how) => {
    const s = Object.is(v, -0) ? '-0' : String(v);
    if (how === 'minus-sign') return s.replaceAll('-', '−');
    if (how === 'plus' && !s.startsWith('-')) return `+${s}`;
    if (how === 'upper') return s.toUpperCase();
    return s;
  });
// A list of tokens joined by separator runs, in optional brackets and padding.
function listText(tokens) {
  return fc
    .tuple(
      fc.array(separatorRun, { minLength: tokens.length, maxLength: tokens.length }),
      fc.boolean(),
      fc.constantFrom('', ' ', '\u3000', '\n '),
    )
    .map(([seps, brackets, pad]) => {
      const body = tokens.map((t, i) => (i === 0 ? t : seps[i] + t)).join('');
      return pad + (brackets ? `[${body}]` : body) + pad;
    });
}
const spelledList = (values) => fc.tuple(...values.map(spelled)).chain((tokens) => listText(tokens));
// A token the grammar rejects, with no separator, bracket edge or space in it.
const badToken = fc
  .string({
    unit: fc.constantFrom('1', '.', 'e', '+', '−', 'x', '５', '\u200b', '_', '0', '-'),
    minLength: 1,
    maxLength: 6,
  })
  .filter((t) => spellNumber(t) === null);

// ---------------------------------------------------------------- properties

test('any text, any max: never throws, and returns what the reference returns', () => {
  check(
    fc.property(fc.oneof(grammarText, anyText), maxArb, (text, max) => {
      assertAsReference(text, max);
    }),
  );
});

test('token lists (numbers, near misses, separators) parse as the reference says', () => {
  const token = fc.oneof(finiteValue.chain(spelled), badToken, fc.constantFrom('1e39', '3.41e38', '-1e999', '3.4e38'));
  check(
    fc.property(fc.array(token, { minLength: 1, maxLength: 12 }).chain(listText), maxArb, (text, max) => {
      assertAsReference(text, max);
    }),
  );
});

test("vectors printed in the page's notations parse back to the same numbers", () => {
  const vector = fc.array(finiteValue, { minLength: 1, maxLength: 64 });
  check(
    fc.property(
      vector.chain((v) => fc.tuple(fc.constant(v), spelledList(v))),
      ([v, text]) => {
        const result = parseVector(text, { max: 64 });
        assert.equal(result.ok, true, JSON.stringify({ text, error: result.error }));
        assert.equal(result.values.length, v.length);
        for (let i = 0; i < v.length; i++) assert.ok(Object.is(result.values[i], v[i]), `${text}: entry ${i + 1}`);
      },
    ),
  );
});

test('the first bad entry gets its code and index', () => {
  const entries = fc.array(finiteValue, { minLength: 1, maxLength: 10 });
  const bad = fc.oneof(
    badToken.map((token) => ({ token, code: 'errToken' })),
    fc
      .tuple(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 39, max: 400 }), fc.constantFrom('', '-', '−'))
      .map(([d, e, s]) => ({ token: `${s}${d}e${e}`, code: 'errRange' })),
  );
  check(
    fc.property(entries, fc.nat(), bad, bad, (values, at, first, second) => {
      const k = at % (values.length + 1);
      const tokens = values.map(String);
      tokens.splice(k, 0, first.token);
      tokens.push(second.token); // a later bad entry changes nothing
      const params = first.code === 'errToken' ? { token: first.token, index: k + 1 } : { index: k + 1 };
      assert.deepEqual(parseVector(tokens.join(' '), { max: 64 }), { ok: false, error: { code: first.code, params } });
    }),
  );
});

test('too many entries win over any bad entry; exactly max entries are fine', () => {
  check(
    fc.property(
      fc.array(fc.oneof(finiteValue.map(String), badToken), { minLength: 1, maxLength: 70 }),
      maxArb,
      (tokens, max) => {
        const result = parseVector(tokens.join(', '), { max });
        if (tokens.length > max) {
          assert.deepEqual(result, { ok: false, error: { code: 'errTooMany', params: { count: tokens.length, max } } });
        } else {
          assert.notEqual(result.error?.code, 'errTooMany');
        }
      },
    ),
  );
  for (const max of [0, 1, 63, 64, 65]) {
    const exact = Array.from({ length: max }, (_, i) => i - 3);
    assert.deepEqual(
      parseVector(exact.join(' '), { max }),
      max === 0 ? { ok: false, error: { code: 'errEmpty', params: {} } } : { ok: true, values: exact },
    );
    assert.deepEqual(parseVector([...exact, 1].join(' '), { max }), {
      ok: false,
      error: { code: 'errTooMany', params: { count: max + 1, max } },
    });
  }
});

test('white space, brackets and separators alone are empty or no entries', () => {
  const blank = fc.string({ unit: fc.constantFrom(...SPACES), maxLength: 6 });
  check(
    fc.property(blank, blank, fc.constantFrom('', '[', ']', '[]'), maxArb, (a, b, brackets, max) => {
      const text = brackets === '[]' ? `${a}[${b}]${a}` : `${a}${brackets}${b}`;
      assert.deepEqual(parseVector(text, { max }), { ok: false, error: { code: 'errEmpty', params: {} } });
    }),
  );
  check(
    fc.property(
      separatorRun.filter((s) => trimSpaces(s) !== ''),
      maxArb,
      (seps, max) => {
        assert.deepEqual(parseVector(seps, { max }), { ok: true, values: [] });
      },
    ),
  );
});

test('the float32 limit: 3.4e38 and below pass, anything above is out of range', () => {
  for (const text of [
    '3.4e38',
    '-3.4e38',
    '−3.4e38',
    '340000000000000000000000000000000000000',
    '3.4000000000000001e38',
  ]) {
    assert.deepEqual(parseVector(text, { max: 1 }), { ok: true, values: [Number(text.replace('−', '-'))] }, text);
  }
  for (const text of ['3.41e38', '3.4000000000001e38', '-3.5e38', '1e39', '1e309', '9'.repeat(400)]) {
    assert.deepEqual(
      parseVector(text, { max: 1 }),
      { ok: false, error: { code: 'errRange', params: { index: 1 } } },
      text,
    );
  }
  check(
    fc.property(
      fc.double({ min: 3.400000000000001e38, noNaN: true, noDefaultInfinity: true }),
      fc.boolean(),
      (v, negative) => {
        const text = String(negative ? -v : v);
        assert.deepEqual(
          parseVector(text, { max: 1 }),
          { ok: false, error: { code: 'errRange', params: { index: 1 } } },
          text,
        );
      },
    ),
  );
});

// ---------------------------------------------------------------- corpus

const CORPUS = new URL('./corpus/vector-text/', import.meta.url);

test('every saved corpus input parses as the reference says', () => {
  const files = readdirSync(CORPUS).sort();
  assert.ok(files.length >= 60, `${files.length} saved inputs`);
  const codes = new Map();
  for (const file of files) {
    const bytes = readFileSync(new URL(file, CORPUS));
    if (bytes.length === 0) continue;
    const max = bytes[0] % 80;
    const text = new TextDecoder().decode(bytes.subarray(1));
    const result = assertAsReference(text, max);
    const code = result.ok ? 'ok' : result.error.code;
    codes.set(code, (codes.get(code) ?? 0) + 1);
  }
  // The corpus reaches every outcome.
  for (const code of ['ok', ...CODES]) assert.ok(codes.get(code) > 0, `no corpus input ends in ${code}`);
});

test('the hand-made corpus inputs give the values and errors they were made for', () => {
  const read = (name) => {
    const bytes = readFileSync(new URL(name, CORPUS));
    return parseVector(new TextDecoder().decode(bytes.subarray(1)), { max: bytes[0] % 80 });
  };
  assert.deepEqual(read('seed-worked-example'), { ok: true, values: [2, -1, 3, 0] });
  assert.deepEqual(read('seed-full-width'), { ok: true, values: [2, -1, 3, 0] });
  assert.deepEqual(read('seed-spellings'), { ok: true, values: [1.5, 0.5, 5, 7, -0.25, 1000, 0.02, 0.04] });
  assert.deepEqual(read('seed-range'), { ok: false, error: { code: 'errRange', params: { index: 2 } } });
  assert.deepEqual(read('seed-too-many'), { ok: false, error: { code: 'errTooMany', params: { count: 4, max: 3 } } });
  assert.deepEqual(read('seed-bad-token'), {
    ok: false,
    error: { code: 'errToken', params: { token: 'x', index: 2 } },
  });
  assert.deepEqual(read('seed-separators-only'), { ok: true, values: [] });
  assert.deepEqual(read('seed-not-utf8'), {
    ok: false,
    error: { code: 'errToken', params: { token: '1\ufffd', index: 1 } },
  });
});
