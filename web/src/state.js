// The page's one state object: defaults, validation, and its URL form.
// Input handlers change the state and call render(); widgets only read it.
// Every field that belongs to a shareable view is written to the URL (only
// when it differs from its default), so any view can be linked or embedded.
// The student's own answers are not a view: they live in learner.js.
import {
  DEPTH_MAX,
  DEPTH_MIN,
  EPS_CHOICES,
  EXAMPLE_A,
  GRAD_DEPTH_MAX,
  GRAD_DEPTH_MIN,
  NORM_KINDS,
  PLACEMENTS,
  PROMPT_TEXT_MAX,
  REFERENCE_MODEL,
  SOFTMAX_GROWTHS,
  SOFTMAX_L2_UNIT,
  SOFTMAX_LOG2_MAX,
  SOFTMAX_LOG2_MIN,
  STRETCH_LOG10_MAX,
  STRETCH_LOG10_MIN,
} from './constants.js';
import { pageLanguage } from './i18n/index.js';

const THEMES = ['auto', 'light', 'dark'];
const BACKENDS = ['auto', 'simd128', 'scalar'];
export const CHART_SCALES = ['log', 'linear'];
const VECTOR_TEXT_MAX = 2000;

function oneOf(values) {
  return (raw) => (values.includes(raw) ? raw : undefined);
}

function numberIn(min, max) {
  return (raw) => {
    if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(raw)) return undefined;
    const v = Number(raw);
    return v >= min && v <= max ? v : undefined;
  };
}

function integerIn(min, max) {
  return (raw) => (/^\d+$/.test(raw) && Number(raw) >= min && Number(raw) <= max ? Number(raw) : undefined);
}

// URL parameter name, default, and a parser returning undefined for values
// that must fall back to the default (with a visible note).
const FIELDS = {
  // Any tag of a language the page speaks: ?lang=zh, zh-Hans or en-GB too.
  lang: { param: 'lang', parse: (raw) => pageLanguage(raw) ?? undefined },
  theme: { param: 'theme', def: 'auto', parse: oneOf(THEMES) },
  backend: { param: 'backend', def: 'auto', parse: oneOf(BACKENDS) },
  l2: {
    param: 'l2',
    def: SOFTMAX_L2_UNIT,
    parse: numberIn(SOFTMAX_L2_UNIT * 2 ** SOFTMAX_LOG2_MIN, SOFTMAX_L2_UNIT * 2 ** SOFTMAX_LOG2_MAX),
  },
  softmaxGrowth: { param: 'growth', def: SOFTMAX_GROWTHS[0], parse: oneOf(SOFTMAX_GROWTHS) },
  vector: {
    param: 'x',
    def: EXAMPLE_A.join(', '),
    // The text is kept verbatim (it is only ever shown as text); the
    // calculator reports what is wrong with it.
    parse: (raw) => (raw.length <= VECTOR_TEXT_MAX ? raw : undefined),
  },
  eps: { param: 'eps', def: EPS_CHOICES[0], parse: (raw) => EPS_CHOICES.find((e) => e === Number(raw)) },
  stretch: { param: 'stretch', def: 1, parse: numberIn(10 ** STRETCH_LOG10_MIN, 10 ** STRETCH_LOG10_MAX) },
  // The demo panel's model. The prompt's default (null) is the page
  // language's own example prompt; like the calculator's text, a prompt is
  // kept verbatim and the panel says what is wrong with it.
  prompt: { param: 'prompt', def: null, parse: (raw) => (raw.length <= PROMPT_TEXT_MAX ? raw : undefined) },
  norm: { param: 'norm', def: 'rmsnorm', parse: oneOf(NORM_KINDS) },
  placement: { param: 'placement', def: 'pre', parse: oneOf(PLACEMENTS) },
  depth: { param: 'depth', def: REFERENCE_MODEL.layers, parse: integerIn(DEPTH_MIN, DEPTH_MAX) },
  layer: { param: 'layer', def: 0, parse: integerIn(0, DEPTH_MAX - 1) },
  layerScale: { param: 'scale', def: 'log', parse: oneOf(CHART_SCALES) },
  gradDepth: { param: 'gdepth', def: REFERENCE_MODEL.layers, parse: integerIn(GRAD_DEPTH_MIN, GRAD_DEPTH_MAX) },
};

// Every URL parameter name, in FIELDS order (the custom elements take the
// same names as attributes).
export const STATE_PARAMS = Object.values(FIELDS).map((field) => field.param);

export function defaultState(lang) {
  const state = {};
  for (const [key, field] of Object.entries(FIELDS)) state[key] = field.def;
  state.lang = lang;
  return state;
}

// Reads the state from a query string. Returns the state, a list of the
// parameters that were rejected, so the page can say so instead of failing,
// and the names of the parameters the link did set.
export function stateFromSearch(search, detectedLang) {
  const params = new URLSearchParams(search);
  const state = defaultState(detectedLang);
  const rejected = [];
  const given = [];
  for (const [key, field] of Object.entries(FIELDS)) {
    if (!params.has(field.param)) continue;
    const raw = params.get(field.param);
    const value = field.parse(raw);
    if (value === undefined) rejected.push({ param: field.param, value: raw });
    else {
      state[key] = value;
      given.push(key);
    }
  }
  if (state.layer >= state.depth) {
    rejected.push({ param: 'layer', value: String(state.layer) });
    state.layer = FIELDS.layer.def;
    given.splice(given.indexOf('layer'), 1);
  }
  return { state, rejected, given };
}

// The query string for a state: language always (a shared link should open
// in the language it was shared in), everything else only when not default.
export function searchFromState(state) {
  const params = new URLSearchParams();
  for (const [key, field] of Object.entries(FIELDS)) {
    const value = state[key];
    if (key !== 'lang' && value === field.def) continue;
    params.set(field.param, String(value));
  }
  return `?${params}`;
}
