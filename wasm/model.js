// The synthetic model's JavaScript API: createModel() and the model object it
// returns. Types and every field's meaning are in normlab.d.ts; the probe
// definitions in src/model/probes.h.
//
// L = layers, T = prompt tokens (UTF-8 bytes), H = heads, K = top-k,
// P = probes per layer (10), S = statistics per row (6)
//
//   model.forward(prompt, { topK = 5, layers }) -> {   (L: the layers run, all by default)
//     layers: L, hidden: D, heads: H,
//     tokens: Int32Array(T), tokenLabels: string[T], probeNames: PROBE_NAMES,
//     probes: { [probe]: { mean: { l2, mean, variance, std, rms, maxAbs }      each Float32Array(L)
//                          perToken: { ...the same 6 }                         each Float32Array(L*T), l*T+t } },
//     final: { 'finalNorm.in' | 'finalNorm.normed' | 'finalNorm.out':
//              { mean: { ...6 numbers }, perToken: { ...6 Float32Array(T) } } },
//     attention: { entropy, maxProb: Float32Array(L*T*H), (l*T+t)*H+h;
//                  meanEntropy, meanMaxProb: Float32Array(L) },
//     postNorm: null | { rescale, product: Float32Array(L*2*T), (l*2+n)*T+t;
//                        meanRescale, meanProduct: Float32Array(L*2) },  n = 0 inputNorm, 1 postAttentionNorm
//     next: { tokens: Int32Array(K), probs: Float32Array(K), token },
//   }
//   model.gradients(prompt) -> {
//     layers: L, tokens: T, loss, residual: Float32Array(L+1),
//     residualPerToken: Float32Array((L+1)*T), attention, mlp, norm, layer: Float32Array(L),
//     embedding, finalNorm,
//     postNorm: null | { meanRescale, meanProduct: Float32Array(L*2) },  as forward()'s
//   }
//
// A call checks its arguments' types here; the values are judged by the C++
// model, which returns a message instead of throwing (the modules are built
// without C++ exceptions). Its message is thrown unchanged: as a TypeError
// when the field it names had the wrong type, else as a RangeError.
//
// Results cross the boundary as one float and one int buffer the C++ model
// owns (layouts in bindings.cpp). Each is viewed right after the call and
// .slice()d at once (a view is only good until memory grows), and every
// array of the result object is a subarray of those two copies: a forward
// pass builds ~150 small objects in JS, none through Embind.

export const PROBE_NAMES = Object.freeze([
  'residual.in',
  'inputNorm.in',
  'inputNorm.normed',
  'inputNorm.out',
  'attention.out',
  'postAttentionNorm.in',
  'postAttentionNorm.normed',
  'postAttentionNorm.out',
  'mlp.out',
  'residual.out',
]);
export const FINAL_PROBE_NAMES = Object.freeze(['finalNorm.in', 'finalNorm.normed', 'finalNorm.out']);
const STAT_NAMES = ['l2', 'mean', 'variance', 'std', 'rms', 'maxAbs'];

const OPTION_DEFAULTS = { layers: 24, hidden: 1024, heads: 16, norm: 'rmsnorm', placement: 'pre', seed: 1 };
const OPTION_NAMES = ['layers', 'hidden', 'heads', 'norm', 'placement', 'eps', 'seed'];
const STRING_OPTIONS = new Set(['norm', 'placement']);
const EPS_DEFAULT = { rmsnorm: 1e-6, layernorm: 1e-5, none: 1e-6 };
const MAX_TOP_K = 256;
const DEFAULT_TOP_K = 5;

// Offsets of the packed int buffers' headers (bindings.cpp).
const FORWARD_HEADER = 6; // L, T, H, K, post, next token
const GRADIENT_HEADER = 3; // L, T, post

const utf8 = new TextEncoder();

// module: the Embind module. onCreate(model) and onDelete(model) let the API
// track live models so that disposing of it frees them too.
export function makeCreateModel(module, { checkLive, onCreate, onDelete }) {
  return function createModel(options) {
    checkLive();
    const o = checkObject(options, 'options');
    for (const key of Object.keys(o)) {
      if (!OPTION_NAMES.includes(key)) throw new TypeError(`unknown model option '${key}'`);
    }
    // A value of the wrong type is replaced by one the C++ validation rejects,
    // so that it still names the field with its one message.
    const wrongType = new Set();
    const cpp = {};
    for (const name of OPTION_NAMES) {
      const value = o[name];
      const kind = STRING_OPTIONS.has(name) ? 'string' : 'number';
      if (value === undefined) {
        cpp[name] = name === 'eps' ? NaN : OPTION_DEFAULTS[name]; // eps NaN: the norm's default
      } else if (typeof value !== kind) {
        wrongType.add(name);
        cpp[name] = kind === 'string' ? '' : -1;
      } else {
        // An explicit NaN eps must not turn into "use the default".
        cpp[name] = name === 'eps' && Number.isNaN(value) ? -1 : value;
      }
    }

    const handle = new module.Model(cpp);
    let config;
    try {
      const message = handle.error();
      if (message) throw optionError(message, wrongType);
      const c = handle.config();
      config = Object.freeze({
        layers: c.layers,
        hidden: c.hidden,
        heads: c.heads,
        norm: c.norm,
        placement: c.placement,
        // As given, or the norm's default; the model computes with it in float32.
        eps: o.eps ?? EPS_DEFAULT[c.norm],
        seed: c.seed,
      });
    } catch (error) {
      handle.delete();
      throw error;
    }
    const model = wrapModel(handle, config, onDelete);
    onCreate(model);
    return model;
  };
}

function wrapModel(initialHandle, config, onDelete) {
  let handle = initialHandle;

  function live() {
    if (handle === null) throw new Error('model was deleted');
    return handle;
  }

  const model = {
    config,

    gains(layerIndex, which) {
      const h = live();
      const whichOk = typeof which === 'string';
      const layerOk = typeof layerIndex === 'number';
      const layer = layerOk ? layerIndex : NaN;
      // finalNorm ignores the layer index, whatever it is.
      const message = h.gainError(which === 'finalNorm' ? 0 : layer, whichOk ? which : '');
      if (message) {
        const typeProblem = message.startsWith('which') ? !whichOk : !layerOk;
        throw typeProblem ? new TypeError(message) : new RangeError(message);
      }
      return h.gains(which === 'finalNorm' ? 0 : layer, which).slice();
    },

    forward(prompt, options) {
      const h = live();
      const bytes = encodePrompt(prompt);
      const o = checkObject(options, 'options');
      for (const key of Object.keys(o)) {
        if (key !== 'topK' && key !== 'layers') throw new TypeError(`unknown forward option '${key}'`);
      }
      const topK = checkTopK(o.topK);
      const layers = checkLayers(o.layers, config.layers);
      const message = h.forward(bytes, topK, layers);
      if (message) throw new RangeError(message);
      return shapeForward(h.ints().slice(), h.floats().slice(), config.hidden);
    },

    gradients(prompt) {
      const h = live();
      const bytes = encodePrompt(prompt);
      const message = h.gradients(bytes);
      if (message) throw new RangeError(message);
      return shapeGradients(h.ints().slice(), h.floats().slice());
    },

    delete() {
      if (handle === null) return;
      handle.delete();
      handle = null;
      onDelete(model);
    },
  };
  return Object.freeze(model);
}

function shapeForward(ints, floats, hidden) {
  const [L, T, H, K, post, nextToken] = ints;
  const tokens = ints.subarray(FORWARD_HEADER, FORWARD_HEADER + T);
  const topTokens = ints.subarray(FORWARD_HEADER + T, FORWARD_HEADER + T + K);

  let offset = 0;
  const take = (n) => floats.subarray(offset, (offset += n));
  const statArrays = (n) => Object.fromEntries(STAT_NAMES.map((s) => [s, take(n)]));

  // Per-token blocks of every probe first, then their means (bindings.cpp).
  const perToken = PROBE_NAMES.map(() => statArrays(L * T));
  const probes = {};
  PROBE_NAMES.forEach((name, p) => {
    probes[name] = { mean: statArrays(L), perToken: perToken[p] };
  });
  const finalPerToken = FINAL_PROBE_NAMES.map(() => statArrays(T));
  const final = {};
  FINAL_PROBE_NAMES.forEach((name, f) => {
    const mean = Object.fromEntries(STAT_NAMES.map((s) => [s, floats[offset++]]));
    final[name] = { mean, perToken: finalPerToken[f] };
  });
  const attention = {
    entropy: take(L * T * H),
    maxProb: take(L * T * H),
    meanEntropy: take(L),
    meanMaxProb: take(L),
  };
  const postNorm = post
    ? { rescale: take(L * 2 * T), product: take(L * 2 * T), meanRescale: take(L * 2), meanProduct: take(L * 2) }
    : null;
  const probs = take(K);

  return {
    layers: L,
    hidden,
    heads: H,
    tokens,
    tokenLabels: tokenLabels(tokens),
    probeNames: PROBE_NAMES,
    probes,
    final,
    attention,
    postNorm,
    next: { tokens: topTokens, probs, token: nextToken },
  };
}

function shapeGradients(ints, floats) {
  const [L, T, post] = ints;
  let offset = 3; // loss, embedding, finalNorm
  const take = (n) => floats.subarray(offset, (offset += n));
  const run = {
    layers: L,
    tokens: T,
    loss: floats[0],
    residual: take(L + 1),
    residualPerToken: take((L + 1) * T),
    attention: take(L),
    mlp: take(L),
    norm: take(L),
    layer: take(L),
    embedding: floats[1],
    finalNorm: floats[2],
  };
  run.postNorm = post ? { meanRescale: take(L * 2), meanProduct: take(L * 2) } : null;
  return run;
}

// The prompt's UTF-8 bytes, the model's tokens. TextEncoder turns a lone
// surrogate into U+FFFD, so any JS string encodes.
function encodePrompt(prompt) {
  if (typeof prompt !== 'string') throw new TypeError('prompt must be a string');
  return utf8.encode(prompt);
}

function checkTopK(topK) {
  if (topK === undefined) return DEFAULT_TOP_K;
  const message = `topK must be an integer in 1..${MAX_TOP_K}`;
  if (typeof topK !== 'number') throw new TypeError(message);
  if (!(Number.isInteger(topK) && topK >= 1 && topK <= MAX_TOP_K)) throw new RangeError(message);
  return topK;
}

// forward()'s depth: the first `layers` layers of this model (all when
// undefined). The C++ side takes 0 for all.
function checkLayers(layers, max) {
  if (layers === undefined) return 0;
  const message = `layers must be an integer in 1..${max}`;
  if (typeof layers !== 'number') throw new TypeError(message);
  if (!(Number.isInteger(layers) && layers >= 1 && layers <= max)) throw new RangeError(message);
  return layers;
}

function checkObject(options, name) {
  if (options === undefined) return {};
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new TypeError(`${name} must be an object`);
  }
  return options;
}

// The C++ messages start with the field they are about.
function optionError(message, wrongType) {
  const field = message.slice(0, message.indexOf(' '));
  return wrongType.has(field) ? new TypeError(message) : new RangeError(message);
}

// A readable label per byte token:
//   printable ASCII        the character ('a', '.', '7')
//   space, newline, tab    '␣', '↵', '⇥'
//   other control bytes    two hex digits ('00'..'1F', '7F')
//   a multi-byte character its first byte: the character ('你'); each
//                          further byte: '·'
//   a byte of no valid character: two hex digits ('E4')
export function tokenLabels(bytes) {
  const labels = new Array(bytes.length);
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i];
    if (b < 0x80) {
      labels[i++] = asciiLabel(b);
      continue;
    }
    const n = utf8SequenceLength(bytes, i);
    if (n === 0) {
      labels[i++] = hex(b);
      continue;
    }
    let cp = b & (0xff >> (n + 1));
    for (let k = 1; k < n; k++) cp = (cp << 6) | (bytes[i + k] & 0x3f);
    labels[i] = String.fromCodePoint(cp);
    for (let k = 1; k < n; k++) labels[i + k] = '·';
    i += n;
  }
  return labels;
}

function asciiLabel(b) {
  if (b === 0x20) return '␣';
  if (b === 0x0a) return '↵';
  if (b === 0x09) return '⇥';
  if (b < 0x20 || b === 0x7f) return hex(b);
  return String.fromCharCode(b);
}

const hex = (b) => b.toString(16).toUpperCase().padStart(2, '0');

// Length of the well-formed UTF-8 sequence starting at bytes[i] (a byte >=
// 0x80), or 0 (Unicode's table: no overlongs, surrogates or code points
// above U+10FFFF).
function utf8SequenceLength(bytes, i) {
  const b = bytes[i];
  let n, lo = 0x80, hi = 0xbf;
  if (b >= 0xc2 && b <= 0xdf) n = 2;
  else if (b >= 0xe0 && b <= 0xef) {
    n = 3;
    if (b === 0xe0) lo = 0xa0;
    if (b === 0xed) hi = 0x9f;
  } else if (b >= 0xf0 && b <= 0xf4) {
    n = 4;
    if (b === 0xf0) lo = 0x90;
    if (b === 0xf4) hi = 0x8f;
  } else return 0;
  if (i + n > bytes.length) return 0;
  if (bytes[i + 1] < lo || bytes[i + 1] > hi) return 0;
  for (let k = 2; k < n; k++) if (bytes[i + k] < 0x80 || bytes[i + k] > 0xbf) return 0;
  return n;
}
