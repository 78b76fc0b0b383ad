// dist/lab-worker.js: one lab run in a Web Worker (runner.js starts one
// worker per run; workers.js makes them). The worker holds its own instance
// of the trainer's module, of the flavour the page's module uses, and does
// the run's whole work (run-work.js, the code the page's idle slices run),
// posting each slice's patch to the page, which only paints. When the run
// ends the page terminates the worker, which drops the instance.
//
// The page says (postMessage):
//   { type: 'start', flavour: 'simd128' | 'scalar', script, options, steps, sample, resume, checkpointMs }
//       script: the URL of the trainer's classic script, loaded unless the
//       worker's own source already carries it (workers.js's blob form);
//       resume: { step, state: Blob } a saved state to go on from, or null;
//       checkpointMs: how often to send the run's state
//   { type: 'pause' }, { type: 'resume' }
// The worker answers:
//   { type: 'unavailable', message }   the trainer's module did not load here
//   { type: 'failed', message }         createTrainer() refused the options
//   { type: 'created', patch, heapBytes }  the trainer is made (patch: run-work.js's opening)
//   { type: 'patch', patch, heapBytes } one slice's work (run-work.js)
//   { type: 'state', step, state }      the run's state between two steps
//                                       (a Blob of trainer.saveState()'s
//                                       bytes), every checkpointMs (checkpoints.js)
import { makeCreateTrainer, makeTrainModuleLoader } from '../../../wasm/trainer.js';
import { createRunWork } from './run-work.js';

// A slice's budget: long enough that the messages cost nothing, short
// enough that a pause takes effect at once.
const SLICE_MS = 40;

const KEYS = { simd128: 'trainSimd128', scalar: 'trainScalar' };

let paused = false;
let trainer = null;
let work = null;
let checkpointMs = Infinity;
let saved = 0;

// A zero-delay turn of the event loop (a timeout's would be clamped to 4 ms
// after a few), so pause and resume are read between slices.
const channel = new MessageChannel();
channel.port1.onmessage = slice;
const later = () => channel.port2.postMessage(null);

function slice() {
  if (paused || work === null) return;
  const due = performance.now() - saved >= checkpointMs;
  const patch = work.work(SLICE_MS, due);
  self.postMessage({ type: 'patch', patch, heapBytes: trainer.heapBytes });
  if (due) {
    const state = work.checkpoint();
    if (state) {
      saved = performance.now();
      // As a Blob: the page stores it without copying its bytes on its
      // own thread (checkpoints.js).
      self.postMessage({ type: 'state', step: state.step, state: new Blob([state.bytes]) });
    }
  }
  if (work.done) {
    trainer.delete();
    trainer = null;
    work = null;
  } else later();
}

async function start({ flavour, script, options, steps, sample, resume, checkpointMs: every }) {
  let createTrainer;
  try {
    const key = KEYS[flavour];
    if (!self.normlabBackends?.[key]) self.importScripts(script);
    const load = makeTrainModuleLoader(async () => self.normlabBackends[key]);
    await load();
    createTrainer = makeCreateTrainer(load, { checkLive() {}, onCreate() {}, onDelete() {} });
  } catch (error) {
    self.postMessage({ type: 'unavailable', message: String(error?.message ?? error) });
    return;
  }
  try {
    trainer = await createTrainer(options);
    if (resume) trainer.restoreState(new Uint8Array(await resume.state.arrayBuffer()));
  } catch (error) {
    trainer?.delete();
    trainer = null;
    self.postMessage({ type: 'failed', message: error.message });
    return;
  }
  checkpointMs = every;
  saved = performance.now();
  work = createRunWork(trainer, { steps, sample, resumeAt: resume?.step ?? 0 });
  self.postMessage({ type: 'created', patch: work.opening, heapBytes: trainer.heapBytes });
  later();
}

self.onmessage = ({ data }) => {
  if (data.type === 'start') start(data);
  else if (data.type === 'pause') paused = true;
  else if (data.type === 'resume' && paused) {
    paused = false;
    later();
  }
};
