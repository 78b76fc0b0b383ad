// The page's model bookkeeping (web/src/compute.js createModelLab) against
// the real wasm module: one model instance per configuration in use, each
// deleted as soon as no view needs it, and the forward and gradient views'
// data shaped from the model's runs.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { loadNormlab } from '../../dist/normlab.mjs';
import { DEPTH_MAX } from '../../web/src/constants.js';
import { createModelLab, forwardModelConfig, modelConfig } from '../../web/src/compute.js';

const nl = await loadNormlab({ backend: 'simd128' });
const settings = { prompt: 'Each layer adds to the stream.', norm: 'rmsnorm', placement: 'pre', depth: 24, eps: 1e-6 };

test('one instance per configuration, deleted when no view needs it', () => {
  const baseline = nl.liveAllocations();
  const lab = createModelLab();
  lab.forward(nl, settings);
  lab.forward(nl, settings);
  const one = nl.liveAllocations();
  assert.ok(one > baseline, 'a model was created');
  // Same configuration, other prompt: the same instance runs it.
  lab.forward(nl, { ...settings, prompt: 'another prompt' });
  assert.equal(nl.liveAllocations(), one);
  // Another depth: still the same instance, run to that depth.
  assert.equal(lab.forward(nl, { ...settings, depth: 7 }).view.layers, 7);
  assert.equal(nl.liveAllocations(), one);
  // A second configuration adds one instance; keeping only it deletes the first.
  const post = { ...settings, placement: 'post' };
  lab.forward(nl, post);
  assert.ok(nl.liveAllocations() > one);
  lab.keep([forwardModelConfig(post)]);
  assert.equal(nl.liveAllocations(), one);
  lab.keep([]);
  assert.equal(nl.liveAllocations(), baseline);
});

test('spare instances: the most recently used ones stay, the rest are deleted', () => {
  const baseline = nl.liveAllocations();
  const lab = createModelLab();
  const small = { ...settings, depth: 2 };
  const configs = [small, { ...small, depth: 3 }, { ...small, depth: 4 }].map(modelConfig);
  const models = configs.map((c) => lab.modelFor(nl, c));
  const live = nl.liveAllocations();
  // In use: depth 4; spare 1: depth 3, the most recently used of the others.
  lab.keep([configs[2]], { spare: 1 });
  assert.equal(nl.liveAllocations(), live - 1);
  assert.equal(lab.modelFor(nl, configs[1]), models[1], 'the spare is reused');
  assert.equal(nl.liveAllocations(), live - 1);
  // Using depth 3 made it the most recent: depth 4 is now the spare.
  lab.keep([configs[1]], { spare: 1 });
  assert.equal(lab.modelFor(nl, configs[2]), models[2]);
  lab.keep([]);
  assert.equal(nl.liveAllocations(), baseline);
});

test('forward views at any depth equal a model of that depth', () => {
  const lab = createModelLab();
  assert.equal(forwardModelConfig(settings).layers, DEPTH_MAX);
  for (const depth of [24, 23, 30, 5, 24]) {
    const view = lab.forward(nl, { ...settings, depth }).view;
    const fresh = nl.createModel(modelConfig({ ...settings, depth }));
    const run = fresh.forward(settings.prompt, { topK: 5 });
    fresh.delete();
    assert.equal(view.layers, depth);
    assert.deepEqual(view.residualL2, [...run.probes['residual.in'].mean.l2, run.final['finalNorm.in'].mean.l2]);
    assert.deepEqual(view.attention.maxProb, run.attention.meanMaxProb);
    assert.deepEqual(view.next.probs, Array.from(run.next.probs));
  }
  lab.keep([]);
});

test('idle extension runs the model on to its last layer; deeper views then equal fresh models', () => {
  const lab = createModelLab();
  assert.equal(lab.extend(nl, settings, 8), false, 'no forward view yet, nothing to extend');
  lab.forward(nl, settings);
  let more = 0;
  while (lab.extend(nl, settings, 8)) more += 1;
  // 24 -> 32 -> 40 -> 48 -> 56 -> 64: true four times, false at 64.
  assert.equal(more, 4);
  assert.equal(lab.extend(nl, settings, 8), false);
  assert.equal(lab.extend(nl, { ...settings, prompt: 'another prompt' }, 8), false, 'only the last view\'s prompt');
  for (const depth of [40, 64, 13]) {
    const view = lab.forward(nl, { ...settings, depth }).view;
    const fresh = nl.createModel(modelConfig({ ...settings, depth }));
    const run = fresh.forward(settings.prompt, { topK: 5 });
    fresh.delete();
    assert.deepEqual(view.residualL2, [...run.probes['residual.in'].mean.l2, run.final['finalNorm.in'].mean.l2]);
    assert.deepEqual(view.next.probs, Array.from(run.next.probs));
  }
  lab.keep([]);
});

test('forward views: per-layer averages, and the last good result on a bad prompt', () => {
  const lab = createModelLab();
  const good = lab.forward(nl, settings);
  assert.equal(good.error, null);
  assert.equal(good.tokens, 30);
  const view = good.view;
  assert.equal(view.layers, 24);
  assert.equal(view.sqrtD, 32);
  assert.equal(view.residualL2.length, 25);
  assert.ok(view.residualL2[24] / view.residualL2[0] > 5, 'the stream grows');
  for (const l2 of view.probes['inputNorm.normed'].l2) assert.ok(Math.abs(l2 - 32) < 1e-3, `normed L2 ${l2}`);

  const tooLong = lab.forward(nl, { ...settings, prompt: '残'.repeat(22) });
  assert.deepEqual(tooLong.error, { code: 'errTooLong', params: { count: 66, max: 64 } });
  assert.equal(tooLong.view, view, 'the last good view stays');
  assert.equal(lab.forward(nl, { ...settings, prompt: '' }).error.code, 'errEmpty');
  lab.keep([]);
});

test('gradient views: pre-norm has no rescalings, post-norm has 2 per layer', () => {
  const lab = createModelLab();
  const pre = lab.gradients(nl, { ...settings, depth: 6 });
  const post = lab.gradients(nl, { ...settings, depth: 6, placement: 'post' });
  assert.equal(pre.error, null);
  assert.equal(pre.layer.length, 6);
  assert.equal(pre.residual.length, 7);
  assert.equal(pre.rescale, null);
  assert.equal(post.rescale.factor.length, 12);
  // The running product starts at the first factor (both are averaged over
  // tokens, so later entries are means of products, not products of means).
  assert.ok(Math.abs(post.rescale.product[0] - post.rescale.factor[0]) < 1e-6);
  assert.ok(post.rescale.product.every((p) => p > 0));
  assert.equal(lab.gradients(nl, { ...settings, prompt: 'x' }).error.code, 'errTooShort');
  lab.keep([]);
});

test('the gain sample is fixed and computed from the model\'s gains', () => {
  const lab = createModelLab();
  lab.forward(nl, settings);
  const gains = lab.gains(nl, settings);
  assert.equal(gains.values.length, 48);
  assert.deepEqual(new Set(gains.features).size, 48);
  const all = lab.modelFor(nl, forwardModelConfig(settings)).gains(0, 'inputNorm');
  gains.features.forEach((feature, i) => assert.equal(gains.values[i], all[feature]));
  assert.equal(gains.amplified, gains.values.filter((g) => g > 1).length);
  assert.equal(gains.min, Math.min(...gains.values));
  assert.equal(createModelLab().gains(nl, settings), null, 'no model, no sample');
  lab.keep([]);
});
