// Facts the page states rather than computes: the chapter's reference model
// and the fixed inputs of the illustrations. Everything derived from these
// (probabilities, norms, lengths) is computed by the wasm kernels at run time.

// Qwen3.5-0.8B, the chapter's reference model.
export const REFERENCE_MODEL = Object.freeze({ layers: 24, hidden: 1024 });

// Softmax widget: one fixed score per token A..F. Only their common scale
// changes; scale = L2 / SOFTMAX_L2_UNIT, so the default L2 of sqrt(1024)
// leaves the scores as they are.
export const SOFTMAX_TOKENS = Object.freeze(['A', 'B', 'C', 'D', 'E', 'F']);
export const SOFTMAX_SCORES = Object.freeze([2.0, 1.6, 1.3, 1.1, 0.8, 0.4]);
export const SOFTMAX_L2_UNIT = Math.sqrt(REFERENCE_MODEL.hidden);
// How the scores follow the magnitude: in proportion (the chapter's widget)
// or with its square (queries and keys both grow; compute.js).
export const SOFTMAX_GROWTHS = Object.freeze(['linear', 'square']);

// The magnitude slider works in log2 units around the default (0 = L2 32),
// so each notch is the same relative step: 1/8 octave, 4 .. 512.
export const SOFTMAX_LOG2_MIN = -3;
export const SOFTMAX_LOG2_MAX = 4;
export const SOFTMAX_LOG2_STEP = 0.125;

// Zones of the softmax widget, read from the largest probability. The page
// states these thresholds in its text (softmax.thresholds).
export const ZONE_DRIFT_FROM = 0.5;
export const ZONE_SATURATED_FROM = 0.9;

// Worked examples A and B of the chapter.
export const EXAMPLE_A = Object.freeze([2, -1, 3, 0]);
export const EXAMPLE_B = Object.freeze([2, 4, 4, 8]);

// The eps choices offered: Qwen / the first Llama, and Llama 2-3 / ONNX.
export const EPS_CHOICES = Object.freeze([1e-6, 1e-5]);

// Calculator input is capped so a pasted novel cannot freeze the page.
export const CALCULATOR_MAX_ENTRIES = 64;

// Scale-invariance playground: a seeded synthetic vector of this width.
export const PLAYGROUND_DIM = 256;
export const PLAYGROUND_SEED = 256;
// Entries are drawn with this standard deviation, so at 1x the input's L2
// (about 3 * 16) differs visibly from the output's 16.
export const PLAYGROUND_SPREAD = 3;
// Slider works in log10 units. The chapter's range is 0.1x..10x; the slider
// goes further down, to where eps stops being negligible next to mean(x^2).
export const STRETCH_LOG10_MIN = -4;
export const STRETCH_LOG10_MAX = 1;
export const STRETCH_CHAPTER_MIN = 0.1;
export const STRETCH_CHAPTER_MAX = 10;

// The demo panel's synthetic model (normlab.createModel): the reference
// model's width and heads, a fixed seed, and the settings the reader may
// change. Every figure the model views show is computed from its runs.
export const MODEL_SHAPE = Object.freeze({ hidden: REFERENCE_MODEL.hidden, heads: 16, seed: 1 });
export const NORM_KINDS = Object.freeze(['rmsnorm', 'layernorm', 'none']);
export const PLACEMENTS = Object.freeze(['pre', 'post']);
export const DEPTH_MIN = 1;
export const DEPTH_MAX = 64;
// The gradient view compares pre- and post-norm stacks of this many layers.
export const GRAD_DEPTH_MIN = 6;
export const GRAD_DEPTH_MAX = 48;
// The tokenizer reads UTF-8 bytes: one token per byte, at most this many.
export const MAX_PROMPT_TOKENS = 64;
// The gradients are of the next-token loss, which needs a next token.
export const MIN_GRADIENT_TOKENS = 2;
// Prompt text accepted from a link; longer text is refused outright, shorter
// text that is still too many tokens gets the inline message.
export const PROMPT_TEXT_MAX = 256;

// The learned-gain widget: a fixed sample of one norm's gains.
export const GAIN_SAMPLE_SIZE = 48;
export const GAIN_SAMPLE_SEED = 48;
export const GAIN_SOURCE = Object.freeze({ layer: 0, which: 'inputNorm' });

// The hands-on exercise compares these two layers.
export const EXERCISE_LAYERS = Object.freeze([0, 22]);

// The walk: how long each narrated step stays, time to read its sentence
// (the layers are told in a few groups, src/autorun.js).
export const AUTORUN_STEP_MS = 2500;

// Gradient views recompute once the input has been still this long, so a
// dragged slider never waits for a backward pass.
export const GRADIENT_SETTLE_MS = 30;
