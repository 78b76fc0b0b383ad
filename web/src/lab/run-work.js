// One lab run's work on its trainer, from the trainer made to the run's end,
// cut into slices of a few milliseconds: the most likely next characters
// before the first step, the steps, the held-out loss, the sample, the next
// characters after it. The same code runs on the page's main thread (the
// runner's idle slices) and in a Web Worker (worker.js), so both give the
// same numbers bit for bit.
//
// createRunWork(trainer, { steps, sample }) -> { opening, work(budgetMs, boundary) -> patch,
//   checkpoint(), status, done }
//
// opening is the patch of what the trainer gave as it was made (the
// entropy, the norms before the first step); each work() returns what the slice produced as a patch for the run's
// record (applyPatch below): { status, append, set }, where append holds the
// steps' series to add (loss, gradFirst, gradLast, updateFirst, updateLast,
// maxLogit: plain arrays of the trainer's float32 values; maxLogit is each
// step's largest attention logit over all layers, stepMaxLogits below) and set the values the run
// gained (entropy, layerNormsBefore, nextCharsBefore, heldout, sample,
// sampleBytes, nextCharsAfter, layerNormsAfter, gains, divergedAt). A run
// ends 'done', or 'diverged' on the first step whose loss or gradient is not
// finite (then with the norms and gains of the last weights it updated, and
// no held-out loss, sample or characters after).
//
// Everything in a patch is plain data (structured-clonable), so a worker
// posts it as it is.
import { createNextChars } from './next-chars.js';

// The per-step series a run keeps: those the trainer reports as they are,
// then maxLogit, taken from its per-layer maxLogit.
const STEP_SERIES = ['loss', 'gradFirst', 'gradLast', 'updateFirst', 'updateLast'];
const SERIES = [...STEP_SERIES, 'maxLogit'];

// Each step's largest attention logit over the layers, from the trainer's
// run.maxLogit (step k's layer l at k * layers + l); NaN for a step with a
// NaN layer (after a divergence), as Math.max gives.
export function stepMaxLogits(maxLogit, layers) {
  const steps = [];
  for (let k = 0; k < maxLogit.length / layers; k++) {
    steps.push(Math.max(...maxLogit.subarray(k * layers, (k + 1) * layers)));
  }
  return steps;
}

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
  maxLogit: [],
  entropy: NaN,
});

// now: () -> milliseconds (performance.now on the page and in a worker).
// resumeAt: the steps a restored trainer has done (trainer.restoreState()):
// the run goes on from there, its record up to that step already kept
// (checkpoints.js), so the opening patch is empty.
export function createRunWork(trainer, { steps, sample, resumeAt = 0 }, now = () => performance.now()) {
  let status = resumeAt === 0 ? 'reading' : resumeAt >= steps ? 'evaluating' : 'training';
  let trained = resumeAt;
  // The last slice stopped part-way through a step (no state to save).
  let midStep = false;
  let nextChars = resumeAt === 0 ? createNextChars(trainer, sample.prompt) : null;
  const { layers } = trainer.config;

  // The last weights' norms and gains, as the run ends.
  const ending = (set) => {
    set.layerNormsAfter = plainLayerNorms(trainer.layerNorms());
    set.gains = plainGains(trainer.gains());
  };

  // boundary: stop at the end of a step (a checkpoint is due): a step
  // partly done is finished unit by unit (advance(0) runs one unit), within
  // the budget, then the slice ends.
  function train(budget, patch, boundary) {
    patch.append = Object.fromEntries(SERIES.map((name) => [name, []]));
    const start = now();
    let result;
    do {
      result = trainer.advance(boundary && midStep ? 0 : budget);
      midStep = result.unitsDone !== 0;
      for (const name of STEP_SERIES) for (const v of result[name]) patch.append[name].push(v);
      for (const v of stepMaxLogits(result.maxLogit, layers)) patch.append.maxLogit.push(v);
    } while (boundary && midStep && !result.diverged && now() - start < budget);
    if (result.diverged) {
      const bad = patch.append.loss.findIndex((v) => !Number.isFinite(v));
      patch.set.divergedAt = trained + (bad < 0 ? patch.append.loss.length : bad + 1);
      status = 'diverged';
      ending(patch.set);
    } else if (trained + patch.append.loss.length >= steps) status = 'evaluating';
    trained += patch.append.loss.length;
  }

  function read(budget, set) {
    const start = now();
    while (!nextChars.step()) if (now() - start >= budget) return;
    // Before the first step, or after the sample.
    if (trained === 0) {
      set.nextCharsBefore = nextChars.result;
      status = 'training';
      return;
    }
    set.nextCharsAfter = nextChars.result;
    status = 'done';
    ending(set);
  }

  return {
    opening: {
      status,
      append: null,
      set:
        resumeAt === 0
          ? { entropy: trainer.unigramEntropy, layerNormsBefore: plainLayerNorms(trainer.layerNorms()) }
          : {},
    },
    // The run's training state between two steps, for a checkpoint:
    // { step, bytes: trainer.saveState() }, or null when the last slice
    // stopped part-way through a step, before the first step or once the
    // run has ended.
    checkpoint() {
      if (trained === 0 || midStep || status === 'done' || status === 'diverged') return null;
      return { step: trained, bytes: trainer.saveState() };
    },
    get status() {
      return status;
    },
    get done() {
      return status === 'done' || status === 'diverged';
    },
    // One slice of about budgetMs; the patch of what it produced.
    // boundary: a checkpoint is due, so training stops at a step's end.
    work(budget, boundary = false) {
      const patch = { status, append: null, set: {} };
      if (status === 'reading') read(budget, patch.set);
      else if (status === 'training') train(budget, patch, boundary);
      else if (status === 'evaluating') {
        const result = trainer.evaluateFor(budget);
        if (result.done) {
          patch.set.heldout = result.loss;
          status = 'sampling';
        }
      } else if (status === 'sampling') {
        const { prompt, bytes, temperature, seed } = sample;
        const result = trainer.generateFor(prompt, bytes, { temperature, seed }, budget);
        if (result.done) {
          patch.set.sample = result.text;
          patch.set.sampleBytes = Array.from(result.utf8);
          nextChars = createNextChars(trainer, prompt);
          status = 'reading';
        }
      }
      patch.status = status;
      return patch;
    },
  };
}

// Adds a patch to a run's record (runner.js's run objects).
export function applyPatch(run, { status, append, set }) {
  if (append) for (const name of SERIES) for (const v of append[name]) run[name].push(v);
  for (const [key, value] of Object.entries(set)) {
    if (key === 'layerNormsBefore') run.layerNorms.before = value;
    else if (key === 'layerNormsAfter') run.layerNorms.after = value;
    else if (key === 'nextCharsBefore') run.nextChars.before = value;
    else if (key === 'nextCharsAfter') run.nextChars.after = value;
    else run[key] = value;
  }
  run.status = status;
}
