// Both wasm backends side by side: the SIMD128 module and the scalar one
// (the same kernel source on xsimd's emulated architecture) must agree.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { loadNormlab } from '../../dist/normlab.mjs';
import { maxRelDiff, normals } from './reference.mjs';

let simd;
let scalar;
before(async () => {
  [simd, scalar] = await Promise.all([loadNormlab({ backend: 'simd128' }), loadNormlab({ backend: 'scalar' })]);
});
after(() => {
  simd.dispose();
  scalar.dispose();
});

// Relative to max(1, |value|): float32 results may differ by a few ulps when
// the two builds order a reduction differently, never by more.
const TOLERANCE = 1e-6;

function assertSame(a, b, what) {
  const diff = maxRelDiff(a, b);
  assert.ok(diff <= TOLERANCE, `${what}: simd128 and scalar differ by ${diff}`);
}

test('each backend reports what it runs', () => {
  assert.equal(simd.backend, 'simd128');
  assert.equal(simd.arch, 'wasm');
  assert.equal(scalar.backend, 'scalar');
  assert.match(scalar.arch, /^emulated/);
});

test('every op gives the same results on both backends', () => {
  for (const D of [1, 3, 4, 17, 64, 768]) {
    const x = normals(6 * D, D, 2, 0.5);
    const gain = normals(D, D + 1, 0.5, 1);
    const bias = normals(D, D + 2, 0.1);
    const p = simd.softmax(x, { dim: D });
    const cases = {
      rmsnorm: (nl) => nl.rmsnorm(x, { dim: D, gain }),
      layernorm: (nl) => nl.layernorm(x, { dim: D, gain, bias }),
      softmax: (nl) => nl.softmax(x, { dim: D, temperature: 0.7 }),
      copyRows: (nl) => nl.copyRows(x, { dim: D }),
      ...Object.fromEntries(
        ['l2', 'mean', 'variance', 'std', 'rms', 'maxAbs'].map((f) => [
          `stats.${f}`,
          (nl) => nl.stats(x, { dim: D })[f],
        ]),
      ),
      'distributionStats.entropy': (nl) => nl.distributionStats(p, { dim: D }).entropy,
      'distributionStats.maxProb': (nl) => nl.distributionStats(p, { dim: D }).maxProb,
    };
    for (const [name, run] of Object.entries(cases)) assertSame(run(simd), run(scalar), `${name}, D = ${D}`);
  }
});

test('the worked examples agree on both backends', () => {
  const x = [2, -1, 3, 0];
  const a = simd.rmsnormSteps(x);
  const b = scalar.rmsnormSteps(x);
  assertSame([a.meanSquare, a.rms], [b.meanSquare, b.rms], 'rmsnormSteps scalars');
  assertSame(a.y, b.y, 'rmsnormSteps.y');
  const c = simd.layernormSteps(x);
  const d = scalar.layernormSteps(x);
  assertSame([c.mean, c.variance, c.std], [d.mean, d.variance, d.std], 'layernormSteps scalars');
  assertSame(c.y, d.y, 'layernormSteps.y');
});
