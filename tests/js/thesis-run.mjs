// One run of the wasm thesis test (trainer-thesis.test.mjs), in a worker
// thread of its own: the runs are independent, so the test trains them on
// every core. workerData: { options, seed }; posts { entropy, final, ratio,
// heldout, layers, lr, diverged }.
import { parentPort, workerData } from 'node:worker_threads';

import { loadNormlab } from '../../dist/normlab.mjs';

const nl = await loadNormlab({ backend: 'simd128' });
const trainer = await nl.createTrainer({ ...workerData.options, seed: workerData.seed });
try {
  const steps = trainer.config.steps;
  const r = trainer.step(steps);
  let tail = 0;
  for (let s = steps - 20; s < steps; s++) tail += r.loss[s];
  parentPort.postMessage({
    entropy: trainer.unigramEntropy,
    final: tail / 20,
    ratio: r.gradFirst[steps - 1] / r.gradLast[steps - 1],
    heldout: trainer.evaluate(),
    layers: trainer.config.layers,
    lr: trainer.config.lr,
    diverged: r.diverged,
  });
} finally {
  trainer.delete();
  nl.dispose();
}
