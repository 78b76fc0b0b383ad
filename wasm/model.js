// The synthetic model's JavaScript API: createModel() and the model object it
// returns. Types and every field's meaning are in normlab.d.ts; the probe
// definitions in src/model/probes.h.
//
// L = layers, T = prompt tokens (UTF-8 bytes), H = heads, K = top-k,
// P = probes per layer (10), S = statistics per row (6)
//
//   model.forward(prompt, { topK = 5, layers }) -> {   (L: the layers run, all by default)
//     layers: L, hidden: D, heads: H,
//     tokens: Int32Array(T), tokenLabels: string[T], probeNames: the P probe names,
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
//   model.gradients(prompt, { layers }) -> {            (L: the layers run, all by default)
//     layers: L, tokens: T, loss, residual: Float32Array(L+1),
//     residualPerToken: Float32Array((L+1)*T), attention, mlp, norm, layer: Float32Array(L),
//     embedding, finalNorm,
//     postNorm: null | { meanRescale, meanProduct: Float32Array(L*2) },  as forward()'s
//   }
//   model.extend(layers) -> how deep the kept run now is: up to `layers` more
//     layers of the last forward()'s prompt, run in the model only; 0 when
//     another model ran a forward() since (the kept run is one per module)
//
// Those objects, and the config, are declared by the tables of
// src/model/results.h and built here by walking them (wasm/boundary.js):
// each call's result arrives as one packed byte buffer the module owns,
// viewed right after the call and .slice()d at once (a view is only good
// until memory grows); every array of the object is a view of that one
// copy. Only tokenLabels is made here, from tokens.
//
// createModel()'s options are coerced by walking the module's option table
// (src/model/options.h, through boundary.coerceOptions): their names, types
// and defaults. A call checks its arguments' types here (and topK, layers
// and extend()'s count entirely: Embind would truncate a fractional one to
// the C++ int); the values are judged by the C++ model, which returns a problem (code, field,
// message) instead of throwing (the modules are built without C++
// exceptions). Its message is thrown
// unchanged: as a TypeError when the field it names had the wrong type, else
// as the class its code calls for (boundary.js: ERROR_CLASSES).

import { coerceOptions } from './boundary.js';

const MAX_TOP_K = 256;
const DEFAULT_TOP_K = 5;

const utf8 = new TextEncoder();

// module: the Embind module; boundary: its description (readBoundary).
// onCreate(model) and onDelete(model) let the API track live models so that
// disposing of it frees them too.
export function makeCreateModel(module, boundary, { checkLive, onCreate, onDelete }) {
  const { config: CONFIG, forward: FORWARD, gradients: GRADIENTS } = boundary.results;
  const OPTIONS = boundary.options.model;
  const fail = (problem, wrongType) => {
    const error = boundary.error(problem, wrongType);
    if (error !== null) throw error;
  };

  return function createModel(options) {
    checkLive();
    const { values: cpp, wrongType } = coerceOptions(OPTIONS, options, 'model');

    const handle = new module.Model(cpp);
    let config;
    try {
      fail(handle.problem(), wrongType);
      fail(handle.packConfig());
      // eps as given, or the norm's default; the model computes with it in float32.
      config = Object.freeze(CONFIG.read(handle.packed().slice()));
    } catch (error) {
      handle.delete();
      throw error;
    }
    const model = wrapModel(handle, config, onDelete);
    onCreate(model);
    return model;
  };

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
        const wrongType = new Set();
        if (typeof which !== 'string') wrongType.add('which');
        if (typeof layerIndex !== 'number') wrongType.add('layer');
        const layer = wrongType.has('layer') ? NaN : layerIndex;
        // finalNorm ignores the layer index, whatever it is.
        const at = which === 'finalNorm' ? 0 : layer;
        fail(h.checkGains(at, wrongType.has('which') ? '' : which), wrongType);
        return h.gains(at, which).slice();
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
        fail(h.forward(bytes, topK, layers));
        return withTokenLabels(FORWARD.read(h.packed().slice()));
      },

      gradients(prompt, options) {
        const h = live();
        const bytes = encodePrompt(prompt);
        const o = checkObject(options, 'options');
        for (const key of Object.keys(o)) {
          if (key !== 'layers') throw new TypeError(`unknown gradients option '${key}'`);
        }
        const layers = checkLayers(o.layers, config.layers);
        fail(h.gradients(bytes, layers));
        return GRADIENTS.read(h.packed().slice());
      },

      extend(layers) {
        const h = live();
        const message = 'layers must be an integer >= 1';
        if (typeof layers !== 'number') throw new TypeError(message);
        if (!(Number.isInteger(layers) && layers >= 1)) throw new RangeError(message);
        // Past L runs to L: the C++ int only needs to hold that much.
        return h.extend(Math.min(layers, config.layers));
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
}

// The forward result with tokenLabels right after tokens, where the types
// list it.
function withTokenLabels(run) {
  const out = {};
  for (const [key, value] of Object.entries(run)) {
    out[key] = value;
    if (key === 'tokens') out.tokenLabels = tokenLabels(value);
  }
  return out;
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

// forward()'s and gradients()' depth: the first `layers` layers of this
// model (all when undefined). The C++ side takes 0 for all.
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

// A readable label per byte token:
//   printable ASCII        the character ('a', '.', '7')
//   space, newline, tab    '␣', '↵', '⇥'
//   other control bytes    two hex digits ('00'..'1F', '7F')
//   a multi-byte character its first byte: the character ('你'); each
//                          further byte: '·'
//   a byte of no valid character: two hex digits ('E4')
export function tokenLabels(bytes) {
  const labels = new Array(bytes.length);
  for (let i = 0; i < bytes.length;) {
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
  let n,
    lo = 0x80,
    hi = 0xbf;
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
