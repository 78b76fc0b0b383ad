// Wasm-resident tensors (nl.tensor): the same values as the copying API, bit
// for bit, whatever mix of tensors and arrays a call gets; in place; their
// life cycle (free, dispose, Symbol.dispose); every error message; and
// .array across a growth of the wasm memory.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { loadNormlab } from '../../dist/normlab.mjs';
import { assertThrowsExactly } from './assert-throws.mjs';
import { normals } from './reference.mjs';

const same = (got, want, what) => assert.deepEqual(Array.from(got), Array.from(want), what);

for (const backend of ['simd128', 'scalar']) {
  describe(`tensors (${backend})`, () => {
    let nl;
    before(async () => {
      nl = await loadNormlab({ backend });
    });
    after(() => nl.dispose());

    test('nl.tensor(n) is n zeros; nl.tensor(values) a copy of them', () => {
      const z = nl.tensor(5);
      assert.equal(z.length, 5);
      assert.ok(z.array instanceof Float32Array);
      same(z.array, [0, 0, 0, 0, 0]);
      const values = new Float32Array([1.5, -2, 3e38, -Infinity]);
      const a = nl.tensor(values);
      same(a.array, values);
      values[0] = 9; // a copy: the tensor does not follow
      assert.equal(a.array[0], 1.5);
      same(nl.tensor([1, 2, 3]).array, [1, 2, 3]);
      const b = nl.tensor(a); // a tensor's values, in a new tensor
      b.array[1] = 7;
      same(b.array, [1.5, 7, Math.fround(3e38), -Infinity]);
      same(a.array, [1.5, -2, Math.fround(3e38), -Infinity]);
      const empty = nl.tensor(0);
      assert.equal(empty.length, 0);
      assert.equal(empty.array.length, 0);
      for (const t of [z, a, b, empty]) t.free();
    });

    test('.array writes are what the kernels read', () => {
      const t = nl.tensor(4);
      t.array.set([2, 4, 4, 8]);
      same(nl.rmsnorm(t, { eps: 0 }), [0.4, 0.8, 0.8, 1.6].map(Math.fround));
      t.free();
    });

    // One input batch per shape; each op called with arrays only (the
    // copying API, the reference here) and with every mix of tensors.
    const shapes = [
      [3, 37],
      [4, 1024],
      [1, 5],
    ];
    for (const [rows, D] of shapes) {
      test(`${rows}x${D}: tensor calls equal the copying API exactly`, () => {
        const x = normals(rows * D, rows + D);
        const gain = normals(D, D + 1, 1, 1);
        const bias = normals(D, D + 2);
        const tx = nl.tensor(x);
        const tg = nl.tensor(gain);
        const tb = nl.tensor(bias);
        const ty = nl.tensor(x.length);
        nl.layernorm(x, { dim: D, gain, bias }); // the workspace at this shape, with both (T, D) buffers
        const live = nl.liveAllocations();

        const cases = {
          rmsnorm: [
            { dim: D, gain, eps: 1e-5 },
            { dim: D, gain: tg, eps: 1e-5 },
          ],
          layernorm: [
            { dim: D, gain, bias },
            { dim: D, gain: tg, bias: tb },
          ],
          'layernorm (bias only)': [
            { dim: D, bias },
            { dim: D, bias: tb },
          ],
          softmax: [
            { dim: D, temperature: 0.7 },
            { dim: D, temperature: 0.7 },
          ],
          copyRows: [{ dim: D }, { dim: D }],
        };
        for (const [name, [arrays, tensors]] of Object.entries(cases)) {
          const op = nl[name.split(' ')[0]];
          const want = op(x, arrays);
          // x a tensor, result a new array
          same(op(tx, tensors), want, `${name}: x tensor`);
          // x a tensor, out a tensor: out is returned and holds the result
          ty.array.fill(NaN);
          assert.equal(op(tx, { ...tensors, out: ty }), ty, `${name}: returns the out tensor`);
          same(ty.array, want, `${name}: x and out tensors`);
          // x an array, out a tensor
          ty.array.fill(NaN);
          assert.equal(op(x, { ...arrays, out: ty }), ty);
          same(ty.array, want, `${name}: out tensor`);
          // x a tensor, out a Float32Array
          const out = new Float32Array(x.length);
          assert.equal(op(tx, { ...tensors, out }), out);
          same(out, want, `${name}: x tensor, out array`);
          // in place: out is x
          const tz = nl.tensor(x);
          assert.equal(op(tz, { ...tensors, out: tz }), tz);
          same(tz.array, want, `${name}: in place`);
          tz.free();
        }

        same(nl.stats(tx, { dim: D }).variance, nl.stats(x, { dim: D }).variance, 'stats');
        const p = nl.softmax(x, { dim: D });
        const tp = nl.tensor(p);
        assert.deepEqual(nl.distributionStats(tp, { dim: D }), nl.distributionStats(p, { dim: D }));
        tp.free();
        if (rows === 1) {
          assert.deepEqual(nl.rmsnormSteps(tx), nl.rmsnormSteps(x));
          assert.deepEqual(nl.layernormSteps(tx), nl.layernormSteps(x));
        }
        same(tx.array, x, 'x tensor unchanged by calls that did not write it');
        assert.equal(nl.liveAllocations(), live, 'tensor calls allocate nothing');
        for (const t of [tx, tg, tb, ty]) t.free();
      });
    }

    test('softmax in place keeps the special rows right (masked, NaN, +inf)', () => {
      const x = new Float32Array([
        0,
        -Infinity,
        0,
        -Infinity,
        1,
        NaN,
        2,
        3,
        -Infinity,
        -Infinity,
        -Infinity,
        -Infinity,
        Infinity,
        1,
        2,
        3,
      ]);
      const want = nl.softmax(x, { dim: 4 });
      const t = nl.tensor(x);
      nl.softmax(t, { dim: 4, out: t });
      same(t.array, want);
      same(t.array.subarray(0, 4), [0.5, 0, 0.5, 0]);
      assert.ok(t.array.subarray(4, 8).every(Number.isNaN));
      same(t.array.subarray(8), [0, 0, 0, 0, 1, 0, 0, 0]);
      t.free();
    });

    test('free() gives the memory back; a freed tensor refuses every use', () => {
      const live = nl.liveAllocations();
      const bytes = nl.mallocBytes();
      const t = nl.tensor(1000);
      assert.equal(nl.liveAllocations(), live + 1);
      assert.ok(nl.mallocBytes() >= bytes + 4000);
      t.free();
      t.free(); // twice is harmless
      assert.equal(nl.liveAllocations(), live);
      assert.equal(nl.mallocBytes(), bytes);
      assert.equal(t.length, 1000);
      const freed = { name: 'Error', message: 'tensor was freed' };
      const ok = nl.tensor(1000);
      const g = nl.tensor(10);
      assert.throws(() => t.array, freed);
      assert.throws(() => nl.rmsnorm(t, { dim: 10 }), freed);
      assert.throws(() => nl.rmsnorm(ok, { dim: 10, out: t }), freed);
      assert.throws(() => nl.layernorm(ok, { dim: 1000, gain: t }), freed);
      assert.throws(() => nl.softmax(t), freed);
      assert.throws(() => nl.stats(t), freed);
      assert.throws(() => nl.distributionStats(t), freed);
      assert.throws(() => nl.rmsnormSteps(t), freed);
      assert.throws(() => nl.copyRows(ok, { out: t }), freed);
      assert.throws(() => nl.tensor(t), freed);
      g.free();
      assert.throws(() => nl.rmsnorm(ok, { dim: 10, gain: g }), freed);
      ok.free();
      assert.equal(nl.liveAllocations(), live);
    });

    test('Symbol.dispose frees, as `using` would', () => {
      assert.equal(typeof Symbol.dispose, 'symbol', 'Node 20 has Symbol.dispose');
      const live = nl.liveAllocations();
      const t = nl.tensor(8);
      t[Symbol.dispose]();
      assert.equal(nl.liveAllocations(), live);
      assert.throws(() => t.array, { message: 'tensor was freed' });
    });

    test('argument errors name the problem', () => {
      const t8 = nl.tensor(8);
      const t4 = nl.tensor(4);
      const g4 = nl.tensor(4);
      const cases = [
        [() => nl.tensor(-1), RangeError, 'tensor length must be an integer >= 0'],
        [() => nl.tensor(2.5), RangeError, 'tensor length must be an integer >= 0'],
        [() => nl.tensor(NaN), RangeError, 'tensor length must be an integer >= 0'],
        [() => nl.tensor('8'), TypeError, 'tensor() takes a length, a Float32Array, an array of numbers or a tensor'],
        [
          () => nl.tensor(new Float64Array(2)),
          TypeError,
          'tensor() takes a length, a Float32Array, an array of numbers or a tensor',
        ],
        [() => nl.tensor(), TypeError, 'tensor() takes a length, a Float32Array, an array of numbers or a tensor'],
        [() => nl.tensor([1, 'x']), TypeError, 'values[1] is not a number'],
        [() => nl.tensor(2 ** 31), RangeError, 'a tensor of 2147483648 floats does not fit in the wasm memory'],
        [() => nl.tensor(200_000_000), RangeError, 'a tensor of 200000000 floats does not fit in the wasm memory'],
        [() => nl.rmsnorm(t8, { dim: 3 }), RangeError, 'x.length 8 is not a multiple of dim 3'],
        [() => nl.rmsnorm(t8, { dim: 4, out: t4 }), RangeError, 'out.length 4 != x.length 8'],
        [() => nl.rmsnorm(t8, { dim: 4, gain: t8 }), RangeError, 'gain.length 8 != dim 4'],
        [() => nl.layernorm(t8, { dim: 4, bias: t8 }), RangeError, 'bias.length 8 != dim 4'],
        [() => nl.rmsnorm(t4, { gain: g4, out: g4 }), RangeError, 'out cannot be the gain tensor'],
        [() => nl.layernorm(t4, { bias: g4, out: g4 }), RangeError, 'out cannot be the bias tensor'],
        [() => nl.softmax(t8, { out: [0, 0, 0, 0, 0, 0, 0, 0] }), TypeError, 'out must be a Float32Array or a tensor'],
        [
          () => nl.rmsnorm(t8.array),
          TypeError,
          "x is a view of this normlab instance's memory (a tensor's .array): pass the tensor itself, or a copy (.slice())",
        ],
        [
          () => nl.softmax(t8.array.subarray(0, 4)),
          TypeError,
          "x is a view of this normlab instance's memory (a tensor's .array): pass the tensor itself, or a copy (.slice())",
        ],
        [
          () => nl.rmsnorm(t8, { out: t8.array }),
          TypeError,
          "out is a view of this normlab instance's memory (a tensor's .array): pass the tensor itself, or a copy (.slice())",
        ],
        [
          () => nl.rmsnorm(t8, { dim: 4, gain: t4.array }),
          TypeError,
          "gain is a view of this normlab instance's memory (a tensor's .array): pass the tensor itself, or a copy (.slice())",
        ],
        [
          () => nl.stats(t8.array),
          TypeError,
          "x is a view of this normlab instance's memory (a tensor's .array): pass the tensor itself, or a copy (.slice())",
        ],
      ];
      const live = nl.liveAllocations();
      const bytes = nl.mallocBytes();
      for (const [call, type, message] of cases) assertThrowsExactly(call, type, message);
      assert.equal(nl.liveAllocations(), live);
      assert.equal(nl.mallocBytes(), bytes);
      // Copies of a view are fine, and so is a view as the values of a new tensor.
      same(nl.rmsnorm(t8.array.slice()), nl.rmsnorm(t8));
      const copy = nl.tensor(t8.array);
      same(copy.array, t8.array);
      for (const t of [t8, t4, g4, copy]) t.free();
    });

    test("another instance's tensors are refused as arguments, but their values can be copied", async () => {
      const other = await loadNormlab({ backend });
      try {
        const foreign = other.tensor([1, 2, 3, 4]);
        const mine = nl.tensor(4);
        const message = (name) => ({ name: 'Error', message: `${name} is a tensor of another normlab instance` });
        assert.throws(() => nl.rmsnorm(foreign), message('x'));
        assert.throws(() => nl.rmsnorm(mine, { out: foreign }), message('out'));
        assert.throws(() => nl.layernorm(mine, { gain: foreign }), message('gain'));
        assert.throws(() => nl.layernorm(mine, { bias: foreign }), message('bias'));
        assert.throws(() => nl.distributionStats(foreign), message('p'));
        // A view of the other instance's memory is just a Float32Array here.
        same(nl.rmsnorm(foreign.array), other.rmsnorm(foreign));
        const copied = nl.tensor(foreign);
        same(copied.array, [1, 2, 3, 4]);
        copied.free();
        mine.free();
      } finally {
        other.dispose();
      }
    });

    test('dispose() frees every tensor still alive; the instance then refuses new ones', async () => {
      const other = await loadNormlab({ backend });
      const kept = other.tensor([1, 2, 3]);
      other.tensor(100); // never freed by the caller
      other.rmsnorm(kept);
      other.dispose();
      assert.equal(other.liveAllocations(), 0);
      assert.throws(() => kept.array, { message: 'tensor was freed' });
      kept.free(); // harmless
      assert.throws(() => other.tensor(3), { name: 'Error', message: 'this normlab instance has been disposed' });
    });

    test('.array stays valid across a growth of the wasm memory while the tensor lives', () => {
      const D = 1024;
      const x = normals(4 * D, 31);
      const t = nl.tensor(x);
      const y = nl.tensor(x.length);
      const before = t.array;
      const want = nl.rmsnorm(x, { dim: D });
      const heap = nl.heapBytes();
      // 24 MB in and 24 MB out through the copying API, and a 32 MB tensor:
      // the memory grows, which empties every view taken before.
      const big = normals(D * 6000, 32);
      nl.softmax(big, { dim: D });
      const bigTensor = nl.tensor(8_000_000);
      assert.ok(nl.heapBytes() > heap, 'the heap was expected to grow');
      assert.equal(before.length, 0, 'the old view is empty after the growth');
      assert.equal(t.array.length, x.length, '.array is a fresh view');
      same(t.array, x, 'the values survived the growth');
      assert.equal(t.array, t.array, '.array is cached while the memory does not grow');
      assert.equal(nl.rmsnorm(t, { dim: D, out: y }), y);
      same(y.array, want);
      bigTensor.free();
      t.free();
      y.free();
    });

    test('empty tensors give empty results', () => {
      const e = nl.tensor(0);
      assert.equal(nl.rmsnorm(e, { out: e }), e);
      assert.equal(nl.softmax(e).length, 0);
      assert.equal(nl.layernorm(e, { gain: e, bias: e }).length, 0);
      assert.equal(nl.stats(e).mean.length, 0);
      e.free();
    });
  });
}
