// 10,000 calls of every function leave nothing behind. The wasm memory never
// shrinks, so a leak shows as memory growth after warm-up and, more directly,
// as live allocations (Workspace buffers, tensors) or malloc'd bytes above the
// baseline. Tensors are created and freed every round, used in every role
// (x, gain, bias, out, in place), and freed ones are refused.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { loadNormlab } from '../../dist/normlab.mjs';
import { normals } from './reference.mjs';

const CALLS = 10_000;

test(`${CALLS} calls of every function, and of every error, leak nothing`, async () => {
  const nl = await loadNormlab();
  try {
    // Row lengths vary so the workspace keeps resizing within its high-water size.
    const inputs = [4, 37, 256].map((D) => ({ D, x: normals(3 * D, D), gain: normals(D, D + 1, 1, 1) }));
    const calls = [
      ({ D, x, gain }) => nl.rmsnorm(x, { dim: D, gain }),
      ({ D, x, gain }) => nl.layernorm(x, { dim: D, gain, bias: gain }),
      ({ D, x }) => nl.softmax(x, { dim: D, temperature: 0.5 }),
      ({ x }) => nl.rmsnormSteps(x),
      ({ x }) => nl.layernormSteps(x),
      ({ D, x }) => nl.stats(x, { dim: D }),
      ({ D, x }) => nl.distributionStats(nl.softmax(x, { dim: D }), { dim: D }),
      ({ D, x }) => nl.copyRows(x, { dim: D }),
      ({ D, x }) => assert.throws(() => nl.rmsnorm(x, { dim: D, gain: [1] })),
      ({ D, x }) => assert.throws(() => nl.softmax(x.subarray(1), { dim: D })),
      ({ D, x, gain }) => {
        const tx = nl.tensor(x);
        const tg = nl.tensor(gain);
        const ty = nl.tensor(x.length);
        nl.rmsnorm(tx, { dim: D, gain: tg, out: ty });
        nl.layernorm(tx, { dim: D, gain: tg, bias: tg, out: ty });
        nl.softmax(ty, { dim: D, out: ty });
        nl.distributionStats(ty, { dim: D });
        nl.stats(tx, { dim: D });
        nl.copyRows(tx, { dim: D, out: ty });
        nl.rmsnorm(tx, { dim: D, gain }); // a new array out
        nl.layernorm(x, { dim: D, out: ty }); // an array in
        nl.rmsnormSteps(tg);
        tg.free();
        assert.throws(() => nl.rmsnorm(tx, { dim: D, gain: tg }), { message: 'tensor was freed' });
        assert.throws(() => nl.rmsnorm(tx, { dim: D, out: tx.array }), TypeError);
        tx.free();
        ty.free();
      },
    ];
    const round = (i) => calls.forEach((call) => call(inputs[i % inputs.length]));

    for (let i = 0; i < 2 * inputs.length; i++) round(i);
    const heap = nl.heapBytes();
    const live = nl.liveAllocations();
    const bytes = nl.mallocBytes();

    for (let i = 0; i < CALLS; i++) round(i);

    assert.equal(nl.heapBytes(), heap, 'wasm memory grew after warm-up');
    assert.equal(nl.liveAllocations(), live, 'live allocations above the baseline');
    assert.equal(nl.mallocBytes(), bytes, "malloc'd bytes above the baseline");
    nl.tensor(100); // left alive: dispose() frees it
  } finally {
    nl.dispose();
  }
  assert.equal(nl.liveAllocations(), 0, 'dispose() frees the workspace, its buffers and the tensors left');
});
