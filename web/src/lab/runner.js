// The training lab's scheduler: trains the runs of a contrast one after
// another on the main thread (the page also works from file://, where there
// are no workers), in slices: each idle period (requestIdleCallback, else a
// zero-delay timeout) calls trainer.advance() with a budget of a few
// milliseconds, so no task holds the page up and the other widgets repaint
// between slices. A run's held-out loss is measured the same way
// (evaluateFor), then a short sample generated (generateFor) and the most
// likely next characters read, then its trainer is deleted, giving its wasm
// instance back.
// Training pauses while the tab is hidden and resumes when it shows again.
//
// Everything a run produced is kept as plain numbers (the trainer's float32
// values, exact as doubles): loss, gradFirst, gradLast, updateFirst and
// updateLast per step; the lengths of the stream and the norms layer by
// layer on the held-out text's first window (trainer.layerNorms()) and the
// most likely next characters after the sample's prompt (next-chars.js),
// before the first step and when the run ends (diverged: on the last
// weights it updated); the sample, as text and as its bytes; and the
// norms' learned gains when the run ends (trainer.gains(), null without a
// norm), each layer's two norms as arrays of hidden values.

import { createNextChars } from './next-chars.js';

// A slice never asks for more than this, nor less than SLICE_MIN_MS.
const SLICE_MAX_MS = 8;
const SLICE_MIN_MS = 3;
// Without requestIdleCallback (or when it timed out) a slice gets this.
const SLICE_DEFAULT_MS = 8;
// An idle callback is forced after this long, so a busy page still trains.
const IDLE_TIMEOUT_MS = 100;
// Steps per second are measured over this much of the latest training time.
const RATE_WINDOW_MS = 3000;

// trainer.layerNorms()'s result as plain arrays (the float32 values exact).
function plainLayerNorms(probe) {
  const norms =
    probe.norms &&
    Object.fromEntries(
      Object.entries(probe.norms).map(([name, n]) => [name, { in: Array.from(n.in), out: Array.from(n.out) }]),
    );
  return { step: probe.step, tokens: probe.tokens, residual: Array.from(probe.residual), norms };
}

// trainer.gains()'s gains as plain arrays, layer by layer: { step, hidden,
// layers: [{ inputNorm, postAttentionNorm }] }, or null without a norm.
function plainGains(gains) {
  if (gains.gain === null) return null;
  const { hidden } = gains;
  const row = (values, l) => Array.from(values.subarray(l * hidden, (l + 1) * hidden));
  const layers = [];
  for (let l = 0; l < gains.layers; l++) {
    layers.push({ inputNorm: row(gains.gain.inputNorm, l), postAttentionNorm: row(gains.gain.postAttentionNorm, l) });
  }
  return { step: gains.step, hidden, layers };
}

// A run's per-step series before its first step.
export const emptySeries = () => ({
  loss: [],
  gradFirst: [],
  gradLast: [],
  updateFirst: [],
  updateLast: [],
  entropy: NaN,
});

export function createLabRunner({ win, doc, onChange }) {
  const state = {
    phase: 'idle',
    hidden: doc.visibilityState === 'hidden',
    runs: [],
    current: 0,
    steps: 0,
    rate: null,
    settings: null,
    cell: null,
  };
  let generation = 0;
  let scheduled = false;
  let trainer = null;
  let nextChars = null;
  let samples = [];

  doc.addEventListener('visibilitychange', () => {
    state.hidden = doc.visibilityState === 'hidden';
    samples = [];
    if (!state.hidden) schedule();
    onChange();
  });

  function schedule() {
    if (scheduled || state.phase !== 'running' || state.hidden) return;
    scheduled = true;
    const mine = generation;
    // A callback left from before a reset does nothing (reset cleared the flag).
    const run = (budget) => {
      if (mine !== generation) return;
      scheduled = false;
      slice(budget);
    };
    if (typeof win.requestIdleCallback === 'function') {
      win.requestIdleCallback(
        (deadline) => {
          const left = deadline.didTimeout ? SLICE_DEFAULT_MS : deadline.timeRemaining() - 1;
          run(Math.min(SLICE_MAX_MS, Math.max(SLICE_MIN_MS, left)));
        },
        { timeout: IDLE_TIMEOUT_MS },
      );
    } else win.setTimeout(() => run(SLICE_DEFAULT_MS), 0);
  }

  // Opt-in User Timing measures for tests/bench/page-perf.mjs, as the page's.
  const timing = win.NORMLAB_TIMING === true;

  function slice(budget) {
    if (state.phase !== 'running' || state.hidden) return;
    const run = state.runs[state.current];
    if (!run) return finish();
    if (run.status === 'waiting') return measured('normlab:lab-create', () => create(run));
    const start = timing ? win.performance.now() : 0;
    const what = run.status;
    if (what === 'training') train(run, budget);
    else if (what === 'evaluating') evaluate(run, budget);
    else if (what === 'sampling') sample(run, budget);
    else if (what === 'reading') read(run, budget);
    if (timing)
      win.performance.measure('normlab:lab-slice', { start, end: win.performance.now(), detail: { budget, what } });
    onChange();
    schedule();
  }

  // fn() under a User Timing measure when timing is on.
  function measured(name, fn) {
    const start = timing ? win.performance.now() : 0;
    fn();
    if (timing) win.performance.measure(name, { start, end: win.performance.now() });
  }

  // The trainer's instance is made asynchronously; what runs on the main
  // thread (the call, then taking the trainer in with its first probe) is
  // measured as normlab:lab-create.
  function create(run) {
    run.status = 'loading';
    const mine = generation;
    onChange();
    state.nl.createTrainer(run.options).then(
      (made) => {
        if (mine !== generation) {
          made.delete();
          return;
        }
        measured('normlab:lab-create', () => {
          trainer = made;
          run.entropy = made.unigramEntropy;
          run.layerNorms.before = plainLayerNorms(made.layerNorms());
          nextChars = createNextChars(made, state.sample.prompt);
          run.status = 'reading';
          samples = [];
          onChange();
          schedule();
        });
      },
      (error) => {
        if (mine !== generation) return;
        run.status = 'failed';
        run.error = error.message;
        next();
      },
    );
  }

  function train(run, budget) {
    const result = trainer.advance(budget);
    for (let i = 0; i < result.loss.length; i++) {
      run.loss.push(result.loss[i]);
      run.gradFirst.push(result.gradFirst[i]);
      run.gradLast.push(result.gradLast[i]);
      run.updateFirst.push(result.updateFirst[i]);
      run.updateLast.push(result.updateLast[i]);
    }
    measureRate(result.loss.length);
    if (result.diverged) {
      run.status = 'diverged';
      run.divergedAt = run.loss.findIndex((v) => !Number.isFinite(v)) + 1 || run.loss.length;
      release();
      next();
    } else if (run.loss.length >= state.steps) run.status = 'evaluating';
  }

  // The most likely next characters, a forward pass or more per slice:
  // before the first step, then after the sample.
  function read(run, budget) {
    const start = win.performance.now();
    while (!nextChars.step()) if (win.performance.now() - start >= budget) return;
    if (!run.nextChars.before) {
      run.nextChars.before = nextChars.result;
      run.status = 'training';
      return;
    }
    run.nextChars.after = nextChars.result;
    run.status = 'done';
    release();
    next();
  }

  function evaluate(run, budget) {
    const result = trainer.evaluateFor(budget);
    if (!result.done) return;
    run.heldout = result.loss;
    run.status = 'sampling';
  }

  // The same prompt, length, temperature and seed for every run, a few
  // bytes per slice (each byte is a forward pass over its context).
  function sample(run, budget) {
    const { prompt, bytes, temperature, seed } = state.sample;
    const result = trainer.generateFor(prompt, bytes, { temperature, seed }, budget);
    if (!result.done) return;
    run.sample = result.text;
    run.sampleBytes = Array.from(result.utf8);
    nextChars = createNextChars(trainer, prompt);
    run.status = 'reading';
  }

  function next() {
    state.current += 1;
    samples = [];
    if (state.current >= state.runs.length) finish();
    else {
      onChange();
      schedule();
    }
  }

  function finish() {
    state.phase = 'done';
    state.rate = null;
    onChange();
  }

  function release() {
    const run = state.runs[state.current];
    if (trainer && run) {
      run.layerNorms.after = plainLayerNorms(trainer.layerNorms());
      run.gains = plainGains(trainer.gains());
    }
    trainer?.delete();
    trainer = null;
    nextChars = null;
  }

  function measureRate(steps) {
    const now = win.performance.now();
    const total = (samples.at(-1)?.[1] ?? 0) + steps;
    samples.push([now, total]);
    while (samples.length > 2 && now - samples[0][0] > RATE_WINDOW_MS) samples.shift();
    const [t0, s0] = samples[0];
    state.rate = samples.length > 1 && now > t0 ? ((total - s0) / (now - t0)) * 1000 : state.rate;
  }

  return {
    state,

    // runs: [{ id, options }] in training order; steps: steps per run;
    // sample: { prompt, bytes, temperature, seed } for trainer.generate();
    // settings: the lab's settings these runs were made from, kept with
    // them for the reading (cell: the map's cell they train, or null).
    start(nl, runs, steps, sample, settings, cell = null) {
      this.reset();
      Object.assign(state, {
        nl,
        steps,
        sample,
        settings,
        cell,
        phase: 'running',
        current: 0,
        rate: null,
        runs: runs.map(({ id, options }) => ({
          id,
          options,
          status: 'waiting',
          ...emptySeries(),
          heldout: NaN,
          divergedAt: null,
          error: null,
          sample: null,
          sampleBytes: null,
          nextChars: { before: null, after: null },
          layerNorms: { before: null, after: null },
          gains: null,
        })),
      });
      onChange();
      schedule();
    },

    pause() {
      if (state.phase !== 'running') return;
      state.phase = 'paused';
      samples = [];
      onChange();
    },

    resume() {
      if (state.phase !== 'paused') return;
      state.phase = 'running';
      onChange();
      schedule();
    },

    // Stops, forgets every run and deletes the live trainer.
    reset() {
      generation += 1;
      scheduled = false;
      release();
      samples = [];
      Object.assign(state, { phase: 'idle', runs: [], current: 0, rate: null, settings: null, cell: null });
      onChange();
    },

    // Steps still to train in this contrast, for the time left.
    stepsLeft() {
      return state.runs
        .slice(state.current)
        .reduce(
          (sum, run) =>
            sum +
            (run.status === 'training' ||
            run.status === 'waiting' ||
            run.status === 'loading' ||
            (run.status === 'reading' && !run.nextChars.before)
              ? state.steps - run.loss.length
              : 0),
          0,
        );
    },
  };
}
