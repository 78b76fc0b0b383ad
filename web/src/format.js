// Number formatting shared by every widget. Digits are the same in both
// languages, so one locale-independent formatter serves both.

// Fixed decimals, the way the chapter writes its worked examples (1.87,
// -0.53); trailing zeros trimmed so integers read as integers (3.5, 4).
export function decimals(value, digits = 2) {
  if (!Number.isFinite(value)) return String(value)
  const rounded = Number(value.toFixed(digits))
  // Values too small for the chosen decimals would print as 0; show them in
  // scientific notation so "small" and "zero" stay different on screen.
  if (rounded === 0 && value !== 0) return value.toExponential(1)
  return String(Object.is(rounded, -0) ? 0 : rounded)
}

// Fixed number of decimals without trimming, for columns of probabilities.
export function fixed(value, digits = 3) {
  return Number.isFinite(value) ? value.toFixed(digits) : String(value)
}

// Significant digits, for quantities spanning many orders of magnitude
// (the playground's L2 from 0.002 to 160).
export function significant(value, digits = 3) {
  if (!Number.isFinite(value)) return String(value)
  if (value === 0) return '0'
  const abs = Math.abs(value)
  if (abs >= 1e-3 && abs < 1e5) return value.toPrecision(digits)
  return value.toExponential(digits - 1)
}

export function vectorText(values, format = decimals) {
  return `[${Array.from(values, (v) => format(v)).join(', ')}]`
}

// Same, as TeX, for typesetting computed vectors. Each entry is its own
// group so a minus sign reads as a sign, not as a subtraction with spaces.
// A thin space after each comma keeps the entries apart without widening the
// vector much (a phone column is about 240 px); plain brackets, since
// numbers need no stretched fences.
export function vectorTex(values, format = decimals) {
  return `[${Array.from(values, (v) => `{${format(v)}}`).join(',\\,')}]`
}
