// TensorFlow.js, WebAssembly backend (SIMD, one thread: tfjs never starts
// threads under Node, and setThreadsCount(1) says so anyway). Softmax is
// tf.softmax; RMSNorm and LayerNorm are composed from ops, as a tfjs user
// writes them. Each call runs inside tf.tidy and reads the result back with
// dataSync, so the timing includes getting the numbers out.
import * as tf from '@tensorflow/tfjs-core';
import * as tfw from '@tensorflow/tfjs-backend-wasm';
import { createRequire } from 'node:module';
import path from 'node:path';

export const id = 'tfjs-wasm';
export const label = 'tfjs-backend-wasm';

export async function load() {
  const require = createRequire(import.meta.url);
  const pkg = path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm'));
  tfw.setWasmPaths(pkg.endsWith('/dist') ? `${pkg}/` : `${pkg}/dist/`);
  tfw.setThreadsCount(1);
  if (!(await tf.setBackend('wasm'))) throw new Error('tfjs wasm backend failed to initialise');
  await tf.ready();
  const simd = await tf.env().getAsync('WASM_HAS_SIMD_SUPPORT');
  const kept = [];
  return {
    version: `${tfw.version_wasm}${simd ? '' : ' (no SIMD!)'}`,
    threads: tfw.getThreadsCount(),
    async prepare(op, x, rows, dim, { gain, bias, rmsEps, lnEps, temperature }) {
      const tx = tf.tensor2d(x, [rows, dim]);
      const tg = tf.tensor1d(gain);
      const tb = tf.tensor1d(bias);
      kept.push(tx, tg, tb);
      // tfjs-core alone has no chained ops (x.mul): functional ops throughout.
      const graph = {
        rmsnorm: () => tf.mul(tf.mul(tx, tf.rsqrt(tf.add(tf.mean(tf.square(tx), -1, true), rmsEps))), tg),
        layernorm: () => {
          const { mean, variance } = tf.moments(tx, -1, true);
          return tf.add(tf.mul(tf.mul(tf.sub(tx, mean), tf.rsqrt(tf.add(variance, lnEps))), tg), tb);
        },
        softmax: () => tf.softmax(temperature === 1 ? tx : tf.div(tx, temperature)),
      }[op];
      return {
        run() {
          const y = tf.tidy(graph);
          const data = y.dataSync();
          y.dispose();
          return data;
        },
        dispose() {
          tx.dispose();
          tg.dispose();
          tb.dispose();
        },
      };
    },
    async close() {
      for (const t of kept) if (!t.isDisposed) t.dispose();
    },
  };
}
