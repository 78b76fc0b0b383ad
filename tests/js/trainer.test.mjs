// nl.createTrainer(): the options' exact errors, the config it echoes,
// determinism (same seed, and however the steps are sliced: step(4), four
// step(1), advance() a unit at a time; evaluateFor() in parts against
// evaluate()), saveState()/restoreState() (a run resumed after 30 steps,
// or between advance()'s units, is bit-identical to the run never stopped;
// every refusal's exact message), divergence reported and never thrown,
// generation, delete(), where the memory lives, and the results against the
// module's description of them (src/train/results.h).
// The lab's claims over seeds, in the wasm build, are tests/tables/lab-tables.test.mjs.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';

import createTrainSimd from '../../dist/normlab_train_simd.mjs';
import { loadNormlab } from '../../dist/normlab.mjs';
import { coerceOptions, readBoundary } from '../../wasm/boundary.js';
import { assertRejectsExactly, assertThrowsExactly } from './assert-throws.mjs';
import {
  LAYERS,
  SEED,
  SHARED_OPTION_CASES,
  TRAINER_NORM,
  TRAINER_PLACEMENT,
  normPlacementCases,
  optionsName,
} from './option-errors.mjs';

let nl;
before(async () => {
  nl = await loadNormlab({ backend: 'simd128' });
});
after(() => nl.dispose());

// The options struct a raw module's Trainer takes: these options with every
// other at its default, as createTrainer() fills them (the module's option
// table), the text as UTF-8 bytes.
function rawOptions(boundary, options) {
  const { values } = coerceOptions(boundary.options.trainer, options, 'trainer');
  return { ...values, text: new TextEncoder().encode(values.text) };
}

// A trainer small enough for many steps in a test.
const SMALL = { layers: 2, hidden: 16, heads: 2, seq: 16, batch: 2, steps: 6 };

// The bits of a float32 array, for bit-identical comparisons (NaN included).
const bits = (a) => [...new Uint32Array(Float32Array.from(a).buffer)];

describe('bad options reject with the exact message, before any instance is made', () => {
  const HIDDEN = 'hidden must be a power of two in 8..256';
  const LR = 'lr must be a finite number > 0';
  const INIT_STD = 'initStd must be a number > 0 and <= 1';
  const RESIDUAL_INIT_SCALE = 'residualInitScale must be a number in 0..1';
  const QK_NORM = 'qkNorm must be true or false';
  const TEXT = (min, seq, n) =>
    `text must hold at least ${min} bytes for seq ${seq} (its last 10% is held out), not ${n}`;
  const WARMUP = 'warmup must be an integer in 0..100000';
  const STEPS = 'steps must be an integer in 1..100000';
  const SEQ = 'seq must be an integer in 2..256';
  const BATCH = 'batch must be an integer in 1..64';
  // [options, error class, exact message]
  const CASES = [
    ...SHARED_OPTION_CASES,
    ...normPlacementCases(TRAINER_NORM, TRAINER_PLACEMENT),
    [{ layer: 12 }, TypeError, "unknown trainer option 'layer'"],
    [{ hidden: 4 }, RangeError, HIDDEN],
    [{ hidden: 48 }, RangeError, HIDDEN],
    [{ hidden: 512 }, RangeError, HIDDEN],
    [{ hidden: '32' }, TypeError, HIDDEN],
    [{ heads: 3 }, RangeError, 'heads must be a power of two in 1..8 for hidden 32'],
    [{ heads: 16 }, RangeError, 'heads must be a power of two in 1..8 for hidden 32'],
    [{ hidden: 8, heads: 4 }, RangeError, 'heads must be a power of two in 1..2 for hidden 8'],
    [{ heads: 0 }, RangeError, 'heads must be a power of two in 1..8 for hidden 32'],
    [{ heads: true }, TypeError, 'heads must be a power of two in 1..8 for hidden 32'],
    [{ lr: 0 }, RangeError, LR],
    [{ lr: -3e-3 }, RangeError, LR],
    [{ lr: Infinity }, RangeError, LR],
    [{ lr: NaN }, RangeError, LR],
    [{ lr: '3e-3' }, TypeError, LR],
    [{ initStd: 0 }, RangeError, INIT_STD],
    [{ initStd: -0.02 }, RangeError, INIT_STD],
    [{ initStd: 1.5 }, RangeError, INIT_STD],
    [{ initStd: NaN }, RangeError, INIT_STD],
    [{ initStd: '0.02' }, TypeError, INIT_STD],
    [{ residualInitScale: -0.5 }, RangeError, RESIDUAL_INIT_SCALE],
    [{ residualInitScale: 2 }, RangeError, RESIDUAL_INIT_SCALE],
    [{ residualInitScale: NaN }, RangeError, RESIDUAL_INIT_SCALE],
    [{ residualInitScale: '1' }, TypeError, RESIDUAL_INIT_SCALE],
    // A boolean: any other type, 0 and 1 included, is a TypeError.
    [{ qkNorm: 1 }, TypeError, QK_NORM],
    [{ qkNorm: 'true' }, TypeError, QK_NORM],
    [{ qkNorm: null }, TypeError, QK_NORM],
    [{ warmup: -1 }, RangeError, WARMUP],
    [{ warmup: 100001 }, RangeError, WARMUP],
    [{ warmup: 0.5 }, RangeError, WARMUP],
    [{ warmup: '100' }, TypeError, WARMUP],
    [{ steps: 0 }, RangeError, STEPS],
    [{ steps: 100001 }, RangeError, STEPS],
    [{ steps: [400] }, TypeError, STEPS],
    [{ seq: 1 }, RangeError, SEQ],
    [{ seq: 257 }, RangeError, SEQ],
    [{ seq: '64' }, TypeError, SEQ],
    [{ batch: 0 }, RangeError, BATCH],
    [{ batch: 65 }, RangeError, BATCH],
    [{ batch: {} }, TypeError, BATCH],
    [{ text: 42 }, TypeError, 'text must be a string'],
    [{ text: null }, TypeError, 'text must be a string'],
    [{ text: 'x'.repeat(649) }, RangeError, TEXT(650, 64, 649)],
    // Counted in UTF-8 bytes: 216 three-byte characters are 648 bytes.
    [{ text: '归'.repeat(216) }, RangeError, TEXT(650, 64, 648)],
    [{ seq: 2, text: 'ab'.repeat(14) + 'a' }, RangeError, TEXT(30, 2, 29)],
    // The first bad field is the one named.
    [{ layers: 0, lr: 0 }, RangeError, LAYERS],
    [{ layers: 0, lr: '1' }, RangeError, LAYERS],
  ];
  for (const [options, ErrorClass, message] of CASES) {
    test(optionsName(options), async () => {
      await assertRejectsExactly(nl.createTrainer(options), ErrorClass, message);
    });
  }

  // Every option of the module's table (src/train/options.h) has a case of
  // its own above with a bad value and one with a value of the wrong type;
  // each one's problem, as the module reports it, names that option's field
  // with that message, and boundary.error makes it that error class.
  test("every trainer option has its cases, and each one's problem names its field", async () => {
    const module = await createTrainSimd();
    const boundary = readBoundary(module);
    const { fields } = boundary.description.problems;
    const text = await readFile(new URL('../../web/data/training-text.zh.txt', import.meta.url), 'utf8');
    const alone = (options) =>
      options !== null && typeof options === 'object' && !Array.isArray(options) && Object.keys(options).length === 1;
    for (const row of boundary.options.trainer) {
      const own = CASES.filter(([options]) => alone(options) && row.name in options);
      // A boolean has no bad value of its own type.
      assert.ok(
        row.kind === 'boolean' || own.some(([, ErrorClass]) => ErrorClass === RangeError),
        `a case with a bad ${row.name}`,
      );
      assert.ok(
        own.some(([, ErrorClass]) => ErrorClass === TypeError),
        `a case with a ${row.name} of the wrong type`,
      );
      for (const [options, ErrorClass, message] of own) {
        const { values, wrongType } = coerceOptions(boundary.options.trainer, options, 'trainer', { text });
        // A text of the wrong type is refused in JS, before the module.
        if (wrongType.has('text')) continue;
        values.text = new TextEncoder().encode(values.text);
        const problem = module.checkTrainOptions(values);
        assert.equal(fields[problem.field], row.name, optionsName(options));
        assert.equal(problem.message, message);
        assert.equal(boundary.error(problem, wrongType).constructor, ErrorClass, optionsName(options));
      }
    }
  });

  test('too much memory for a trainer', async () => {
    const huge = { layers: 64, hidden: 256, seq: 256, batch: 64, text: 'x'.repeat(3000) };
    await assert.rejects(nl.createTrainer(huge), (error) => {
      assert.equal(error.constructor, RangeError);
      assert.match(
        error.message,
        /^layers, hidden and seq need \d+ MiB together, more than a trainer may use \(256 MiB\)$/,
      );
      return true;
    });
  });

  test('a rejected trainer leaves nothing in the nl instance', async () => {
    const before = nl.liveAllocations();
    const mallocBefore = nl.mallocBytes();
    await assert.rejects(nl.createTrainer({ lr: 0 }));
    await assert.rejects(nl.createTrainer({ text: 'short' }));
    assert.equal(nl.liveAllocations(), before);
    assert.equal(nl.mallocBytes(), mallocBefore);
  });
});

describe('config', () => {
  test('the defaults are the demonstration config', async () => {
    const trainer = await nl.createTrainer();
    try {
      assert.deepEqual(trainer.config, {
        layers: 24,
        hidden: 32,
        heads: 4,
        norm: 'rmsnorm',
        placement: 'post',
        qkNorm: false,
        eps: Math.fround(1e-6),
        // GPT-2's 0.02 at its width 768, scaled to width 32 as 1 / sqrt(width).
        initStd: Math.fround(0.02 * Math.sqrt(768 / 32)),
        residualInitScale: 1,
        lr: 3e-3,
        warmup: 0,
        steps: 400,
        seed: 1,
        seq: 64,
        batch: 8,
      });
      assert.ok(Object.isFrozen(trainer.config));
      // The committed text's training bytes (the sweep's table says the same).
      assert.ok(Math.abs(trainer.unigramEntropy - 4.25428) < 5e-6, `${trainer.unigramEntropy}`);
      assert.equal(trainer.stepsDone, 0);
    } finally {
      trainer.delete();
    }
  });

  test('every option echoed as resolved', async () => {
    const options = {
      layers: 3,
      hidden: 64,
      heads: 8,
      norm: 'layernorm',
      placement: 'pre',
      qkNorm: true,
      eps: 0.25,
      initStd: 0.125,
      residualInitScale: 0.25,
      lr: 0.01,
      warmup: 7,
      steps: 9,
      seed: 4294967295,
      seq: 8,
      batch: 3,
    };
    const trainer = await nl.createTrainer({ ...options, text: 'normlab '.repeat(20) });
    try {
      assert.deepEqual(trainer.config, options);
      assert.equal(trainer.unigramEntropy, entropyOf('normlab '.repeat(18)));
    } finally {
      trainer.delete();
    }
    const layernorm = await nl.createTrainer({ ...SMALL, norm: 'layernorm' });
    assert.equal(layernorm.config.eps, Math.fround(1e-5), "LayerNorm's default eps");
    assert.equal(layernorm.config.initStd, Math.fround(0.02 * Math.sqrt(768 / 16)), 'the default initStd at width 16');
    layernorm.delete();
  });
});

// Unigram entropy (nats) of a string's UTF-8 bytes.
function entropyOf(s) {
  const bytes = new TextEncoder().encode(s);
  const counts = new Map();
  for (const b of bytes) counts.set(b, (counts.get(b) ?? 0) + 1);
  let h = 0;
  for (const c of counts.values()) h -= (c / bytes.length) * Math.log(c / bytes.length);
  return h;
}

describe('residualInitScale', () => {
  // Pre-norm, so the stream is the sum of what the branches add.
  const PRE = { ...SMALL, placement: 'pre' };

  test('1 is the default, bit for bit; another scale starts elsewhere', async () => {
    const [plain, one, half] = await Promise.all(
      [PRE, { ...PRE, residualInitScale: 1 }, { ...PRE, residualInitScale: 0.5 }].map((o) => nl.createTrainer(o)),
    );
    try {
      const [a, b, c] = [plain, one, half].map((t) => t.step(2));
      for (const key of ['loss', 'gradFirst', 'gradLast', 'updateFirst', 'updateLast'])
        assert.deepEqual(bits(b[key]), bits(a[key]), key);
      assert.notDeepEqual(bits(c.loss), bits(a.loss));
      assert.equal(half.config.residualInitScale, 0.5);
    } finally {
      for (const t of [plain, one, half]) t.delete();
    }
  });

  // It scales exactly the matrices whose output joins the stream: at 0
  // every branch adds zero, so the stream leaves each layer as it entered
  // (the same length at every point, to the bit); at 1 it grows.
  test('at 0 no branch adds to the stream at step 0', async () => {
    const [zero, plain] = await Promise.all(
      [
        { ...PRE, layers: 4, residualInitScale: 0 },
        { ...PRE, layers: 4 },
      ].map((o) => nl.createTrainer(o)),
    );
    try {
      const stream = zero.layerNorms().residual;
      assert.equal(stream.length, 5);
      assert.deepEqual(bits(stream), bits(new Array(5).fill(stream[0])));
      const grown = plain.layerNorms().residual;
      assert.equal(grown[0], stream[0], 'the same embeddings');
      assert.ok(grown[4] !== grown[0], `${grown}`);
    } finally {
      zero.delete();
      plain.delete();
    }
  });
});

describe('qkNorm', () => {
  // Large weights: without QK-norm the logits run far past sqrt(head size).
  const LARGE = { ...SMALL, placement: 'pre', initStd: 1 };

  test('off by default, bit for bit; on, every logit within sqrt(head size) at the start', async () => {
    const [plain, off, on] = await Promise.all(
      [LARGE, { ...LARGE, qkNorm: false }, { ...LARGE, qkNorm: true }].map((o) => nl.createTrainer(o)),
    );
    try {
      const [a, b, c] = [plain, off, on].map((t) => t.step(1));
      for (const key of ['loss', 'gradFirst', 'gradLast', 'maxLogit', 'streamNorm'])
        assert.deepEqual(bits(b[key]), bits(a[key]), key);
      assert.equal(on.config.qkNorm, true);
      assert.equal(plain.config.qkNorm, false);
      // Unit gains: a normalized head vector has length sqrt(head size) = sqrt(8).
      const bound = Math.sqrt(SMALL.hidden / SMALL.heads);
      assert.ok(
        c.maxLogit.every((v) => v <= bound * (1 + 1e-6) && v > bound / 2),
        `${c.maxLogit}`,
      );
      assert.ok(
        a.maxLogit.every((v) => v > 2 * bound),
        `${a.maxLogit}`,
      );
    } finally {
      for (const t of [plain, off, on]) t.delete();
    }
  });

  test("advance() a unit at a time gives step()'s bits, and a saved run resumes", async () => {
    const options = { ...SMALL, qkNorm: true };
    const [whole, units, resumed] = await Promise.all([0, 1, 2].map(() => nl.createTrainer(options)));
    try {
      const r = whole.step(3);
      const sliced = { loss: [], maxLogit: [], streamNorm: [] };
      while (units.stepsDone < 3) {
        const run = units.advance(0);
        for (const key of Object.keys(sliced)) sliced[key].push(...run[key]);
      }
      for (const key of Object.keys(sliced)) assert.deepEqual(bits(sliced[key]), bits(r[key]), key);
      resumed.restoreState(units.saveState());
      assert.deepEqual(bits(resumed.step(2).loss), bits(whole.step(2).loss));
      const plain = await nl.createTrainer(SMALL);
      assertThrowsExactly(
        () => plain.restoreState(whole.saveState()),
        RangeError,
        'state was saved by a trainer with qkNorm true, this one has false',
      );
      plain.delete();
    } finally {
      for (const t of [whole, units, resumed]) t.delete();
    }
  });
});

describe('the variants: each echoed, trained, and sliced bit for bit', () => {
  // The options beyond pre- and post-norm (src/train/options.h).
  const VARIANTS = [
    { placement: 'deepnorm' },
    { placement: 'deepnorm', norm: 'layernorm', qkNorm: true },
    { placement: 'output' },
    { placement: 'sandwich', norm: 'layernorm' },
    { norm: 'dyt' },
    { placement: 'pre', norm: 'dyt', qkNorm: true },
  ];
  for (const variant of VARIANTS) {
    test(optionsName(variant), async () => {
      const options = { ...SMALL, ...variant };
      const [whole, units] = await Promise.all([0, 1].map(() => nl.createTrainer(options)));
      try {
        for (const [key, value] of Object.entries(variant)) assert.equal(whole.config[key], value, key);
        const r = whole.step(3);
        assert.ok(r.loss.every(Number.isFinite) && !r.diverged, `${r.loss}`);
        const sliced = { loss: [], gradFirst: [], maxLogit: [], streamNorm: [] };
        while (units.stepsDone < 3) {
          const run = units.advance(0);
          for (const key of Object.keys(sliced)) sliced[key].push(...run[key]);
        }
        for (const key of Object.keys(sliced)) assert.deepEqual(bits(sliced[key]), bits(r[key]), key);
      } finally {
        whole.delete();
        units.delete();
      }
    });
  }
});

describe('determinism', () => {
  test('the same seed twice: bit-identical; another seed: not', async () => {
    const [a, b, c] = await Promise.all([SMALL, SMALL, { ...SMALL, seed: 2 }].map((o) => nl.createTrainer(o)));
    try {
      const ra = a.step(4);
      const rb = b.step(4);
      for (const key of ['loss', 'gradFirst', 'gradLast', 'updateFirst', 'updateLast', 'lr'])
        assert.deepEqual(bits(ra[key]), bits(rb[key]), key);
      assert.equal(a.evaluate(), b.evaluate());
      assert.notDeepEqual(bits(c.step(4).loss), bits(ra.loss));
      // A fresh model's logits are the normalized stream (length sqrt(D))
      // times byte rows of std s: each about N(0, D s^2), so its loss is
      // about ln 256 + D s^2 / 2 (5.545 + 0.155 at D 16).
      const { hidden, initStd } = a.config;
      const expected = Math.log(256) + (hidden * initStd ** 2) / 2;
      assert.ok(Math.abs(ra.loss[0] - expected) < 0.05, `${ra.loss[0]} against ${expected}`);
      assert.ok(ra.loss.every(Number.isFinite) && ra.gradFirst.every((g) => g > 0) && ra.gradLast.every((g) => g > 0));
    } finally {
      for (const t of [a, b, c]) t.delete();
    }
  });

  test('step(4), four step(1) and advance() a unit at a time give the same bits', async () => {
    const options = { ...SMALL, warmup: 3 };
    const [whole, single, units] = await Promise.all([0, 1, 2].map(() => nl.createTrainer(options)));
    try {
      const r = whole.step(4);
      const { firstStep, stepsDone, unitsDone, diverged } = r;
      assert.deepEqual(
        { firstStep, stepsDone, unitsDone, diverged },
        { firstStep: 0, stepsDone: 4, unitsDone: 0, diverged: false },
      );
      // Warmup: lr rises linearly over 3 steps, then stays.
      assert.deepEqual(bits(r.lr), bits([1e-3, 2e-3, 3e-3, 3e-3]));
      const ones = [0, 1, 2, 3].map(() => single.step(1));
      assert.deepEqual(
        ones.map((o) => o.firstStep),
        [0, 1, 2, 3],
      );

      // advance(0) runs exactly one unit: units per step = batch x (layers
      // forward + head + layers backward) + Adam's update.
      const perStep = 2 * (2 + 1 + 2) + 1;
      const sliced = [];
      const slicedProbes = { maxLogit: [], streamNorm: [] };
      let calls = 0;
      while (units.stepsDone < 4) {
        const run = units.advance(0);
        calls++;
        assert.equal(run.unitsPerStep, perStep);
        assert.ok(run.loss.length <= 1);
        for (let k = 0; k < run.loss.length; k++) {
          sliced.push({ loss: run.loss[k], gradFirst: run.gradFirst[k], gradLast: run.gradLast[k] });
          slicedProbes.maxLogit.push(...run.maxLogit);
          slicedProbes.streamNorm.push(...run.streamNorm);
        }
        if (run.loss.length === 0) assert.equal(run.unitsDone, calls % perStep);
      }
      assert.equal(calls, 4 * perStep);
      for (const key of ['loss', 'gradFirst', 'gradLast']) {
        assert.deepEqual(bits(ones.map((o) => o[key][0])), bits(r[key]), `four step(1): ${key}`);
        assert.deepEqual(bits(sliced.map((s) => s[key])), bits(r[key]), `advance(0): ${key}`);
      }
      for (const key of ['maxLogit', 'streamNorm']) {
        assert.deepEqual(bits(ones.flatMap((o) => [...o[key]])), bits(r[key]), `four step(1): ${key}`);
        assert.deepEqual(bits(slicedProbes[key]), bits(r[key]), `advance(0): ${key}`);
      }
      // Per step, one value per layer (2) and per stream point (3).
      assert.equal(r.maxLogit.length, 4 * 2);
      assert.equal(r.streamNorm.length, 4 * 3);
      assert.ok(r.maxLogit.every((v) => v > 0) && r.streamNorm.every((v) => v > 0));
      assert.equal(single.evaluate(), whole.evaluate());
      assert.equal(units.evaluate(), whole.evaluate());

      // Slices cut by a real time budget, wherever it ends.
      const budgeted = await nl.createTrainer(options);
      const parts = [];
      while (budgeted.stepsDone < 4) {
        const run = budgeted.advance(1);
        for (let k = 0; k < run.loss.length && parts.length < 4; k++) parts.push(run.loss[k]);
      }
      assert.deepEqual(bits(parts), bits(r.loss), 'advance(1)');
      budgeted.delete();
      // evaluate() between two units of a step leaves the step's bits alone.
      units.advance(0);
      units.evaluate();
      whole.evaluate();
      const next = units.step(1);
      assert.deepEqual(bits(next.loss), bits(whole.step(1).loss));
    } finally {
      for (const t of [whole, single, units]) t.delete();
    }
  });

  test('advance(budgetMs) stops at the planned steps, and does nothing after them', async () => {
    const trainer = await nl.createTrainer(SMALL);
    try {
      const run = trainer.advance(60000);
      assert.equal(run.loss.length, SMALL.steps);
      assert.equal(run.stepsDone, SMALL.steps);
      const after = trainer.advance(60000);
      assert.deepEqual([after.loss.length, after.firstStep, after.stepsDone], [0, SMALL.steps, SMALL.steps]);
      // step() goes on past them.
      assert.equal(trainer.step(2).stepsDone, SMALL.steps + 2);
    } finally {
      trainer.delete();
    }
  });
});

describe('saveState() and restoreState(): a run resumed bit for bit', () => {
  const KEYS = ['loss', 'gradFirst', 'gradLast', 'updateFirst', 'updateLast', 'lr'];
  // 40 steps of warmup: the state saved after 30 is mid-warmup.
  const OPTIONS = { ...SMALL, steps: 50, warmup: 40 };

  for (const placement of ['pre', 'post']) {
    test(`${placement}-norm: step(30), saveState, a new trainer restores, step(20) = step(50)`, async () => {
      const options = { ...OPTIONS, placement };
      const [whole, first, resumed] = await Promise.all([0, 1, 2].map(() => nl.createTrainer(options)));
      try {
        const all = whole.step(50);
        const head = first.step(30);
        const state = first.saveState();
        assert.ok(state instanceof Uint8Array);
        assert.equal(state.byteOffset, 0);
        assert.equal(state.buffer.byteLength, state.length, 'a copy, not a view of wasm memory');
        assert.deepEqual(first.saveState(), state, 'saving again gives the same bytes');
        resumed.restoreState(state);
        assert.equal(resumed.stepsDone, 30);
        const tail = resumed.step(20);
        assert.deepEqual([tail.firstStep, tail.stepsDone, tail.diverged], [30, 50, false]);
        for (const key of KEYS) {
          assert.deepEqual(bits(head[key]), bits(all[key].subarray(0, 30)), `first 30: ${key}`);
          assert.deepEqual(bits(tail[key]), bits(all[key].subarray(30)), `restored, 20 more: ${key}`);
        }
        // Inside the warmup when saved: the lr still rose after the restore.
        assert.deepEqual(bits(tail.lr.subarray(0, 2)), bits([3e-3 * (31 / 40), 3e-3 * (32 / 40)]));
        assert.equal(resumed.evaluate(), whole.evaluate());
        // Adam's moments too: the two states after 50 steps are the same bytes.
        assert.deepEqual(resumed.saveState(), whole.saveState());
        // A copy: changing it changes neither the trainer nor a later save.
        state.fill(0);
        assert.notDeepEqual(first.saveState(), state);
      } finally {
        for (const t of [whole, first, resumed]) t.delete();
      }
    });
  }

  test('advance()-sliced runs: refused part-way through a step, restored between steps', async () => {
    const [whole, sliced, resumed] = await Promise.all([0, 1, 2].map(() => nl.createTrainer(OPTIONS)));
    try {
      const all = whole.step(6);
      const perStep = 2 * (2 + 1 + 2) + 1;
      // Part-way through a step every unit refuses with its count; at the
      // step's end the state is saved.
      let state = null;
      while (state === null) {
        const run = sliced.advance(0);
        if (run.unitsDone === 0 && run.stepsDone === 3) state = sliced.saveState();
        else if (run.unitsDone !== 0) {
          assertThrowsExactly(
            () => sliced.saveState(),
            Error,
            `a step is partly done (${run.unitsDone} of ${perStep} units): save between steps`,
          );
        }
      }
      // A trainer part-way through its first step restores it: that
      // step's units are dropped, and advance() goes on from step 3.
      resumed.advance(0);
      resumed.advance(0);
      resumed.restoreState(state);
      assert.equal(resumed.stepsDone, 3);
      const tail = [];
      while (resumed.stepsDone < 6) {
        const run = resumed.advance(0);
        assert.ok(run.unitsDone < perStep);
        tail.push(...run.loss);
      }
      assert.deepEqual(bits(tail), bits(all.loss.subarray(3)));
      assert.deepEqual(resumed.saveState(), whole.saveState());
      // The bytes in a view of a larger buffer restore the same.
      const big = new Uint8Array(state.length + 8);
      big.set(state, 5);
      resumed.restoreState(big.subarray(5, 5 + state.length));
      assert.equal(resumed.stepsDone, 3);
      assert.deepEqual(bits(resumed.step(3).gradFirst), bits(all.gradFirst.subarray(3)));
    } finally {
      for (const t of [whole, sliced, resumed]) t.delete();
    }
  });

  test('restoreState() refuses with the exact message and changes nothing', async () => {
    const trainer = await nl.createTrainer(OPTIONS);
    const others = await Promise.all(
      [{ layers: 3 }, { lr: 1e-3 }, { placement: 'pre' }, { norm: 'layernorm' }, { text: 'ab'.repeat(200) }].map((o) =>
        nl.createTrainer({ ...OPTIONS, ...o }),
      ),
    );
    const textBytes = (await readFile(new URL('../../web/data/training-text.zh.txt', import.meta.url))).length;
    try {
      trainer.step(2);
      const state = trainer.saveState();
      const before = trainer.saveState();
      const n = state.length;
      const badMagic = state.slice();
      badMagic[0] = 0x58;
      const badVersion = state.slice();
      badVersion[8] = 1;
      const longer = new Uint8Array(n + 1);
      longer.set(state);
      const TYPE = 'state must be a Uint8Array';
      const cases = [
        [undefined, TypeError, TYPE],
        ['state', TypeError, TYPE],
        [[...state], TypeError, TYPE],
        [state.buffer, TypeError, TYPE],
        [new Int8Array(state.buffer), TypeError, TYPE],
        [new Uint8Array(0), RangeError, 'state must hold at least 124 bytes (its header), not 0'],
        [state.subarray(0, 123), RangeError, 'state must hold at least 124 bytes (its header), not 123'],
        [badMagic, RangeError, "state is not a normlab trainer state (it does not begin with 'NLTRAIN')"],
        [badVersion, RangeError, 'state has format version 1, this trainer reads version 2'],
        [state.subarray(0, n - 1), RangeError, `state must be ${n} bytes for this trainer, not ${n - 1}`],
        [longer, RangeError, `state must be ${n} bytes for this trainer, not ${n + 1}`],
        [others[0].saveState(), RangeError, 'state was saved by a trainer with layers 3, this one has 2'],
        [others[1].saveState(), RangeError, 'state was saved by a trainer with lr 0.001, this one has 0.003'],
        [others[2].saveState(), RangeError, "state was saved by a trainer with placement 'pre', this one has 'post'"],
        [
          others[3].saveState(),
          RangeError,
          "state was saved by a trainer with norm 'layernorm', this one has 'rmsnorm'",
        ],
        [
          others[4].saveState(),
          RangeError,
          `state was saved by a trainer with a text of 400 bytes, this one has ${textBytes}`,
        ],
      ];
      for (const [bytes, ErrorClass, message] of cases) {
        assertThrowsExactly(() => trainer.restoreState(bytes), ErrorClass, message);
        assert.deepEqual(trainer.saveState(), before, `unchanged after: ${message}`);
      }
      assert.equal(trainer.stepsDone, 2);
      // steps, the run's plan, need not match: a longer run resumes.
      const longerRun = await nl.createTrainer({ ...OPTIONS, steps: 500 });
      longerRun.restoreState(state);
      assert.equal(longerRun.stepsDone, 2);
      longerRun.delete();
      trainer.delete();
      assertThrowsExactly(() => trainer.saveState(), Error, 'trainer was deleted');
      assertThrowsExactly(() => trainer.restoreState(state), Error, 'trainer was deleted');
    } finally {
      for (const t of [trainer, ...others]) t.delete();
    }
  });
});

test('evaluateFor(budgetMs): the held-out loss in parts, bit-identical to evaluate(); training restarts it', async () => {
  const trainer = await nl.createTrainer(SMALL);
  try {
    trainer.step(2);
    const whole = trainer.evaluate();
    // budget 0: one window per call.
    const parts = [];
    let r;
    do {
      r = trainer.evaluateFor(0);
      parts.push(r);
    } while (!r.done);
    const windows = r.windows;
    // (held-out bytes - 1) / seq windows of the default text's last tenth
    // (the split holds out its last floor(bytes / 10), text.h).
    const bytes = (await readFile(new URL('../../web/data/training-text.zh.txt', import.meta.url))).length;
    const heldout = Math.floor(bytes / 10);
    assert.equal(windows, Math.floor((heldout - 1) / SMALL.seq));
    assert.equal(parts.length, windows);
    assert.deepEqual(
      parts.slice(0, -1).map((p) => p.windowsDone),
      [...Array(windows - 1).keys()].map((k) => k + 1),
    );
    assert.ok(parts.slice(0, -1).every((p) => !p.done && Number.isNaN(p.loss)));
    assert.equal(r.loss, whole);
    // A unit of training between two parts starts the evaluation over: one
    // unit (layer 0's forward; the weights stay), then a whole step.
    const restarted = (train) => {
      trainer.evaluateFor(0);
      train();
      let calls = 0;
      do {
        r = trainer.evaluateFor(0);
        calls++;
      } while (!r.done);
      assert.equal(calls, windows);
      return r.loss;
    };
    assert.equal(
      restarted(() => trainer.advance(0)),
      whole,
    );
    const after = restarted(() => trainer.step(1));
    assert.equal(after, trainer.evaluate());
    assert.notEqual(after, whole);
    assert.deepEqual(trainer.evaluateFor(60000), { done: true, loss: r.loss, windowsDone: windows, windows });
    assertThrowsExactly(() => trainer.evaluateFor(-1), RangeError, 'budgetMs must be a finite number >= 0');
    assertThrowsExactly(() => trainer.evaluateFor('5'), TypeError, 'budgetMs must be a finite number >= 0');
  } finally {
    trainer.delete();
  }
  assertThrowsExactly(() => trainer.evaluateFor(5), Error, 'trainer was deleted');
});

test('a diverging run is reported in the result, never thrown', async () => {
  // Without norms nothing bounds the stream: at lr 100 it overflows within
  // a few steps. (With RMSNorm even lr 1e4 keeps every loss finite.)
  const trainer = await nl.createTrainer({ ...SMALL, norm: 'none', lr: 100 });
  try {
    const run = trainer.step(10);
    assert.equal(run.diverged, true);
    const first = run.loss.findIndex((l) => !Number.isFinite(l));
    assert.ok(first > 0, `the first step is finite, a later one is not (${run.loss})`);
    assert.ok(run.loss.subarray(first + 1).every(Number.isNaN), 'every later step reports NaN');
    assert.ok(run.gradFirst.subarray(first + 1).every(Number.isNaN));
    // Once diverged, advance() runs nothing and step() reports NaN at once.
    assert.equal(trainer.advance(1000).loss.length, 0);
    const later = trainer.step(2);
    assert.equal(later.diverged, true);
    assert.ok(later.loss.every(Number.isNaN));
    assert.equal(typeof trainer.evaluate(), 'number');
    assert.equal(typeof trainer.generate('a', 3, { temperature: 0 }), 'string');
  } finally {
    trainer.delete();
  }
});

describe('generate', () => {
  let trainer;
  before(async () => {
    trainer = await nl.createTrainer({ ...SMALL, text: 'abcabcabd '.repeat(30) });
    trainer.step(6);
  });
  after(() => trainer.delete());

  test('greedy is deterministic; sampling is deterministic per seed', () => {
    const greedy = trainer.generate('abc', 40, { temperature: 0 });
    assert.equal(
      trainer.generate('abc', 40, { temperature: 0, seed: 9 }),
      greedy,
      'the seed does not matter at temperature 0',
    );
    let part;
    do part = trainer.generateFor('abc', 40, { temperature: 0 }, 60000);
    while (!part.done);
    assert.equal(part.utf8.length, 40, '40 bytes');
    assert.equal(new TextDecoder().decode(part.utf8), greedy);
    const a = trainer.generate('abc', 40, { temperature: 1, seed: 3 });
    assert.equal(trainer.generate('abc', 40, { temperature: 1, seed: 3 }), a);
    assert.notEqual(trainer.generate('abc', 40, { temperature: 1, seed: 4 }), a);
    assert.equal(trainer.generate('abc', 0), '');
    assert.equal(trainer.generate('', 5, { temperature: 0 }).length > 0, true);
  });

  test('bad arguments throw the exact message', () => {
    const N = 'nBytes must be an integer in 0..100000';
    const T = 'temperature must be a number in 0..100';
    const cases = [
      [() => trainer.generate(5, 3), TypeError, 'prompt must be a string'],
      [() => trainer.generate('a', -1), RangeError, N],
      [() => trainer.generate('a', 1.5), RangeError, N],
      [() => trainer.generate('a', 100001), RangeError, N],
      [() => trainer.generate('a'), TypeError, N],
      [() => trainer.generate('a', '3'), TypeError, N],
      [() => trainer.generate('a', 3, { temperature: -0.1 }), RangeError, T],
      [() => trainer.generate('a', 3, { temperature: NaN }), RangeError, T],
      [() => trainer.generate('a', 3, { temperature: 101 }), RangeError, T],
      [() => trainer.generate('a', 3, { temperature: '1' }), TypeError, T],
      [() => trainer.generate('a', 3, { seed: -1 }), RangeError, SEED],
      [() => trainer.generate('a', 3, { seed: 0.5 }), RangeError, SEED],
      [() => trainer.generate('a', 3, { seed: null }), TypeError, SEED],
      [() => trainer.generate('a', 3, { temp: 1 }), TypeError, "unknown generate option 'temp'"],
      [() => trainer.generate('a', 3, 1), TypeError, 'options must be an object'],
    ];
    for (const [call, ErrorClass, message] of cases) assertThrowsExactly(call, ErrorClass, message);
  });

  test("generateFor(): a byte per call at budget 0, generate()'s text; other arguments or training start it over", () => {
    // Several-byte characters: the text is decoded once, whole.
    const prompt = '归一化 abc';
    for (const options of [{ temperature: 0 }, { temperature: 1, seed: 3 }, undefined]) {
      const whole = trainer.generate(prompt, 25, options);
      const parts = [];
      let r;
      do {
        r = trainer.generateFor(prompt, 25, options, 0);
        parts.push(r.bytesDone);
        if (!r.done) assert.equal(r.text, '');
      } while (!r.done);
      assert.deepEqual(
        parts,
        Array.from({ length: 25 }, (_, i) => i + 1),
      );
      assert.equal(r.text, whole);
      assert.equal(r.bytes, 25);
    }
    // Other arguments halfway start over: the second sampling's bytes all come.
    trainer.generateFor('abc', 10, { seed: 1 }, 0);
    trainer.generateFor('abc', 10, { seed: 1 }, 0);
    assert.equal(trainer.generateFor('abc', 10, { seed: 2 }, 0).bytesDone, 1);
    // A unit of training halfway: the model changed, the bytes start over and
    // are the trained model's.
    for (let i = 0; i < 4; i++) trainer.generateFor('abc', 10, { seed: 2 }, 0);
    trainer.step(1);
    assert.equal(trainer.generateFor('abc', 10, { seed: 2 }, 0).bytesDone, 1);
    let r;
    do r = trainer.generateFor('abc', 10, { seed: 2 }, 0);
    while (!r.done);
    assert.equal(r.text, trainer.generate('abc', 10, { seed: 2 }));
    assert.deepEqual(trainer.generateFor('abc', 0, {}, 5), {
      done: true,
      text: '',
      bytesDone: 0,
      bytes: 0,
      utf8: new Uint8Array(0),
    });
    assert.deepEqual(trainer.generateFor('abc', 10, { seed: 2 }, 60000), {
      done: true,
      text: r.text,
      bytesDone: 10,
      bytes: 10,
      utf8: r.utf8,
    });
    assertThrowsExactly(
      () => trainer.generateFor('abc', 10, {}, -1),
      RangeError,
      'budgetMs must be a finite number >= 0',
    );
    assertThrowsExactly(() => trainer.generateFor('abc', 10, {}), TypeError, 'budgetMs must be a finite number >= 0');
    assertThrowsExactly(
      () => trainer.generateFor('abc', -1, {}, 5),
      RangeError,
      'nBytes must be an integer in 0..100000',
    );
    assertThrowsExactly(() => trainer.generateFor(5, 3, {}, 5), TypeError, 'prompt must be a string');
  });
});

test('step() and advance() arguments', async () => {
  const trainer = await nl.createTrainer(SMALL);
  try {
    const N = 'n must be an integer in 1..100000';
    const B = 'budgetMs must be a finite number >= 0';
    assertThrowsExactly(() => trainer.step(0), RangeError, N);
    assertThrowsExactly(() => trainer.step(1.5), RangeError, N);
    assertThrowsExactly(() => trainer.step(100001), RangeError, N);
    assertThrowsExactly(() => trainer.step('1'), TypeError, N);
    assertThrowsExactly(() => trainer.advance(), TypeError, B);
    assertThrowsExactly(() => trainer.advance(-1), RangeError, B);
    assertThrowsExactly(() => trainer.advance(Infinity), RangeError, B);
    assert.equal(trainer.stepsDone, 0, 'nothing ran');
  } finally {
    trainer.delete();
  }
});

test('delete(): every later use throws a clear error; twice is safe; dispose() deletes trainers', async () => {
  const trainer = await nl.createTrainer(SMALL);
  trainer.step(1);
  trainer.delete();
  trainer.delete();
  const uses = [
    () => trainer.step(1),
    () => trainer.advance(5),
    () => trainer.evaluate(),
    () => trainer.generate('a', 1),
    () => trainer.heapBytes,
    () => trainer.stepsDone,
  ];
  for (const use of uses) {
    assertThrowsExactly(use, Error, 'trainer was deleted');
  }
  assert.equal(trainer.config.layers, 2, 'the config stays readable');

  const other = await loadNormlab({ backend: 'simd128' });
  const orphan = await other.createTrainer(SMALL);
  other.dispose();
  assertThrowsExactly(() => orphan.step(1), Error, 'trainer was deleted');
  await assertRejectsExactly(other.createTrainer(SMALL), Error, 'this normlab instance has been disposed');
});

test("a trainer's memory is its own instance's: the nl instance does not grow; a second one starts afresh", async () => {
  const heap = nl.heapBytes();
  const malloc = nl.mallocBytes();
  // L 48, the deepest setting of the sweep: well under 64 MiB.
  const first = await nl.createTrainer({ layers: 48 });
  first.step(1);
  const firstHeap = first.heapBytes;
  assert.ok(first.memoryBytes > 16 * 1024 * 1024 && first.memoryBytes < 32 * 1024 * 1024, `${first.memoryBytes}`);
  assert.ok(firstHeap >= first.memoryBytes, `heap ${firstHeap} holds the trainer's ${first.memoryBytes} bytes`);
  first.delete();
  const second = await nl.createTrainer(SMALL);
  second.step(1);
  assert.ok(second.heapBytes < firstHeap, `a new instance: ${second.heapBytes} < ${firstHeap}`);
  second.delete();
  assert.equal(nl.heapBytes(), heap);
  assert.equal(nl.mallocBytes(), malloc);
});

describe('the results hold what the description declares', () => {
  let module;
  let boundary;
  before(async () => {
    module = await createTrainSimd();
    boundary = readBoundary(module);
  });

  test('trainRun and trainConfig: keys in order, types', async () => {
    const trainer = await nl.createTrainer(SMALL);
    try {
      const run = trainer.step(3);
      // diverged is made a boolean in JS; a per-layer probe holds 3 steps x
      // its points (SMALL: 2 layers, 3 stream points).
      const length = { N: 3, 'N L': 3 * 2, 'N L+1': 3 * 3 };
      const declared = (e) =>
        e.shape.length > 0
          ? `Float32Array(${length[e.shape.join(' ')]})`
          : e.path === 'diverged'
            ? 'boolean'
            : 'number';
      const found = (v) => (ArrayBuffer.isView(v) ? `${v.constructor.name}(${v.length})` : typeof v);
      assert.deepEqual(
        Object.entries(run).map(([k, v]) => [k, found(v)]),
        boundary.results.trainRun.entries.map((e) => [e.path, declared(e)]),
      );
      assert.deepEqual(
        Object.keys(trainer.config),
        boundary.results.trainConfig.entries.map((e) => e.path),
      );
    } finally {
      trainer.delete();
    }
  });

  test('identity packings: each entry holds its own member', () => {
    const handle = new module.Trainer(
      rawOptions(boundary, {
        layers: 2,
        hidden: 16,
        heads: 2,
        lr: 1e-3,
        steps: 5,
        seq: 8,
        batch: 2,
        text: 'abcd'.repeat(100),
      }),
    );
    try {
      assert.equal(handle.problem().code, 0);
      assert.equal(handle.step(3), '');
      for (const name of ['trainRun', 'trainConfig']) {
        assert.equal(handle.packIdentityForTests(name), '');
        const table = boundary.results[name];
        const object = table.read(handle.packed().slice());
        table.entries.forEach((entry, i) => {
          const value = object[entry.path];
          if (entry.names !== undefined) {
            // An enum: its identity value i * 65536 is no name of the axis.
            assert.equal(value, undefined, entry.path);
          } else if (entry.shape.length === 0) {
            assert.equal(value, i * 65536, entry.path);
          } else {
            // 3 steps, times 2 layers or 3 stream points for the probes.
            const n = { N: 3, 'N L': 6, 'N L+1': 9 }[entry.shape.join(' ')];
            assert.deepEqual(
              [...value],
              Array.from({ length: n }, (_, k) => i * 65536 + k),
              entry.path,
            );
          }
        });
      }
      // trainLayerNorms: the norms' entries are (L, N) in C++ and N L here.
      assert.equal(handle.packLayerNorms(new Uint8Array(0)), '');
      assert.equal(handle.packIdentityForTests('trainLayerNorms'), '');
      const probe = boundary.results.trainLayerNorms.read(handle.packed().slice());
      const id = (entry, k) => entry * 65536 + k;
      assert.deepEqual([probe.layers, probe.tokens, probe.step], [id(0, 0), id(1, 0), id(2, 0)]);
      assert.deepEqual([...probe.residual], [id(3, 0), id(3, 1), id(3, 2)]);
      assert.deepEqual([...probe.norms.inputNorm.in], [id(4, 0), id(4, 2)]);
      assert.deepEqual([...probe.norms.postAttentionNorm.in], [id(4, 1), id(4, 3)]);
      assert.deepEqual([...probe.norms.inputNorm.out], [id(5, 0), id(5, 2)]);
      assert.deepEqual([...probe.norms.postAttentionNorm.out], [id(5, 1), id(5, 3)]);
    } finally {
      handle.delete();
    }
  });
});

describe('nextBytes(): the next byte, forward only', () => {
  test('256 probabilities; the most likely is greedy sampling; training unchanged', async () => {
    const a = await nl.createTrainer(SMALL);
    const b = await nl.createTrainer(SMALL);
    try {
      a.step(4);
      const p = a.nextBytes('RMSNorm');
      assert.ok(p instanceof Float32Array && p.length === 256);
      assert.ok(Math.abs(p.reduce((s, v) => s + v, 0) - 1) < 1e-5);
      let greedy;
      do greedy = a.generateFor('RMSNorm', 1, { temperature: 0 }, 0);
      while (!greedy.done);
      assert.equal(greedy.utf8[0], p.indexOf(Math.max(...p)));
      assert.deepEqual(bits(a.nextBytes('')), bits(a.nextBytes('\n')));
      assert.deepEqual(bits(a.nextBytes(new TextEncoder().encode('RMSNorm'))), bits(p));
      // Bytes that end inside a character: 归 is E5 BD 92.
      const partial = a.nextBytes(new Uint8Array([0xe5]));
      assert.ok(Math.abs(partial.reduce((s, v) => s + v, 0) - 1) < 1e-5);
      assertThrowsExactly(() => a.nextBytes(3), TypeError, 'prompt must be a string or a Uint8Array');
      b.step(4);
      a.nextBytes('abc');
      assert.deepEqual(bits(a.step(2).loss), bits(b.step(2).loss));
    } finally {
      a.delete();
      b.delete();
    }
  });

  test("generateFor's finished part carries the sampled bytes", async () => {
    const trainer = await nl.createTrainer(SMALL);
    try {
      trainer.step(3);
      let part;
      do part = trainer.generateFor('归一', 12, { temperature: 1, seed: 3 }, 0);
      while (!part.done);
      assert.ok(part.utf8 instanceof Uint8Array && part.utf8.length === 12);
      assert.equal(part.text, new TextDecoder().decode(part.utf8));
      assert.equal(part.text, trainer.generate('归一', 12, { temperature: 1, seed: 3 }));
    } finally {
      trainer.delete();
    }
  });
});

describe('layerNorms(): the stream and the norms, layer by layer', () => {
  const PROMPT = (n) => `prompt must be 1..16 bytes of UTF-8, not ${n}`;

  test('bad prompts throw the exact error; a deleted trainer says so', async () => {
    const trainer = await nl.createTrainer(SMALL);
    assertThrowsExactly(() => trainer.layerNorms(3), TypeError, 'prompt must be a string');
    assertThrowsExactly(() => trainer.layerNorms(null), TypeError, 'prompt must be a string');
    assertThrowsExactly(() => trainer.layerNorms(''), RangeError, PROMPT(0));
    // 6 characters of 3 UTF-8 bytes: 18 bytes for a window of 16.
    assertThrowsExactly(() => trainer.layerNorms('归一化归一化'), RangeError, PROMPT(18));
    assert.equal(trainer.layerNorms('归一化').tokens, 9);
    trainer.delete();
    assertThrowsExactly(() => trainer.layerNorms(), Error, 'trainer was deleted');
  });

  test('at init the norm outputs sit at sqrt(hidden); post-norm streams are the norm outputs', async () => {
    for (const placement of ['pre', 'post']) {
      const trainer = await nl.createTrainer({ layers: 3, placement });
      try {
        const probe = trainer.layerNorms();
        assert.deepEqual(Object.keys(probe), [
          'layers',
          'tokens',
          'step',
          'residual',
          'norms',
          'attentionEntropy',
          'tokenSimilarity',
        ]);
        assert.equal(probe.attentionEntropy.length, 3);
        assert.equal(probe.tokenSimilarity.length, 4);
        // At init the scores are small: attention is close to uniform.
        for (const e of probe.attentionEntropy) assert.ok(e > 0.95 && e <= 1 + 1e-6, `${placement}: entropy ${e}`);
        for (const c of probe.tokenSimilarity) assert.ok(c > -1 && c < 1, `${placement}: similarity ${c}`);
        assert.equal(probe.layers, 3);
        assert.equal(probe.tokens, 64);
        assert.equal(probe.step, 0);
        assert.equal(probe.residual.length, 4);
        assert.deepEqual(Object.keys(probe.norms), ['inputNorm', 'postAttentionNorm']);
        for (const norm of Object.values(probe.norms)) {
          assert.equal(norm.out.length, 3);
          for (const v of norm.out) assert.ok(Math.abs(v - Math.sqrt(32)) < 1e-3 * Math.sqrt(32), `${placement}: ${v}`);
        }
        if (placement === 'post') {
          assert.deepEqual(bits(probe.residual.slice(1)), bits(probe.norms.postAttentionNorm.out));
        } else {
          assert.deepEqual(bits(probe.residual.slice(0, 3)), bits(probe.norms.inputNorm.in));
        }
      } finally {
        trainer.delete();
      }
    }
    const plain = await nl.createTrainer({ ...SMALL, norm: 'none' });
    assert.equal(plain.layerNorms().norms, null);
    plain.delete();
  });

  test('probing between slices leaves the losses bit-identical', async () => {
    const a = await nl.createTrainer(SMALL);
    const b = await nl.createTrainer(SMALL);
    try {
      const before = a.layerNorms();
      const losses = [];
      for (let s = 0; s < 3; s++) {
        losses.push(...a.advance(0).loss);
        a.layerNorms('abc');
        while (a.stepsDone <= s) {
          losses.push(...a.advance(0).loss);
          a.layerNorms();
        }
      }
      assert.deepEqual(bits(losses), bits(b.step(3).loss));
      const after = a.layerNorms();
      assert.equal(after.step, 3);
      assert.deepEqual(bits(after.residual), bits(b.layerNorms().residual));
      assert.notDeepEqual(bits(after.residual), bits(before.residual));
    } finally {
      a.delete();
      b.delete();
    }
  });

  test('simd128 and scalar agree', async () => {
    const scalar = await loadNormlab({ backend: 'scalar' });
    const a = await nl.createTrainer(SMALL);
    const b = await scalar.createTrainer(SMALL);
    try {
      a.step(2);
      b.step(2);
      const x = a.layerNorms();
      const y = b.layerNorms();
      const arrays = (p) => [p.residual, ...Object.values(p.norms).flatMap((n) => [n.in, n.out])];
      const ys = arrays(y);
      let worst = 0;
      arrays(x).forEach((values, i) =>
        values.forEach((v, k) => (worst = Math.max(worst, Math.abs(v - ys[i][k]) / Math.abs(ys[i][k])))),
      );
      assert.ok(worst < 1e-5, `simd128 and scalar differ by ${worst} (relative)`);
    } finally {
      a.delete();
      b.delete();
      scalar.dispose();
    }
  });
});

describe("gains(): the norms' learned parameters", () => {
  const layerOf = (values, hidden, l) => [...values.subarray(l * hidden, (l + 1) * hidden)];

  test('RMSNorm: every gain 1 at init, (layers x hidden) per norm, no bias; pre-norm adds the final norm', async () => {
    for (const placement of ['pre', 'post']) {
      const trainer = await nl.createTrainer({ ...SMALL, layers: 3, placement });
      try {
        const g = trainer.gains();
        assert.deepEqual(Object.keys(g), [
          'layers',
          'hidden',
          'step',
          'gain',
          'bias',
          'finalGain',
          'finalBias',
          'qGain',
          'kGain',
          'outGain',
          'outBias',
          'alpha',
          'outAlpha',
          'finalAlpha',
        ]);
        assert.deepEqual(
          [g.qGain, g.kGain, g.outGain, g.outBias, g.alpha, g.outAlpha, g.finalAlpha],
          [null, null, null, null, null, null, null],
        );
        assert.deepEqual([g.layers, g.hidden, g.step], [3, 16, 0]);
        assert.deepEqual(Object.keys(g.gain), ['inputNorm', 'postAttentionNorm']);
        for (const values of Object.values(g.gain)) {
          assert.ok(values instanceof Float32Array);
          assert.deepEqual([...values], new Array(3 * 16).fill(1));
        }
        assert.equal(g.bias, null);
        assert.equal(g.finalBias, null);
        if (placement === 'pre') assert.deepEqual([...g.finalGain], new Array(16).fill(1));
        else assert.equal(g.finalGain, null, 'post-norm has no final norm');
      } finally {
        trainer.delete();
      }
    }
  });

  test('training moves them; the result is a copy; the same seed gives the same bits', async () => {
    const a = await nl.createTrainer({ ...SMALL, placement: 'pre' });
    const b = await nl.createTrainer({ ...SMALL, placement: 'pre' });
    try {
      a.step(3);
      const g = a.gains();
      assert.equal(g.step, 3);
      for (const name of ['inputNorm', 'postAttentionNorm']) {
        for (let l = 0; l < SMALL.layers; l++) {
          const moved = layerOf(g.gain[name], 16, l).filter((v) => v !== 1).length;
          assert.ok(moved > 8, `${name} layer ${l}: ${moved} of 16 gains moved`);
          for (const v of layerOf(g.gain[name], 16, l)) assert.ok(Number.isFinite(v) && v > 0.5 && v < 1.5, `${v}`);
        }
      }
      assert.ok(g.finalGain.some((v) => v !== 1));
      const kept = bits(g.gain.inputNorm);
      a.step(1);
      assert.deepEqual(bits(g.gain.inputNorm), kept, 'a later step leaves the copy alone');
      assert.notDeepEqual(bits(a.gains().gain.inputNorm), kept);
      b.step(4);
      assert.deepEqual(bits(b.gains().gain.postAttentionNorm), bits(a.gains().gain.postAttentionNorm));
      // Reading them changes no result of the training.
      assert.deepEqual(bits(a.step(1).loss), bits(b.step(1).loss));
    } finally {
      a.delete();
      b.delete();
    }
  });

  test('LayerNorm: gains at 1 and biases at 0 at init, both move; norm none: all null', async () => {
    const trainer = await nl.createTrainer({ ...SMALL, norm: 'layernorm', placement: 'pre' });
    try {
      const g = trainer.gains();
      assert.deepEqual([...g.gain.inputNorm], new Array(2 * 16).fill(1));
      for (const values of [g.bias.inputNorm, g.bias.postAttentionNorm, g.finalBias]) {
        assert.deepEqual([...values], new Array(values.length).fill(0));
      }
      assert.equal(g.bias.postAttentionNorm.length, 2 * 16);
      assert.equal(g.finalBias.length, 16);
      trainer.step(2);
      const moved = trainer.gains();
      assert.ok(moved.bias.inputNorm.some((v) => v !== 0));
      assert.ok(moved.gain.postAttentionNorm.some((v) => v !== 1));
    } finally {
      trainer.delete();
    }
    const plain = await nl.createTrainer({ ...SMALL, norm: 'none' });
    try {
      plain.step(1);
      const g = plain.gains();
      assert.deepEqual([g.layers, g.hidden, g.step], [2, 16, 1]);
      assert.deepEqual([g.gain, g.bias, g.finalGain, g.finalBias], [null, null, null, null]);
    } finally {
      plain.delete();
    }
  });

  test("the variants' own: QK-norm's q and k gains, the sandwich's second norms, DyT's alphas", async () => {
    // SMALL: 2 layers, hidden 16; heads 2 below, so a head's 8 features.
    const qk = await nl.createTrainer({ ...SMALL, heads: 2, qkNorm: true, lr: 1e-2 });
    try {
      const g = qk.gains();
      for (const values of [g.qGain, g.kGain]) assert.deepEqual([...values], new Array(2 * 8).fill(1));
      assert.deepEqual([g.outGain, g.alpha, g.finalAlpha], [null, null, null]);
      qk.step(2);
      const moved = qk.gains();
      assert.ok(moved.qGain.every((v) => v !== 1) && moved.kGain.every((v) => v !== 1));
      // A score holds q_i g_q,i k_i g_k,i: from equal starts both gains get
      // the same gradient, so Adam keeps them equal, bit for bit.
      assert.deepEqual(bits(moved.qGain), bits(moved.kGain));
    } finally {
      qk.delete();
    }
    const dyt = await nl.createTrainer({ ...SMALL, placement: 'sandwich', norm: 'dyt', lr: 1e-2 });
    try {
      const g = dyt.gains();
      for (const name of ['inputNorm', 'postAttentionNorm']) {
        assert.deepEqual([...g.outGain[name]], new Array(2 * 16).fill(1), name);
        assert.deepEqual([...g.outBias[name]], new Array(2 * 16).fill(0), name);
        assert.deepEqual([...g.alpha[name]], [0.5, 0.5], name);
        assert.deepEqual([...g.outAlpha[name]], [0.5, 0.5], name);
      }
      assert.equal(g.finalAlpha, 0.5);
      assert.equal(g.qGain, null);
      dyt.step(2);
      const moved = dyt.gains();
      for (const name of ['inputNorm', 'postAttentionNorm']) {
        assert.ok([...moved.alpha[name], ...moved.outAlpha[name]].every((a) => a !== 0.5 && Math.abs(a - 0.5) < 0.03));
        assert.ok(moved.outGain[name].some((v) => v !== 1));
      }
      assert.notEqual(moved.finalAlpha, 0.5);
    } finally {
      dyt.delete();
    }
  });

  test('a deleted trainer says so', async () => {
    const trainer = await nl.createTrainer(SMALL);
    trainer.delete();
    assertThrowsExactly(() => trainer.gains(), Error, 'trainer was deleted');
  });

  test('identity packing: the norms are (L, N, D) in C++ and N then L D here', async () => {
    const module = await createTrainSimd();
    const boundary = readBoundary(module);
    const handle = new module.Trainer(
      rawOptions(boundary, {
        layers: 2,
        hidden: 8,
        heads: 2,
        norm: 'layernorm',
        placement: 'pre',
        lr: 1e-3,
        steps: 5,
        seq: 8,
        batch: 2,
        text: 'abcd'.repeat(100),
      }),
    );
    try {
      assert.equal(handle.packGains(), '');
      assert.equal(handle.packIdentityForTests('trainGains'), '');
      const g = boundary.results.trainGains.read(handle.packed().slice());
      const id = (entry, k) => entry * 65536 + k;
      const row = (entry, n, l) => Array.from({ length: 8 }, (_, k) => id(entry, (l * 2 + n) * 8 + k));
      assert.deepEqual([g.layers, g.hidden, g.step], [id(0, 0), id(1, 0), id(2, 0)]);
      assert.deepEqual([...g.gain.inputNorm], [...row(3, 0, 0), ...row(3, 0, 1)]);
      assert.deepEqual([...g.gain.postAttentionNorm], [...row(3, 1, 0), ...row(3, 1, 1)]);
      assert.deepEqual([...g.bias.postAttentionNorm], [...row(4, 1, 0), ...row(4, 1, 1)]);
      assert.deepEqual(
        [...g.finalGain],
        Array.from({ length: 8 }, (_, k) => id(5, k)),
      );
      assert.deepEqual(
        [...g.finalBias],
        Array.from({ length: 8 }, (_, k) => id(6, k)),
      );
    } finally {
      handle.delete();
    }
  });
});
