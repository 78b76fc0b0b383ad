// Bad arguments: each one throws the documented error class with the exact
// message, before anything is allocated; empty input gives empty results.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { loadNormlab } from '../../dist/normlab.mjs';
import { assertThrowsExactly } from './assert-throws.mjs';

let nl;
before(async () => {
  nl = await loadNormlab();
});
after(() => nl.dispose());

const x8 = new Float32Array([1, 2, 3, 4, 5, 6, 7, 8]);

// [call, error class, exact message]
const CASES = [
  [() => nl.rmsnorm('1,2,3'), TypeError, 'x must be a Float32Array, an array of numbers or a tensor'],
  [() => nl.rmsnorm(new Float64Array(4)), TypeError, 'x must be a Float32Array, an array of numbers or a tensor'],
  [() => nl.rmsnorm(), TypeError, 'x must be a Float32Array, an array of numbers or a tensor'],
  [() => nl.rmsnorm([1, 2, '3', 4]), TypeError, 'x[2] is not a number'],
  [() => nl.rmsnorm([1, null]), TypeError, 'x[1] is not a number'],
  [() => nl.rmsnorm([1, undefined, 3]), TypeError, 'x[1] is not a number'],
  [() => nl.rmsnorm(new Float32Array(10), { dim: 4 }), RangeError, 'x.length 10 is not a multiple of dim 4'],
  [() => nl.rmsnorm(x8, { dim: 0 }), RangeError, 'dim must be a positive integer'],
  [() => nl.rmsnorm(x8, { dim: -4 }), RangeError, 'dim must be a positive integer'],
  [() => nl.rmsnorm(x8, { dim: 2.5 }), RangeError, 'dim must be a positive integer'],
  [() => nl.rmsnorm(x8, { dim: NaN }), RangeError, 'dim must be a positive integer'],
  [() => nl.rmsnorm(x8, { dim: '4' }), TypeError, 'dim must be a positive integer'],
  [() => nl.rmsnorm(x8, { dim: 4, gain: [1, 1, 1] }), RangeError, 'gain.length 3 != dim 4'],
  [
    () => nl.rmsnorm(x8, { dim: 4, gain: 2 }),
    TypeError,
    'gain must be a Float32Array, an array of numbers or a tensor',
  ],
  [() => nl.rmsnorm(x8, { dim: 4, gain: [1, 1, 'a', 1] }), TypeError, 'gain[2] is not a number'],
  [() => nl.rmsnorm(x8, { eps: -1e-6 }), RangeError, 'eps must be a finite number >= 0'],
  [() => nl.rmsnorm(x8, { eps: NaN }), RangeError, 'eps must be a finite number >= 0'],
  [() => nl.rmsnorm(x8, { eps: Infinity }), RangeError, 'eps must be a finite number >= 0'],
  [() => nl.rmsnorm(x8, { eps: 1e39 }), RangeError, 'eps must be a finite number >= 0'], // Infinity as float32
  [() => nl.rmsnorm(x8, { eps: '1e-6' }), TypeError, 'eps must be a finite number >= 0'],
  [() => nl.rmsnorm(x8, 4), TypeError, 'options must be an object'],
  [() => nl.rmsnorm(x8, null), TypeError, 'options must be an object'],
  [() => nl.layernorm(x8, { dim: 4, bias: [0, 0, 0] }), RangeError, 'bias.length 3 != dim 4'],
  [() => nl.layernorm(x8, { dim: 4, gain: new Float32Array(5) }), RangeError, 'gain.length 5 != dim 4'],
  [
    () => nl.layernorm(x8, { dim: 4, bias: {} }),
    TypeError,
    'bias must be a Float32Array, an array of numbers or a tensor',
  ],
  [() => nl.layernorm(x8, { dim: 3 }), RangeError, 'x.length 8 is not a multiple of dim 3'],
  [() => nl.layernorm(x8, { eps: -1 }), RangeError, 'eps must be a finite number >= 0'],
  [() => nl.softmax(x8, { temperature: 0 }), RangeError, 'temperature must be a finite number > 0'],
  [() => nl.softmax(x8, { temperature: -1 }), RangeError, 'temperature must be a finite number > 0'],
  [() => nl.softmax(x8, { temperature: Infinity }), RangeError, 'temperature must be a finite number > 0'],
  [() => nl.softmax(x8, { temperature: 1e-50 }), RangeError, 'temperature must be a finite number > 0'], // 0 as float32
  [() => nl.softmax(x8, { temperature: 'hot' }), TypeError, 'temperature must be a finite number > 0'],
  [() => nl.softmax({ length: 4 }), TypeError, 'x must be a Float32Array, an array of numbers or a tensor'],
  [() => nl.rmsnormSteps([1, 'x']), TypeError, 'x[1] is not a number'],
  [() => nl.rmsnormSteps([1, 2], { eps: -1 }), RangeError, 'eps must be a finite number >= 0'],
  [() => nl.layernormSteps(new Int32Array(2)), TypeError, 'x must be a Float32Array, an array of numbers or a tensor'],
  [() => nl.stats(x8, { dim: 3 }), RangeError, 'x.length 8 is not a multiple of dim 3'],
  [() => nl.distributionStats(x8, { dim: 3 }), RangeError, 'p.length 8 is not a multiple of dim 3'],
  [() => nl.distributionStats('p'), TypeError, 'p must be a Float32Array, an array of numbers or a tensor'],
  [() => nl.copyRows(x8, { dim: 5 }), RangeError, 'x.length 8 is not a multiple of dim 5'],
];

describe('bad arguments', () => {
  test('each throws its class and exact message, leaving nothing allocated', () => {
    nl.rmsnorm(x8, { dim: 4, gain: [1, 1, 1, 1] }); // buffers at their working size first
    const live = nl.liveAllocations();
    const bytes = nl.mallocBytes();
    for (const [call, type, message] of CASES) assertThrowsExactly(call, type, message);
    assert.equal(nl.liveAllocations(), live);
    assert.equal(nl.mallocBytes(), bytes);
  });

  test('the instance works normally after errors', () => {
    assert.deepEqual(Array.from(nl.rmsnorm([2, 4, 4, 8], { eps: 0 })), [0.4, 0.8, 0.8, 1.6].map(Math.fround));
  });

  test('an input too large for the wasm memory is a RangeError, and nothing stays allocated', () => {
    const live = nl.liveAllocations();
    const bytes = nl.mallocBytes();
    // 80M floats: 320 MiB in and 320 MiB out exceed the 512 MiB memory limit.
    const huge = new Float32Array(80_000_000);
    assert.throws(() => nl.rmsnorm(huge, { dim: 1000 }), {
      name: 'RangeError',
      message: 'x.length 80000000 does not fit in the wasm memory',
    });
    assert.equal(nl.liveAllocations(), live);
    assert.equal(nl.mallocBytes(), bytes);
    assert.deepEqual(Array.from(nl.softmax([0, 0])), [0.5, 0.5]);
  });

  test('loadNormlab rejects an unknown backend', async () => {
    await assert.rejects(loadNormlab({ backend: 'webgpu' }), {
      name: 'RangeError',
      message: "backend must be 'auto', 'simd128' or 'scalar'",
    });
    await assert.rejects(loadNormlab('simd128'), { name: 'TypeError', message: 'options must be an object' });
  });

  test('a disposed instance refuses work; dispose twice is harmless', async () => {
    const other = await loadNormlab({ backend: 'scalar' });
    assert.equal(other.liveAllocations(), 1); // the Workspace; buffers come with the first call
    other.rmsnorm([1, 2]);
    assert.equal(other.liveAllocations(), 10); // and its nine buffers
    other.dispose();
    other.dispose();
    assert.equal(other.liveAllocations(), 0);
    assert.throws(() => other.rmsnorm([1, 2]), { name: 'Error', message: 'this normlab instance has been disposed' });
  });
});

describe('empty input', () => {
  const empty = (v) =>
    assert.ok(v instanceof Float32Array && v.length === 0, `expected an empty Float32Array, got ${v}`);

  test('gives empty results', () => {
    for (const x of [[], new Float32Array(0)]) {
      empty(nl.rmsnorm(x));
      empty(nl.rmsnorm(x, { dim: 4, gain: [1, 1, 1, 1] }));
      empty(nl.layernorm(x, { dim: 8 }));
      empty(nl.softmax(x));
      empty(nl.copyRows(x, { dim: 2 }));
      Object.values(nl.stats(x, { dim: 3 })).forEach(empty);
      Object.values(nl.distributionStats(x)).forEach(empty);
    }
  });

  test('steps of an empty row: empty vectors, NaN means', () => {
    const r = nl.rmsnormSteps([]);
    empty(r.squares);
    empty(r.y);
    assert.ok(Number.isNaN(r.meanSquare) && Number.isNaN(r.rms));
    const l = nl.layernormSteps([]);
    empty(l.centered);
    empty(l.y);
    assert.ok(Number.isNaN(l.mean) && Number.isNaN(l.variance) && Number.isNaN(l.std));
  });

  test('still checks its arguments', () => {
    assert.throws(() => nl.rmsnorm([], { dim: 0 }), { message: 'dim must be a positive integer' });
    assert.throws(() => nl.rmsnorm([], { eps: -1 }), { message: 'eps must be a finite number >= 0' });
    assert.throws(() => nl.softmax([], { temperature: 0 }), { message: 'temperature must be a finite number > 0' });
  });
});
