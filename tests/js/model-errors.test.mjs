// Bad model options, prompts and queries: each throws the documented class
// with the model's exact message, and leaves nothing allocated.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { loadNormlab } from '../../dist/normlab.mjs';
import { assertThrowsExactly } from './assert-throws.mjs';
import {
  LAYERS,
  MODEL_NORM,
  MODEL_PLACEMENT,
  SHARED_OPTION_CASES,
  normPlacementCases,
  optionsName,
} from './option-errors.mjs';

let nl;
let model;
before(async () => {
  nl = await loadNormlab();
  model = nl.createModel({ layers: 3, hidden: 64, heads: 4 });
});
after(() => nl.dispose());

const HIDDEN = 'hidden must be a power of two in 64..1024';
const WHICH = "which must be 'inputNorm', 'postAttentionNorm' or 'finalNorm'";
const TOP_K = 'topK must be an integer in 1..256';

// [options, error class, exact message]
const CREATE_CASES = [
  ...SHARED_OPTION_CASES,
  ...normPlacementCases(MODEL_NORM, MODEL_PLACEMENT),
  // The trainer's own placements are not the model's.
  [{ placement: 'deepnorm' }, RangeError, MODEL_PLACEMENT],
  [{ placement: 'output' }, RangeError, MODEL_PLACEMENT],
  [{ placement: 'sandwich' }, RangeError, MODEL_PLACEMENT],
  [{ norm: 'dyt' }, RangeError, MODEL_NORM],
  [{ layer: 12 }, TypeError, "unknown model option 'layer'"],
  [{ hidden: 32 }, RangeError, HIDDEN],
  [{ hidden: 2048 }, RangeError, HIDDEN],
  [{ hidden: 768 }, RangeError, HIDDEN],
  [{ hidden: 1024n }, TypeError, HIDDEN],
  [{ heads: 3 }, RangeError, 'heads must be a power of two in 1..64 for hidden 1024'],
  [{ heads: 128 }, RangeError, 'heads must be a power of two in 1..64 for hidden 1024'],
  [{ hidden: 64, heads: 32 }, RangeError, 'heads must be a power of two in 1..16 for hidden 64'],
  [{ heads: '16' }, TypeError, 'heads must be a power of two in 1..64 for hidden 1024'],
  // The first bad field is named, in the options' documented order.
  [{ seed: -1, layers: 0 }, RangeError, LAYERS],
  [{ norm: 'x', hidden: 'big' }, TypeError, HIDDEN],
];

// [call, error class, exact message]
const CALL_CASES = [
  [() => model.forward(), TypeError, 'prompt must be a string'],
  [() => model.forward(42), TypeError, 'prompt must be a string'],
  [() => model.forward(new TextEncoder().encode('hi')), TypeError, 'prompt must be a string'],
  [() => model.forward(''), RangeError, 'prompt is empty'],
  [() => model.forward('a'.repeat(65)), RangeError, 'prompt longer than 64 tokens (65 UTF-8 bytes)'],
  [() => model.forward('字'.repeat(22)), RangeError, 'prompt longer than 64 tokens (66 UTF-8 bytes)'],
  [() => model.forward('hi', 5), TypeError, 'options must be an object'],
  [() => model.forward('hi', null), TypeError, 'options must be an object'],
  [() => model.forward('hi', { top_k: 3 }), TypeError, "unknown forward option 'top_k'"],
  [() => model.forward('hi', { topK: 0 }), RangeError, TOP_K],
  [() => model.forward('hi', { topK: 257 }), RangeError, TOP_K],
  [() => model.forward('hi', { topK: 2.5 }), RangeError, TOP_K],
  [() => model.forward('hi', { topK: '5' }), TypeError, TOP_K],
  [() => model.forward('hi', { layers: 0 }), RangeError, 'layers must be an integer in 1..3'],
  [() => model.forward('hi', { layers: 4 }), RangeError, 'layers must be an integer in 1..3'],
  [() => model.forward('hi', { layers: 1.5 }), RangeError, 'layers must be an integer in 1..3'],
  [() => model.forward('hi', { layers: '2' }), TypeError, 'layers must be an integer in 1..3'],
  [() => model.gradients(), TypeError, 'prompt must be a string'],
  [() => model.gradients(''), RangeError, 'prompt is empty'],
  [() => model.gradients('x'), RangeError, 'gradients need a prompt of at least 2 tokens'],
  [() => model.gradients('x'.repeat(100)), RangeError, 'prompt longer than 64 tokens (100 UTF-8 bytes)'],
  [() => model.gradients('hi', 3), TypeError, 'options must be an object'],
  [() => model.gradients('hi', { depth: 2 }), TypeError, "unknown gradients option 'depth'"],
  [() => model.gradients('hi', { layers: 0 }), RangeError, 'layers must be an integer in 1..3'],
  [() => model.gradients('hi', { layers: 4 }), RangeError, 'layers must be an integer in 1..3'],
  [() => model.gradients('hi', { layers: '2' }), TypeError, 'layers must be an integer in 1..3'],
  [() => model.extend(), TypeError, 'layers must be an integer >= 1'],
  [() => model.extend('2'), TypeError, 'layers must be an integer >= 1'],
  [() => model.extend(0), RangeError, 'layers must be an integer >= 1'],
  [() => model.extend(1.5), RangeError, 'layers must be an integer >= 1'],
  [() => model.extend(NaN), RangeError, 'layers must be an integer >= 1'],
  [() => model.gains(0, 'attention'), RangeError, WHICH],
  [() => model.gains(0), TypeError, WHICH],
  [() => model.gains(0, 0), TypeError, WHICH],
  [() => model.gains(3, 'inputNorm'), RangeError, 'layer must be an integer in 0..2'],
  [() => model.gains(-1, 'postAttentionNorm'), RangeError, 'layer must be an integer in 0..2'],
  [() => model.gains(0.5, 'inputNorm'), RangeError, 'layer must be an integer in 0..2'],
  [() => model.gains(NaN, 'inputNorm'), RangeError, 'layer must be an integer in 0..2'],
  [() => model.gains('0', 'inputNorm'), TypeError, 'layer must be an integer in 0..2'],
  [() => model.gains(undefined, 'inputNorm'), TypeError, 'layer must be an integer in 0..2'],
];

describe('bad model options', () => {
  for (const [options, ErrorClass, message] of CREATE_CASES) {
    test(`nl.createModel(${optionsName(options)}) -> ${ErrorClass.name}`, () => {
      assertThrowsExactly(() => nl.createModel(options), ErrorClass, message);
    });
  }
});

describe('bad prompts and queries', () => {
  for (const [call, ErrorClass, message] of CALL_CASES) {
    test(`${call.toString().slice(6)} -> ${ErrorClass.name}`, () => {
      assertThrowsExactly(call, ErrorClass, message);
    });
  }
});

test('a rejected call frees what it made and keeps the last good result', () => {
  model.forward('warm up with a longer prompt than any below');
  const live = nl.liveAllocations();
  const bytes = nl.mallocBytes();
  for (const [options] of CREATE_CASES) assert.throws(() => nl.createModel(options));
  for (const [call] of CALL_CASES) assert.throws(call);
  assert.equal(nl.liveAllocations(), live);
  assert.equal(nl.mallocBytes(), bytes);
  // The model still works after its rejected calls.
  assert.equal(model.forward('still fine').layers, 3);
});
