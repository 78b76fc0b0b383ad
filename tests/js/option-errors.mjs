// The options the model (nl.createModel) and the trainer (nl.createTrainer)
// both take are checked alike, with the same exact messages (norm and
// placement by each one's own list of values): those messages,
// and the bad values both must refuse, as [options, error class, exact
// message]. model-errors.test.mjs and trainer.test.mjs add the cases of
// their own options.
export const LAYERS = 'layers must be an integer in 1..64';
// norm and placement: the trainer takes more values than the model (its
// variants), each refuses by its own list.
export const MODEL_NORM = "norm must be 'rmsnorm', 'layernorm' or 'none'";
export const MODEL_PLACEMENT = "placement must be 'pre' or 'post'";
export const TRAINER_NORM = "norm must be 'rmsnorm', 'layernorm', 'none' or 'dyt'";
export const TRAINER_PLACEMENT = "placement must be 'pre', 'post', 'deepnorm', 'output' or 'sandwich'";
export const EPS = 'eps must be a number in 0..1';
export const SEED = 'seed must be an integer in 0..4294967295';

export const SHARED_OPTION_CASES = [
  [null, TypeError, 'options must be an object'],
  [24, TypeError, 'options must be an object'],
  [[24], TypeError, 'options must be an object'],
  [{ layers: 0 }, RangeError, LAYERS],
  [{ layers: 65 }, RangeError, LAYERS],
  [{ layers: 2.5 }, RangeError, LAYERS],
  [{ layers: NaN }, RangeError, LAYERS],
  [{ layers: Infinity }, RangeError, LAYERS],
  [{ layers: '24' }, TypeError, LAYERS],
  [{ layers: null }, TypeError, LAYERS],
  [{ eps: -1e-6 }, RangeError, EPS],
  [{ eps: 2 }, RangeError, EPS],
  [{ eps: NaN }, RangeError, EPS],
  [{ eps: '1e-6' }, TypeError, EPS],
  [{ eps: null }, TypeError, EPS],
  [{ seed: -1 }, RangeError, SEED],
  [{ seed: 2 ** 32 }, RangeError, SEED],
  [{ seed: 0.5 }, RangeError, SEED],
  [{ seed: 1.5 }, RangeError, SEED],
  [{ seed: '1' }, TypeError, SEED],
  [{ seed: 1n }, TypeError, SEED],
];

// The cases of norm and placement, with the messages of the model's or the
// trainer's lists.
export const normPlacementCases = (norm, placement) => [
  [{ norm: 'batchnorm' }, RangeError, norm],
  [{ norm: 'RMSNorm' }, RangeError, norm],
  [{ norm: 1 }, TypeError, norm],
  [{ placement: 'middle' }, RangeError, placement],
  [{ placement: true }, TypeError, placement],
  [{ placement: null }, TypeError, placement],
];

// A case's name: its options, with long texts, NaN, Infinity and BigInts shown.
export const optionsName = (options) =>
  JSON.stringify(options, (k, v) => {
    if (typeof v === 'bigint') return `${v}n`;
    if (typeof v === 'string' && v.length > 20) return `${v.length} chars`;
    return Number.isNaN(v) || v === Infinity ? String(v) : v;
  });
