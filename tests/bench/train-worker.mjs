// One worker thread of train-pool.mjs: loads normlab's SIMD128 build once,
// then trains each run it is sent to its end and posts what the tools and
// tests keep of it (runSummary). Message in: { id, options }; out: { id,
// summary } or { id, error }.
import { parentPort } from 'node:worker_threads';

import { loadNormlab } from '../../dist/normlab.mjs';
import { runSummary } from './train-summary.mjs';

const nl = await loadNormlab({ backend: 'simd128' });

parentPort.on('message', async ({ id, options }) => {
  let trainer = null;
  try {
    trainer = await nl.createTrainer(options);
    const run = trainer.step(trainer.config.steps);
    parentPort.postMessage({ id, summary: runSummary(trainer, run) });
  } catch (error) {
    parentPort.postMessage({ id, error: error.message });
  } finally {
    trainer?.delete();
  }
});
parentPort.postMessage({ ready: true });
