// The `out` option of rmsnorm, layernorm and softmax: the same values as
// without it, written into and returned as the caller's array (x itself
// allowed), its error messages, and no leaks over many calls.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { loadNormlab } from '../../dist/normlab.mjs';
import { normals } from './reference.mjs';

for (const backend of ['simd128', 'scalar']) {
  describe(`out (${backend})`, () => {
    let nl;
    before(async () => {
      nl = await loadNormlab({ backend });
    });
    after(() => nl.dispose());

    const D = 37;
    const x = normals(3 * D, 7);
    const gain = normals(D, 8, 1, 1);
    const bias = normals(D, 9);
    const ops = {
      rmsnorm: (o) => nl.rmsnorm(x, { dim: D, gain, ...o }),
      layernorm: (o) => nl.layernorm(x, { dim: D, gain, bias, ...o }),
      softmax: (o) => nl.softmax(x, { dim: D, temperature: 0.7, ...o }),
    };

    for (const [name, call] of Object.entries(ops)) {
      test(`${name}: identical values with and without out, and out is returned`, () => {
        const plain = call({});
        const out = new Float32Array(x.length).fill(NaN);
        const y = call({ out });
        assert.equal(y, out);
        assert.deepEqual(Array.from(y), Array.from(plain));
        assert.deepEqual(Array.from(call({ out: null })), Array.from(plain));
      });

      test(`${name}: out may be x itself`, () => {
        const xs = Float32Array.from(x);
        const want = call({});
        const fn = { rmsnorm: nl.rmsnorm, layernorm: nl.layernorm, softmax: nl.softmax }[name];
        const y = fn(xs, {
          dim: D,
          ...(name === 'softmax' ? { temperature: 0.7 } : { gain }),
          ...(name === 'layernorm' ? { bias } : {}),
          out: xs,
        });
        assert.equal(y, xs);
        assert.deepEqual(Array.from(xs), Array.from(want));
      });

      test(`${name}: bad out throws and leaves out untouched`, () => {
        const live = nl.liveAllocations();
        const short = new Float32Array(x.length - 1).fill(5);
        assert.throws(() => call({ out: short }), {
          name: 'RangeError',
          message: `out.length ${x.length - 1} != x.length ${x.length}`,
        });
        assert.ok(short.every((v) => v === 5));
        assert.throws(() => call({ out: new Float64Array(x.length) }), {
          name: 'TypeError',
          message: 'out must be a Float32Array or a tensor',
        });
        assert.throws(() => call({ out: Array.from(x) }), {
          name: 'TypeError',
          message: 'out must be a Float32Array or a tensor',
        });
        assert.equal(nl.liveAllocations(), live);
      });
    }

    test('the exact message of a short out', () => {
      assert.throws(() => nl.rmsnorm([1, 2, 3, 4], { out: new Float32Array(3) }), {
        message: 'out.length 3 != x.length 4',
      });
      assert.throws(() => nl.softmax([1, 2, 3, 4], { dim: 2, out: new Float32Array(5) }), {
        message: 'out.length 5 != x.length 4',
      });
    });

    test('empty input with an empty out returns out', () => {
      const out = new Float32Array(0);
      assert.equal(nl.softmax([], { out }), out);
      assert.equal(nl.rmsnorm(new Float32Array(0), { out }), out);
      assert.throws(() => nl.layernorm([], { out: new Float32Array(1) }), { message: 'out.length 1 != x.length 0' });
    });

    test('results stay right across a wasm memory growth (cached heap view re-taken)', () => {
      const small = new Float32Array([1, 2, 3, 4]);
      const before = Array.from(nl.softmax(small));
      const heap = nl.heapBytes();
      const bigD = 1024;
      const big = normals(bigD * 6000, 11); // 24 MB in and 24 MB out: grows the heap
      const out = new Float32Array(big.length);
      nl.softmax(big, { dim: bigD, out });
      assert.ok(nl.heapBytes() > heap, 'the heap was expected to grow');
      for (const t of [0, 2999, 5999]) {
        let s = 0;
        for (let i = 0; i < bigD; i++) s += out[t * bigD + i];
        assert.ok(Math.abs(s - 1) < 1e-4, `row ${t} sums to ${s}`);
      }
      assert.deepEqual(Array.from(nl.softmax(small)), before);
      assert.deepEqual(Array.from(nl.softmax(small, { out: new Float32Array(4) })), before);
    });

    test('5,000 rounds of out calls leak nothing', () => {
      const sizes = [4, 37, 256].map((d) => ({ d, x: normals(3 * d, d), out: new Float32Array(3 * d) }));
      const round = (i) => {
        const { d, x: xi, out } = sizes[i % sizes.length];
        nl.rmsnorm(xi, { dim: d, out });
        nl.layernorm(xi, { dim: d, out });
        nl.softmax(xi, { dim: d, out });
        assert.throws(() => nl.softmax(xi, { dim: d, out: out.subarray(1) }));
      };
      for (let i = 0; i < 6; i++) round(i);
      const heap = nl.heapBytes();
      const live = nl.liveAllocations();
      const bytes = nl.mallocBytes();
      for (let i = 0; i < 5000; i++) round(i);
      assert.equal(nl.heapBytes(), heap);
      assert.equal(nl.liveAllocations(), live);
      assert.equal(nl.mallocBytes(), bytes);
    });
  });
}
