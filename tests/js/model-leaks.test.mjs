// Repeated model calls leave nothing behind: after warm-up, 1,000 forward
// passes (and gradients, and rejected calls) neither grow the wasm memory nor
// leave live allocations or malloc'd bytes above the baseline; creating and
// deleting models returns to it too.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { loadNormlab } from '../../dist/normlab.mjs';
import { ALL_PROMPTS, BACKENDS } from './model-fixtures.mjs';

// The scalar build runs the same C++ several times slower: fewer passes there.
const FORWARD_PASSES = { simd128: 1000, scalar: 100 };

// Prompts of many lengths 1..64, ASCII and Chinese; the longest first.
const PROMPTS = ['x'.repeat(64), ...ALL_PROMPTS, ...Array.from({ length: 21 }, (_, i) => '字'.repeat(i + 1))];

function usage(nl) {
  return { heap: nl.heapBytes(), live: nl.liveAllocations(), malloc: nl.mallocBytes() };
}

for (const backend of BACKENDS) {
  describe(`model memory (${backend})`, () => {
    test(`${FORWARD_PASSES[backend]} forward passes after warm-up: no growth, no leak`, async () => {
      const nl = await loadNormlab({ backend });
      try {
        const model = nl.createModel();
        const round = (i) => {
          model.forward(PROMPTS[i % PROMPTS.length], { topK: 1 + (i % 256) });
          if (i % 50 === 0) model.gradients(PROMPTS[(i + 1) % PROMPTS.length].padEnd(2, '.'));
          if (i % 100 === 0) assert.throws(() => model.forward(''));
        };
        // Warm-up: every buffer at its high-water size (longest prompt, top-k).
        model.forward(PROMPTS[0], { topK: 256 });
        model.gradients(PROMPTS[0]);
        for (let i = 0; i < PROMPTS.length; i++) round(i);
        const baseline = usage(nl);
        for (let i = 0; i < FORWARD_PASSES[backend]; i++) round(i);
        assert.deepEqual(usage(nl), baseline);
      } finally {
        nl.dispose();
      }
      assert.equal(nl.liveAllocations(), 0, 'dispose() freed the model too');
    });

    test('creating and deleting models returns to the baseline', async () => {
      const nl = await loadNormlab({ backend });
      try {
        const cycle = () => {
          const model = nl.createModel({ layers: 12, placement: 'post' });
          model.forward(PROMPTS[0]);
          model.gradients(PROMPTS[1]);
          model.delete();
        };
        cycle();
        const baseline = usage(nl);
        for (let i = 0; i < 5; i++) cycle();
        assert.deepEqual(usage(nl), baseline);
      } finally {
        nl.dispose();
      }
    });
  });
}
