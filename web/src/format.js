// The page's one number formatter: prose, labels, tables and chart ticks all
// format through these functions, so no number on the page is written in
// e-notation. Ordinary numbers get the locale's digit grouping (from five
// digits on: 1030, 12,345) and decimal point; values too small or too large
// to read that way get a power of ten, 1.0 × 10⁻⁴.
//
// Both page languages write numbers alike (en and zh-CN group by thousands
// with a comma and use a decimal point; tests/js/format.test.mjs checks that
// Intl agrees), so one locale serves both and widgets need not pass theirs.
const LOCALE = 'en-US';

// Ordinary notation covers [SMALL, LARGE); outside it, a power of ten.
const SMALL = 1e-3;
const LARGE = 1e6;

const SUPERSCRIPT = { '-': '⁻', 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹' };

// Below GROUPED, numbers have no digit groups, and Number's own toFixed /
// toPrecision write them exactly as Intl would, about five times faster (a
// paint formats a few hundred numbers); from GROUPED on, Intl groups them.
const GROUPED = 1e4;

// Intl.NumberFormat objects are costly to build and cheap to use: one per
// option set, kept.
const formatters = new Map();
function intl(key, options) {
  let f = formatters.get(key);
  if (!f) {
    // 'min2': four-digit numbers stay ungrouped (1024), as both languages
    // write them; 'negative': a value that rounds to zero shows no sign.
    f = new Intl.NumberFormat(LOCALE, { useGrouping: 'min2', signDisplay: 'negative', ...options });
    formatters.set(key, f);
  }
  return f;
}

function nonFinite(value) {
  if (Number.isNaN(value)) return 'NaN';
  return value > 0 ? '∞' : '-∞';
}

const superscript = (n) => String(n).replace(/./g, (c) => SUPERSCRIPT[c]);

// The mantissa and exponent of value with `digits` significant digits, the
// mantissa in [1, 10): 0.000999 at 2 digits is 1.0 × 10⁻³, not 10 × 10⁻⁴.
function powerParts(value, digits) {
  let exponent = Math.floor(Math.log10(Math.abs(value)));
  let mantissa = value / 10 ** exponent;
  if (Math.abs(Number(mantissa.toFixed(digits - 1))) >= 10) {
    exponent += 1;
    mantissa = value / 10 ** exponent;
  }
  return { mantissa, exponent };
}

// A power of ten with `digits` significant digits: 1.0 × 10⁻⁴, -2.5 × 10⁸.
export function scientific(value, digits = 2) {
  if (!Number.isFinite(value)) return nonFinite(value);
  if (value === 0) return '0';
  const { mantissa, exponent } = powerParts(value, digits);
  return `${mantissa.toFixed(Math.max(0, digits - 1))} × 10${superscript(exponent)}`;
}

// An exact power of ten as one: 10⁻⁶ (the eps choices). Other values as
// scientific().
export function powerOfTen(value) {
  const exponent = Math.round(Math.log10(value));
  if (value > 0 && Math.abs(value / 10 ** exponent - 1) < 1e-9) return `10${superscript(exponent)}`;
  return scientific(value);
}

const ordinary = (value) => {
  const abs = Math.abs(value);
  return abs === 0 || (abs >= SMALL && abs < LARGE);
};

// Fixed decimals, the way the chapter writes its worked examples (1.87,
// -0.53); trailing zeros trimmed so integers read as integers (3.5, 4). A
// value that would round to 0 but is not 0 gets two significant digits
// (0.0048, 1.0 × 10⁻⁴), so "small" and "zero" stay different on screen.
export function decimals(value, digits = 2) {
  if (!Number.isFinite(value)) return nonFinite(value);
  const rounded = Number(value.toFixed(digits));
  if (rounded === 0 && value !== 0) {
    if (!ordinary(value)) return scientific(value);
    return intl('d-small', { maximumSignificantDigits: 2 }).format(value);
  }
  if (Math.abs(value) >= LARGE) return scientific(value);
  // String() writes e-notation below 10⁻⁶: only up to six decimals here.
  if (digits <= 6 && Math.abs(rounded) < GROUPED) return String(rounded + 0);
  return intl(`d${digits}`, { maximumFractionDigits: digits }).format(rounded);
}

// An RMS or a std: three decimals, or three significant digits below 0.1,
// where a √eps-sized value (√10⁻⁵ = 0.00316) would lose its digits.
export function rootValue(value) {
  if (!Number.isFinite(value) || value === 0 || Math.abs(value) >= 0.1 || Math.abs(value) < SMALL)
    return decimals(value, 3);
  return String(Number(value.toPrecision(3)));
}

// How many decimals (from `from` on, at most 12) decimals() needs to print
// a and b differently: a value that falls short of a bound must not print as
// the bound (a length of 7.9996 beside √64 = 8).
export function decimalsApart(a, b, from = 3) {
  let digits = from;
  while (digits < 12 && decimals(a, digits) === decimals(b, digits)) digits++;
  return digits;
}

// A percentage compared with a bound (eps's share against the 0.01% the
// page calls negligible): three significant digits from 1% on, below that
// the decimals that keep a value past the bound from printing as the bound.
export function percentPast(value, bound) {
  if (value >= 1) return decimals(Number(value.toPrecision(3)), 2);
  return decimals(value, decimalsApart(value, bound, 2));
}

// A fixed number of decimals, zeros kept, for columns of probabilities.
export function fixed(value, digits = 3) {
  if (!Number.isFinite(value)) return nonFinite(value);
  if (Math.abs(value) >= LARGE) return scientific(value, digits + 1);
  const text = value.toFixed(digits);
  if (Math.abs(Number(text)) < GROUPED) return Number(text) === 0 ? text.replace('-', '') : text;
  return intl(`f${digits}`, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);
}

// Significant digits, for quantities spanning many orders of magnitude
// (the playground's L2 from 0.002 to 480). Outside ordinary notation's range
// the mantissa keeps one digit fewer: the power of ten already says a lot.
// smallest: where ordinary notation starts instead of 0.001 (a factor
// written with a × after it reads better as 0.000100× than as 1.0 × 10⁻⁴×).
export function significant(value, digits = 3, { smallest = SMALL } = {}) {
  if (!Number.isFinite(value)) return nonFinite(value);
  if (value === 0) return '0';
  const rounded = Number(value.toPrecision(digits));
  const abs = Math.abs(rounded);
  if (abs < smallest || abs >= LARGE) return scientific(value, Math.max(2, digits - 1));
  // toPrecision turns to e-notation from 10^digits on, and below 10⁻⁶.
  if (abs >= 1e-6 && abs < Math.min(GROUPED, 10 ** digits)) return rounded.toPrecision(digits);
  return intl(`s${digits}`, { minimumSignificantDigits: digits, maximumSignificantDigits: digits }).format(rounded);
}

// A whole count: 12, 2060, 130,000.
export function integer(value) {
  if (!Number.isFinite(value)) return nonFinite(value);
  if (Math.abs(value) >= LARGE) return scientific(value, 2);
  return intl('i', { maximumFractionDigits: 0 }).format(value);
}

// A chart tick: the shortest exact form of a round value (0.2, 20, 1000),
// or a bare power of ten (10⁻⁴, 2 × 10⁻⁴) outside ordinary notation.
export function tick(value) {
  if (!Number.isFinite(value)) return nonFinite(value);
  const rounded = Number(value.toPrecision(6));
  if (ordinary(rounded)) {
    return Math.abs(rounded) < GROUPED
      ? String(rounded + 0)
      : intl('t', { maximumSignificantDigits: 6 }).format(rounded);
  }
  const { mantissa, exponent } = powerParts(rounded, 6);
  const m = Number(mantissa.toPrecision(6));
  return m === 1
    ? `10${superscript(exponent)}`
    : `${intl('t', { maximumSignificantDigits: 6 }).format(m)} × 10${superscript(exponent)}`;
}

export function vectorText(values, format = decimals) {
  return `[${Array.from(values, (v) => format(v)).join(', ')}]`;
}

// Same, as TeX, for typesetting computed vectors. Each entry is its own
// group so a minus sign reads as a sign, not as a subtraction with spaces.
// A thin space after each comma keeps the entries apart without widening the
// vector much (a phone column is about 240 px); plain brackets, since
// numbers need no stretched fences. A power of ten becomes TeX's own.
export function vectorTex(values, format = decimals) {
  return `[${Array.from(values, (v) => `{${texNumber(format(v))}}`).join(',\\,')}]`;
}

const FROM_SUPERSCRIPT = Object.fromEntries(Object.entries(SUPERSCRIPT).map(([plain, sup]) => [sup, plain]));

function texNumber(text) {
  return text
    .replace(/ × 10([⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)/, (_, exp) => ` \\times 10^{${[...exp].map((c) => FROM_SUPERSCRIPT[c]).join('')}}`)
    .replace(/^10([⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)$/, (_, exp) => `10^{${[...exp].map((c) => FROM_SUPERSCRIPT[c]).join('')}}`)
    .replace(/,/g, '{,}');
}
