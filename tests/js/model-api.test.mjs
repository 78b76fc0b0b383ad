// The model's JS API on both backends: config, the forward and gradient
// result schemas (sizes, types, internal consistency), token labels, gains,
// delete() and dispose().
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { loadNormlab } from '../../dist/normlab.mjs';
import { BACKENDS, LONG_PROMPTS, PROMPT_16, leaves, meanOf } from './model-fixtures.mjs';

const STATS = ['l2', 'mean', 'variance', 'std', 'rms', 'maxAbs'];
const PROBES = [
  'residual.in',
  'inputNorm.in',
  'inputNorm.normed',
  'inputNorm.out',
  'attention.out',
  'postAttentionNorm.in',
  'postAttentionNorm.normed',
  'postAttentionNorm.out',
  'mlp.out',
  'residual.out',
];
const FINAL = ['finalNorm.in', 'finalNorm.normed', 'finalNorm.out'];

for (const backend of BACKENDS) {
  describe(`model API (${backend})`, () => {
    let nl;
    let model; // default config
    let post; // post-norm
    before(async () => {
      nl = await loadNormlab({ backend });
      model = nl.createModel();
      post = nl.createModel({ placement: 'post' });
    });
    after(() => nl.dispose());

    test('config: the chapter defaults, resolved eps, and custom values', () => {
      assert.deepEqual(
        { ...model.config },
        {
          layers: 24,
          hidden: 1024,
          heads: 16,
          norm: 'rmsnorm',
          placement: 'pre',
          eps: 1e-6,
          seed: 1,
        },
      );
      // [options, the config they make]: eps resolved for LayerNorm, and every
      // option given.
      const every = { layers: 2, hidden: 128, heads: 8, norm: 'none', placement: 'post', eps: 0.25, seed: 0 };
      for (const [options, config] of [
        [
          { layers: 3, hidden: 64, heads: 4, norm: 'layernorm', seed: 4294967295 },
          { layers: 3, hidden: 64, heads: 4, norm: 'layernorm', placement: 'pre', eps: 1e-5, seed: 4294967295 },
        ],
        [every, { ...every }],
      ]) {
        const m = nl.createModel(options);
        try {
          assert.deepEqual({ ...m.config }, config);
        } finally {
          m.delete();
        }
      }
    });

    test('forward: sizes and types of every field', () => {
      const prompt = LONG_PROMPTS[0];
      const T = prompt.length,
        L = 24,
        H = 16;
      const run = model.forward(prompt);
      assert.equal(run.layers, L);
      assert.equal(run.hidden, 1024);
      assert.equal(run.heads, H);
      assert.ok(run.tokens instanceof Int32Array);
      assert.deepEqual([...run.tokens], [...new TextEncoder().encode(prompt)]);
      assert.deepEqual(run.tokenLabels, [...prompt.replaceAll(' ', '␣')]);
      assert.deepEqual([...run.probeNames], PROBES);
      assert.deepEqual(Object.keys(run.probes), PROBES);
      for (const name of PROBES) {
        for (const s of STATS) {
          assert.ok(run.probes[name].mean[s] instanceof Float32Array);
          assert.equal(run.probes[name].mean[s].length, L, `${name}.mean.${s}`);
          assert.equal(run.probes[name].perToken[s].length, L * T, `${name}.perToken.${s}`);
        }
      }
      assert.deepEqual(Object.keys(run.final), FINAL);
      for (const name of FINAL) {
        for (const s of STATS) {
          assert.equal(typeof run.final[name].mean[s], 'number');
          assert.equal(run.final[name].perToken[s].length, T);
        }
      }
      assert.equal(run.attention.entropy.length, L * T * H);
      assert.equal(run.attention.maxProb.length, L * T * H);
      assert.equal(run.attention.meanEntropy.length, L);
      assert.equal(run.attention.meanMaxProb.length, L);
      assert.equal(run.postNorm, null, 'pre-norm has no rescaling factors');
      assert.ok(run.next.tokens instanceof Int32Array);
      assert.equal(run.next.tokens.length, 5, 'topK defaults to 5');
      assert.equal(run.next.probs.length, 5);

      const p = post.forward(prompt);
      assert.equal(p.postNorm.rescale.length, L * 2 * T);
      assert.equal(p.postNorm.product.length, L * 2 * T);
      assert.equal(p.postNorm.meanRescale.length, L * 2);
      assert.equal(p.postNorm.meanProduct.length, L * 2);
    });

    test('forward: a plain object, no handles, every number finite', () => {
      const run = post.forward(LONG_PROMPTS[1]);
      // structuredClone refuses functions and class instances with private state.
      assert.doesNotThrow(() => structuredClone(run));
      for (const [path, v] of leaves(run)) {
        const values = typeof v === 'number' ? [v] : v;
        for (const x of values) assert.ok(Number.isFinite(x), `${path} holds ${x}`);
      }
      // Its arrays are the caller's: a second forward does not change them.
      const copy = run.probes['residual.out'].mean.l2.slice();
      post.forward('something else entirely');
      assert.deepEqual(run.probes['residual.out'].mean.l2, copy);
    });

    test('forward: means are token averages; shared probes agree; the final norm reads the last layer', () => {
      const prompt = LONG_PROMPTS[2];
      for (const m of [model, post]) {
        const run = m.forward(prompt);
        const { layers: L } = run;
        const T = run.tokens.length;
        for (const name of PROBES) {
          for (const s of STATS) {
            const { mean, perToken } = run.probes[name];
            for (let l = 0; l < L; l++) {
              const avg = meanOf(perToken[s], l * T, (l + 1) * T);
              const scale = Math.max(Math.abs(avg), run.probes[name].mean.rms[l]);
              assert.ok(Math.abs(mean[s][l] - avg) <= 1e-5 * scale, `${name}.${s} layer ${l}`);
            }
          }
        }
        const rin = run.probes['residual.in'].perToken.l2;
        const rout = run.probes['residual.out'].perToken.l2;
        for (let l = 1; l < L; l++) {
          for (let t = 0; t < T; t++) assert.equal(rin[l * T + t], rout[(l - 1) * T + t]);
        }
        for (let t = 0; t < T; t++) {
          assert.equal(run.final['finalNorm.in'].perToken.l2[t], rout[(L - 1) * T + t]);
        }
        for (let l = 0; l < L; l++) {
          const H = run.heads;
          assert.ok(
            Math.abs(run.attention.meanMaxProb[l] - meanOf(run.attention.maxProb, l * T * H, (l + 1) * T * H)) < 1e-6,
          );
          assert.ok(
            Math.abs(run.attention.meanEntropy[l] - meanOf(run.attention.entropy, l * T * H, (l + 1) * T * H)) < 1e-5,
          );
        }
        // Statistics are consistent with each other: rms^2 = variance + mean^2.
        const o = run.probes['attention.out'].perToken;
        for (let i = 0; i < L * T; i++) {
          assert.ok(Math.abs(o.rms[i] ** 2 - (o.variance[i] + o.mean[i] ** 2)) <= 1e-4 * o.rms[i] ** 2);
          assert.ok(Math.abs(o.rms[i] - o.l2[i] / 32) <= 1e-5 * o.rms[i]);
          assert.ok(o.maxAbs[i] <= o.l2[i]);
        }
      }
    });

    test('forward: post-norm rescaling means and running product', () => {
      const run = post.forward(LONG_PROMPTS[0]);
      const T = run.tokens.length;
      const { rescale, product, meanRescale, meanProduct } = run.postNorm;
      for (let t = 0; t < T; t++) {
        let p = 1;
        for (let k = 0; k < 48; k++) {
          p *= rescale[k * T + t];
          assert.ok(Math.abs(product[k * T + t] - p) <= 1e-5 * p, `product, norm ${k}, token ${t}`);
        }
      }
      for (let k = 0; k < 48; k++) {
        assert.ok(Math.abs(meanRescale[k] - meanOf(rescale, k * T, (k + 1) * T)) <= 1e-6 * meanRescale[k]);
        assert.ok(Math.abs(meanProduct[k] - meanOf(product, k * T, (k + 1) * T)) <= 1e-6 * meanProduct[k]);
      }
    });

    test('forward: next-token top-k is sorted, greedy first; topK 256 is the whole distribution', () => {
      const run = model.forward(PROMPT_16, { topK: 7 });
      assert.equal(run.next.tokens.length, 7);
      assert.equal(run.next.token, run.next.tokens[0]);
      for (let k = 1; k < 7; k++) assert.ok(run.next.probs[k] <= run.next.probs[k - 1]);
      const all = model.forward(PROMPT_16, { topK: 256 });
      assert.deepEqual(new Set(all.next.tokens).size, 256);
      assert.ok(Math.abs(meanOf(all.next.probs) * 256 - 1) < 1e-4, 'probabilities sum to 1');
      assert.deepEqual([...all.next.tokens.subarray(0, 7)], [...run.next.tokens]);
      assert.equal(model.forward('x', { topK: 1 }).next.tokens.length, 1);
    });

    test('token labels: ASCII, whitespace, control bytes, multi-byte characters', () => {
      const run = model.forward('你好 a\n\t\u0001é😀');
      assert.deepEqual([...run.tokens], [...new TextEncoder().encode('你好 a\n\t\u0001é😀')]);
      assert.deepEqual(run.tokenLabels, [
        '你',
        '·',
        '·',
        '好',
        '·',
        '·',
        '␣',
        'a',
        '↵',
        '⇥',
        '01',
        'é',
        '·',
        '😀',
        '·',
        '·',
        '·',
      ]);
      // A lone surrogate is encoded as U+FFFD (3 bytes), like TextEncoder does.
      const lone = model.forward('a\ud800b');
      assert.deepEqual([...lone.tokens], [0x61, 0xef, 0xbf, 0xbd, 0x62]);
      assert.deepEqual(lone.tokenLabels, ['a', '\ufffd', '·', '·', 'b']);
      // 64 bytes is the longest prompt: 21 Chinese characters and one byte.
      assert.equal(model.forward('字'.repeat(21) + '.').tokens.length, 64);
    });

    test('gains: D values around 1 (most near it, a few ~0.3..2), a copy per call', () => {
      const all = [];
      for (const which of ['inputNorm', 'postAttentionNorm']) {
        for (const layer of [0, 11, 23]) {
          const g = model.gains(layer, which);
          assert.ok(g instanceof Float32Array);
          assert.equal(g.length, 1024);
          all.push(...g);
        }
      }
      const final = model.gains(undefined, 'finalNorm');
      assert.equal(final.length, 1024);
      assert.deepEqual(model.gains(5, 'finalNorm'), final, 'finalNorm ignores the layer');
      all.push(...final);
      const near = all.filter((g) => g >= 0.72 && g <= 1.28).length / all.length;
      assert.ok(near > 0.85, `${near} of the gains within 0.72..1.28`);
      assert.ok(Math.min(...all) >= 0.29 && Math.min(...all) < 0.45, `min gain ${Math.min(...all)}`);
      assert.ok(Math.max(...all) <= 2.0 && Math.max(...all) > 1.6, `max gain ${Math.max(...all)}`);
      assert.ok(Math.abs(meanOf(all) - 1) < 0.05, `mean gain ${meanOf(all)}`);
      // Layers and norms have their own gains; a returned array is a copy.
      assert.notDeepEqual(model.gains(0, 'inputNorm'), model.gains(1, 'inputNorm'));
      assert.notDeepEqual(model.gains(0, 'inputNorm'), model.gains(0, 'postAttentionNorm'));
      const g = model.gains(3, 'inputNorm');
      g.fill(7);
      assert.notEqual(model.gains(3, 'inputNorm')[0], 7);
      // Small models draw their layer l from the same seed stream.
      const small = nl.createModel({ layers: 4 });
      try {
        assert.deepEqual(small.gains(3, 'postAttentionNorm'), model.gains(3, 'postAttentionNorm'));
      } finally {
        small.delete();
      }
    });

    test('gradients: sizes, finite and positive, and consistent with each other', () => {
      const grads = model.gradients(PROMPT_16);
      const L = 24,
        T = 16;
      assert.equal(grads.layers, L);
      assert.equal(grads.tokens, T);
      for (const [name, n] of [
        ['residual', L + 1],
        ['residualPerToken', (L + 1) * T],
        ['attention', L],
        ['mlp', L],
        ['norm', L],
        ['layer', L],
      ]) {
        assert.ok(grads[name] instanceof Float32Array, name);
        assert.equal(grads[name].length, n, name);
      }
      // The loss is a mean of -log p over 15 next tokens: near log(256) = 5.5
      // for an untrained model, and positive.
      assert.ok(grads.loss > 1 && grads.loss < 20, `loss ${grads.loss}`);
      for (const name of ['residual', 'attention', 'mlp', 'norm', 'layer']) {
        for (const v of grads[name]) assert.ok(Number.isFinite(v) && v > 0, `${name} holds ${v}`);
      }
      assert.ok(Number.isFinite(grads.embedding) && grads.embedding > 0);
      assert.ok(Number.isFinite(grads.finalNorm) && grads.finalNorm > 0);
      for (let l = 0; l < L; l++) {
        const parts = grads.attention[l] ** 2 + grads.mlp[l] ** 2 + grads.norm[l] ** 2;
        assert.ok(Math.abs(grads.layer[l] ** 2 - parts) <= 1e-4 * parts, `layer ${l}: the groups add up`);
      }
      for (let l = 0; l <= L; l++) {
        let ss = 0;
        for (let t = 0; t < T; t++) ss += grads.residualPerToken[l * T + t] ** 2;
        assert.ok(Math.abs(Math.sqrt(ss) - grads.residual[l]) <= 1e-4 * grads.residual[l], `residual ${l}`);
        // The last token predicts nothing in the loss, and nothing earlier
        // reads it (causal attention): its gradient is exactly zero.
        assert.equal(grads.residualPerToken[l * T + T - 1], 0);
      }
      // The same numbers again: gradients() is deterministic and independent
      // of the forward passes between calls.
      model.forward(LONG_PROMPTS[1]);
      assert.deepEqual(model.gradients(PROMPT_16), grads);
      assert.doesNotThrow(() => structuredClone(grads));
      assert.equal(grads.postNorm, null, 'pre-norm: no rescalings');
    });

    test("gradients: post-norm carries the forward pass's rescalings, exactly", () => {
      const grads = post.gradients(PROMPT_16);
      const run = post.forward(PROMPT_16);
      assert.deepEqual(grads.postNorm, {
        meanRescale: run.postNorm.meanRescale,
        meanProduct: run.postNorm.meanProduct,
      });
      for (const options of [
        { layers: 3, hidden: 64, heads: 4, norm: 'layernorm', placement: 'post' },
        { layers: 3, hidden: 64, heads: 4, norm: 'none', placement: 'post' },
      ]) {
        const m = nl.createModel(options);
        try {
          const f = m.forward(PROMPT_16).postNorm;
          const g = m.gradients(PROMPT_16).postNorm;
          assert.deepEqual(g, f && { meanRescale: f.meanRescale, meanProduct: f.meanProduct }, options.norm);
        } finally {
          m.delete();
        }
      }
    });

    test('the first n layers of a 64-layer model are the n-layer model, backward as forward, bit for bit', () => {
      const shape = { hidden: 256, heads: 4, seed: 3 };
      for (const placement of ['pre', 'post']) {
        const deep = nl.createModel({ ...shape, placement, layers: 64 });
        try {
          for (const n of [1, 6, 48, 64]) {
            const fresh = nl.createModel({ ...shape, placement, layers: n });
            const expected = { grads: fresh.gradients(PROMPT_16), run: fresh.forward(PROMPT_16) };
            fresh.delete();
            assert.deepEqual(
              deep.gradients(PROMPT_16, { layers: n }),
              expected.grads,
              `${placement}, gradients, ${n} layers`,
            );
            assert.deepEqual(
              deep.forward(PROMPT_16, { layers: n }),
              expected.run,
              `${placement}, forward, ${n} layers`,
            );
          }
        } finally {
          deep.delete();
        }
      }
    });

    test("a prompt typed on, edited or cut reuses the kept run and equals a fresh model's, bit for bit", () => {
      const shape = { layers: 12, hidden: 256, heads: 4 };
      for (const placement of ['pre', 'post']) {
        const typing = nl.createModel({ ...shape, placement });
        try {
          const prompts = [
            PROMPT_16,
            `${PROMPT_16}!`,
            `${PROMPT_16}!?`,
            `X${PROMPT_16.slice(1)}!?`,
            PROMPT_16.slice(0, 5),
            LONG_PROMPTS[1],
          ];
          for (const [i, prompt] of prompts.entries()) {
            const layers = [12, 12, 5, 12, 9, 12][i];
            const fresh = nl.createModel({ ...shape, placement, layers });
            const expected = fresh.forward(prompt);
            fresh.delete();
            assert.deepEqual(
              typing.forward(prompt, { layers }),
              expected,
              `${placement}: '${prompt}', ${layers} layers`,
            );
          }
          // extend() runs the kept prompt deeper, up to L; another model's
          // forward pass takes the kept run over.
          assert.equal(typing.extend(100), 12);
          assert.equal(typing.extend(1), 12);
          const other = nl.createModel({ ...shape, placement, layers: 2 });
          other.forward('x');
          other.delete();
          assert.equal(typing.extend(1), 0);
        } finally {
          typing.delete();
        }
      }
    });

    test('gradients of a sensible size: a likelier prompt has a smaller loss and pull', () => {
      // The model's own greedy continuation (ASCII tokens only, so that it
      // is text) against a random-looking string of the same length.
      let text = 'the ';
      while (text.length < 16) {
        const { tokens } = model.forward(text, { topK: 256 }).next;
        text += String.fromCharCode(tokens.find((t) => t >= 32 && t < 127));
      }
      const likely = model.gradients(text);
      const unlikely = model.gradients('qZ#7~kP@x!vB%3&w');
      assert.ok(likely.loss < unlikely.loss, `loss ${likely.loss} vs ${unlikely.loss}`);
      // dloss/dlogits = p - onehot(target): nearer zero when p(target) is high.
      assert.ok(likely.residual[24] < unlikely.residual[24], `${likely.residual[24]} vs ${unlikely.residual[24]}`);
    });

    test('delete(): later calls throw a clear error; config stays; delete twice is fine', () => {
      const m = nl.createModel({ layers: 2, hidden: 64, heads: 4 });
      assert.equal(m.forward('hello').layers, 2);
      m.delete();
      for (const call of [() => m.forward('hello'), () => m.gradients('hello'), () => m.gains(0, 'inputNorm')]) {
        assert.throws(call, (e) => e.constructor === Error && e.message === 'model was deleted');
      }
      assert.equal(m.config.layers, 2);
      assert.doesNotThrow(() => m.delete());
    });

    test('models are independent; dispose() deletes the ones left', async () => {
      const other = await loadNormlab({ backend });
      const a = other.createModel({ layers: 2, hidden: 64, heads: 4, seed: 1 });
      const b = other.createModel({ layers: 2, hidden: 64, heads: 4, seed: 2 });
      const before = a.forward('same prompt here').probes['residual.out'].mean.l2.slice();
      assert.notDeepEqual(b.forward('same prompt here').probes['residual.out'].mean.l2, before);
      assert.deepEqual(a.forward('same prompt here').probes['residual.out'].mean.l2, before);
      a.delete();
      assert.equal(b.forward('still here').layers, 2);
      assert.equal(other.liveAllocations(), 2, 'the workspace and model b');
      other.dispose();
      assert.equal(other.liveAllocations(), 0);
      assert.throws(() => b.forward('gone'), { message: 'model was deleted' });
      assert.throws(() => other.createModel(), { message: 'this normlab instance has been disposed' });
    });
  });
}
