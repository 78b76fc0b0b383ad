// What every implementation gets: the same sizes, inputs, weights and
// parameters, plus a double-precision reference for the agreement check.
// The native bench (native/bench_native.cpp) generates bit-identical inputs
// with the same generator and formulas.

export const SIZES = [
  [1, 1024],
  [64, 1024],
  [64, 4096],
  [1024, 4096],
];

export const OPS = ['rmsnorm', 'layernorm', 'softmax'];

export const PARAMS = {
  rmsEps: 1e-6,
  lnEps: 1e-5,
  // ONNX Softmax and tf.softmax have no temperature: everyone runs at 1.
  temperature: 1,
};

// mulberry32: a 32-bit generator simple enough to write identically in C++.
function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// x ~ roughly normal (sum of three uniforms), std ~1, mean 0.25: rows that
// are neither centred nor unit-scale, so LayerNorm and RMSNorm differ.
export function makeInput(rows, dim, seed = 1234) {
  const rand = mulberry32(seed);
  const x = new Float32Array(rows * dim);
  for (let i = 0; i < x.length; i++) {
    x[i] = (rand() + rand() + rand() - 1.5) * 2 + 0.25;
  }
  return x;
}

// A fixed, non-trivial gain in [0.5, 1.5] and bias in [-0.3, 0.3].
export function makeGain(dim) {
  return Float32Array.from({ length: dim }, (_, i) => 0.5 + ((i * 37) % 101) / 100);
}
export function makeBias(dim) {
  return Float32Array.from({ length: dim }, (_, i) => ((i * 53) % 61) / 100 - 0.3);
}

// Bytes a row-wise op must move at the least: read x, write y (gain and bias
// stay in cache). The copy ceiling moves exactly these bytes.
export const bytesMoved = (rows, dim) => 2 * rows * dim * 4;

// Double-precision reference, row by row.
export function reference(op, x, rows, dim, { gain, bias, rmsEps, lnEps, temperature }) {
  const y = new Float64Array(rows * dim);
  for (let r = 0; r < rows; r++) {
    const o = r * dim;
    if (op === 'rmsnorm') {
      let ss = 0;
      for (let i = 0; i < dim; i++) ss += x[o + i] * x[o + i];
      const s = 1 / Math.sqrt(ss / dim + rmsEps);
      for (let i = 0; i < dim; i++) y[o + i] = x[o + i] * s * gain[i];
    } else if (op === 'layernorm') {
      let m = 0;
      for (let i = 0; i < dim; i++) m += x[o + i];
      m /= dim;
      let v = 0;
      for (let i = 0; i < dim; i++) v += (x[o + i] - m) ** 2;
      const s = 1 / Math.sqrt(v / dim + lnEps);
      for (let i = 0; i < dim; i++) y[o + i] = (x[o + i] - m) * s * gain[i] + bias[i];
    } else {
      let mx = -Infinity;
      for (let i = 0; i < dim; i++) mx = Math.max(mx, x[o + i]);
      let sum = 0;
      for (let i = 0; i < dim; i++) sum += y[o + i] = Math.exp((x[o + i] - mx) / temperature);
      for (let i = 0; i < dim; i++) y[o + i] /= sum;
    }
  }
  return y;
}

export function maxAbsDiff(a, b) {
  if (a.length !== b.length) return Infinity;
  let m = 0;
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs(a[i] - b[i]);
    if (!(d <= m)) m = d; // NaN propagates as NaN
  }
  return m;
}

// Checksum the native bench also computes (weights break symmetries that a
// plain sum of a softmax row would hide).
export function checksum(y) {
  let s = 0;
  for (let i = 0; i < y.length; i++) s += y[i] * ((i % 7) - 3);
  return s;
}
