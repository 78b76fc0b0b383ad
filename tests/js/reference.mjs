// Plain-JS double-precision references and test data for the JS API tests.
// Rows are T rows of D values, row-major, as in the API.

// Deterministic uniform [0, 1) (mulberry32), so failures reproduce.
export function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// n standard normal floats (Box-Muller).
export function normals(n, seed, scale = 1, shift = 0) {
  const u = random(seed);
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const r = Math.sqrt(-2 * Math.log(1 - u()));
    out[i] = shift + scale * r * Math.cos(2 * Math.PI * u());
  }
  return out;
}

// Apply f(row, outRow) to each row of D values, in double precision.
function mapRows(x, D, f) {
  const xs = Float64Array.from(x);
  const out = new Float64Array(xs.length);
  for (let t = 0; t < xs.length / D; t++) f(xs.subarray(t * D, (t + 1) * D), out.subarray(t * D, (t + 1) * D));
  return out;
}

export function rmsnormRef(x, D, { gain, eps = 1e-6 } = {}) {
  return mapRows(x, D, (row, out) => {
    let ms = 0;
    for (const v of row) ms += v * v;
    ms /= D;
    const r = 1 / Math.sqrt(ms + eps);
    row.forEach((v, i) => (out[i] = v * r * (gain ? gain[i] : 1)));
  });
}

export function layernormRef(x, D, { gain, bias, eps = 1e-5 } = {}) {
  return mapRows(x, D, (row, out) => {
    let mean = 0;
    for (const v of row) mean += v;
    mean /= D;
    let variance = 0;
    for (const v of row) variance += (v - mean) ** 2;
    variance /= D;
    const r = 1 / Math.sqrt(variance + eps);
    row.forEach((v, i) => (out[i] = (v - mean) * r * (gain ? gain[i] : 1) + (bias ? bias[i] : 0)));
  });
}

export function softmaxRef(x, D, { temperature = 1 } = {}) {
  return mapRows(x, D, (row, out) => {
    const max = Math.max(...row);
    let s = 0;
    row.forEach((v, i) => (s += out[i] = Math.exp((v - max) / temperature)));
    for (let i = 0; i < D; i++) out[i] /= s;
  });
}

// Largest |actual - expected| relative to max(1, |expected|), as llm.c's
// check_tensor reports it: one number that says how close two tensors are.
export function maxRelDiff(actual, expected) {
  if (actual.length !== expected.length) throw new Error(`length ${actual.length} != ${expected.length}`);
  let worst = 0;
  for (let i = 0; i < actual.length; i++) {
    const d = Math.abs(actual[i] - expected[i]) / Math.max(1, Math.abs(expected[i]));
    if (!(d <= worst)) worst = d;
  }
  return worst;
}
