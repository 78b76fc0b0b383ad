// Facts the page states rather than computes: the chapter's reference model
// and the fixed inputs of the illustrations. Everything derived from these
// (probabilities, norms, lengths) is computed by the wasm kernels at run time.

// Qwen3.5-0.8B, the chapter's reference model.
export const REFERENCE_MODEL = Object.freeze({ layers: 24, hidden: 1024 })

// Softmax widget: one fixed score per token A..F. Only their common scale
// changes; scale = L2 / SOFTMAX_L2_UNIT, so the default L2 of sqrt(1024)
// leaves the scores as they are.
export const SOFTMAX_TOKENS = Object.freeze(['A', 'B', 'C', 'D', 'E', 'F'])
export const SOFTMAX_SCORES = Object.freeze([2.0, 1.6, 1.3, 1.1, 0.8, 0.4])
export const SOFTMAX_L2_UNIT = Math.sqrt(REFERENCE_MODEL.hidden)

// The magnitude slider works in log2 units around the default (0 = L2 32),
// so each notch is the same relative step: 1/8 octave, 4 .. 512.
export const SOFTMAX_LOG2_MIN = -3
export const SOFTMAX_LOG2_MAX = 4
export const SOFTMAX_LOG2_STEP = 0.125

// Zones of the softmax widget, read from the largest probability. The page
// states these thresholds in its text (softmax.thresholds).
export const ZONE_DRIFT_FROM = 0.5
export const ZONE_SATURATED_FROM = 0.9

// Worked examples A and B of the chapter.
export const EXAMPLE_A = Object.freeze([2, -1, 3, 0])
export const EXAMPLE_B = Object.freeze([2, 4, 4, 8])

// The eps choices offered: Qwen / the first Llama, and Llama 2-3 / ONNX.
export const EPS_CHOICES = Object.freeze([1e-6, 1e-5])

// Calculator input is capped so a pasted novel cannot freeze the page.
export const CALCULATOR_MAX_ENTRIES = 64

// Scale-invariance playground: a seeded synthetic vector of this width.
export const PLAYGROUND_DIM = 256
export const PLAYGROUND_SEED = 256
// Entries are drawn with this standard deviation, so at 1x the input's L2
// (about 3 * 16) differs visibly from the output's 16.
export const PLAYGROUND_SPREAD = 3
// Slider works in log10 units. The chapter's range is 0.1x..10x; the slider
// goes further down, to where eps stops being negligible next to mean(x^2).
export const STRETCH_LOG10_MIN = -4
export const STRETCH_LOG10_MAX = 1
export const STRETCH_CHAPTER_MIN = 0.1
export const STRETCH_CHAPTER_MAX = 10
