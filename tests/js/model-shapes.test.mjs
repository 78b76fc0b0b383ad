// The shapes the chapter shows, asserted on the JS API's output (default
// model: 24 layers, D = 1024, sqrt(D) = 32), English and Chinese prompts.
// The SIMD128 backend; model-backends.test.mjs holds scalar to the same numbers.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { loadNormlab } from '../../dist/normlab.mjs';
import { ALL_PROMPTS, LONG_PROMPTS, SQRT_D, meanOf } from './model-fixtures.mjs';

let nl;
const models = {};
before(async () => {
  nl = await loadNormlab({ backend: 'simd128' });
  models.pre = nl.createModel();
  models.post = nl.createModel({ placement: 'post' });
  models.none = nl.createModel({ norm: 'none' });
  models.layernorm = nl.createModel({ norm: 'layernorm' });
});
after(() => nl.dispose());

const residualRatio = (run) =>
  run.probes['residual.out'].mean.l2[run.layers - 1] / run.probes['residual.in'].mean.l2[0];
const lastLayers = (arr, n = 4) => [...arr.subarray(arr.length - n)];

describe('pre-norm (RMSNorm): the chapter shapes, on every prompt', () => {
  for (const prompt of ALL_PROMPTS) {
    test(`"${prompt}"`, () => {
      const run = models.pre.forward(prompt);
      const { layers: L } = run;
      const T = run.tokens.length;
      const l2 = run.probes['residual.out'].mean.l2;
      const start = run.probes['residual.in'].mean.l2[0];
      const ratio = residualRatio(run);
      // The residual stream's mean L2 climbs ~10x, from below sqrt(D).
      assert.ok(start < SQRT_D, `layer 0 input L2 ${start}`);
      assert.ok(ratio >= 6 && ratio <= 15, `residual growth ratio ${ratio}`);
      for (let l = 1; l < L; l++) assert.ok(l2[l] > l2[l - 1], `residual L2 drops at layer ${l}`);
      for (const norm of ['inputNorm', 'postAttentionNorm']) {
        const normed = run.probes[`${norm}.normed`].perToken;
        const out = run.probes[`${norm}.out`].perToken.l2;
        for (let i = 0; i < L * T; i++) {
          // Before the gain: exactly sqrt(D) to 0.1%, rms 1.
          assert.ok(Math.abs(normed.l2[i] / SQRT_D - 1) <= 1e-3, `${norm}.normed L2 ${normed.l2[i]} at ${i}`);
          assert.ok(Math.abs(normed.rms[i] - 1) <= 1e-3, `${norm}.normed rms ${normed.rms[i]} at ${i}`);
          // After the gain: within 0.8..1.25 x sqrt(D).
          assert.ok(out[i] >= 0.8 * SQRT_D && out[i] <= 1.25 * SQRT_D, `${norm}.out L2 ${out[i]} at ${i}`);
        }
      }
      assert.ok(Math.abs(run.final['finalNorm.normed'].mean.l2 / SQRT_D - 1) <= 1e-3);
    });
  }
});

describe('post-norm: the residual stream is pinned near sqrt(D)', () => {
  for (const prompt of ALL_PROMPTS) {
    test(`"${prompt}"`, () => {
      const run = models.post.forward(prompt);
      const l2 = run.probes['residual.out'].mean.l2;
      for (let l = 0; l < run.layers; l++) {
        assert.ok(l2[l] > 0.9 * SQRT_D && l2[l] < 1.1 * SQRT_D, `layer ${l}: residual L2 ${l2[l]}`);
      }
      // The norms shrink x + F(x) back at each of the 48 norms (the first one
      // scales the small embedding up); the running product falls well below 1.
      const { meanRescale, meanProduct } = run.postNorm;
      assert.ok(meanRescale[0] > 2, `first rescale ${meanRescale[0]}`);
      for (let k = 1; k < 48; k++)
        assert.ok(meanRescale[k] > 0.5 && meanRescale[k] < 1.05, `rescale ${k}: ${meanRescale[k]}`);
      assert.ok(meanProduct[47] < 0.1, `product of the 48 factors ${meanProduct[47]}`);
    });
  }
});

describe('no norm: the residual explodes and attention saturates with depth', () => {
  for (const prompt of LONG_PROMPTS) {
    test(`"${prompt}" (${new TextEncoder().encode(prompt).length} tokens)`, () => {
      const pre = models.pre.forward(prompt);
      const none = models.none.forward(prompt);
      const noneLast = lastLayers(none.attention.meanMaxProb);
      const preLast = lastLayers(pre.attention.meanMaxProb);
      for (const p of noneLast) assert.ok(p > 0.9, `no norm, last layers' mean max attention ${noneLast}`);
      for (const p of preLast) assert.ok(p < 0.6, `pre-norm, last layers' mean max attention ${preLast}`);
      assert.ok(none.attention.meanMaxProb[0] < 0.6, 'the first layer is not saturated yet');
      // Saturated rows have little entropy left.
      assert.ok(meanOf(lastLayers(none.attention.meanEntropy)) < 0.5 * meanOf(lastLayers(pre.attention.meanEntropy)));
      assert.ok(
        residualRatio(none) > 5 * residualRatio(pre),
        `growth ${residualRatio(none)} vs pre-norm ${residualRatio(pre)}`,
      );
      // Without a norm its probes are its input, and there is nothing to rescale.
      assert.deepEqual(none.probes['inputNorm.out'].mean.l2, none.probes['inputNorm.in'].mean.l2);
      assert.equal(none.postNorm, null);
    });
  }
});

describe('LayerNorm: normed rows have mean 0 and L2 sqrt(D)', () => {
  test(`"${LONG_PROMPTS[1]}"`, () => {
    const run = models.layernorm.forward(LONG_PROMPTS[1]);
    const T = run.tokens.length;
    for (const norm of ['inputNorm', 'postAttentionNorm']) {
      const normed = run.probes[`${norm}.normed`].perToken;
      for (let i = 0; i < run.layers * T; i++) {
        assert.ok(Math.abs(normed.l2[i] / SQRT_D - 1) <= 1e-3, `${norm}.normed L2 ${normed.l2[i]}`);
        assert.ok(Math.abs(normed.mean[i]) <= 1e-4, `${norm}.normed mean ${normed.mean[i]}`);
        assert.ok(Math.abs(normed.std[i] - 1) <= 1e-3, `${norm}.normed std ${normed.std[i]}`);
      }
    }
    const ratio = residualRatio(run);
    assert.ok(ratio >= 6 && ratio <= 15, `residual growth ratio ${ratio}`);
  });
});
