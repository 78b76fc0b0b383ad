// The JS API's values: the page's worked examples, sqrt(D) norms, and every op
// against a plain-JS double-precision reference. Runs on the default ('auto')
// backend, which is SIMD128 under Node 20; backends.test.mjs holds the scalar
// one to the same results.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { loadNormlab } from '../../dist/normlab.mjs';
import { layernormRef, maxRelDiff, normals, rmsnormRef, softmaxRef } from './reference.mjs';

let nl;
before(async () => {
  nl = await loadNormlab();
});
after(() => nl.dispose());

function assertNear(actual, expected, tolerance, what) {
  const diff = maxRelDiff(actual, expected);
  assert.ok(diff <= tolerance, `${what}: max relative difference ${diff} > ${tolerance}`);
}

describe('loading', () => {
  test("'auto' picks SIMD128 under Node 20", () => {
    assert.equal(nl.backend, 'simd128');
    assert.equal(nl.arch, 'wasm');
  });
});

describe('rmsnorm', () => {
  test('worked example [2, -1, 3, 0]: rms = sqrt(3.5)', () => {
    const steps = nl.rmsnormSteps([2, -1, 3, 0]);
    assert.deepEqual(Array.from(steps.squares), [4, 1, 9, 0]);
    assert.equal(steps.meanSquare, 3.5);
    assert.ok(Math.abs(steps.rms - 1.8708) < 1e-4, `rms ${steps.rms}`);
    assertNear(steps.y, [1.069, -0.5345, 1.6036, 0], 1e-4, 'y');
    assertNear(nl.rmsnorm([2, -1, 3, 0]), steps.y, 0, 'rmsnorm() and rmsnormSteps().y');
  });

  test('worked example [2, 4, 4, 8]: rms = 5, y = x / 5', () => {
    const steps = nl.rmsnormSteps(new Float32Array([2, 4, 4, 8]), { eps: 0 });
    assert.equal(steps.meanSquare, 25);
    assert.equal(steps.rms, 5);
    assertNear(steps.y, [0.4, 0.8, 0.8, 1.6], 1e-7, 'y');
  });

  test('a normed row of D values has L2 norm sqrt(D)', () => {
    for (const [D, norm] of [
      [1024, 32],
      [256, 16],
    ]) {
      const y = nl.rmsnorm(normals(D, D, 3), { dim: D });
      const { l2 } = nl.stats(y);
      assert.ok(Math.abs(l2[0] - norm) < 1e-4, `D = ${D}: L2 ${l2[0]} != ${norm}`);
    }
  });

  test('matches the double reference, with gain, on rows that are not a multiple of 4 long', () => {
    for (const D of [1, 3, 7, 64, 771]) {
      const x = normals(5 * D, D, 2);
      const gain = normals(D, D + 1, 0.5, 1);
      assertNear(nl.rmsnorm(x, { dim: D, gain }), rmsnormRef(x, D, { gain }), 2e-6, `D = ${D}`);
      assertNear(nl.rmsnorm(x, { dim: D, eps: 0.5 }), rmsnormRef(x, D, { eps: 0.5 }), 2e-6, `D = ${D}, eps 0.5`);
    }
  });

  test('an array of numbers gives the same result as a Float32Array', () => {
    const x = normals(12, 7);
    assert.deepEqual(nl.rmsnorm(Array.from(x), { dim: 4 }), nl.rmsnorm(x, { dim: 4 }));
  });

  test('results survive memory growth: fresh views after every resize', () => {
    const heap = nl.heapBytes();
    const D = 4096;
    const big = normals(2048 * D, 11); // 32 MiB in, 32 MiB out: the memory must grow
    assertNear(nl.rmsnorm(big, { dim: D }), rmsnormRef(big, D), 2e-6, 'large input');
    assert.ok(nl.heapBytes() > heap, 'the wasm memory grew');
    assertNear(nl.rmsnorm([2, 4, 4, 8], { eps: 0 }), [0.4, 0.8, 0.8, 1.6], 1e-7, 'small input after growth');
  });
});

describe('layernorm', () => {
  test('worked example [1, 2, 3, 4]: mean 2.5, variance 1.25', () => {
    const steps = nl.layernormSteps([1, 2, 3, 4], { eps: 0 });
    assert.equal(steps.mean, 2.5);
    assert.deepEqual(Array.from(steps.centered), [-1.5, -0.5, 0.5, 1.5]);
    assert.equal(steps.variance, 1.25);
    assert.ok(Math.abs(steps.std - Math.sqrt(1.25)) < 1e-6, `std ${steps.std}`);
    assertNear(
      steps.y,
      [-1.5, -0.5, 0.5, 1.5].map((v) => v / Math.sqrt(1.25)),
      1e-6,
      'y',
    );
  });

  test('std includes eps', () => {
    const steps = nl.layernormSteps([1, 2, 3, 4], { eps: 0.75 });
    assert.ok(Math.abs(steps.std - Math.sqrt(2)) < 1e-6, `std ${steps.std}`);
  });

  test('matches the double reference, with gain and bias, on shifted data', () => {
    for (const D of [1, 5, 64, 768]) {
      const x = normals(4 * D, D, 2, 3);
      const gain = normals(D, D + 1, 0.5, 1);
      const bias = normals(D, D + 2, 0.1);
      assertNear(nl.layernorm(x, { dim: D, gain, bias }), layernormRef(x, D, { gain, bias }), 1e-5, `D = ${D}`);
      assertNear(nl.layernorm(x, { dim: D, bias }), layernormRef(x, D, { bias }), 1e-5, `D = ${D}, bias only`);
    }
  });
});

describe('softmax', () => {
  test('attention scores [2.0, 1.6, 1.3, 1.1, 0.8, 0.4]', () => {
    const p = nl.softmax([2.0, 1.6, 1.3, 1.1, 0.8, 0.4]);
    assert.deepEqual(
      Array.from(p, (v) => v.toFixed(3)),
      ['0.325', '0.218', '0.161', '0.132', '0.098', '0.066'],
    );
  });

  test('matches the double reference, with temperature, rows summing to 1', () => {
    for (const D of [1, 6, 33, 1000]) {
      const x = normals(3 * D, D, 4);
      for (const temperature of [1, 0.5, 2]) {
        const p = nl.softmax(x, { dim: D, temperature });
        // float32 sums of up to 1000 terms: a few ulps of error on the largest p.
        assertNear(p, softmaxRef(x, D, { temperature }), 5e-6, `D = ${D}, T = ${temperature}`);
        for (let t = 0; t < 3; t++) {
          const s = p.subarray(t * D, (t + 1) * D).reduce((a, b) => a + b, 0);
          assert.ok(Math.abs(s - 1) < 1e-5, `row ${t} sums to ${s}`);
        }
      }
    }
  });

  test('-Infinity masks an entry; a fully masked row is all zeros', () => {
    assert.deepEqual(Array.from(nl.softmax([0, -Infinity, 0, -Infinity])), [0.5, 0, 0.5, 0]);
    assert.deepEqual(Array.from(nl.softmax([-Infinity, -Infinity, 1, 1], { dim: 2 })), [0, 0, 0.5, 0.5]);
  });
});

describe('statistics', () => {
  test('stats: one Float32Array per field, one entry per row', () => {
    const s = nl.stats([3, -4, 0, 0, 1, 1, 1, 1], { dim: 4 });
    assert.deepEqual(Object.keys(s), ['l2', 'mean', 'variance', 'std', 'rms', 'maxAbs']);
    for (const v of Object.values(s)) assert.ok(v instanceof Float32Array && v.length === 2);
    assertNear(s.l2, [5, 2], 0, 'l2');
    assertNear(s.mean, [-0.25, 1], 0, 'mean');
    assertNear(s.variance, [6.1875, 0], 1e-6, 'variance'); // mean(x^2) - mean^2 = 25/4 - 1/16
    assertNear(s.std, [Math.sqrt(6.1875), 0], 1e-6, 'std');
    assertNear(s.rms, [2.5, 1], 0, 'rms');
    assertNear(s.maxAbs, [4, 1], 0, 'maxAbs');
  });

  test('distributionStats: entropy in nats and the largest probability', () => {
    const d = nl.distributionStats([0.25, 0.25, 0.25, 0.25, 1, 0, 0, 0, 0.5, 0.5, 0, 0], { dim: 4 });
    assertNear(d.entropy, [Math.log(4), 0, Math.log(2)], 1e-6, 'entropy');
    assert.deepEqual(Array.from(d.maxProb), [0.25, 1, 0.5]);
  });

  test('copyRows returns the input', () => {
    const x = normals(3 * 37, 5);
    assert.deepEqual(nl.copyRows(x, { dim: 37 }), x);
  });
});
