// The trainer's JavaScript API: nl.createTrainer() and the trainer object it
// resolves to. Types and every field's meaning are in normlab.d.ts; the
// model, its units of work and its determinism in src/train/trainer.h.
//
// N = steps a call completed
//
//   const trainer = await nl.createTrainer(options)   options: the rows of the module's option
//                                  table (src/train/options.h; normlab.d.ts: TrainerOptions)
//   trainer.config                 the options resolved (text aside)
//   trainer.step(n = 1)            -> TrainRun: n whole steps
//   trainer.advance(budgetMs)      -> TrainRun: units of steps until budgetMs has passed
//   TrainRun = { loss, gradFirst, gradLast, updateFirst, updateLast, lr: Float32Array(N),
//                maxLogit: Float32Array(N L), streamNorm: Float32Array(N (L + 1)), firstStep,
//                stepsDone, unitsDone, unitsPerStep, diverged: boolean }
//   trainer.evaluate()             -> held-out loss (nats)
//   trainer.evaluateFor(budgetMs)  -> { done, loss, windowsDone, windows }: the same in parts
//   trainer.unigramEntropy, trainer.memoryBytes, trainer.heapBytes, trainer.stepsDone
//   trainer.generate(prompt, nBytes, { temperature = 1, seed = 1 }) -> string
//   trainer.generateFor(prompt, nBytes, options, budgetMs)
//                                  -> { done, text, utf8, bytesDone, bytes }: the same in parts
//   trainer.nextBytes(prompt)      -> Float32Array(256): the next byte's probabilities
//   trainer.layerNorms(prompt?)    -> TrainerLayerNorms = { layers, tokens, step,
//                                     residual: Float32Array(L + 1), norms: { inputNorm,
//                                     postAttentionNorm: { in, out: Float32Array(L) } } | null }
//   trainer.saveState()            -> Uint8Array: the training state (between steps)
//   trainer.restoreState(bytes)    a trainer of the same options continues as the saved one
//   trainer.gains()                -> TrainerGains = { layers, hidden, step, gain, bias: { inputNorm,
//                                     postAttentionNorm: Float32Array(L D) } | null,
//                                     finalGain, finalBias: Float32Array(D) | null,
//                                     qGain, kGain: Float32Array(L Dh) | null, outGain, outBias:
//                                     {...} | null, alpha, outAlpha: { inputNorm,
//                                     postAttentionNorm: Float32Array(L) } | null,
//                                     finalAlpha: number | null }
//   trainer.delete()
//
// The module. The trainer is a wasm module of its own
// (wasm/train_bindings.cpp: normlab_train_simd or normlab_train_scalar, the
// flavour of the nl instance's backend), which the backend loader
// (wasm/normlab.js) loads on the first createTrainer(): a page that never
// trains never downloads it. The loader reads the module's description
// once, from the first instance it makes, and hands that instance to the
// first trainer; every later trainer gets a new one.
//
// Memory. Each trainer lives in an instance of that module of its own
// (createModule again): a run's parameters, Adam state and activations grow
// that instance's memory only, and delete() drops the instance, so the
// engine can take all of it back (a wasm memory never shrinks; an instance
// can be dropped). The nl instance's own memory is not touched. Loading the
// module and making an instance are asynchronous, hence the promise.
//
// Errors. Options are checked before the trainer is made: their names and
// types here, by walking the module's option tables (src/train/options.h:
// createTrainer()'s and generate()'s, through boundary.coerceOptions), their
// values by the C++ checks (on the instance that is to hold the trainer),
// which return a problem (code, field, message). Its message is thrown
// unchanged: as a TypeError when the field it names had the wrong type,
// else as the class its code calls for (boundary.js: ERROR_CLASSES). A run
// that diverges (a loss or gradient NaN or Inf) is reported in the result
// (diverged: true, loss NaN), never thrown.
//
// Results cross as the tables of src/train/results.h declare them, read by
// walking the trainer module's description (wasm/boundary.js): one packed
// buffer per call, .slice()d at once; every array of a result is a view of
// that copy. Only diverged and config.qkNorm are turned from 0/1 into
// booleans here.

import TRAINING_TEXT from '../web/data/training-text.zh.txt';

import { coerceOptions, readBoundary } from './boundary.js';

const MAX_STEPS_PER_CALL = 100000;

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();

// The trainer's module of one flavour: loadNamespace() resolves to its
// namespace ({ default: factory }). The loader returned reads the module's
// description once, from the first instance it makes, and hands that
// instance to the first trainer, so no instance is kept beyond the trainers
// that use them; a load that failed is tried again by the next call. The
// backend loader (wasm/normlab.js) keeps one per flavour; a lab worker
// (web/src/lab/worker.js) one of its own.
export function makeTrainModuleLoader(loadNamespace) {
  let loading = null;
  return function loadTrainModule() {
    if (loading === null) {
      loading = (async () => {
        const { default: createModule } = await loadNamespace();
        let first = await createModule();
        const boundary = readBoundary(first);
        const instance = () => {
          if (first === null) return createModule();
          const module = first;
          first = null;
          return Promise.resolve(module);
        };
        return { instance, boundary };
      })();
      loading.catch(() => {
        loading = null;
      });
    }
    return loading;
  };
}

// loadTrainModule() resolves to the trainer's module: { instance(): a new
// instance of it, one per trainer, which validates the options and holds the
// trainer (dropped with it, or at once when the options are bad); boundary:
// its description (readBoundary), which every instance shares }.
export function makeCreateTrainer(loadTrainModule, { checkLive, onCreate, onDelete }) {
  return async function createTrainer(options) {
    checkLive();
    const { instance: newInstance, boundary } = await loadTrainModule();
    const { values: cpp, wrongType } = coerceOptions(boundary.options.trainer, options, 'trainer', {
      text: TRAINING_TEXT,
    });
    if (wrongType.has('text')) throw new TypeError('text must be a string');
    cpp.text = utf8.encode(cpp.text);
    const instance = await newInstance();
    checkLive();
    const error = boundary.error(instance.checkTrainOptions(cpp), wrongType);
    if (error !== null) throw error;

    const handle = new instance.Trainer(cpp);
    let config;
    try {
      const refused = boundary.error(handle.problem(), wrongType);
      if (refused !== null) throw refused;
      failIf(handle.packConfig());
      config = boundary.results.trainConfig.read(handle.packed().slice());
      config.qkNorm = config.qkNorm !== 0;
      Object.freeze(config);
    } catch (error) {
      handle.delete();
      throw error;
    }
    const trainer = wrapTrainer(instance, handle, config, boundary);
    onCreate(trainer);
    return trainer;
  };

  function wrapTrainer(initialInstance, initialHandle, config, boundary) {
    const { trainRun: RUN, trainLayerNorms: LAYER_NORMS, trainGains: GAINS } = boundary.results;
    const GENERATE = boundary.options.generate;
    let instance = initialInstance;
    let handle = initialHandle;
    const unigramEntropy = handle.unigramEntropy();
    const memoryBytes = handle.memoryBytes();

    function live() {
      if (handle === null) throw new Error('trainer was deleted');
      return handle;
    }

    // generateFor()'s sampling in progress: its arguments and bytes so far.
    const sampling = { key: null, bytes: 0 };

    // generate()'s arguments, checked, with their defaults.
    function generateArgs(prompt, nBytes, options) {
      if (typeof prompt !== 'string') throw new TypeError('prompt must be a string');
      const { values: args, wrongType } = coerceOptions(GENERATE, options, 'generate', { nBytes });
      const error = boundary.error(instance.checkGenerateOptions(args.nBytes, args.temperature, args.seed), wrongType);
      if (error !== null) throw error;
      return args;
    }

    function readRun(h) {
      failIf(h.packRun());
      const run = RUN.read(h.packed().slice());
      run.diverged = run.diverged !== 0;
      return run;
    }

    const trainer = {
      config,
      unigramEntropy,
      memoryBytes,

      /** Bytes of this trainer's wasm memory (its instance's heap). */
      get heapBytes() {
        live();
        return instance.memoryInfo().heapBytes;
      },

      get stepsDone() {
        return live().stepsDone();
      },

      step(n = 1) {
        const h = live();
        const message = `n must be an integer in 1..${MAX_STEPS_PER_CALL}`;
        if (typeof n !== 'number') throw new TypeError(message);
        if (!(Number.isInteger(n) && n >= 1 && n <= MAX_STEPS_PER_CALL)) throw new RangeError(message);
        failIf(h.step(n));
        const run = RUN.read(h.packed().slice());
        run.diverged = run.diverged !== 0;
        return run;
      },

      // Units of work (a layer of a micro-batch forward or backward, the
      // head, Adam's update: trainer.h) until budgetMs has passed since the
      // call began: at least one unit, none once the planned steps
      // (config.steps) are done or after the step that diverged. The units
      // are the same whatever the budget, so the results are bit-identical
      // to step()'s however the steps are sliced.
      advance(budgetMs) {
        const h = live();
        checkBudget(budgetMs);
        const t0 = performance.now();
        h.beginRun();
        if (h.stepsDone() < config.steps && !h.diverged()) {
          for (;;) {
            const completed = h.advanceUnit();
            if (completed && (h.diverged() || h.stepsDone() >= config.steps)) break;
            if (performance.now() - t0 >= budgetMs) break;
          }
        }
        return readRun(h);
      },

      evaluate() {
        return live().evaluate();
      },

      // The same evaluation in parts: held-out windows until budgetMs has
      // passed (at least one). { done, loss, windowsDone, windows }: loss is
      // NaN until done, then bit-identical to evaluate()'s. Training between
      // two calls starts it over.
      evaluateFor(budgetMs) {
        const h = live();
        checkBudget(budgetMs);
        const t0 = performance.now();
        let done;
        do done = h.evaluateWindow();
        while (!done && performance.now() - t0 < budgetMs);
        const windows = h.heldoutWindows();
        return { done, loss: done ? h.evaluationLoss() : NaN, windowsDone: done ? windows : h.windowsDone(), windows };
      },

      generate(prompt, nBytes, options) {
        const h = live();
        const args = generateArgs(prompt, nBytes, options);
        const bytes = h.generate(utf8.encode(prompt), args.nBytes, args.temperature, args.seed).slice();
        return fromUtf8.decode(bytes);
      },

      // The same sampling in parts: bytes until budgetMs has passed (at
      // least one). { done, text, bytesDone, bytes }: text is '' until done,
      // then generate()'s with the same arguments. A call with other
      // arguments, or a unit of training between two calls, starts it over.
      generateFor(prompt, nBytes, options, budgetMs) {
        const h = live();
        const args = generateArgs(prompt, nBytes, options);
        checkBudget(budgetMs);
        const t0 = performance.now();
        const key = JSON.stringify([prompt, args.nBytes, args.temperature, args.seed]);
        if (key !== sampling.key) {
          h.beginSampling(utf8.encode(prompt), args.temperature, args.seed);
          sampling.key = key;
          sampling.bytes = 0;
        }
        while (sampling.bytes < args.nBytes) {
          sampling.bytes = h.sampleByte();
          if (performance.now() - t0 >= budgetMs) break;
        }
        const done = sampling.bytes >= args.nBytes;
        const part = { done, text: '', bytesDone: sampling.bytes, bytes: args.nBytes };
        if (done) {
          part.utf8 = args.nBytes === 0 ? new Uint8Array(0) : h.sampled().slice();
          part.text = fromUtf8.decode(part.utf8);
          sampling.key = null;
        }
        return part;
      },

      // The model's next-byte distribution after the prompt: a string (its
      // UTF-8 bytes) or the bytes themselves, which need not be whole
      // characters; its last config.seq bytes count, and none reads as "\n".
      // 256 probabilities, forward only, so training stays bit-identical.
      nextBytes(prompt) {
        const h = live();
        if (typeof prompt === 'string') return h.nextBytes(utf8.encode(prompt)).slice();
        if (prompt instanceof Uint8Array) return h.nextBytes(prompt).slice();
        throw new TypeError('prompt must be a string or a Uint8Array');
      },

      // One forward pass measured layer by layer: the mean L2 per token of
      // the residual stream entering each layer (and leaving the last) and
      // of each norm's input and output (src/train/trainer.h,
      // LayerNormProbe), on the prompt's UTF-8 bytes (1..config.seq) or,
      // without one, the held-out split's first window. It runs on the
      // evaluation's buffers: training results stay bit-identical.
      layerNorms(prompt) {
        const h = live();
        let bytes = new Uint8Array(0);
        if (prompt !== undefined) {
          if (typeof prompt !== 'string') throw new TypeError('prompt must be a string');
          bytes = utf8.encode(prompt);
          const error = boundary.error(instance.checkLayerNormsPrompt(bytes.length, config.seq));
          if (error !== null) throw error;
        }
        failIf(h.packLayerNorms(bytes));
        return LAYER_NORMS.read(h.packed().slice());
      },

      // The norms' learned parameters as they are now, copied (a later step
      // leaves them alone): per layer-norm name the L layers' D gains one
      // after another (layer l's: gain.inputNorm.subarray(l * hidden,
      // (l + 1) * hidden)), LayerNorm's and DyT's biases the same way, the
      // final norm's, and the variants' own: QK-norm's q and k gains, the
      // sandwich's second norms, DyT's alphas; null where the model has
      // none (src/train/trainer.h, NormGains).
      gains() {
        const h = live();
        failIf(h.packGains());
        return GAINS.read(h.packed().slice());
      },

      // The training state as bytes, a copy (src/train/state.h: the
      // parameters, Adam's moments, the steps done, divergence), for a run
      // that must survive its page: a trainer made with the same options
      // that restores it continues bit for bit as this one would. Between
      // steps only: after advance() stopped part-way through a step it
      // throws ('a step is partly done (3 of 50 units): save between
      // steps'); advance() again until unitsDone is 0, or step(1).
      saveState() {
        const h = live();
        const error = boundary.error(h.saveState());
        if (error !== null) throw error;
        const bytes = h.savedState().slice();
        h.releaseState();
        return bytes;
      },

      // Restores saveState()'s bytes, or throws why not and changes nothing:
      // a RangeError for bytes too short or long, not a trainer state,
      // another format version, or a state of other options ('state was
      // saved by a trainer with layers 6, this one has 24') or another text.
      // A step partly done is dropped: the trainer is between steps after.
      restoreState(bytes) {
        const h = live();
        if (!(bytes instanceof Uint8Array)) throw new TypeError('state must be a Uint8Array');
        const error = boundary.error(h.restoreState(bytes));
        if (error !== null) throw error;
      },

      delete() {
        if (handle === null) return;
        handle.delete();
        handle = null;
        instance = null;
        onDelete(trainer);
      },
    };
    return Object.freeze(trainer);
  }
}

function checkBudget(budgetMs) {
  const message = 'budgetMs must be a finite number >= 0';
  if (typeof budgetMs !== 'number') throw new TypeError(message);
  if (!(Number.isFinite(budgetMs) && budgetMs >= 0)) throw new RangeError(message);
}

function failIf(problem) {
  if (problem !== '') throw new Error(problem);
}
