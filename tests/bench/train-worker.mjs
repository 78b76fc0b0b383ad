// One worker thread of train-pool.mjs: loads normlab's SIMD128 build once,
// then trains each run it is sent to its end and posts what the tools and
// tests keep of it (runSummary) and how long its steps took. Message in:
// { id, options }; out: { id, summary, seconds } or { id, error }.
import { parentPort } from 'node:worker_threads';

import { loadNormlab } from '../../dist/normlab.mjs';
import { runSummary } from './train-summary.mjs';

const nl = await loadNormlab({ backend: 'simd128' });

parentPort.on('message', async ({ id, options }) => {
  let trainer = null;
  try {
    trainer = await nl.createTrainer(options);
    const start = performance.now();
    const run = trainer.step(trainer.config.steps);
    const seconds = (performance.now() - start) / 1000;
    parentPort.postMessage({ id, summary: runSummary(trainer, run), seconds });
  } catch (error) {
    parentPort.postMessage({ id, error: error.message });
  } finally {
    trainer?.delete();
  }
});
parentPort.postMessage({ ready: true });
