// The demo controller (web/src/demo-controller.js), which the page and the
// custom elements share, against the real wasm module: one DEPTH_MAX-deep
// model instance per configuration, in a pool per normlab instance that keeps
// the three most recently used; forward views at any depth and after any
// keystroke equal to fresh models'; the idle extension; the gradient views'
// scheduled backward passes; the gain sample.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { loadNormlab } from '../../dist/normlab.mjs';
import { DEPTH_MAX } from '../../web/src/constants.js';
import { createDemoController, forwardModelConfig, modelConfig, modelPool } from '../../web/src/demo-controller.js';

const nl = await loadNormlab({ backend: 'simd128' });
const settings = { prompt: 'Each layer adds to the stream.', norm: 'rmsnorm', placement: 'pre', depth: 24, eps: 1e-6 };

// A controller whose render() resolves the promise of the next call to
// rendered().
function controller(options = {}) {
  let wake = null;
  const demo = createDemoController({ win: globalThis, render: () => wake?.(), ...options });
  demo.rendered = () =>
    new Promise((resolve) => {
      wake = resolve;
    });
  return demo;
}

test('one DEPTH_MAX-deep instance per configuration, in a pool that keeps the three most recently used', async () => {
  const baseline = nl.liveAllocations();
  const demo = controller();
  const pool = modelPool(nl);
  const keys = () => [...pool.models.keys()].map((k) => k.split('|').slice(0, 2).join(' '));
  demo.forward(nl, settings);
  demo.forward(nl, settings);
  const one = nl.liveAllocations();
  assert.ok(one > baseline, 'a model was created');
  assert.deepEqual(
    [...pool.models.values()].map((m) => m.config.layers),
    [DEPTH_MAX],
  );
  // Same configuration, other prompt: the same instance runs it.
  demo.forward(nl, { ...settings, prompt: 'another prompt' });
  assert.equal(nl.liveAllocations(), one);
  // Another depth: still the same instance, run to that depth.
  assert.equal(demo.forward(nl, { ...settings, depth: 7 }).view.layers, 7);
  assert.equal(nl.liveAllocations(), one);
  // The gradient views run the first `depth` layers of the same instances:
  // pre-norm's is the forward views', post-norm's one more.
  demo.input();
  const rendered = demo.rendered();
  demo.gradients(nl, { prompt: settings.prompt, norm: 'rmsnorm', eps: 1e-6, depth: 6 });
  await rendered;
  assert.deepEqual(keys(), ['rmsnorm pre', 'rmsnorm post']);
  // A third configuration is kept as well; a fourth deletes the least
  // recently used.
  demo.forward(nl, { ...settings, norm: 'layernorm' });
  assert.deepEqual(keys(), ['rmsnorm pre', 'rmsnorm post', 'layernorm pre']);
  const three = nl.liveAllocations();
  demo.forward(nl, { ...settings, norm: 'none' });
  assert.equal(nl.liveAllocations(), three);
  assert.deepEqual(keys(), ['rmsnorm post', 'layernorm pre', 'none pre']);
  // Back to layernorm: kept, no new instance.
  demo.forward(nl, { ...settings, norm: 'layernorm' });
  assert.equal(nl.liveAllocations(), three);
  assert.deepEqual(keys(), ['rmsnorm post', 'none pre', 'layernorm pre']);
  demo.dispose();
  assert.equal(nl.liveAllocations(), baseline);
  assert.equal(pool.models.size, 0);
});

test('the controllers on one normlab instance share its pool; the last to leave deletes every instance', () => {
  const baseline = nl.liveAllocations();
  const page = controller();
  const element = controller();
  page.forward(nl, settings);
  const one = nl.liveAllocations();
  // The element's view of the same configuration: no new instance.
  assert.equal(element.forward(nl, { ...settings, depth: 12 }).view.layers, 12);
  assert.equal(nl.liveAllocations(), one);
  // Four configurations over both: still three instances.
  for (const norm of ['layernorm', 'none']) element.forward(nl, { ...settings, norm });
  page.forward(nl, { ...settings, placement: 'post' });
  assert.equal(modelPool(nl).models.size, 3);
  page.dispose();
  assert.equal(modelPool(nl).models.size, 3, 'the element still uses the pool');
  element.dispose();
  assert.equal(modelPool(nl).models.size, 0);
  assert.equal(nl.liveAllocations(), baseline);
});

test("a keystroke's forward views equal a fresh model's: typing on, deleting, editing", () => {
  const demo = controller();
  const prompt = settings.prompt;
  for (const typed of [
    prompt,
    `${prompt} It`,
    `${prompt} I`,
    `${prompt.slice(0, 10)}X${prompt.slice(11)} I`,
    prompt.slice(0, 8),
  ]) {
    const view = demo.forward(nl, { ...settings, prompt: typed }).view;
    const fresh = nl.createModel(modelConfig(settings));
    const run = fresh.forward(typed, { topK: 5 });
    fresh.delete();
    assert.equal(view.tokens, new TextEncoder().encode(typed).length);
    assert.deepEqual(view.residualL2, [...run.probes['residual.in'].mean.l2, run.final['finalNorm.in'].mean.l2]);
    assert.deepEqual(view.attention.entropy, run.attention.meanEntropy);
    assert.deepEqual(view.next.probs, Array.from(run.next.probs));
  }
  demo.dispose();
});

test('a setting toggled back shows its kept view without a forward pass; the last four views are kept', () => {
  const demo = controller();
  const pre = demo.forward(nl, settings).view;
  const post = demo.forward(nl, { ...settings, placement: 'post' }).view;
  // A forward pass would take the module's kept run back from the post-norm
  // instance; a kept view leaves it there.
  const postModel = modelPool(nl).peek(forwardModelConfig({ ...settings, placement: 'post' }));
  assert.equal(demo.forward(nl, settings).view, pre);
  assert.equal(postModel.extend(1), settings.depth + 1);
  assert.equal(demo.forward(nl, { ...settings, placement: 'post' }).view, post);
  // Four more views: the first two are made anew, with the same numbers.
  for (const depth of [3, 4, 5, 6]) demo.forward(nl, { ...settings, depth });
  const again = demo.forward(nl, settings).view;
  assert.notEqual(again, pre);
  assert.deepEqual(again, pre);
  // The kept views hold copies, not the run's whole buffer.
  assert.equal(pre.probes['residual.in'].l2.buffer.byteLength, settings.depth * 4);
  demo.dispose();
});

test('forward views at any depth equal a model of that depth', () => {
  const demo = controller();
  assert.equal(forwardModelConfig(settings).layers, DEPTH_MAX);
  for (const depth of [24, 23, 30, 5, 24]) {
    const view = demo.forward(nl, { ...settings, depth }).view;
    const fresh = nl.createModel(modelConfig({ ...settings, depth }));
    const run = fresh.forward(settings.prompt, { topK: 5 });
    fresh.delete();
    assert.equal(view.layers, depth);
    assert.deepEqual(view.residualL2, [...run.probes['residual.in'].mean.l2, run.final['finalNorm.in'].mean.l2]);
    assert.deepEqual(view.attention.maxProb, run.attention.meanMaxProb);
    assert.deepEqual(view.next.probs, Array.from(run.next.probs));
  }
  demo.dispose();
});

test('idle extension runs the model on to its last layer; deeper views then equal fresh models', async () => {
  const demo = controller();
  assert.equal(demo.extend(8), false, 'no forward view yet, nothing to extend');
  demo.forward(nl, settings);
  assert.equal(demo.extend(8), true);
  // The gradient views' backward passes leave the kept run alone.
  demo.input();
  const rendered = demo.rendered();
  demo.gradients(nl, { prompt: settings.prompt, norm: 'rmsnorm', eps: 1e-6, depth: 6 });
  await rendered;
  let more = 0;
  while (demo.extend(8)) more += 1;
  // 32 -> 40 -> 48 -> 56 -> 64: true three times, false at 64.
  assert.equal(more, 3);
  assert.equal(demo.extend(8), false);
  for (const depth of [40, 64, 13]) {
    const view = demo.forward(nl, { ...settings, depth }).view;
    const fresh = nl.createModel(modelConfig({ ...settings, depth }));
    const run = fresh.forward(settings.prompt, { topK: 5 });
    fresh.delete();
    assert.deepEqual(view.residualL2, [...run.probes['residual.in'].mean.l2, run.final['finalNorm.in'].mean.l2]);
    assert.deepEqual(view.next.probs, Array.from(run.next.probs));
  }
  // A new prompt runs on again; until another instance's forward pass takes
  // the kept run: then nothing is left to extend.
  demo.forward(nl, { ...settings, prompt: 'A new prompt' });
  assert.equal(demo.extend(8), true);
  const other = nl.createModel(modelConfig({ ...settings, depth: 3 }));
  other.forward('x');
  other.delete();
  assert.equal(demo.extend(8), false);
  demo.dispose();
});

test("prepare() runs the first forward pass in slices; the paint's forward() then equals a fresh model's", async () => {
  const demo = controller();
  await demo.prepare(nl, settings);
  // The kept run holds the stack: one more layer makes it depth + 1 deep.
  const model = demo.runtime.pool.peek(forwardModelConfig(settings));
  assert.equal(model.extend(1), settings.depth + 1);
  const view = demo.forward(nl, settings).view;
  const fresh = nl.createModel(modelConfig(settings));
  const run = fresh.forward(settings.prompt, { topK: 5 });
  fresh.delete();
  assert.deepEqual(view.residualL2, [...run.probes['residual.in'].mean.l2, run.final['finalNorm.in'].mean.l2]);
  assert.deepEqual(view.next.probs, Array.from(run.next.probs));
  // A prompt the model refuses prepares nothing.
  await demo.prepare(nl, { ...settings, prompt: '' });
  demo.dispose();
});

test('forward views: per-layer averages, and the last good result on a bad prompt', () => {
  const demo = controller();
  const good = demo.forward(nl, settings);
  assert.equal(good.error, null);
  assert.equal(good.tokens, 30);
  const view = good.view;
  assert.equal(view.layers, 24);
  assert.equal(view.sqrtD, 32);
  assert.equal(view.residualL2.length, 25);
  assert.ok(view.residualL2[24] / view.residualL2[0] > 5, 'the stream grows');
  for (const l2 of view.probes['inputNorm.normed'].l2) assert.ok(Math.abs(l2 - 32) < 1e-3, `normed L2 ${l2}`);

  const tooLong = demo.forward(nl, { ...settings, prompt: '残'.repeat(22) });
  assert.deepEqual(tooLong.error, { code: 'errTooLong', params: { count: 66, max: 64 } });
  assert.equal(tooLong.view, view, 'the last good view stays');
  assert.equal(demo.forward(nl, { ...settings, prompt: '' }).error.code, 'errEmpty');
  demo.dispose();
});

test("gradient views run after the input settles, pre then post; post-norm measures 2 rescalings per layer, pre-norm gets its norms' factors from a forward pass", async () => {
  const baseline = nl.liveAllocations();
  const demo = controller();
  const g = { prompt: settings.prompt, norm: 'rmsnorm', eps: 1e-6, depth: 6 };
  demo.input();
  // Far from the screen (defer): nothing is scheduled, the views wait.
  assert.deepEqual(demo.gradients(nl, g, true), { busy: true, result: null, deferred: true });
  assert.equal(demo.runtime.gradients.timer, null);
  const rendered = demo.rendered();
  assert.deepEqual(demo.gradients(nl, g), { busy: true, result: null, deferred: false });
  await rendered;
  // Done, they show deferred or not.
  assert.equal(demo.gradients(nl, g, true).deferred, false);
  const { busy, result } = demo.gradients(nl, g);
  assert.equal(busy, false);
  const { pre, post } = result;
  assert.equal(result.depth, 6);
  assert.equal(result.error, null);
  assert.equal(pre.layer.length, 6);
  assert.equal(pre.residual.length, 7);
  assert.equal(pre.rescale, null);
  assert.equal(post.rescale.factor.length, 12);
  // The running product starts at the first factor (both are averaged over
  // tokens, so later entries are means of products, not products of means).
  assert.ok(Math.abs(post.rescale.product[0] - post.rescale.factor[0]) < 1e-6);
  assert.ok(post.rescale.product.every((p) => p > 0));
  // Both stacks equal fresh models' backward passes.
  for (const [view, placement] of [
    [pre, 'pre'],
    [post, 'post'],
  ]) {
    const fresh = nl.createModel(modelConfig({ ...g, placement }));
    assert.deepEqual(view.layer, Array.from(fresh.gradients(g.prompt).layer));
    fresh.delete();
  }
  // The pre-norm stack's forward statistics: each norm's output L2 over its
  // input L2 (the factor its backward applies), the stream's L2 at every
  // layer boundary, as a fresh model's forward pass gives them.
  assert.equal(post.scaling, undefined);
  assert.equal(pre.scaling.factor.length, 12);
  assert.equal(pre.scaling.streamL2.length, 7);
  const fresh = nl.createModel(modelConfig({ ...g, placement: 'pre' }));
  const run = fresh.forward(g.prompt, { topK: 1 });
  fresh.delete();
  const l2 = (probe, l) => run.probes[probe].mean.l2[l];
  for (let l = 0; l < 6; l++) {
    assert.equal(pre.scaling.factor[2 * l], l2('inputNorm.out', l) / l2('inputNorm.in', l));
    assert.equal(pre.scaling.factor[2 * l + 1], l2('postAttentionNorm.out', l) / l2('postAttentionNorm.in', l));
    assert.equal(pre.scaling.streamL2[l], l2('residual.in', l));
  }
  assert.equal(pre.scaling.streamL2[6], run.final['finalNorm.in'].mean.l2);
  assert.equal(pre.scaling.top, run.next.probs[0]);
  // The first norm reads the embedding (L2 9.6 per token): it scales by about 32 / 9.6.
  assert.ok(Math.abs(pre.scaling.factor[0] - 32 / pre.scaling.streamL2[0]) < 0.05, `${pre.scaling.factor[0]}`);
  // Where the forward views show this very stack, their run serves: the
  // same numbers, from another controller.
  const viewing = controller();
  viewing.forward(nl, { ...settings, depth: 6 });
  viewing.input();
  const ready = viewing.rendered();
  viewing.gradients(nl, g);
  await ready;
  assert.deepEqual(viewing.gradients(nl, g).result.pre.scaling, pre.scaling);
  viewing.dispose();
  // A prompt too short for a next-token loss.
  const short = demo.rendered();
  demo.gradients(nl, { ...g, prompt: 'x' });
  await short;
  assert.equal(demo.gradients(nl, { ...g, prompt: 'x' }).result.error.code, 'errTooShort');
  // Settings seen before: the kept result, in the next task.
  const again = demo.rendered();
  demo.gradients(nl, g);
  await again;
  assert.equal(demo.gradients(nl, g).result, result);
  demo.dispose();
  assert.equal(nl.liveAllocations(), baseline);
});

test('an input before the settle time runs out cancels the pending backward pass', async () => {
  const demo = controller();
  const g = { prompt: settings.prompt, norm: 'rmsnorm', eps: 1e-6, depth: 6 };
  demo.input();
  demo.gradients(nl, g);
  demo.input();
  assert.equal(demo.runtime.gradients.settling, false);
  assert.equal(demo.runtime.gradients.key, null, 'the next paint schedules it anew');
  const rendered = demo.rendered();
  demo.gradients(nl, { ...g, depth: 7 });
  await rendered;
  assert.equal(demo.gradients(nl, { ...g, depth: 7 }).result.depth, 7);
  demo.dispose();
});

test("the gain sample is fixed and computed from the model's gains", () => {
  const demo = controller();
  assert.equal(demo.gains(nl, settings), null, 'no model, no sample');
  demo.forward(nl, settings);
  const gains = demo.gains(nl, settings);
  assert.equal(gains.values.length, 48);
  assert.deepEqual(new Set(gains.features).size, 48);
  const all = modelPool(nl).peek(forwardModelConfig(settings)).gains(0, 'inputNorm');
  gains.features.forEach((feature, i) => assert.equal(gains.values[i], all[feature]));
  assert.equal(gains.amplified, gains.values.filter((g) => g > 1).length);
  assert.equal(gains.min, Math.min(...gains.values));
  demo.dispose();
});
