// The demo panel's walk (web/src/autorun.js) and its prediction
// (web/src/predictions.js, the walk part of web/src/demo-controller.js): the
// narrated steps and what each has drawn, the timing on a fake clock (at
// least the reading pace per narrated step, the layers of a group drawn one
// by one), stepping by hand, skipping to the end, the walk held until the
// prediction is in; the prediction kept in the learner store, checked when
// read back, and compared with the model's own numbers.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { loadNormlab } from '../../dist/normlab.mjs';
import {
  NARRATED_LAYER_STEPS,
  autorunStep,
  autorunSteps,
  createAutorun,
  drawnAt,
  layersPerStep,
} from '../../web/src/autorun.js';
import { AUTORUN_STEP_MS } from '../../web/src/constants.js';
import { createDemoController, walkStepMs } from '../../web/src/demo-controller.js';
import { createMemoryLearnerStore } from '../../web/src/learner.js';
import {
  compareCurves,
  guessVerdict,
  parseGuess,
  readPredictions,
  settingsKey,
  writePrediction,
} from '../../web/src/predictions.js';

// A window whose clock moves only when the test says so.
function fakeWindow() {
  let now = 0;
  let nextId = 1;
  const timers = new Map();
  return {
    setTimeout(fn, ms) {
      const id = nextId++;
      timers.set(id, { at: now + ms, fn });
      return id;
    },
    clearTimeout(id) {
      timers.delete(id);
    },
    performance: { now: () => now, measure() {} },
    // Runs every timer due up to now + ms, in order.
    advance(ms) {
      const until = now + ms;
      for (;;) {
        const due = [...timers].filter(([, t]) => t.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].fn();
      }
      now = until;
    },
    get now() {
      return now;
    },
  };
}

describe('narrated steps', () => {
  test('24 layers are told in 6 groups of 4, between tokenize/embed and final norm/head/sample', () => {
    assert.equal(NARRATED_LAYER_STEPS, 6);
    assert.equal(layersPerStep(24), 4);
    assert.equal(autorunSteps(24), 2 + 6 + 3);
    assert.deepEqual(autorunStep(0, 24), { stage: 'tokenize', from: 0, to: 0 });
    assert.deepEqual(autorunStep(1, 24), { stage: 'embed', from: 0, to: 0 });
    assert.deepEqual(autorunStep(2, 24), { stage: 'layers', from: 0, to: 3 });
    assert.deepEqual(autorunStep(7, 24), { stage: 'layers', from: 20, to: 23 });
    assert.deepEqual(autorunStep(8, 24), { stage: 'finalNorm', from: 23, to: 23 });
    assert.deepEqual(autorunStep(10, 24), { stage: 'sample', from: 23, to: 23 });
  });

  test('any depth: groups cover every layer once, and there are at most 6 of them', () => {
    for (const depth of [1, 2, 5, 7, 13, 24, 25, 64]) {
      const covered = [];
      for (let step = 0; step < autorunSteps(depth); step++) {
        const at = autorunStep(step, depth);
        if (at.stage === 'layers') for (let l = at.from; l <= at.to; l++) covered.push(l);
      }
      assert.deepEqual(
        covered,
        Array.from({ length: depth }, (_, l) => l),
        `depth ${depth}`,
      );
      assert.ok(autorunSteps(depth) - 5 <= NARRATED_LAYER_STEPS, `depth ${depth}`);
    }
  });

  test('what each stage has drawn of the chart', () => {
    assert.deepEqual(drawnAt('tokenize', 0, 24), { residual: -1, norms: -1 });
    assert.deepEqual(drawnAt('embed', 0, 24), { residual: 0, norms: -1 });
    assert.deepEqual(drawnAt('layers', 9, 24), { residual: 9, norms: 9 });
    // The final norm reads the stream leaving the last layer: its 25th point.
    assert.deepEqual(drawnAt('finalNorm', 23, 24), { residual: 24, norms: 23 });
    assert.deepEqual(drawnAt('sample', 23, 24), { residual: 24, norms: 23 });
  });
});

describe('the timed walk', () => {
  function walk(options = {}) {
    const win = fakeWindow();
    const steps = [];
    let ended = 0;
    const autorun = createAutorun({
      win,
      stepMs: 2500,
      startsOff: false,
      depth: () => 24,
      onStep: (s) => steps.push({ ...s, t: win.now }),
      onEnd: () => {
        ended += 1;
      },
      ...options,
    });
    return { win, steps, autorun, ended: () => ended };
  }

  test('each narrated step lasts the reading pace; a group draws its layers one by one within it', () => {
    const { win, steps, autorun, ended } = walk();
    assert.equal(autorun.status, 'waiting');
    autorun.firstView();
    assert.equal(autorun.status, 'running');
    win.advance(60_000);
    assert.equal(autorun.status, 'done');
    assert.equal(ended(), 1);
    // Narration changes (a new narrated step) are 2.5 s apart.
    const starts = steps.filter((s, i) => i === 0 || s.step !== steps[i - 1].step);
    assert.equal(starts.length, 11);
    for (let i = 1; i < starts.length; i++) assert.equal(starts[i].t - starts[i - 1].t, 2500);
    // Inside a group of 4 layers, one layer every 625 ms.
    const group = steps.filter((s) => s.step === 3);
    assert.deepEqual(
      group.map((s) => s.layer),
      [4, 5, 6, 7],
    );
    assert.deepEqual(
      group.map((s) => s.t - group[0].t),
      [0, 625, 1250, 1875],
    );
    // The whole walk: 11 steps of 2.5 s.
    assert.equal(steps.at(-1).t, 10 * 2500);
    assert.equal(steps.at(-1).stage, 'sample');
  });

  test('the reading pace is at least 1.5 s per narrated step; tests may set their own', () => {
    assert.ok(AUTORUN_STEP_MS >= 1500);
    assert.equal(walkStepMs({}), AUTORUN_STEP_MS);
    assert.equal(walkStepMs({ NORMLAB_WALK_STEP_MS: 5 }), 5);
    assert.equal(walkStepMs({ NORMLAB_WALK_STEP_MS: 'fast' }), AUTORUN_STEP_MS);
    assert.equal(walkStepMs({ NORMLAB_WALK_STEP_MS: -1 }), AUTORUN_STEP_MS);
  });

  test('a waiting walk in view starts only once ready() holds', () => {
    let ready = false;
    const { autorun } = walk({ ready: () => ready });
    autorun.firstView();
    assert.equal(autorun.status, 'waiting');
    ready = true;
    autorun.check();
    assert.equal(autorun.status, 'running');
  });

  test('paused, "next step" goes one narrated step on: the rest of a group at once', () => {
    const { win, steps, autorun } = walk();
    autorun.play();
    win.advance(2 * 2500 + 700);
    assert.deepEqual([steps.at(-1).stage, steps.at(-1).layer], ['layers', 1]);
    autorun.pause();
    autorun.next();
    assert.deepEqual([steps.at(-1).step, steps.at(-1).layer], [2, 3]);
    autorun.next();
    assert.deepEqual([steps.at(-1).step, steps.at(-1).from, steps.at(-1).layer], [3, 4, 7]);
    const count = steps.length;
    win.advance(10_000);
    assert.equal(steps.length, count, 'a paused walk does not move');
    assert.equal(autorun.status, 'paused');
  });

  test('skip to the end: the last step, then done', () => {
    const { win, steps, autorun, ended } = walk();
    autorun.play();
    win.advance(3000);
    autorun.finish();
    assert.equal(autorun.status, 'done');
    assert.equal(ended(), 1);
    assert.deepEqual([steps.at(-1).stage, steps.at(-1).layer], ['sample', 23]);
    win.advance(60_000);
    assert.equal(steps.at(-1).stage, 'sample');
  });

  test('manual (reduced motion): nothing is timed; each next() shows one narrated step', () => {
    const { win, steps, autorun, ended } = walk({ manual: true });
    assert.equal(autorun.status, 'off');
    autorun.firstView();
    assert.equal(autorun.status, 'off', 'a manual walk never starts by itself');
    autorun.play();
    assert.equal(autorun.status, 'paused');
    win.advance(60_000);
    assert.equal(steps.length, 1);
    autorun.next();
    autorun.next();
    assert.deepEqual([steps.at(-1).stage, steps.at(-1).from, steps.at(-1).layer], ['layers', 0, 3]);
    // resume() is a next() here.
    autorun.resume();
    assert.deepEqual([steps.at(-1).from, steps.at(-1).layer], [4, 7]);
    for (let i = 0; i < 20 && autorun.status !== 'done'; i++) autorun.next();
    assert.equal(autorun.status, 'done');
    assert.equal(ended(), 1);
    assert.equal(steps.length, 11);
  });
});

describe('predictions', () => {
  test("kept in the store's predictions section, compact, and checked when read back", () => {
    const store = createMemoryLearnerStore();
    writePrediction(store, 'd', { r: 40, n: 12.5, k: 'rmsnorm.pre.24' });
    writePrediction(store, 's', { g: 0.6 });
    writePrediction(store, 'p', { s: 1 });
    assert.deepEqual(store.snapshot(), {
      predictions: { d: { r: 40, n: 12.5, k: 'rmsnorm.pre.24' }, s: { g: 0.6 }, p: { s: 1 } },
    });
    writePrediction(store, 's', null);
    assert.deepEqual(readPredictions(store), { d: { r: 40, n: 12.5, k: 'rmsnorm.pre.24' }, p: { s: 1 } });
    assert.throws(() => writePrediction(store, 's', { g: 1.5 }), {
      name: 'RangeError',
      message: 'prediction s is not a valid record',
    });
    // Written by hand or by another version: what fails its check is absent.
    store.restore({ predictions: { d: { r: 0, n: 5, k: 'x' }, s: { g: '0.5' }, p: { g: 16, extra: 1 }, z: { g: 1 } } });
    assert.deepEqual(readPredictions(store), {});
    store.restore({ predictions: [1, 2] });
    assert.deepEqual(readPredictions(store), {});
    store.restore({ predictions: { s: { g: 0.25, q: 1 }, p: { g: 16 } } });
    assert.deepEqual(readPredictions(store), { s: { g: 0.25, q: 1 }, p: { g: 16 } });
  });

  test('verdicts: close within 10%, else how many times too high or too low', () => {
    assert.deepEqual(guessVerdict(105, 100), { verdict: 'close', factor: 1.05 });
    assert.deepEqual(guessVerdict(40, 100), { verdict: 'low', factor: 2.5 });
    assert.deepEqual(guessVerdict(160, 16), { verdict: 'high', factor: 10 });
    assert.deepEqual(guessVerdict(0, 16), { verdict: 'low', factor: Infinity });
  });

  test('typed guesses', () => {
    assert.equal(parseGuess(' 0.75 '), 0.75);
    assert.equal(parseGuess('.5'), 0.5);
    assert.equal(parseGuess('0,8'), 0.8);
    assert.equal(parseGuess('2e1'), 20);
    for (const bad of ['', 'abc', '1/2', '0.5.1', 'Infinity']) assert.equal(parseGuess(bad), null, bad);
  });
});

describe("the controller's walk with a prediction", async () => {
  const nl = await loadNormlab({ backend: 'simd128' });
  const settings = {
    prompt: 'Each layer adds to the stream.',
    norm: 'rmsnorm',
    placement: 'pre',
    depth: 24,
    eps: 1e-6,
  };

  function controller(store, options = {}) {
    const win = fakeWindow();
    const layers = [];
    const current = { ...settings, ...options.settings };
    const demo = createDemoController({
      win,
      render: () => {},
      walk: {
        startsOff: options.startsOff ?? false,
        manual: false,
        depth: () => current.depth,
        onStep: (s) => layers.push(s.layer),
        onEnd: () => {},
        store,
        asks: () => options.asks ?? true,
        settings: () => current,
      },
    });
    demo.forward(nl, current);
    return { demo, win, layers, current };
  }

  test('asks first: the chart shows the starting point and the draft; the walk waits for the answer', () => {
    const store = createMemoryLearnerStore();
    const { demo, win } = controller(store);
    const view = demo.forward(nl, settings).view;
    demo.walk.firstView();
    let walk = demo.walk.view(view);
    assert.equal(walk.status, 'waiting');
    assert.equal(walk.prediction.state, 'asking');
    assert.deepEqual(walk.drawn, { residual: 0, norms: -1 });
    // The draft starts where the stream starts.
    assert.deepEqual(walk.prediction.markers, { r: view.residualL2[0], n: view.residualL2[0] });
    demo.walk.predictMove('r', 40);
    demo.walk.predictMove('n', 5000);
    assert.deepEqual(demo.walk.view(view).prediction.markers, { r: 40, n: 1000 }, 'a guess stays within 1..1000');
    demo.walk.predictMove('n', 12);
    win.advance(10_000);
    assert.equal(demo.walk.status, 'waiting');

    demo.walk.commit();
    assert.deepEqual(readPredictions(store).d, { r: 40, n: 12, k: 'rmsnorm.pre.24' });
    assert.equal(demo.walk.status, 'running');
    win.advance(2 * 2500 + 1);
    walk = demo.walk.view(view);
    assert.deepEqual(walk.drawn, { residual: 0, norms: 0 });
    assert.equal(walk.comparison, null, 'no comparison before the end');
    win.advance(60_000);
    walk = demo.walk.view(view);
    assert.equal(walk.status, 'done');
    assert.equal(walk.drawn, null);
    // The comparison: the guesses against the model's own figures.
    const residual = view.residualL2[24];
    const norm = view.probes['inputNorm.out'].l2[23];
    assert.deepEqual(walk.comparison, {
      last: 23,
      residual: { guess: 40, measured: residual, ...guessVerdict(40, residual) },
      norm: { guess: 12, measured: norm, ...guessVerdict(12, norm) },
    });
    assert.equal(walk.comparison.residual.verdict, 'low');
    assert.equal(walk.comparison.norm.verdict, 'low');
    demo.dispose();
  });

  test('kept across visits: a new controller finds the prediction and compares after its walk', () => {
    const store = createMemoryLearnerStore();
    writePrediction(store, 'd', { r: 100, n: 32, k: settingsKey(settings) });
    const { demo, win } = controller(store);
    const view = demo.forward(nl, settings).view;
    assert.equal(demo.walk.view(view).prediction.state, 'made');
    demo.walk.firstView();
    assert.equal(demo.walk.status, 'running', 'nothing to ask: the walk starts in view');
    win.advance(60_000);
    const { comparison } = demo.walk.view(view);
    assert.equal(comparison.residual.verdict, 'close');
    assert.equal(comparison.norm.verdict, 'close');
    assert.deepEqual(compareCurves({ r: 100, n: 32 }, view), comparison);
    demo.dispose();
  });

  test('a prediction for other settings is not compared; "again" asks anew and the walk waits', () => {
    const store = createMemoryLearnerStore();
    writePrediction(store, 'd', { r: 100, n: 32, k: 'rmsnorm.post.24' });
    const { demo } = controller(store, { settings: { ...settings } });
    const view = demo.forward(nl, settings).view;
    demo.walk.firstView();
    demo.walk.finish();
    let walk = demo.walk.view(view);
    assert.equal(walk.comparison, null);
    assert.deepEqual(walk.prediction.madeFor, { norm: 'rmsnorm', placement: 'post', depth: 24 });
    assert.equal(walk.prediction.markers, null);
    demo.walk.again();
    walk = demo.walk.view(view);
    assert.equal(walk.prediction.state, 'asking');
    assert.equal(walk.status, 'waiting');
    demo.walk.skip();
    assert.deepEqual(readPredictions(store).d, { s: 1 });
    assert.equal(demo.walk.status, 'running', 'skipped: the walk starts');
    demo.dispose();
  });

  test('Play with the prediction pending skips it; a link that chose a layer asks nothing', () => {
    const store = createMemoryLearnerStore();
    const { demo } = controller(store);
    demo.walk.play();
    assert.deepEqual(readPredictions(store).d, { s: 1 });
    assert.equal(demo.walk.status, 'running');
    demo.dispose();
    const other = controller(createMemoryLearnerStore(), { asks: false, startsOff: true });
    const view = other.demo.forward(nl, settings).view;
    const walk = other.demo.walk.view(view);
    assert.equal(walk.prediction.state, 'none');
    assert.equal(walk.drawn, null, 'nothing asked, nothing hidden');
    other.demo.dispose();
  });
});
