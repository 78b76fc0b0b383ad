// normlab's public JavaScript API over the wasm kernels; types and the meaning
// of every result are in normlab.d.ts.
//
// Every argument is checked here, before anything reaches wasm: the modules are
// built without C++ exceptions, and a rejected call must leave nothing behind.
// An accepted call then works on the module's one long-lived Workspace:
//   resize it to (rows, dim)  ->  write inputs into fresh views of its buffers
//   ->  run one kernel  ->  copy the results out with .slice().
// Views are taken after the resize and dropped before the call returns, because
// growing the wasm memory leaves older views empty (the rule in bindings.cpp).
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
  let arch;
  try {
    arch = module.kernelArchName();
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

  // Shape the workspace for rows x dim; may grow memory, so views come after.
  function resize(rows, dim, name) {
    const n = rows * dim;
    if (n > MAX_ELEMENTS || !ws().resize(rows, dim)) {
      throw new RangeError(`${name}.length ${n} does not fit in the wasm memory`);
    }
    return workspace;
  }

  function rmsnorm(x, options) {
    const o = checkOptions(options);
    checkVector(x, 'x');
    const { rows, dim } = checkShape(x, o.dim, 'x');
    const gain = checkParameter(o.gain, 'gain', rows, dim);
    const eps = checkEps(o.eps, 1e-6);
    if (rows === 0) return new Float32Array(0);
    const w = resize(rows, dim, 'x');
    w.input().set(x);
    if (gain) w.gain().set(gain);
    w.rmsnorm(eps, Boolean(gain));
    return w.output().slice();
  }

  function layernorm(x, options) {
    const o = checkOptions(options);
    checkVector(x, 'x');
    const { rows, dim } = checkShape(x, o.dim, 'x');
    const gain = checkParameter(o.gain, 'gain', rows, dim);
    const bias = checkParameter(o.bias, 'bias', rows, dim);
    const eps = checkEps(o.eps, 1e-5);
    if (rows === 0) return new Float32Array(0);
    const w = resize(rows, dim, 'x');
    w.input().set(x);
    if (gain) w.gain().set(gain);
    if (bias) w.bias().set(bias);
    w.layernorm(eps, Boolean(gain), Boolean(bias));
    return w.output().slice();
  }

  function softmax(x, options) {
    const o = checkOptions(options);
    checkVector(x, 'x');
    const { rows, dim } = checkShape(x, o.dim, 'x');
    const temperature = checkTemperature(o.temperature);
    if (rows === 0) return new Float32Array(0);
    const w = resize(rows, dim, 'x');
    w.input().set(x);
    w.softmax(temperature);
    return w.output().slice();
  }

  function rmsnormSteps(x, options) {
    const o = checkOptions(options);
    checkVector(x, 'x');
    const eps = checkEps(o.eps, 1e-6);
    const n = x.length;
    const squares = Float32Array.from(x, (v) => v * v);
    if (n === 0) return { squares, meanSquare: NaN, rms: NaN, y: new Float32Array(0) };
    const meanSquare = sum(squares) / n;
    const w = resize(1, n, 'x');
    w.input().set(x);
    w.rmsnorm(eps, false);
    const rstd = w.rstd()[0];
    // Rounded to float32 like every other kernel value (1 / 0.2f is 5, not
    // 4.99999993). The kernel reports rstd = 0 where 1 / rms has no finite value
    // (an all-zero row with eps = 0, or an overflowing mean square).
    const rms = rstd > 0 ? Math.fround(1 / rstd) : Math.sqrt(meanSquare + eps);
    return { squares, meanSquare, rms, y: w.output().slice() };
  }

  function layernormSteps(x, options) {
    const o = checkOptions(options);
    checkVector(x, 'x');
    const eps = checkEps(o.eps, 1e-5);
    const n = x.length;
    if (n === 0) {
      return { mean: NaN, centered: new Float32Array(0), variance: NaN, std: NaN, y: new Float32Array(0) };
    }
    const w = resize(1, n, 'x');
    w.input().set(x);
    w.layernorm(eps, false, false);
    w.rowStats();
    const mean = w.mean()[0];
    const rstd = w.rstd()[0];
    const variance = w.stats()[ROW_STATS_FIELDS.indexOf('variance')];
    const std = rstd > 0 ? Math.fround(1 / rstd) : Math.sqrt(variance + eps);
    const y = w.output().slice();
    return { mean, centered: Float32Array.from(x, (v) => v - mean), variance, std, y };
  }

  function stats(x, options) {
    const o = checkOptions(options);
    checkVector(x, 'x');
    const { rows, dim } = checkShape(x, o.dim, 'x');
    const result = Object.fromEntries(ROW_STATS_FIELDS.map((f) => [f, new Float32Array(rows)]));
    if (rows === 0) return result;
    const w = resize(rows, dim, 'x');
    w.input().set(x);
    w.rowStats();
    const flat = w.stats();
    const width = ROW_STATS_FIELDS.length;
    ROW_STATS_FIELDS.forEach((field, k) => {
      const column = result[field];
      for (let t = 0; t < rows; t++) column[t] = flat[t * width + k];
    });
    return result;
  }

  function distributionStats(p, options) {
    const o = checkOptions(options);
    checkVector(p, 'p');
    const { rows, dim } = checkShape(p, o.dim, 'p');
    if (rows === 0) return { entropy: new Float32Array(0), maxProb: new Float32Array(0) };
    const w = resize(rows, dim, 'p');
    w.input().set(p);
    w.distributionStats();
    return { entropy: w.entropy().slice(), maxProb: w.maxProb().slice() };
  }

  function copyRows(x, options) {
    const o = checkOptions(options);
    checkVector(x, 'x');
    const { rows, dim } = checkShape(x, o.dim, 'x');
    if (rows === 0) return new Float32Array(0);
    const w = resize(rows, dim, 'x');
    w.input().set(x);
    w.copyRows();
    return w.output().slice();
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
