// normlab's public JavaScript API over the wasm kernels; types and the meaning
// of every result are in normlab.d.ts.
//
// Every argument is checked here, before anything reaches wasm: the modules are
// built without C++ exceptions, and a rejected call must leave nothing behind.
// An accepted call then works on the module's one long-lived Workspace:
//   resize it to (rows, dim), only when the shape differs from the last call's
//   ->  write each input with one .set() into the cached heap view
//   ->  run one kernel (one direct wasm call, module._nl_ws_*)
//   ->  copy the result out with one .slice(), or one .set() into `out`.
// Tensors (nl.tensor()) already live in the wasm memory: a tensor input is not
// written, the kernel reads it where it is; a tensor `out` is written by the
// kernel itself and returned. A call on tensors only is one wasm call and no
// copy at all.
// The heap view is re-taken only when the wasm memory has grown (the cached
// view's buffer is no longer the memory's buffer): the view rule in
// bindings.cpp.
// The Workspace's buffers are found by name: the module's description
// (boundary.js) gives each its index in the layout nl_ws_layout returns, and
// the statistics' names (the stats buffer is (T, S), S = the named axis).
//
// The two entry files (entry.esm.js, entry.classic.js) differ only in how a
// backend's module gets onto the page; they pass makeLoadNormlab one function
// per backend that resolves to that module's namespace ({ default: factory }),
// so a backend is loaded only when a loadNormlab() call picks it, and one
// per backend for the trainer's module of the same flavour
// (wasm/train_bindings.cpp), loaded only on the first createTrainer().

import { simd } from 'wasm-feature-detect';

import { readBoundary } from './boundary.js';
import { makeCreateModel } from './model.js';
import { makeCreateTrainer, makeTrainModuleLoader } from './trainer.js';

const BACKENDS = ['simd128', 'scalar'];

// The kernels take int sizes; a larger input could not fit in memory anyway.
const MAX_ELEMENTS = 2 ** 31 - 1;

// backends, trainBackends: { simd128, scalar }, each a function resolving to
// that module's namespace.
export function makeLoadNormlab(backends, trainBackends) {
  // The trainer's module, by flavour (makeTrainModuleLoader): shared by
  // every nl instance of the flavour.
  const trainModules = new Map();
  function loadTrainModule(name) {
    if (!trainModules.has(name)) trainModules.set(name, makeTrainModuleLoader(trainBackends[name]));
    return trainModules.get(name)();
  }

  return async function loadNormlab(options) {
    const { backend = 'auto' } = checkOptions(options);
    if (backend !== 'auto' && !BACKENDS.includes(backend)) {
      throw new RangeError("backend must be 'auto', 'simd128' or 'scalar'");
    }
    const hasSimd = await simd();
    if (backend === 'simd128' && !hasSimd) {
      throw new Error("backend 'simd128' needs WebAssembly SIMD128, which this engine lacks: use 'auto' or 'scalar'");
    }
    const name = backend === 'auto' ? (hasSimd ? 'simd128' : 'scalar') : backend;
    const { default: createModule } = await backends[name]();
    return createApi(await createModule(), name, () => loadTrainModule(name));
  };
}

// ---------------------------------------------------------------- tensors
//
// A tensor is a run of floats malloc'd in one instance's wasm memory
// (nl_tensor_alloc), alive until free() or the instance's dispose(). Its
// state is a private field, read through tensorState(), which only this file
// holds, so nothing outside it can reach the address; `owner` tells the
// instances apart. (A private field rather than a WeakMap keyed by the
// tensor: a kernel call reads the state of x, gain, bias and out up to seven
// times, and a private field is read like any property, without a hash
// lookup.)
const TENSOR_KEY = Symbol('normlab tensor');

/** @type {(v: unknown) => TensorState | undefined} The state of a Tensor, else undefined. */
let tensorState;

class TensorState {
  constructor(owner, module, ptr, length, free) {
    this.owner = owner; // the instance's token
    this.module = module;
    this.ptr = ptr; // byte address; 0 for an empty tensor, -1 once freed
    this.length = length;
    this.view = null; // the last .array
    this.free = free;
  }
}

class Tensor {
  #state;

  static {
    tensorState = (v) => (typeof v === 'object' && v !== null && #state in v ? v.#state : undefined);
  }

  constructor(key, state) {
    if (key !== TENSOR_KEY) throw new TypeError('create tensors with nl.tensor()');
    this.#state = state;
  }

  /** Number of floats. */
  get length() {
    return this.#state.length;
  }

  /**
   * A Float32Array view of the floats in the wasm memory. The view rule: the
   * view is re-taken whenever the memory has grown since the last one
   * (growth leaves older views empty), so read .array again after any
   * normlab call rather than keeping it.
   */
  get array() {
    const s = this.#state;
    if (s.ptr < 0) throw new Error('tensor was freed');
    const buffer = s.module.HEAPF32.buffer;
    if (s.view === null || s.view.buffer !== buffer) s.view = new Float32Array(buffer, s.ptr, s.length);
    return s.view;
  }

  /** Give the memory back. Later uses throw 'tensor was freed'; safe to call twice. */
  free() {
    const s = this.#state;
    if (s.ptr >= 0) s.free(this);
  }
}
// `using t = nl.tensor(n)` frees t at the end of its block, where the engine
// has explicit resource management.
if (typeof Symbol.dispose === 'symbol') Tensor.prototype[Symbol.dispose] = Tensor.prototype.free;

// loadTrainModule: resolves to the trainer's module of this backend's
// flavour (makeLoadNormlab), which makes each trainer an instance of its own
// (trainer.js).
function createApi(module, backend, loadTrainModule) {
  const boundary = readBoundary(module);
  // Index of each Workspace buffer's address in the layout, by name; the
  // resize flags of the two (T, D) buffers; each row's statistics, in order.
  const { slot } = boundary.workspace;
  const NEED_INPUT = boundary.workspace.need.input;
  const NEED_OUTPUT = boundary.workspace.need.output;
  const STAT_NAMES = boundary.axes.S;
  const VARIANCE = STAT_NAMES.indexOf('variance');

  let workspace = new module.Workspace();
  let arch, handle;
  try {
    arch = module.kernelArchName();
    handle = workspace.handle();
  } catch (error) {
    workspace.delete();
    throw error;
  }

  function ws() {
    if (workspace === null) throw new Error('this normlab instance has been disposed');
    return workspace;
  }

  // Models are freed by their own delete(), or all at once by dispose().
  const models = new Set();
  const createModel = makeCreateModel(module, boundary, {
    checkLive: ws,
    onCreate: (model) => models.add(model),
    onDelete: (model) => models.delete(model),
  });

  // Trainers likewise; each holds a module instance of its own.
  const trainers = new Set();
  const createTrainer = makeCreateTrainer(loadTrainModule, {
    checkLive: ws,
    onCreate: (trainer) => trainers.add(trainer),
    onDelete: (trainer) => trainers.delete(trainer),
  });

  // The heap view (the view rule in bindings.cpp): Emscripten replaces
  // module.HEAPF32 with a view of the new buffer whenever memory grows, so
  // the current one is always valid. (Comparing a cached view's .buffer
  // with it would cost two getter calls, 15% of a 64-float kernel call.)
  const heapView = () => module.HEAPF32;

  // ---- tensors of this instance
  const owner = {};
  const tensors = new Set(); // alive, freed by dispose()
  function freeTensor(t) {
    const s = tensorState(t);
    if (s.ptr > 0) module._nl_tensor_free(s.ptr);
    s.ptr = -1;
    s.view = null;
    tensors.delete(t);
  }

  function tensor(init) {
    ws();
    let n;
    let values = null;
    if (typeof init === 'number') {
      if (!Number.isInteger(init) || init < 0) throw new RangeError('tensor length must be an integer >= 0');
      n = init;
    } else {
      const s = tensorState(init);
      if (s !== undefined) {
        if (s.ptr < 0) throw new Error('tensor was freed');
        values = init.array.slice(); // allocating may grow this memory: copy first
      } else if (init instanceof Float32Array || Array.isArray(init)) {
        checkVector(init, 'values');
        values = init instanceof Float32Array && init.buffer === module.HEAPF32.buffer ? init.slice() : init;
      } else {
        throw new TypeError('tensor() takes a length, a Float32Array, an array of numbers or a tensor');
      }
      n = values.length;
    }
    if (n > MAX_ELEMENTS) throw new RangeError(`a tensor of ${n} floats does not fit in the wasm memory`);
    const ptr = n === 0 ? 0 : module._nl_tensor_alloc(n) >>> 0;
    if (n > 0 && ptr === 0) throw new RangeError(`a tensor of ${n} floats does not fit in the wasm memory`);
    const t = new Tensor(TENSOR_KEY, new TensorState(owner, module, ptr, n, freeTensor));
    tensors.add(t);
    if (values !== null) t.array.set(values);
    return t;
  }

  // A row-data argument (x, p, gain, bias): a live tensor of this instance
  // (returns its state), or a Float32Array or array of numbers (returns null).
  // A Float32Array on this instance's memory (a tensor's .array) is refused:
  // a call that grows the memory would empty it halfway.
  function dataArg(v, name) {
    const s = tensorState(v);
    if (s !== undefined) return liveTensor(s, name);
    checkVector(v, name);
    if (v.buffer === module.HEAPF32.buffer) throw new TypeError(heapViewMessage(name));
    return null;
  }

  function liveTensor(s, name) {
    if (s.owner !== owner) throw new Error(`${name} is a tensor of another normlab instance`);
    if (s.ptr < 0) throw new Error('tensor was freed');
    return s;
  }

  // The optional destination of rmsnorm, layernorm, softmax and copyRows:
  // absent (undefined or null), a Float32Array or a tensor of exactly n
  // elements, which the call fills and returns instead of allocating a new
  // array. It may be x; a tensor may not be the gain or bias tensor (its
  // later rows would read the earlier rows' output).
  function outArg(out, n, gain = null, bias = null) {
    if (out === undefined || out === null) return null;
    const s = tensorState(out);
    if (s !== undefined) {
      liveTensor(s, 'out');
      if (s.length !== n) throw new RangeError(`out.length ${s.length} != x.length ${n}`);
      if (s === gain) throw new RangeError('out cannot be the gain tensor');
      if (s === bias) throw new RangeError('out cannot be the bias tensor');
      return s;
    }
    if (!(out instanceof Float32Array)) throw new TypeError('out must be a Float32Array or a tensor');
    if (out.length !== n) throw new RangeError(`out.length ${out.length} != x.length ${n}`);
    if (out.buffer === module.HEAPF32.buffer) throw new TypeError(heapViewMessage('out'));
    return out;
  }

  // gain or bias: absent (undefined or null), or one value per column. With no
  // rows there is no dim to hold the length against. Returns the tensor
  // state, the vector, or null.
  function paramArg(v, name, rows, dim) {
    if (v === undefined || v === null) return null;
    const s = dataArg(v, name);
    if (rows > 0 && v.length !== dim) throw new RangeError(`${name}.length ${v.length} != dim ${dim}`);
    return s ?? v;
  }

  // The workspace's shape and buffer addresses as of its last resize: byte
  // addresses (*Ptr) for the kernels, float offsets (*At) into the heap view.
  // `need` says which (T, D) buffers it holds at that shape (NEED_*).
  let shapeRows = -1;
  let shapeDim = -1;
  let shapeNeed = 0;
  let inpPtr = 0,
    gainPtr = 0,
    biasPtr = 0,
    outPtr = 0;
  let inp = 0,
    gainAt = 0,
    biasAt = 0,
    outAt = 0,
    meanAt = 0,
    rstdAt = 0;
  let entropyAt = 0,
    maxProbAt = 0,
    statsAt = 0;

  // Shape the workspace for rows x dim with the (T, D) buffers `need` asks
  // for; may grow memory (heapView() after it).
  function resize(rows, dim, need, name) {
    ws();
    const same = rows === shapeRows && dim === shapeDim;
    if (same && (need & ~shapeNeed) === 0) return;
    const want = need | (same ? shapeNeed : 0);
    const n = rows * dim;
    if (n > MAX_ELEMENTS || !module._nl_ws_resize(handle, rows, dim, want)) {
      throw new RangeError(`${name}.length ${n} does not fit in the wasm memory`);
    }
    shapeRows = rows;
    shapeDim = dim;
    shapeNeed = want;
    const layout = module.HEAPU32.subarray(module._nl_ws_layout(handle) >>> 2);
    inpPtr = layout[slot.input];
    gainPtr = layout[slot.gain];
    biasPtr = layout[slot.bias];
    outPtr = layout[slot.output];
    inp = inpPtr >>> 2;
    gainAt = gainPtr >>> 2;
    biasAt = biasPtr >>> 2;
    outAt = outPtr >>> 2;
    meanAt = layout[slot.mean] >>> 2;
    rstdAt = layout[slot.rstd] >>> 2;
    entropyAt = layout[slot.entropy] >>> 2;
    maxProbAt = layout[slot.maxProb] >>> 2;
    statsAt = layout[slot.stats] >>> 2;
  }

  // What a kernel call needs from the workspace: its input buffer unless x is
  // a tensor, its output buffer unless out is.
  const needFor = (xs, out) => (xs === null ? NEED_INPUT : 0) | (isTensorState(out) ? 0 : NEED_OUTPUT);

  // Address of x: the tensor's, or the input buffer after writing x there.
  function inputPtr(h, x, xs) {
    if (xs !== null) return xs.ptr;
    h.set(x, inp);
    return inpPtr;
  }

  // Address of gain or bias: 0 for none, the tensor's, or its workspace
  // buffer after writing it there.
  function paramPtr(h, p, ptr, at) {
    if (p === null) return 0;
    if (isTensorState(p)) return p.ptr;
    h.set(p, at);
    return ptr;
  }

  // The call's result: out itself when it is a tensor (the kernel wrote
  // there); else the n floats of the output buffer, as a new array or
  // copied into out.
  function result(h, n, out, outValue) {
    if (out === null) return h.slice(outAt, outAt + n);
    if (isTensorState(out)) return outValue;
    out.set(h.subarray(outAt, outAt + n));
    return out;
  }

  const emptyResult = (outValue) => outValue ?? new Float32Array(0);

  function rmsnorm(x, options) {
    const o = checkOptions(options);
    const xs = dataArg(x, 'x');
    const { rows, dim } = checkShape(x, o.dim, 'x');
    const gain = paramArg(o.gain, 'gain', rows, dim);
    const eps = checkEps(o.eps, 1e-6);
    const out = outArg(o.out, x.length, gain);
    if (rows === 0) return emptyResult(o.out);
    resize(rows, dim, needFor(xs, out), 'x');
    const h = heapView();
    const xPtr = inputPtr(h, x, xs);
    const gPtr = paramPtr(h, gain, gainPtr, gainAt);
    module._nl_ws_rmsnorm(handle, isTensorState(out) ? out.ptr : outPtr, xPtr, gPtr, eps);
    return result(h, x.length, out, o.out);
  }

  function layernorm(x, options) {
    const o = checkOptions(options);
    const xs = dataArg(x, 'x');
    const { rows, dim } = checkShape(x, o.dim, 'x');
    const gain = paramArg(o.gain, 'gain', rows, dim);
    const bias = paramArg(o.bias, 'bias', rows, dim);
    const eps = checkEps(o.eps, 1e-5);
    const out = outArg(o.out, x.length, gain, bias);
    if (rows === 0) return emptyResult(o.out);
    resize(rows, dim, needFor(xs, out), 'x');
    const h = heapView();
    const xPtr = inputPtr(h, x, xs);
    const gPtr = paramPtr(h, gain, gainPtr, gainAt);
    const bPtr = paramPtr(h, bias, biasPtr, biasAt);
    module._nl_ws_layernorm(handle, isTensorState(out) ? out.ptr : outPtr, xPtr, gPtr, bPtr, eps);
    return result(h, x.length, out, o.out);
  }

  function softmax(x, options) {
    const o = checkOptions(options);
    const xs = dataArg(x, 'x');
    const { rows, dim } = checkShape(x, o.dim, 'x');
    const temperature = checkTemperature(o.temperature);
    const out = outArg(o.out, x.length);
    if (rows === 0) return emptyResult(o.out);
    resize(rows, dim, needFor(xs, out), 'x');
    const h = heapView();
    const xPtr = inputPtr(h, x, xs);
    module._nl_ws_softmax(handle, isTensorState(out) ? out.ptr : outPtr, xPtr, temperature);
    return result(h, x.length, out, o.out);
  }

  // The *Steps functions work on a copy of a tensor's row: they compute
  // parts of the worked example in JS from its values.
  function stepsInput(x) {
    return dataArg(x, 'x') === null ? x : x.array.slice();
  }

  function rmsnormSteps(x, options) {
    const o = checkOptions(options);
    x = stepsInput(x);
    const eps = checkEps(o.eps, 1e-6);
    const n = x.length;
    const squares = Float32Array.from(x, (v) => v * v);
    if (n === 0) return { squares, meanSquare: NaN, rms: NaN, y: new Float32Array(0) };
    const meanSquare = sum(squares) / n;
    resize(1, n, NEED_INPUT | NEED_OUTPUT, 'x');
    const h = heapView();
    h.set(x, inp);
    module._nl_ws_rmsnorm(handle, outPtr, inpPtr, 0, eps);
    const rstd = h[rstdAt];
    // Rounded to float32 like every other kernel value (1 / 0.2f is 5, not
    // 4.99999993). The kernel reports rstd = 0 where 1 / rms has no finite value
    // (an all-zero row with eps = 0, or an overflowing mean square).
    const rms = rstd > 0 ? Math.fround(1 / rstd) : Math.sqrt(meanSquare + eps);
    return { squares, meanSquare, rms, y: h.slice(outAt, outAt + n) };
  }

  function layernormSteps(x, options) {
    const o = checkOptions(options);
    x = stepsInput(x);
    const eps = checkEps(o.eps, 1e-5);
    const n = x.length;
    if (n === 0) {
      return { mean: NaN, centered: new Float32Array(0), variance: NaN, std: NaN, y: new Float32Array(0) };
    }
    resize(1, n, NEED_INPUT | NEED_OUTPUT, 'x');
    const h = heapView();
    h.set(x, inp);
    module._nl_ws_layernorm(handle, outPtr, inpPtr, 0, 0, eps);
    module._nl_ws_row_stats(handle, inpPtr);
    const mean = h[meanAt];
    const rstd = h[rstdAt];
    const variance = h[statsAt + VARIANCE];
    const std = rstd > 0 ? Math.fround(1 / rstd) : Math.sqrt(variance + eps);
    const y = h.slice(outAt, outAt + n);
    return { mean, centered: Float32Array.from(x, (v) => v - mean), variance, std, y };
  }

  function stats(x, options) {
    const o = checkOptions(options);
    const xs = dataArg(x, 'x');
    const { rows, dim } = checkShape(x, o.dim, 'x');
    const result = Object.fromEntries(STAT_NAMES.map((f) => [f, new Float32Array(rows)]));
    if (rows === 0) return result;
    resize(rows, dim, xs === null ? NEED_INPUT : 0, 'x');
    const h = heapView();
    module._nl_ws_row_stats(handle, inputPtr(h, x, xs));
    const width = STAT_NAMES.length;
    STAT_NAMES.forEach((field, k) => {
      const column = result[field];
      for (let t = 0; t < rows; t++) column[t] = h[statsAt + t * width + k];
    });
    return result;
  }

  function distributionStats(p, options) {
    const o = checkOptions(options);
    const ps = dataArg(p, 'p');
    const { rows, dim } = checkShape(p, o.dim, 'p');
    if (rows === 0) return { entropy: new Float32Array(0), maxProb: new Float32Array(0) };
    resize(rows, dim, ps === null ? NEED_INPUT : 0, 'p');
    const h = heapView();
    module._nl_ws_distribution_stats(handle, inputPtr(h, p, ps));
    return { entropy: h.slice(entropyAt, entropyAt + rows), maxProb: h.slice(maxProbAt, maxProbAt + rows) };
  }

  function copyRows(x, options) {
    const o = checkOptions(options);
    const xs = dataArg(x, 'x');
    const { rows, dim } = checkShape(x, o.dim, 'x');
    const out = outArg(o.out, x.length);
    if (rows === 0) return emptyResult(o.out);
    resize(rows, dim, needFor(xs, out), 'x');
    const h = heapView();
    const xPtr = inputPtr(h, x, xs);
    module._nl_ws_copy_rows(handle, isTensorState(out) ? out.ptr : outPtr, xPtr);
    return result(h, x.length, out, o.out);
  }

  const memory = () => module.memoryInfo();

  return Object.freeze({
    backend,
    arch,
    tensor,
    rmsnorm,
    layernorm,
    softmax,
    rmsnormSteps,
    layernormSteps,
    stats,
    distributionStats,
    copyRows,
    createModel,
    createTrainer,
    heapBytes: () => memory().heapBytes,
    mallocBytes: () => memory().mallocBytes,
    liveAllocations: () => memory().liveAllocations,
    dispose() {
      if (workspace === null) return;
      for (const t of [...tensors]) freeTensor(t);
      for (const model of [...models]) model.delete();
      for (const trainer of [...trainers]) trainer.delete();
      workspace.delete();
      workspace = null;
    },
  });
}

// A tensor's state (from tensorState()), as opposed to a Float32Array or array.
function isTensorState(v) {
  return v instanceof TensorState;
}

function heapViewMessage(name) {
  return `${name} is a view of this normlab instance's memory (a tensor's .array): pass the tensor itself, or a copy (.slice())`;
}

function checkOptions(options) {
  if (options === undefined) return {};
  if (options === null || typeof options !== 'object') throw new TypeError('options must be an object');
  return options;
}

function checkVector(v, name) {
  if (v instanceof Float32Array) return;
  if (!Array.isArray(v)) throw new TypeError(`${name} must be a Float32Array, an array of numbers or a tensor`);
  for (let i = 0; i < v.length; i++) {
    if (typeof v[i] !== 'number') throw new TypeError(`${name}[${i}] is not a number`);
  }
}

// Rows of `dim` values; dim defaults to the whole vector as one row.
function checkShape(v, dim, name) {
  const n = v.length;
  if (dim === undefined) return { rows: n === 0 ? 0 : 1, dim: n };
  if (typeof dim !== 'number') throw new TypeError('dim must be a positive integer');
  if (!Number.isInteger(dim) || dim < 1) throw new RangeError('dim must be a positive integer');
  if (n % dim !== 0) throw new RangeError(`${name}.length ${n} is not a multiple of dim ${dim}`);
  return { rows: n / dim, dim };
}

// Scalars reach the kernels as float32, so they are judged as float32: a huge
// eps would become Infinity, a tiny temperature 0.
function checkEps(eps, fallback) {
  if (eps === undefined) return fallback;
  const message = 'eps must be a finite number >= 0';
  if (typeof eps !== 'number') throw new TypeError(message);
  if (!(Number.isFinite(Math.fround(eps)) && eps >= 0)) throw new RangeError(message);
  return eps;
}

function checkTemperature(temperature) {
  if (temperature === undefined) return 1;
  const message = 'temperature must be a finite number > 0';
  if (typeof temperature !== 'number') throw new TypeError(message);
  const t = Math.fround(temperature);
  if (!(Number.isFinite(t) && t > 0)) throw new RangeError(message);
  return temperature;
}

function sum(values) {
  let s = 0;
  for (const v of values) s += v;
  return s;
}
