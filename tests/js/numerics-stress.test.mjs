// Numerics under stress through the JS API, on both backends: 100,000
// random rows per backend, spread over rmsnorm, layernorm, softmax (with
// distributionStats of its output) and stats, against the double-precision
// references of numerics-reference.mjs. Rows are 1..8193 long, batched many
// to a call (rows of one length per call), and come in kinds: magnitudes
// from 1e-38 to 3e38 (one scale per row, or each entry its own), +-0,
// subnormals, NaN and +-inf entries, constant and all-zero rows, masked and
// fully masked softmax rows, and LayerNorm rows whose mean dwarfs their
// spread. The PRNG is seeded: a failure names its backend, op, call and row,
// and reproduces.
//
// The contract checked (reference.h's special cases):
//   - where the exact result is a finite float32, the output is finite and
//     within 1e-5 of the row's scale, max |reference| over the row, plus a
//     few subnormal steps (below ~1e-36 float32 has no 1e-5 resolution);
//     LayerNorm's scale is max (|y - b| + |b|), since y = xhat g + b
//     cancels where b ~ -xhat g and float can do no better than its terms;
//   - NaN where the reference is NaN, the same infinity where it is
//     infinite (NaN/inf rows, values beyond float32 such as the l2 of a
//     row of 3e38), all-masked softmax rows all 0, eps = 0 zero rows all 0;
//     a bad row never changes its neighbours (they are checked like any
//     other row of the same call);
//   - statistics: l2, rms within 1e-5 of themselves, maxAbs and maxProb
//     exact, mean within 1e-5 of mean |x| (a sum is only as exact as the
//     size of what it adds), variance within 1e-5 of itself and std
//     likewise, entropy within 1e-5 of sum |p log p|.
//   - Exempt rows: none goes unchecked. Rows whose mean dwarfs their
//     spread, |mean| > 1000 sqrt(var + eps) ("ill-conditioned"), are held
//     to the spec's bound for them, the accuracy of a two-pass float32
//     computation: its float mean, off by up to 128 ulps of mean |x| with
//     the kernels' blocked sums, adds 128 * 2^-24 * |mean| / sqrt(var +
//     eps) * max |g| to LayerNorm's bound, and (128 * 2^-24 * mean |x|)^2
//     to the variance's (its square root to the std's). The summary prints
//     their worst error apart: the corrected two-pass kernels meet 1e-5 on
//     them as well.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { loadNormlab } from '../../dist/normlab.mjs';
import { distributionRow, layernormRow, rmsnormRow, softmaxRow, statsRow } from './numerics-reference.mjs';
import { random } from './reference.mjs';

const ROWS_PER_BACKEND = 100_000;
const MAX_DIM = 8193;
// Elements per call: enough rows of short lengths to amortise the call,
// and still a few rows of the longest.
const ELEMENTS_PER_CALL = 24_000;
const TOL = 1e-5;
const SUBNORMAL_SLACK = 4 * 2 ** -149;
const FLOAT_MEAN_ERROR = 128 * 2 ** -24;
const ILL_CONDITIONED = 1000;
const FLT_MAX = 3.4028234663852886e38;

const backends = {};
before(async () => {
  backends.simd128 = await loadNormlab({ backend: 'simd128' });
  backends.scalar = await loadNormlab({ backend: 'scalar' });
});
after(() => Object.values(backends).forEach((nl) => nl.dispose()));

// ------------------------------------------------------------- inputs

const ROW_KINDS = ['scaled', 'scaled', 'scaled', 'mixed', 'tiny', 'ill', 'zeros', 'constant', 'special'];

function makeRng(seed) {
  const u = random(seed);
  const rng = {
    u,
    int: (n) => Math.floor(u() * n),
    pick: (list) => list[Math.floor(u() * list.length)],
    sign: () => (u() < 0.5 ? -1 : 1),
    // 10^uniform(lo, hi), the magnitudes spread evenly over the exponents.
    magnitude: (lo, hi) => 10 ** (lo + (hi - lo) * u()),
  };
  return rng;
}

// Length 1..8193, log-uniform, so short and long rows are both common.
function rowLength(rng) {
  return Math.min(MAX_DIM, Math.floor(Math.exp(rng.u() * Math.log(MAX_DIM + 1))));
}

// Fills x (one row) with values of the given kind. x is a Float32Array
// subarray: what it stores is what the kernels and references see.
function fillRow(x, kind, rng, op) {
  const D = x.length;
  switch (kind) {
    case 'scaled': {
      // One scale per row, clamped so no entry leaves float32.
      const scale = rng.magnitude(-38, 38.5) / 1.7;
      for (let i = 0; i < D; i++) x[i] = rng.sign() * scale * (0.05 + 1.65 * rng.u());
      break;
    }
    case 'mixed':
      for (let i = 0; i < D; i++) x[i] = rng.sign() * Math.min(3e38, rng.magnitude(-45, 38.5));
      break;
    case 'tiny': // subnormals and the smallest normals
      for (let i = 0; i < D; i++) x[i] = rng.sign() * rng.magnitude(-45, -37.5);
      break;
    case 'ill': {
      // A mean up to 1e7 times the spread (float32 has 24 bits).
      const mean = rng.sign() * rng.magnitude(-30, 37);
      const spread = mean * rng.magnitude(-7, -3);
      for (let i = 0; i < D; i++) x[i] = mean + spread * (2 * rng.u() - 1);
      break;
    }
    case 'zeros':
      for (let i = 0; i < D; i++) x[i] = rng.sign() * 0;
      break;
    case 'constant':
      x.fill((rng.sign() * rng.magnitude(-38, 38.5)) / 1.7);
      break;
    case 'special':
      fillRow(x, 'scaled', rng, op);
      if (op === 'softmax' && rng.u() < 0.6) {
        // Masked entries; a fifth of these rows fully masked.
        const masked = rng.u() < 0.2 ? 1 : rng.u();
        for (let i = 0; i < D; i++) if (rng.u() < masked) x[i] = -Infinity;
      } else {
        const bad = [NaN, Infinity, -Infinity];
        for (let k = 1 + rng.int(3); k > 0; k--) x[rng.int(D)] = rng.pick(bad);
      }
      break;
    default:
      throw new Error(`unknown row kind ${kind}`);
  }
  // Sprinkle +-0 and subnormals into ordinary rows.
  if ((kind === 'scaled' || kind === 'mixed') && D > 2 && rng.u() < 0.3) {
    x[rng.int(D)] = rng.sign() * 0;
    x[rng.int(D)] = rng.sign() * 1e-40;
  }
}

function parameterVector(rng, D, lo, hi) {
  const v = new Float32Array(D);
  for (let i = 0; i < D; i++) v[i] = rng.sign() * (lo + (hi - lo) * rng.u());
  return v;
}

// One call's worth of rows: x (rows x D) and each row's kind.
function makeBatch(rng, op) {
  const D = rowLength(rng);
  const rows = Math.max(1, Math.min(400, Math.floor(ELEMENTS_PER_CALL / D)));
  const x = new Float32Array(rows * D);
  const kinds = [];
  for (let t = 0; t < rows; t++) {
    const kind = rng.pick(ROW_KINDS);
    kinds.push(kind);
    fillRow(x.subarray(t * D, (t + 1) * D), kind, rng, op);
  }
  return { D, rows, x, kinds };
}

// ------------------------------------------------------------- checks

// One op's running record: rows checked (and how many ill-conditioned);
// the worst error relative to its scale, for well- and ill-conditioned
// rows apart, over results of at least 2^-100 (below that the subnormal
// slack is what counts); the mismatches.
function makeTally() {
  return { rows: 0, illRows: 0, maxError: 0, maxIllError: 0, mismatches: 0, firstMismatches: [] };
}

function record(tally, error, scale, ill = false) {
  if (!(scale >= 2 ** -100 && Number.isFinite(scale))) return;
  if (ill) tally.maxIllError = Math.max(tally.maxIllError, error / scale);
  else tally.maxError = Math.max(tally.maxError, error / scale);
}

function mismatch(tally, where, detail) {
  tally.mismatches++;
  if (tally.firstMismatches.length < 5) tally.firstMismatches.push(`${where}: ${detail}`);
}

// got (float32) against want (double) at one position: the special cases
// exactly, a finite float32 result within bound. Returns |got - want| (0
// for the special cases).
function compare(tally, where, got, want, bound) {
  const wantF = Math.fround(want);
  if (Number.isNaN(want)) {
    if (!Number.isNaN(got)) mismatch(tally, where, `got ${got}, want NaN`);
    return 0;
  }
  if (!Number.isFinite(wantF)) {
    if (got !== wantF) mismatch(tally, where, `got ${got}, want ${wantF}`);
    return 0;
  }
  const error = Math.abs(got - want);
  if (!Number.isFinite(got) || !(error <= bound + SUBNORMAL_SLACK)) {
    mismatch(tally, where, `got ${got}, want ${want}, allowed ${bound + SUBNORMAL_SLACK}`);
  }
  return error;
}

function rowScale(want) {
  let scale = 0;
  for (const w of want) if (Number.isFinite(w)) scale = Math.max(scale, Math.abs(w));
  return scale === 0 ? 1 : scale;
}

function meanAbs(x) {
  let s = 0;
  for (const v of x) s += Math.abs(v);
  return s / x.length;
}

function checkRmsnorm(nl, rng, tally, where) {
  const { D, rows, x } = makeBatch(rng, 'rmsnorm');
  const gain = rng.u() < 0.5 ? parameterVector(rng, D, 0.25, 4) : undefined;
  const eps = rng.pick([1e-6, 0, 1e-5, 1]);
  const y = nl.rmsnorm(x, { dim: D, gain, eps });
  for (let t = 0; t < rows; t++) {
    const want = rmsnormRow(x.subarray(t * D, (t + 1) * D), gain, eps);
    const scale = rowScale(want);
    for (let i = 0; i < D; i++) {
      const e = compare(tally, `${where} D ${D} row ${t} [${i}]`, y[t * D + i], want[i], TOL * scale);
      record(tally, e, scale);
    }
    tally.rows++;
  }
}

function checkLayernorm(nl, rng, tally, where) {
  const { D, rows, x } = makeBatch(rng, 'layernorm');
  const gain = rng.u() < 0.5 ? parameterVector(rng, D, 0.25, 4) : undefined;
  const bias = rng.u() < 0.5 ? parameterVector(rng, D, 0, 2) : undefined;
  const eps = rng.pick([1e-5, 0, 1e-3]);
  const maxGain = gain ? Math.max(...gain.map(Math.abs)) : 1;
  const y = nl.layernorm(x, { dim: D, gain, bias, eps });
  for (let t = 0; t < rows; t++) {
    const { y: want, mean, r } = layernormRow(x.subarray(t * D, (t + 1) * D), gain, bias, eps);
    let scale = 0;
    for (let i = 0; i < D; i++) {
      const b = bias ? bias[i] : 0;
      if (Number.isFinite(want[i])) scale = Math.max(scale, Math.abs(want[i] - b) + Math.abs(b));
    }
    if (scale === 0) scale = 1;
    const conditioning = Math.abs(mean) * r; // |mean| / sqrt(var + eps)
    const ill = conditioning > ILL_CONDITIONED;
    const allowance = ill ? FLOAT_MEAN_ERROR * conditioning * maxGain : 0;
    for (let i = 0; i < D; i++) {
      const e = compare(tally, `${where} D ${D} row ${t} [${i}]`, y[t * D + i], want[i], TOL * scale + allowance);
      record(tally, e, scale, ill);
    }
    tally.illRows += ill;
    tally.rows++;
  }
}

function checkSoftmax(nl, rng, tally, distTally, where) {
  const { D, rows, x } = makeBatch(rng, 'softmax');
  const temperature = rng.pick([1, 0.7, 2.5, 1e-3, 100]);
  const p = nl.softmax(x, { dim: D, temperature });
  for (let t = 0; t < rows; t++) {
    const want = softmaxRow(x.subarray(t * D, (t + 1) * D), temperature);
    const scale = rowScale(want);
    for (let i = 0; i < D; i++) {
      const e = compare(tally, `${where} D ${D} row ${t} [${i}]`, p[t * D + i], want[i], TOL * scale);
      record(tally, e, scale);
    }
    tally.rows++;
  }
  // The distribution statistics of what this backend's softmax returned.
  const { entropy, maxProb } = nl.distributionStats(p, { dim: D });
  for (let t = 0; t < rows; t++) {
    const row = p.subarray(t * D, (t + 1) * D);
    const want = distributionRow(row);
    let terms = 0;
    for (const v of row) if (v !== 0) terms += Math.abs(v * Math.log(v));
    const scale = terms === 0 ? 1 : terms;
    const bound = TOL * scale + D * 2 ** -149;
    const e = compare(distTally, `${where} D ${D} row ${t} entropy`, entropy[t], want.entropy, bound);
    record(distTally, e, scale);
    compare(distTally, `${where} D ${D} row ${t} maxProb`, maxProb[t], want.maxProb, 0);
    distTally.rows++;
  }
}

function checkStats(nl, rng, tally, where) {
  const { D, rows, x } = makeBatch(rng, 'stats');
  const got = nl.stats(x, { dim: D });
  for (let t = 0; t < rows; t++) {
    const row = x.subarray(t * D, (t + 1) * D);
    const want = statsRow(row);
    const m = meanAbs(row);
    const ill = Math.abs(want.mean) > ILL_CONDITIONED * want.std;
    const spread = ill ? FLOAT_MEAN_ERROR * m : 0;
    // [scale, allowance beyond TOL * scale] of each field
    const scales = {
      l2: [want.l2, 0],
      rms: [want.rms, 0],
      maxAbs: [want.maxAbs, 0],
      mean: [m, 0],
      variance: [want.variance, spread * spread],
      std: [want.std, spread],
    };
    for (const [field, [scale, allowance]] of Object.entries(scales)) {
      const bound = field === 'maxAbs' ? 0 : TOL * scale + allowance;
      const e = compare(tally, `${where} D ${D} row ${t} ${field}`, got[field][t], want[field], bound);
      record(tally, e, scale, ill);
    }
    tally.illRows += ill;
    tally.rows++;
  }
}

// ------------------------------------------------------------- the test

for (const backend of ['simd128', 'scalar']) {
  test(`${backend}: ${ROWS_PER_BACKEND} random rows within the documented tolerance`, () => {
    const nl = backends[backend];
    const rng = makeRng(backend === 'simd128' ? 2026 : 1130);
    const tallies = {
      rmsnorm: makeTally(),
      layernorm: makeTally(),
      softmax: makeTally(),
      distributionStats: makeTally(),
      stats: makeTally(),
    };
    const total = () => Object.values(tallies).reduce((n, t) => n + t.rows, 0);
    for (let call = 0; total() < ROWS_PER_BACKEND; call++) {
      const where = `${backend} call ${call}`;
      switch (call % 4) {
        case 0:
          checkRmsnorm(nl, rng, tallies.rmsnorm, where);
          break;
        case 1:
          checkLayernorm(nl, rng, tallies.layernorm, where);
          break;
        case 2:
          checkSoftmax(nl, rng, tallies.softmax, tallies.distributionStats, where);
          break;
        default:
          checkStats(nl, rng, tallies.stats, where);
      }
    }
    const summary = Object.entries(tallies)
      .map(([op, t]) => {
        const ill = t.illRows ? ` (ill-conditioned ${t.illRows}: ${t.maxIllError.toExponential(1)})` : '';
        return `${op} ${t.rows} rows max err ${t.maxError.toExponential(1)}${ill}`;
      })
      .join('; ');
    console.log(`numerics stress, ${backend}: ${total()} rows checked; ${summary}`);
    for (const [op, t] of Object.entries(tallies)) {
      const first = t.firstMismatches.join(' | ');
      assert.equal(t.mismatches, 0, `${op}: ${t.mismatches} mismatches, first: ${first}`);
    }
  });
}
