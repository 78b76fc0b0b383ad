// The softmax widget's two ways for the scores to follow the magnitude
// (web/src/compute.js): in proportion to L2 (the chapter's widget, whose
// default numbers stay exact) and with L2's square (queries and keys both
// grow with the stream), each against a double-precision softmax of the
// scaled scores.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { loadNormlab } from '../../dist/normlab.mjs';
import { computeSoftmax, softmaxScale } from '../../web/src/compute.js';
import { SOFTMAX_SCORES } from '../../web/src/constants.js';
import { softmaxRef } from './reference.mjs';

const nl = await loadNormlab({ backend: 'simd128' });
const reference = (scale) =>
  Array.from(
    softmaxRef(
      SOFTMAX_SCORES.map((s) => s * scale),
      SOFTMAX_SCORES.length,
    ),
  );

test('the scale: L2 / 32, or its square', () => {
  assert.equal(softmaxScale(32), 1);
  assert.equal(softmaxScale(32, 'square'), 1);
  assert.equal(softmaxScale(64), 2);
  assert.equal(softmaxScale(64, 'square'), 4);
  assert.equal(softmaxScale(128), 4);
  assert.equal(softmaxScale(128, 'square'), 16);
  assert.equal(softmaxScale(16, 'square'), 0.25);
});

test("at the default L2 both ways give the chapter's six probabilities", () => {
  for (const growth of ['linear', 'square']) {
    const r = computeSoftmax(nl, 32, growth);
    assert.equal(r.scale, 1);
    assert.deepEqual(
      r.probs.map((p) => p.toFixed(3)),
      ['0.325', '0.218', '0.161', '0.132', '0.098', '0.066'],
    );
  }
});

test('each way matches a softmax of the scaled scores, and the square saturates first', () => {
  for (const l2 of [4, 16, 45.25, 64, 128, 512]) {
    const linear = computeSoftmax(nl, l2, 'linear');
    const square = computeSoftmax(nl, l2, 'square');
    assert.equal(linear.growth, 'linear');
    assert.equal(square.growth, 'square');
    for (const [r, scale] of [
      [linear, l2 / 32],
      [square, (l2 / 32) ** 2],
    ]) {
      assert.equal(r.scale, scale);
      assert.deepEqual(
        r.logits,
        SOFTMAX_SCORES.map((s) => s * scale),
      );
      reference(scale).forEach((p, i) =>
        assert.ok(Math.abs(r.probs[i] - p) < 2e-6, `L2 ${l2}, ${r.growth}: ${r.probs[i]} vs ${p}`),
      );
      assert.ok(Math.abs(r.maxProb - Math.max(...reference(scale))) < 2e-6);
    }
    if (l2 > 32) assert.ok(square.maxProb > linear.maxProb, `L2 ${l2}`);
    if (l2 < 32) assert.ok(square.maxProb < linear.maxProb, `L2 ${l2}`);
  }
  // The softmax widget's question, L2 = 128: 0.769 in the chapter's way,
  // 0.998 when queries and keys both grow; the zones differ accordingly.
  assert.equal(computeSoftmax(nl, 128, 'linear').maxProb.toFixed(3), '0.769');
  assert.equal(computeSoftmax(nl, 128, 'linear').zone, 'drift');
  assert.equal(computeSoftmax(nl, 128, 'square').maxProb.toFixed(3), '0.998');
  assert.equal(computeSoftmax(nl, 128, 'square').zone, 'saturated');
});
