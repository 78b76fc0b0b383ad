// The training lab's scheduler. Each run's work (run-work.js: the next
// characters before, the steps, the held-out loss, the sample, the next
// characters after) runs in one of two engines, which give the same numbers
// bit for bit:
//
// - 'workers': the runs of a contrast at once, as many as the device has
//   cores but one (fill()), each in a Web Worker with its own instance of
//   the trainer's module (workers.js, worker.js); the page's main thread
//   only takes in each slice's patch and paints. A worker is terminated
//   when its run ends or the contrast is reset, which drops its instance.
// - 'slices': one run after another on the main thread, a slice per idle
//   period (requestIdleCallback, else a zero-delay timeout) with a budget of
//   a few milliseconds, so no task holds the page up; each trainer deleted
//   when its run ends. The lab falls back to it when no worker can start
//   (a course page's policy forbids workers, a browser without them) and
//   says why (state.fallback); window.NORMLAB_LAB_WORKERS = false, set
//   before the page's scripts run, forces it (tests and benchmarks).
//
// Training pauses while the tab is hidden and resumes when it shows again.
//
// Checkpoints (checkpoints.js): every CHECKPOINT_MS of training (window.
// NORMLAB_LAB_CHECKPOINT_MS, set before the page's scripts run, for tests),
// between two steps, each run's state goes to the browser's storage with its
// record so far; a later page can go on from them (resumeSaved), bit for
// bit. A write that fails is reported in state.saving and otherwise ignored.
//
// Everything a run produced is kept as plain numbers (the trainer's float32
// values, exact as doubles): loss, gradFirst, gradLast, updateFirst,
// updateLast and maxLogit (the largest attention logit over the layers) per
// step; the lengths of the stream and the norms layer by
// layer on the held-out text's first window (trainer.layerNorms()) and the
// most likely next characters after the sample's prompt (next-chars.js),
// before the first step and when the run ends (diverged: on the last
// weights it updated); the sample, as text and as its bytes; and the
// norms' learned gains when the run ends (trainer.gains(), null without a
// norm), each layer's two norms as arrays of hidden values; and, with
// workers, the wasm memory of the run's instance (heapBytes, the largest
// seen).
import { recordAt } from './checkpoints.js';
import { applyPatch, createRunWork, emptySeries } from './run-work.js';
import { createWorkerMaker } from './workers.js';

export { emptySeries };

// A slice never asks for more than this, nor less than SLICE_MIN_MS.
const SLICE_MAX_MS = 8;
const SLICE_MIN_MS = 3;
// Without requestIdleCallback (or when it timed out) a slice gets this.
const SLICE_DEFAULT_MS = 8;
// An idle callback is forced after this long, so a busy page still trains.
const IDLE_TIMEOUT_MS = 100;
// Steps per second are measured over this much of the latest training time.
const RATE_WINDOW_MS = 3000;
// A worker that has not made its trainer by then counts as one that cannot
// start (the module is a few hundred kilobytes; a slow phone loads it in
// seconds).
const WORKER_START_MS = 30000;

const ENDED = new Set(['done', 'diverged', 'failed']);
// How often a run's state is saved while it trains.
const CHECKPOINT_MS = 5000;

// store: checkpoints.js's createCheckpointStore(win), or null (nothing saved).
export function createLabRunner({ win, doc, onChange, store = null }) {
  const state = {
    phase: 'idle',
    hidden: doc.visibilityState === 'hidden',
    runs: [],
    current: 0,
    steps: 0,
    rate: null,
    settings: null,
    cell: null,
    // 'workers' | 'slices' once a contrast has started, else null.
    engine: null,
    // Why the runs train on the main thread, when workers were wanted and
    // none could start (a message), else null.
    fallback: null,
    // The contrast's progress kept in the browser: { runs: [{ id, step,
    // ended }] } once written (step: the steps saved, 0 when none), { error }
    // when a write failed, 'off' when the reader asked to forget it, else
    // null.
    saving: null,
  };
  const checkpointMs = Number.isFinite(win.NORMLAB_LAB_CHECKPOINT_MS) ? win.NORMLAB_LAB_CHECKPOINT_MS : CHECKPOINT_MS;
  // A write in progress, and whether another is wanted after it.
  let writing = false;
  let rewrite = false;
  let generation = 0;
  let scheduled = false;
  // The slices engine's live run: its trainer and work.
  let trainer = null;
  let work = null;
  // The workers engine's live workers, by run index.
  let workers = new Map();
  // Made once, on the first contrast that trains in workers.
  let workerMaker = null;
  let samples = [];
  const wantWorkers = () => win.NORMLAB_LAB_WORKERS !== false && state.fallback === null;

  doc.addEventListener('visibilitychange', () => {
    state.hidden = doc.visibilityState === 'hidden';
    samples = [];
    if (state.engine === 'workers' && state.phase === 'running') tellWorkers(state.hidden ? 'pause' : 'resume');
    if (!state.hidden) schedule();
    onChange();
  });

  // Opt-in User Timing measures for tests/bench/page-perf.mjs, as the page's.
  const timing = win.NORMLAB_TIMING === true;

  // fn() under a User Timing measure when timing is on.
  function measured(name, fn, detail) {
    const start = timing ? win.performance.now() : 0;
    fn();
    if (timing) win.performance.measure(name, { start, end: win.performance.now(), detail });
  }

  // The slices engine.

  function schedule() {
    if (state.engine !== 'slices' || scheduled || state.phase !== 'running' || state.hidden) return;
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

  function slice(budget) {
    if (state.phase !== 'running' || state.hidden) return;
    while (state.runs[state.current] && ENDED.has(state.runs[state.current].status)) state.current += 1;
    const run = state.runs[state.current];
    if (!run) return finish();
    if (run.status === 'waiting') return create(run);
    if (work === null) return; // its trainer is still being made
    const due = win.performance.now() - run.savedMs >= checkpointMs;
    measured('normlab:lab-slice', () => take(run, work.work(budget, due)), { budget, what: run.status });
    if (due) {
      const saved = work.checkpoint();
      if (saved) keep(run, { step: saved.step, state: new win.Blob([saved.bytes]) });
    }
    if (work?.done === true || ENDED.has(run.status)) release();
    if (ENDED.has(run.status)) next();
    else {
      onChange();
      schedule();
    }
  }

  // The trainer's instance is made asynchronously; what runs on the main
  // thread (the call, then taking the trainer in with its first probe) is
  // measured as normlab:lab-create.
  function create(run) {
    run.status = 'loading';
    const mine = generation;
    onChange();
    const bytes = run.start?.state ? run.start.state.state.arrayBuffer() : Promise.resolve(null);
    bytes
      .then((buffer) => {
        if (buffer) run.start.bytes = new Uint8Array(buffer);
        return state.nl.createTrainer(run.options);
      })
      .then(
        (made) => {
          if (mine !== generation) {
            made.delete();
            return;
          }
          measured('normlab:lab-create', () => {
            trainer = made;
            const resume = run.start?.state;
            if (resume) {
              try {
                made.restoreState(run.start.bytes);
              } catch (error) {
                release();
                run.status = 'failed';
                run.error = error.message;
                return next();
              }
            }
            run.savedMs = win.performance.now();
            const options = { steps: state.steps, sample: state.sample, resumeAt: resume?.step ?? 0 };
            work = createRunWork(made, options, () => win.performance.now());
            take(run, work.opening);
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

  function next() {
    state.current += 1;
    samples = [];
    if (state.current >= state.runs.length) finish();
    else {
      onChange();
      schedule();
    }
  }

  function release() {
    trainer?.delete();
    trainer = null;
    work = null;
  }

  // The workers engine: every run at once.

  async function startWorkers() {
    const mine = generation;
    try {
      workerMaker ??= await createWorkerMaker({ win, doc, flavour: state.nl.backend });
      if (mine !== generation) return;
      fill();
      settle();
    } catch (error) {
      if (mine === generation) fallBack(error);
    }
  }

  function startWorker(run, index) {
    const mine = generation;
    const worker = workerMaker.make();
    workers.set(index, worker);
    run.status = 'loading';
    let started = false;
    const timer = win.setTimeout(() => {
      if (!started && mine === generation) fallBack(new Error('a worker did not start in time'));
    }, WORKER_START_MS);
    worker.onerror = (event) => {
      event.preventDefault?.();
      if (mine !== generation) return;
      if (!started) fallBack(new Error(event.message || 'a worker could not start'));
      else end(run, index, { status: 'failed', error: event.message || 'the worker stopped' });
    };
    worker.onmessage = ({ data }) => {
      if (mine !== generation) return;
      if (data.type === 'unavailable') return fallBack(new Error(data.message));
      started = true;
      win.clearTimeout(timer);
      if (data.type === 'failed') return end(run, index, { status: 'failed', error: data.message });
      if (data.type === 'state') return keep(run, { step: data.step, state: data.state });
      run.heapBytes = Math.max(run.heapBytes ?? 0, data.heapBytes);
      if (data.type === 'patch' || data.type === 'created') {
        measured('normlab:lab-slice', () => take(run, data.patch), { what: data.type });
        if (ENDED.has(run.status)) return end(run, index, null);
      }
      onChange();
    };
    const { steps, sample } = state;
    worker.postMessage({
      type: 'start',
      flavour: state.nl.backend,
      script: workerMaker.script,
      options: run.options,
      steps,
      sample,
      resume: run.start?.state ?? null,
      checkpointMs,
    });
    if (state.phase === 'paused' || state.hidden) worker.postMessage({ type: 'pause' });
  }

  // Starts workers for the runs still waiting, as many as may run at once:
  // one per core but one, which the page keeps for itself (at least one;
  // window.NORMLAB_LAB_WORKERS, a positive integer set before the page's
  // scripts run, sets the number for tests and benchmarks).
  function fill() {
    const asked = win.NORMLAB_LAB_WORKERS;
    const cores = win.navigator?.hardwareConcurrency || 2;
    const limit = Number.isInteger(asked) && asked > 0 ? asked : Math.max(1, cores - 1);
    state.runs.forEach((run, index) => {
      if (run.status === 'waiting' && workers.size < limit) startWorker(run, index);
    });
  }

  // A run's worker is done with: terminated, which drops its instance; the
  // next waiting run takes its place.
  function end(run, index, failure) {
    workers.get(index)?.terminate();
    workers.delete(index);
    if (failure) Object.assign(run, failure);
    fill();
    settle();
  }

  // The first run still going is the current one; none: the contrast ended.
  function settle() {
    while (state.current < state.runs.length && ENDED.has(state.runs[state.current].status)) state.current += 1;
    if (state.current >= state.runs.length) finish();
    else onChange();
  }

  function stopWorkers() {
    for (const worker of workers.values()) worker.terminate();
    workers = new Map();
  }

  function tellWorkers(type) {
    for (const worker of workers.values()) worker.postMessage({ type });
  }

  // No worker could start: the runs train on the main thread instead, from
  // their start (what any worker did is dropped; the numbers are the same).
  function fallBack(error) {
    stopWorkers();
    state.fallback = error.message || String(error);
    startRuns('slices');
  }

  // Both engines.

  // A slice's patch into the run, and the steps per second.
  function take(run, patch) {
    applyPatch(run, patch);
    if (patch.append) measureRate(patch.append.loss.length);
  }

  function finish() {
    state.phase = 'done';
    state.rate = null;
    forget();
    onChange();
  }

  // Checkpoints.

  // A run's state between two steps, kept with its record up to that step,
  // and the contrast written to storage.
  // state: a Blob of trainer.saveState()'s bytes (IndexedDB keeps a Blob
  // without serialising its bytes on the page's thread).
  function keep(run, { step, state: blob }) {
    run.savedMs = win.performance.now();
    run.checkpoint = { step, state: blob, record: recordAt(run, step) };
    write();
  }

  function write() {
    if (!store || state.saving === 'off' || state.phase === 'idle' || state.phase === 'done') return;
    if (writing) {
      rewrite = true;
      return;
    }
    writing = true;
    const mine = generation;
    const saved = {
      savedAt: Date.now(),
      steps: state.steps,
      sample: state.sample,
      settings: state.settings,
      cell: state.cell,
      runs: state.runs.map((run) => {
        const { id, options } = run;
        if (ENDED.has(run.status)) return { id, options, record: plainRun(run), state: null, ended: true };
        const { step, state: blob, record } = run.checkpoint ?? {};
        return {
          id,
          options,
          record: record ?? null,
          state: run.checkpoint ? { step, state: blob } : null,
          ended: false,
        };
      }),
    };
    const runs = savedRuns(saved);
    store
      .save(saved)
      .then(
        () => {
          if (mine === generation && state.saving !== 'off') state.saving = { runs };
        },
        (error) => {
          if (mine === generation && state.saving !== 'off') state.saving = { error: error?.message ?? String(error) };
        },
      )
      .finally(() => {
        writing = false;
        if (mine !== generation) return;
        // The contrast ended while this was written: nothing to keep.
        if (state.phase === 'done') forget();
        onChange();
        if (rewrite) {
          rewrite = false;
          write();
        }
      });
  }

  // Deletes what storage holds of the contrast (best effort).
  function forget() {
    store?.clear().catch(() => {});
  }

  function measureRate(steps) {
    const now = win.performance.now();
    const total = (samples.at(-1)?.[1] ?? 0) + steps;
    samples.push([now, total]);
    while (samples.length > 2 && now - samples[0][0] > RATE_WINDOW_MS) samples.shift();
    const [t0, s0] = samples[0];
    state.rate = samples.length > 1 && now > t0 ? ((total - s0) / (now - t0)) * 1000 : state.rate;
  }

  // The contrast's runs, fresh, training in engine.
  function startRuns(engine) {
    generation += 1;
    scheduled = false;
    samples = [];
    Object.assign(state, {
      engine,
      phase: state.phase === 'paused' ? 'paused' : 'running',
      current: 0,
      rate: null,
      runs: state.runs.map(({ id, options, start }) => makeRun(id, options, start)),
    });
    onChange();
    if (engine === 'workers') startWorkers();
    else schedule();
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
        runs: runs.map(({ id, options }) => freshRun(id, options)),
      });
      startRuns(wantWorkers() ? 'workers' : 'slices');
    },

    // Goes on from a contrast checkpoints.js kept (store.load()): its ended
    // runs as they were, the others from their saved state (or from their
    // start when none was saved).
    resumeSaved(nl, saved) {
      this.reset(false);
      Object.assign(state, {
        nl,
        steps: saved.steps,
        sample: saved.sample,
        settings: saved.settings,
        cell: saved.cell,
        runs: saved.runs.map((run) => ({ id: run.id, options: run.options, start: run })),
      });
      startRuns(wantWorkers() ? 'workers' : 'slices');
    },

    // Forgets the saved progress and saves no more of this contrast.
    forgetSaved() {
      forget();
      if (state.phase === 'running' || state.phase === 'paused') state.saving = 'off';
      onChange();
    },

    pause() {
      if (state.phase !== 'running') return;
      state.phase = 'paused';
      samples = [];
      if (state.engine === 'workers') tellWorkers('pause');
      onChange();
    },

    resume() {
      if (state.phase !== 'paused') return;
      state.phase = 'running';
      if (state.engine === 'workers' && !state.hidden) tellWorkers('resume');
      onChange();
      schedule();
    },

    // Stops, forgets every run (and, unless told otherwise, the saved
    // progress) and drops every live trainer and worker.
    reset(forgetSaved = true) {
      generation += 1;
      scheduled = false;
      release();
      stopWorkers();
      if (forgetSaved) forget();
      samples = [];
      Object.assign(state, {
        phase: 'idle',
        runs: [],
        current: 0,
        rate: null,
        settings: null,
        cell: null,
        engine: null,
        saving: null,
      });
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

// What a saved contrast holds of each run: [{ id, step, ended }].
export function savedRuns(saved) {
  return saved.runs.map((run) => ({ id: run.id, step: run.state?.step ?? 0, ended: run.ended }));
}

// A run's record as plain data (what checkpoints.js keeps of a run that ended).
function plainRun(run) {
  const { start: _start, checkpoint: _checkpoint, savedMs: _savedMs, ...record } = run;
  return record;
}

// A run to train: fresh, or from what was saved of it (start, a run of
// checkpoints.js's saved.runs): as it ended, or with its record up to the
// saved step and its state to restore.
function makeRun(id, options, start = null) {
  if (start?.ended) return { ...start.record, start };
  const run = freshRun(id, options);
  if (start?.state && start.record) {
    run.start = start;
    const { entropy, layerNormsBefore, nextCharsBefore, ...series } = start.record;
    applyPatch(run, { status: 'waiting', append: series, set: { entropy, layerNormsBefore, nextCharsBefore } });
  }
  return run;
}

function freshRun(id, options) {
  return {
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
    heapBytes: null,
    // What the run went on from (makeRun), its latest checkpoint, and when
    // it was taken (performance.now()).
    start: null,
    checkpoint: null,
    savedMs: 0,
  };
}
