// The trainer's model in TensorFlow.js on tfjs-backend-wasm (SIMD, one
// thread): the same byte-level decoder as src/train (vocabulary 256, learned
// positions, H heads, MLP 4 D with tanh-approximated GELU, tied embeddings,
// no biases, RMSNorm with gain, post- or pre-norm), trained by tf.train.adam
// (0.9, 0.999, 1e-8) on the mean cross-entropy of a batch, as a tfjs user
// writes it. Three formulations:
//
//   plain          every product a tf.matMul (its gradients use matMul's
//                  transpose flags); causal attention as the full T x T
//                  product with a mask (-1e9 above the diagonal), as tfjs
//                  users write it, which computes about twice the
//                  attention FLOPs of ours
//   transposed     the same, but each linear layer a tf.customGrad whose
//                  gradients are plain 2-D products against explicit
//                  tf.transpose()s, so every weight product takes the
//                  backend's XNNPACK fully-connected path
//   causal-blocks  transposed, with the queries in 4 blocks of T/4 rows,
//                  each block's scores taken only against the keys up to
//                  its last row: 5/8 of the full T x T products, so its
//                  FLOPs are within 7% of ours (which compute the causal
//                  half, T (T + 1) / 2 per head)
//
// Practicalities of tfjs 4.22 under Node: tfjs-core registers no gradients
// until @tensorflow/tfjs-layers is imported; the wasm backend has no
// UnsortedSegmentSum (the gradient of gather: the embedding lookup is a
// customGrad whose backward is a one-hot matmul) and no Erf (GELU is the tanh
// approximation, in both models); Q, K and V are separate weights, each
// reshaped and transposed at rank 4 (a rank-5 transpose of a packed QKV is
// very slow there). tfjsFlopsPerStep() counts what each formulation
// executes.
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-layers';
import * as tfw from '@tensorflow/tfjs-backend-wasm';
import { createRequire } from 'node:module';
import path from 'node:path';

export const FORMULATIONS = ['plain', 'transposed', 'causal-blocks'];
// Query blocks of the causal-blocks formulation.
const CAUSAL_BLOCKS = 4;

export async function loadTfjsWasm() {
  const require = createRequire(import.meta.url);
  const pkg = path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm'));
  tfw.setWasmPaths(pkg.endsWith('/dist') ? `${pkg}/` : `${pkg}/dist/`);
  tfw.setThreadsCount(1);
  if (!(await tf.setBackend('wasm'))) throw new Error('tfjs wasm backend failed to initialise');
  await tf.ready();
  const simd = await tf.env().getAsync('WASM_HAS_SIMD_SUPPORT');
  return { version: `${tfw.version_wasm}${simd ? '' : ' (no SIMD!)'}`, threads: tfw.getThreadsCount() };
}

// FLOPs tfjs executes per step in a formulation (2 M N K per product;
// forward + the two gradient products of each): the linear layers and head
// as ours, the attention's score and value products (full T x T, or the
// causal blocks' T^2 (n + 1) / 2n for n blocks), and the one-hot product of
// the embedding's gradient.
export function tfjsFlopsPerStep({ layers, hidden: D, heads: H, seq: T, batch: B }, formulation) {
  const V = 256,
    F = 4 * D,
    dh = D / H;
  const n = CAUSAL_BLOCKS;
  const keyRows = formulation === 'causal-blocks' ? (T * T * (n + 1)) / (2 * n) : T * T;
  const layer = 2 * T * (3 * D * D + D * D + F * D + D * F) + 2 * (2 * H * dh * keyRows);
  const forward = layers * layer + 2 * T * V * D;
  return B * 3 * forward + 2 * B * T * V * D;
}

// A trainer of config { layers, hidden, heads, seq, batch, lr, placement }
// in the given formulation; step() runs one Adam step on a fixed batch and
// returns its loss (read back, so the timing includes finishing the work).
export function createTfjsTrainer(config, formulation, seed = 1) {
  if (!FORMULATIONS.includes(formulation)) throw new Error(`unknown formulation ${formulation}`);
  const { layers: L, hidden: D, heads: H, seq: T, batch: B, lr, placement } = config;
  if (T % CAUSAL_BLOCKS !== 0) throw new Error(`seq ${T} is not a multiple of ${CAUSAL_BLOCKS} query blocks`);
  const V = 256,
    F = 4 * D,
    dh = D / H,
    R = B * T,
    eps = 1e-6;
  let s = seed;
  const variable = (make) => {
    const value = make();
    const v = tf.variable(value);
    value.dispose();
    return v;
  };
  const init = (shape) => variable(() => tf.randomNormal(shape, 0, 0.02, 'float32', s++));
  const ones = (n) => variable(() => tf.ones([n]));
  const p = {
    wte: init([V, D]),
    wpe: init([T, D]),
    layers: Array.from({ length: L }, () => ({
      wq: init([D, D]),
      wk: init([D, D]),
      wv: init([D, D]),
      wo: init([D, D]),
      fc: init([D, F]),
      proj: init([F, D]),
      g1: ones(D),
      g2: ones(D),
    })),
    gf: placement === 'pre' ? ones(D) : null,
  };

  // A fixed batch of byte windows (deterministic; the timing does not
  // depend on the data).
  const bytes = Int32Array.from({ length: R + 1 }, (_, i) => (i * 2654435761) >>> 24);
  const tokens = tf.tensor1d(bytes.subarray(0, R), 'int32');
  const targets = tf.tidy(() => tf.oneHot(tf.tensor1d(bytes.subarray(1, R + 1), 'int32'), V));
  const positions = tf.tensor1d(
    Int32Array.from({ length: R }, (_, i) => i % T),
    'int32',
  );
  const mask = tf.tensor2d(
    Float32Array.from({ length: T * T }, (_, i) => (i % T > Math.floor(i / T) ? -1e9 : 0)),
    [T, T],
  );

  // rows (n) gathered from table (N, D); the gradient is a one-hot product.
  const lookup = (table, indices, N) =>
    tf.customGrad((t, save) => {
      save([]);
      return {
        value: tf.gather(t, indices),
        gradFunc: (dy) => tf.matMul(tf.oneHot(indices, N), dy, true, false),
      };
    })(table);

  // x (R, K) times w (K, N).
  const linear =
    formulation === 'plain'
      ? (x, w) => tf.matMul(x, w)
      : (x, w) =>
          tf.customGrad((xi, wi, save) => {
            save([xi, wi]);
            return {
              value: tf.matMul(xi, wi),
              gradFunc: (dy, [xs, ws]) => [tf.matMul(dy, tf.transpose(ws)), tf.matMul(tf.transpose(xs), dy)],
            };
          })(x, w);

  const rmsnorm = (x, g) => tf.mul(tf.mul(x, tf.rsqrt(tf.add(tf.mean(tf.square(x), -1, true), eps))), g);
  const gelu = (x) =>
    tf.mul(
      tf.mul(0.5, x),
      tf.add(1, tf.tanh(tf.mul(Math.sqrt(2 / Math.PI), tf.add(x, tf.mul(0.044715, tf.pow(x, 3)))))),
    );
  const heads = (x) => tf.transpose(tf.reshape(x, [B, T, H, dh]), [0, 2, 1, 3]); // (B, H, T, dh)

  // softmax(q k^T / sqrt(dh) + mask) v for q (B, H, rows, dh) and k, v
  // (B, H, keys, dh); mask (rows, keys).
  const causal = (q, k, v, m) =>
    tf.matMul(tf.softmax(tf.add(tf.mul(tf.matMul(q, k, false, true), 1 / Math.sqrt(dh)), m)), v);
  // The same in query blocks: block b (rows b Tb .. (b + 1) Tb - 1) against
  // keys 0 .. (b + 1) Tb - 1 only, with that corner of the mask.
  const Tb = T / CAUSAL_BLOCKS;
  const blockMasks = Array.from({ length: CAUSAL_BLOCKS }, (_, b) => tf.slice(mask, [b * Tb, 0], [Tb, (b + 1) * Tb]));
  const causalBlocks = (q, k, v) =>
    tf.concat(
      blockMasks.map((m, b) => {
        const keys = (b + 1) * Tb;
        return causal(
          tf.slice(q, [0, 0, b * Tb, 0], [B, H, Tb, dh]),
          tf.slice(k, [0, 0, 0, 0], [B, H, keys, dh]),
          tf.slice(v, [0, 0, 0, 0], [B, H, keys, dh]),
          m,
        );
      }),
      2,
    );

  function attention(x, l) {
    const q = heads(linear(x, l.wq));
    const k = heads(linear(x, l.wk));
    const v = heads(linear(x, l.wv));
    const y = formulation === 'causal-blocks' ? causalBlocks(q, k, v) : causal(q, k, v, mask); // (B, H, T, dh)
    return linear(tf.reshape(tf.transpose(y, [0, 2, 1, 3]), [R, D]), l.wo);
  }
  const mlp = (x, l) => linear(gelu(linear(x, l.fc)), l.proj);

  function loss() {
    let x = tf.add(lookup(p.wte, tokens, V), lookup(p.wpe, positions, T));
    for (const l of p.layers) {
      if (placement === 'pre') {
        x = tf.add(x, attention(rmsnorm(x, l.g1), l));
        x = tf.add(x, mlp(rmsnorm(x, l.g2), l));
      } else {
        x = rmsnorm(tf.add(x, attention(x, l)), l.g1);
        x = rmsnorm(tf.add(x, mlp(x, l)), l.g2);
      }
    }
    if (p.gf !== null) x = rmsnorm(x, p.gf);
    const logits = tf.matMul(x, p.wte, false, true); // tied head
    return tf.neg(tf.mean(tf.sum(tf.mul(targets, tf.logSoftmax(logits)), -1)));
  }

  const optimizer = tf.train.adam(lr, 0.9, 0.999, 1e-8);
  const variables = [p.wte, p.wpe, ...p.layers.flatMap((l) => Object.values(l)), ...(p.gf ? [p.gf] : [])];
  return {
    parameters: variables.reduce((n, v) => n + v.size, 0),
    step() {
      const value = optimizer.minimize(loss, true, variables);
      const out = value.dataSync()[0];
      value.dispose();
      return out;
    },
    dispose() {
      optimizer.dispose();
      for (const v of variables) v.dispose();
      for (const t of [tokens, targets, positions, mask, ...blockMasks]) t.dispose();
    },
  };
}
