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
// The heap view is re-taken only when the wasm memory has grown (the cached
// view's buffer is no longer the memory's buffer): the view rule in
// bindings.cpp.
//
// The two entry files (entry.esm.js, entry.classic.js) differ only in how a
// backend's module gets onto the page; they pass makeLoadNormlab one function
// per backend that resolves to that module's namespace ({ default: factory }),
// so a backend is loaded only when a loadNormlab() call picks it.

import { simd } from 'wasm-feature-detect';

import { makeCreateModel } from './model.js';

const BACKENDS = ['simd128', 'scalar'];

// Row-major float32 fields of one RowStats (bindings.cpp asserts the layout).
const ROW_STATS_FIELDS = ['l2', 'mean', 'variance', 'std', 'rms', 'maxAbs'];

// The kernels take int sizes; a larger input could not fit in memory anyway.
const MAX_ELEMENTS = 2 ** 31 - 1;

export function makeLoadNormlab(backends) {
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
    return createApi(await createModule(), name);
  };
}

function createApi(module, backend) {
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
  const createModel = makeCreateModel(module, {
    checkLive: ws,
    onCreate: (model) => models.add(model),
    onDelete: (model) => models.delete(model),
  });

  // The cached heap view (the view rule in bindings.cpp): Emscripten re-points
  // module.HEAPF32 at the new buffer whenever memory grows.
  let heap = module.HEAPF32;
  function heapView() {
    if (heap.buffer !== module.HEAPF32.buffer) heap = module.HEAPF32;
    return heap;
  }

  // The workspace's shape and buffer offsets (in floats) as of its last resize.
  let shapeRows = -1;
  let shapeDim = -1;
  let inp = 0, gainAt = 0, biasAt = 0, outAt = 0, meanAt = 0, rstdAt = 0;
  let entropyAt = 0, maxProbAt = 0, statsAt = 0;

  // Shape the workspace for rows x dim; may grow memory (heapView() after it).
  function resize(rows, dim, name) {
    ws();
    if (rows === shapeRows && dim === shapeDim) return;
    const n = rows * dim;
    if (n > MAX_ELEMENTS || !module._nl_ws_resize(handle, rows, dim)) {
      throw new RangeError(`${name}.length ${n} does not fit in the wasm memory`);
    }
    shapeRows = rows;
    shapeDim = dim;
    const at = module._nl_ws_layout(handle) >>> 2;
    const layout = module.HEAPU32;
    inp = layout[at] >>> 2;
    gainAt = layout[at + 1] >>> 2;
    biasAt = layout[at + 2] >>> 2;
    outAt = layout[at + 3] >>> 2;
    meanAt = layout[at + 4] >>> 2;
    rstdAt = layout[at + 5] >>> 2;
    entropyAt = layout[at + 6] >>> 2;
    maxProbAt = layout[at + 7] >>> 2;
    statsAt = layout[at + 8] >>> 2;
  }

  // The n results at the output buffer: a new array, or copied into `out`.
  function result(h, n, out) {
    if (out === null) return h.slice(outAt, outAt + n);
    out.set(h.subarray(outAt, outAt + n));
    return out;
  }

  function rmsnorm(x, options) {
    const o = checkOptions(options);
    checkVector(x, 'x');
    const { rows, dim } = checkShape(x, o.dim, 'x');
    const gain = checkParameter(o.gain, 'gain', rows, dim);
    const eps = checkEps(o.eps, 1e-6);
    const out = checkOut(o.out, x.length);
    if (rows === 0) return out ?? new Float32Array(0);
    resize(rows, dim, 'x');
    const h = heapView();
    h.set(x, inp);
    if (gain) h.set(gain, gainAt);
    module._nl_ws_rmsnorm(handle, eps, gain ? 1 : 0);
    return result(h, x.length, out);
  }

  function layernorm(x, options) {
    const o = checkOptions(options);
    checkVector(x, 'x');
    const { rows, dim } = checkShape(x, o.dim, 'x');
    const gain = checkParameter(o.gain, 'gain', rows, dim);
    const bias = checkParameter(o.bias, 'bias', rows, dim);
    const eps = checkEps(o.eps, 1e-5);
    const out = checkOut(o.out, x.length);
    if (rows === 0) return out ?? new Float32Array(0);
    resize(rows, dim, 'x');
    const h = heapView();
    h.set(x, inp);
    if (gain) h.set(gain, gainAt);
    if (bias) h.set(bias, biasAt);
    module._nl_ws_layernorm(handle, eps, gain ? 1 : 0, bias ? 1 : 0);
    return result(h, x.length, out);
  }

  function softmax(x, options) {
    const o = checkOptions(options);
    checkVector(x, 'x');
    const { rows, dim } = checkShape(x, o.dim, 'x');
    const temperature = checkTemperature(o.temperature);
    const out = checkOut(o.out, x.length);
    if (rows === 0) return out ?? new Float32Array(0);
    resize(rows, dim, 'x');
    const h = heapView();
    h.set(x, inp);
    module._nl_ws_softmax(handle, temperature);
    return result(h, x.length, out);
  }

  function rmsnormSteps(x, options) {
    const o = checkOptions(options);
    checkVector(x, 'x');
    const eps = checkEps(o.eps, 1e-6);
    const n = x.length;
    const squares = Float32Array.from(x, (v) => v * v);
    if (n === 0) return { squares, meanSquare: NaN, rms: NaN, y: new Float32Array(0) };
    const meanSquare = sum(squares) / n;
    resize(1, n, 'x');
    const h = heapView();
    h.set(x, inp);
    module._nl_ws_rmsnorm(handle, eps, 0);
    const rstd = h[rstdAt];
    // Rounded to float32 like every other kernel value (1 / 0.2f is 5, not
    // 4.99999993). The kernel reports rstd = 0 where 1 / rms has no finite value
    // (an all-zero row with eps = 0, or an overflowing mean square).
    const rms = rstd > 0 ? Math.fround(1 / rstd) : Math.sqrt(meanSquare + eps);
    return { squares, meanSquare, rms, y: h.slice(outAt, outAt + n) };
  }

  function layernormSteps(x, options) {
    const o = checkOptions(options);
    checkVector(x, 'x');
    const eps = checkEps(o.eps, 1e-5);
    const n = x.length;
    if (n === 0) {
      return { mean: NaN, centered: new Float32Array(0), variance: NaN, std: NaN, y: new Float32Array(0) };
    }
    resize(1, n, 'x');
    const h = heapView();
    h.set(x, inp);
    module._nl_ws_layernorm(handle, eps, 0, 0);
    module._nl_ws_row_stats(handle);
    const mean = h[meanAt];
    const rstd = h[rstdAt];
    const variance = h[statsAt + ROW_STATS_FIELDS.indexOf('variance')];
    const std = rstd > 0 ? Math.fround(1 / rstd) : Math.sqrt(variance + eps);
    const y = h.slice(outAt, outAt + n);
    return { mean, centered: Float32Array.from(x, (v) => v - mean), variance, std, y };
  }

  function stats(x, options) {
    const o = checkOptions(options);
    checkVector(x, 'x');
    const { rows, dim } = checkShape(x, o.dim, 'x');
    const result = Object.fromEntries(ROW_STATS_FIELDS.map((f) => [f, new Float32Array(rows)]));
    if (rows === 0) return result;
    resize(rows, dim, 'x');
    const h = heapView();
    h.set(x, inp);
    module._nl_ws_row_stats(handle);
    const width = ROW_STATS_FIELDS.length;
    ROW_STATS_FIELDS.forEach((field, k) => {
      const column = result[field];
      for (let t = 0; t < rows; t++) column[t] = h[statsAt + t * width + k];
    });
    return result;
  }

  function distributionStats(p, options) {
    const o = checkOptions(options);
    checkVector(p, 'p');
    const { rows, dim } = checkShape(p, o.dim, 'p');
    if (rows === 0) return { entropy: new Float32Array(0), maxProb: new Float32Array(0) };
    resize(rows, dim, 'p');
    const h = heapView();
    h.set(p, inp);
    module._nl_ws_distribution_stats(handle);
    return { entropy: h.slice(entropyAt, entropyAt + rows), maxProb: h.slice(maxProbAt, maxProbAt + rows) };
  }

  function copyRows(x, options) {
    const o = checkOptions(options);
    checkVector(x, 'x');
    const { rows, dim } = checkShape(x, o.dim, 'x');
    if (rows === 0) return new Float32Array(0);
    resize(rows, dim, 'x');
    const h = heapView();
    h.set(x, inp);
    module._nl_ws_copy_rows(handle);
    return h.slice(outAt, outAt + x.length);
  }

  const memory = () => module.memoryInfo();

  return Object.freeze({
    backend,
    arch,
    rmsnorm,
    layernorm,
    softmax,
    rmsnormSteps,
    layernormSteps,
    stats,
    distributionStats,
    copyRows,
    createModel,
    heapBytes: () => memory().heapBytes,
    mallocBytes: () => memory().mallocBytes,
    liveAllocations: () => memory().liveAllocations,
    dispose() {
      if (workspace === null) return;
      for (const model of [...models]) model.delete();
      workspace.delete();
      workspace = null;
    },
  });
}

function checkOptions(options) {
  if (options === undefined) return {};
  if (options === null || typeof options !== 'object') throw new TypeError('options must be an object');
  return options;
}

function checkVector(v, name) {
  if (v instanceof Float32Array) return;
  if (!Array.isArray(v)) throw new TypeError(`${name} must be a Float32Array or an array of numbers`);
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

// The optional destination of rmsnorm, layernorm and softmax: absent
// (undefined or null), or a Float32Array of exactly n elements, which the
// call fills and returns instead of allocating a new array. It may be x.
function checkOut(out, n) {
  if (out === undefined || out === null) return null;
  if (!(out instanceof Float32Array)) throw new TypeError('out must be a Float32Array');
  if (out.length !== n) throw new RangeError(`out.length ${out.length} != x.length ${n}`);
  return out;
}

// gain or bias: absent (undefined or null), or one value per column. With no
// rows there is no dim to hold the length against.
function checkParameter(v, name, rows, dim) {
  if (v === undefined || v === null) return null;
  checkVector(v, name);
  if (rows > 0 && v.length !== dim) throw new RangeError(`${name}.length ${v.length} != dim ${dim}`);
  return v;
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
