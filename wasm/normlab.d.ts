// Types of normlab's public JavaScript API (dist/normlab.mjs; the classic
// script dist/normlab.js exposes the same loadNormlab as `normlab.loadNormlab`).
//
// Conventions shared by every function:
// - Vectors are a Float32Array or an array of numbers, or a Tensor of the same
//   instance (see Tensor: floats that stay in the wasm memory, read and written
//   by the kernels without any copy); results are new Float32Arrays that the
//   caller owns, or the `out` the caller passed.
// - A vector of length T * D holds T rows of D values; `dim` (D) defaults to
//   the vector's length, i.e. one row.
// - Empty input gives an empty result (empty arrays; NaN for the scalars of
//   the *Steps functions, which are means over nothing).
// - Bad arguments throw before any work: TypeError for a wrong type, RangeError
//   for a wrong value, with a message naming the problem, e.g.
//   "x.length 10 is not a multiple of dim 4" or "gain.length 3 != dim 4".
//   Tensors add: Error("tensor was freed") for a freed tensor (or one whose
//   instance was disposed), Error("x is a tensor of another normlab
//   instance") for a tensor of another loadNormlab() instance, and TypeError
//   ("x is a view of this normlab instance's memory (a tensor's .array): pass
//   the tensor itself, or a copy (.slice())") for a tensor's .array (or part
//   of it) passed where a vector goes: a call may grow the memory, which
//   empties such views halfway through.

export type Vector = Float32Array | readonly number[];

/**
 * Floats that live in one normlab instance's wasm memory, from nl.tensor().
 * Pass the tensor itself as x, gain, bias or out of rmsnorm, layernorm,
 * softmax and copyRows (and as the input of every other function): the
 * kernels read and write it in place, with no copy in or out. A pipeline that
 * keeps its activations in tensors pays only for the kernels.
 *
 * The memory is the instance's until free() (or the instance's dispose()).
 * Where the engine has explicit resource management (Symbol.dispose, e.g.
 * Node 20), a tensor also has [Symbol.dispose]() = free(), so
 * `using t = nl.tensor(n)` frees it at the end of the block.
 */
export interface Tensor {
  /** Number of floats (still readable after free()). */
  readonly length: number;
  /**
   * A Float32Array view of the floats, to read or write them from JS. The
   * wasm memory can grow during any normlab call (a larger input, a model),
   * which empties every view taken before; .array checks for that and gives
   * a fresh view when needed, so read .array again after a normlab call
   * instead of keeping the old view. Throws Error("tensor was freed") once
   * freed.
   */
  readonly array: Float32Array;
  /** Give the memory back; later uses throw Error("tensor was freed"). Safe to call twice. */
  free(): void;
}

/** An output destination: a Float32Array (filled with a copy) or a Tensor (written by the kernel). */
export type Out = Float32Array | Tensor;
export type Backend = 'simd128' | 'scalar';

export interface LoadOptions {
  /** 'auto' (default): SIMD128 when this engine validates a SIMD module, else scalar. */
  backend?: 'auto' | Backend;
}

export interface RowOptions {
  /** Row length D; a positive integer dividing the input's length. Default: the whole input. */
  dim?: number;
}

/** rmsnorm, layernorm, softmax and copyRows can write into a caller's array or tensor instead of allocating one. */
export interface OutOption {
  /**
   * Destination: a Float32Array or a Tensor of exactly x.length elements (it
   * may be x itself: the ops work in place). The call fills it and returns
   * it. A Tensor out may not be the gain or bias tensor (RangeError "out
   * cannot be the gain tensor"). Default: a new Float32Array.
   */
  out?: Out | null;
}

export interface RmsnormOptions extends RowOptions, OutOption {
  /** Per-column gain g, length dim. Default: all ones. */
  gain?: Vector | Tensor | null;
  /** Added to the mean square inside the square root; finite, >= 0. Default 1e-6. */
  eps?: number;
}

export interface LayernormOptions extends RowOptions, OutOption {
  /** Per-column gain g, length dim. Default: all ones. */
  gain?: Vector | Tensor | null;
  /** Per-column bias b, length dim. Default: all zeros. */
  bias?: Vector | Tensor | null;
  /** Added to the variance inside the square root; finite, >= 0. Default 1e-5. */
  eps?: number;
}

export interface SoftmaxOptions extends RowOptions, OutOption {
  /** Scores are divided by it before the softmax; finite, > 0. Default 1. */
  temperature?: number;
}

/** The worked example of RMSNorm on one row x: y = x / rms. */
export interface RmsnormSteps {
  /** x_i^2 */
  squares: Float32Array;
  /** mean(x^2) */
  meanSquare: number;
  /** sqrt(meanSquare + eps): the divisor, from the kernel. */
  rms: number;
  /** x / rms, from the kernel. */
  y: Float32Array;
}

/** The worked example of LayerNorm on one row x: y = (x - mean) / std. */
export interface LayernormSteps {
  /** mean(x), from the kernel. */
  mean: number;
  /** x - mean */
  centered: Float32Array;
  /** mean((x - mean)^2), the population variance, from the kernel. */
  variance: number;
  /** sqrt(variance + eps): the divisor, from the kernel. */
  std: number;
  /** centered / std, from the kernel. */
  y: Float32Array;
}

/** Statistics of each row: every field holds one value per row. */
export interface RowStats {
  /** sqrt(sum x^2) */
  l2: Float32Array;
  /** mean(x) */
  mean: Float32Array;
  /** mean((x - mean)^2) */
  variance: Float32Array;
  /** sqrt(variance) */
  std: Float32Array;
  /** sqrt(mean(x^2)), no eps */
  rms: Float32Array;
  /** max |x| */
  maxAbs: Float32Array;
}

/** Statistics of each row of probabilities: one value per row. */
export interface DistributionStats {
  /** -sum p log p, in nats (0 log 0 = 0) */
  entropy: Float32Array;
  /** max p */
  maxProb: Float32Array;
}

// ---------------------------------------------------------------- model
//
// The synthetic residual-stream model (src/model): a small deterministic
// transformer whose numbers behave like the chapter's 24-layer, 1024-wide
// model. Dimension letters below: L = layers, D = hidden, H = heads,
// T = prompt tokens, K = top-k.
//
// Tokens are the prompt's UTF-8 bytes (vocabulary 256, no BOS token): an
// ASCII character is one token, a Chinese character three, an emoji four.
// Prompts hold 1..64 tokens. (A lone surrogate in a JS string is encoded as
// U+FFFD, as TextEncoder does.)
//
// Errors: TypeError for a wrong type, RangeError for a wrong value, with the
// model's own message, e.g. "layers must be an integer in 1..64",
// "hidden must be a power of two in 64..1024",
// "heads must be a power of two in 1..64 for hidden 1024",
// "norm must be 'rmsnorm', 'layernorm' or 'none'",
// "placement must be 'pre' or 'post'", "eps must be a number in 0..1",
// "seed must be an integer in 0..4294967295", "options must be an object",
// "unknown model option 'x'", "prompt must be a string", "prompt is empty",
// "prompt longer than 64 tokens (65 UTF-8 bytes)",
// "topK must be an integer in 1..256", "layers must be an integer >= 1" (extend),
// "gradients need a prompt of at least 2 tokens",
// "which must be 'inputNorm', 'postAttentionNorm' or 'finalNorm'",
// "layer must be an integer in 0..23". Any call on a deleted model throws
// Error("model was deleted").

/** Every norm the trainer computes; the model computes ModelNormKind's. */
export type NormKind = 'rmsnorm' | 'layernorm' | 'none' | 'dyt';
/** Every placement the trainer computes (TrainerOptions.placement); the model computes ModelPlacement's. */
export type Placement = 'pre' | 'post' | 'deepnorm' | 'output' | 'sandwich';
export type ModelNormKind = 'rmsnorm' | 'layernorm' | 'none';
export type ModelPlacement = 'pre' | 'post';
export type GainName = 'inputNorm' | 'postAttentionNorm' | 'finalNorm';

export interface ModelOptions {
  /** Integer in 1..64. Default 24. */
  layers?: number;
  /** Power of two in 64..1024. Default 1024. */
  hidden?: number;
  /** Power of two in 1..min(64, hidden / 4). Default 16. */
  heads?: number;
  /** Default 'rmsnorm'. With 'none' every norm is the identity. */
  norm?: ModelNormKind;
  /** Where the two norms of a layer sit. Default 'pre'. */
  placement?: ModelPlacement;
  /** Number in 0..1. Default 1e-6 for RMSNorm (and 'none'), 1e-5 for LayerNorm. */
  eps?: number;
  /** Integer in 0..4294967295: all weights are drawn from it. Default 1. */
  seed?: number;
}

/** The resolved options (defaults filled in). */
export interface ModelConfig {
  readonly layers: number;
  readonly hidden: number;
  readonly heads: number;
  readonly norm: ModelNormKind;
  readonly placement: ModelPlacement;
  /** As given or the norm's default; the model computes with it rounded to float32. */
  readonly eps: number;
  readonly seed: number;
}

/**
 * The probes of every layer, in order (the same names for both placements;
 * N1 = inputNorm, N2 = postAttentionNorm, A = attention, F = MLP):
 *
 *   name                       pre-norm           post-norm
 *   residual.in                x                  x
 *   inputNorm.in               x                  x + A(x)
 *   inputNorm.normed           N1(x), no gain     N1(x + A(x)), no gain
 *   inputNorm.out              N1(x)              h = N1(x + A(x))
 *   attention.out              A(N1(x))           A(x)
 *   postAttentionNorm.in       h = x + A(N1(x))   h + F(h)
 *   postAttentionNorm.normed   N2(h), no gain     N2(h + F(h)), no gain
 *   postAttentionNorm.out      N2(h)              N2(h + F(h)) = x'
 *   mlp.out                    F(N2(h))           F(h)
 *   residual.out               x' = h + F(N2(h))  x'
 *
 * "normed" is before the gain (L2 = sqrt(D) per token), "out" after it. With
 * norm 'none' a norm's in, normed and out are the same vector.
 */
export type ProbeName =
  | 'residual.in'
  | 'inputNorm.in'
  | 'inputNorm.normed'
  | 'inputNorm.out'
  | 'attention.out'
  | 'postAttentionNorm.in'
  | 'postAttentionNorm.normed'
  | 'postAttentionNorm.out'
  | 'mlp.out'
  | 'residual.out';

/** The final norm's input (the last layer's residual.out), its output before and after the gain. */
export type FinalProbeName = 'finalNorm.in' | 'finalNorm.normed' | 'finalNorm.out';

/**
 * Statistics of token vectors: l2 = sqrt(sum x^2), mean, variance =
 * mean((x - mean)^2), std = sqrt(variance), rms = sqrt(mean(x^2)) (no eps),
 * maxAbs = max |x|.
 */
export interface StatSet<T> {
  l2: T;
  mean: T;
  variance: T;
  std: T;
  rms: T;
  maxAbs: T;
}

export interface ProbeStats {
  /** Each Float32Array(L): layer l's value averaged over the tokens. */
  mean: StatSet<Float32Array>;
  /** Each Float32Array(L * T): layer l, token t at index l * T + t. */
  perToken: StatSet<Float32Array>;
}

export interface FinalProbeStats {
  /** Averaged over the tokens. */
  mean: StatSet<number>;
  /** Each Float32Array(T). */
  perToken: StatSet<Float32Array>;
}

/**
 * One forward pass. A plain object with no handles to free; every typed
 * array is a view of one buffer owned by this result (copy a view before
 * mutating it if the result is shared).
 */
export interface ForwardRun {
  layers: number; // L
  hidden: number; // D
  heads: number; // H
  /** Int32Array(T): the token ids, i.e. the prompt's UTF-8 bytes 0..255. */
  tokens: Int32Array;
  /**
   * A readable label per token: printable ASCII as itself; space '␣',
   * newline '↵', tab '⇥'; other control bytes as two hex digits ('1B');
   * a multi-byte character as itself on its first byte and '·' on each
   * further byte (你 is '你', '·', '·'); a byte that is part of no valid
   * character as two hex digits ('E4').
   */
  tokenLabels: string[];
  /** The 10 probe names, in layer order (see ProbeName). */
  probeNames: readonly ProbeName[];
  probes: Record<ProbeName, ProbeStats>;
  final: Record<FinalProbeName, FinalProbeStats>;
  attention: {
    /** Float32Array(L * T * H), index (l * T + t) * H + h: entropy (nats) of head h's softmax row for query token t; 0 = one-hot, log(t + 1) = uniform. */
    entropy: Float32Array;
    /** Float32Array(L * T * H), same index: that row's largest probability. */
    maxProb: Float32Array;
    /** Float32Array(L): entropy averaged over tokens and heads. */
    meanEntropy: Float32Array;
    /** Float32Array(L): maxProb averaged over tokens and heads. */
    meanMaxProb: Float32Array;
  };
  /**
   * Post-norm only (null for pre-norm and for norm 'none'): each norm's
   * rescaling of the residual stream, sqrt(D) * rms(g) / ||x + F(x)||
   * (LayerNorm: of x + F(x) minus its mean), and the running product of all
   * factors from layer 0's inputNorm up to and including this one.
   * Index (l * 2 + n) * T + t; n = 0 inputNorm (after attention),
   * n = 1 postAttentionNorm (after the MLP).
   */
  postNorm: null | {
    /** Float32Array(L * 2 * T) */
    rescale: Float32Array;
    /** Float32Array(L * 2 * T) */
    product: Float32Array;
    /** Float32Array(L * 2), index l * 2 + n: averaged over tokens. */
    meanRescale: Float32Array;
    /** Float32Array(L * 2), index l * 2 + n: averaged over tokens. */
    meanProduct: Float32Array;
  };
  /** The next-token distribution after the last prompt token. */
  next: {
    /** Int32Array(K): the K most likely tokens (bytes), most likely first (ties: lower id first). */
    tokens: Int32Array;
    /** Float32Array(K): their probabilities. */
    probs: Float32Array;
    /** The greedy choice: tokens[0]. */
    token: number;
  };
}

/**
 * One backward pass of the next-token loss
 *   loss = mean over t = 0..T-2 of -log p(token_(t+1) | tokens_0..t)
 * through the LM head, the final norm, every layer and the embedding.
 * All values are L2 norms of gradients.
 */
export interface GradientRun {
  layers: number; // L
  tokens: number; // T
  loss: number;
  /** Float32Array(L + 1): ||dloss/dx_l|| of the residual stream entering layer l; index L: leaving the last layer. */
  residual: Float32Array;
  /** Float32Array((L + 1) * T), index l * T + t: the same per token. */
  residualPerToken: Float32Array;
  /** Float32Array(L): the attention weights' gradient per layer. */
  attention: Float32Array;
  /** Float32Array(L): the MLP weights'. */
  mlp: Float32Array;
  /** Float32Array(L): both norms' gains (and LayerNorm biases). */
  norm: Float32Array;
  /** Float32Array(L): all of the layer's parameters together. */
  layer: Float32Array;
  /** The tied embedding / LM head (256 x D). */
  embedding: number;
  /** The final norm's gain (and bias). */
  finalNorm: number;
  /**
   * Post-norm with a norm only, else null: the norms' rescaling factors of
   * the same forward run, equal to forward()'s postNorm.meanRescale and
   * meanProduct, Float32Array(L * 2) each.
   */
  postNorm: null | { meanRescale: Float32Array; meanProduct: Float32Array };
}

export interface ForwardOptions {
  /** How many of the most likely next tokens to report: integer in 1..256. Default 5. */
  topK?: number;
  /**
   * Run only the first `layers` layers (integer in 1..L; default all L), then
   * the final norm and the head. Layer l's weights depend on the seed and l
   * alone, so this equals the forward pass of a `layers`-deep model with the
   * same seed.
   *
   * The run is kept, one per normlab instance (the last forward() of any of
   * its models): the prompt's residual stream entering every layer run. The
   * next forward() of the same model computes only what it lacks: the same
   * prompt at another depth, the layers not run yet (none going down); a
   * prompt that shares its first P tokens with the kept one (typing on, or
   * editing near the end), rows P.. of every kept layer. The results are the
   * same as a fresh model's, bit for bit.
   */
  layers?: number;
}

export interface GradientOptions {
  /**
   * Backward pass of the first `layers` layers (integer in 1..L; default all
   * L): the gradients of a `layers`-deep model with the same seed.
   */
  layers?: number;
}

export interface Model {
  readonly config: ModelConfig;
  /**
   * A copy of a norm's gains, Float32Array(D). layerIndex in 0..L-1
   * (ignored for 'finalNorm'). Drawn around 1: most near it, a few as far as
   * ~0.3 or ~2.
   */
  gains(layerIndex: number, which: GainName): Float32Array;
  /** Runs the prompt with every probe (~3.5 ms for 16 tokens at the default size, SIMD128). */
  forward(prompt: string, options?: ForwardOptions): ForwardRun;
  /** Gradient norms of the next-token loss; the prompt needs >= 2 tokens. Leaves the kept run as it is. */
  gradients(prompt: string, options?: GradientOptions): GradientRun;
  /**
   * Runs the kept prompt (this model's last forward()) through up to
   * `layers` more layers (integer >= 1; never past L), in the model only:
   * idle-time work after which a forward() of that prompt at that depth
   * finds its layers run. Returns how many layers the kept run now covers:
   * 0, running nothing, when another model of this instance ran a forward()
   * since (or this one never did).
   */
  extend(layers: number): number;
  /** Frees the model's wasm memory; later calls throw. Safe to call twice. */
  delete(): void;
}

export interface Normlab {
  /** The backend in use. */
  readonly backend: Backend;
  /** Instruction set the kernels were compiled for: 'wasm' (SIMD128) or 'emulated'. */
  readonly arch: string;

  /**
   * A tensor of `init` floats (zeros), or holding a copy of `init`'s values
   * (a Float32Array, an array of numbers, or another tensor, of this
   * instance or any other). RangeError when it does not fit in the wasm
   * memory (512 MiB at most) or for a length that is not an integer >= 0.
   */
  tensor(init: number | Vector | Tensor): Tensor;

  /** y = x / sqrt(mean(x^2) + eps) * gain, per row. Returns out when given. */
  rmsnorm<O extends Out>(x: Vector | Tensor, options: RmsnormOptions & { out: O }): O;
  rmsnorm(x: Vector | Tensor, options?: RmsnormOptions): Float32Array;
  /** y = (x - mean) / sqrt(variance + eps) * gain + bias, per row. Returns out when given. */
  layernorm<O extends Out>(x: Vector | Tensor, options: LayernormOptions & { out: O }): O;
  layernorm(x: Vector | Tensor, options?: LayernormOptions): Float32Array;
  /**
   * p = softmax(x / temperature), per row. -Infinity entries get p = 0; a row
   * that is all -Infinity gives zeros; a NaN makes its row NaN. Returns out
   * when given.
   */
  softmax<O extends Out>(x: Vector | Tensor, options: SoftmaxOptions & { out: O }): O;
  softmax(x: Vector | Tensor, options?: SoftmaxOptions): Float32Array;
  /** The intermediate values of RMSNorm on one row. */
  rmsnormSteps(x: Vector | Tensor, options?: { eps?: number }): RmsnormSteps;
  /** The intermediate values of LayerNorm on one row. */
  layernormSteps(x: Vector | Tensor, options?: { eps?: number }): LayernormSteps;
  /** Per-row statistics of x. */
  stats(x: Vector | Tensor, options?: RowOptions): RowStats;
  /** Per-row entropy and largest probability of p (e.g. softmax output). */
  distributionStats(p: Vector | Tensor, options?: RowOptions): DistributionStats;

  /**
   * A copy of x made by the kernel copy_rows through the same path as
   * rmsnorm (copy in, kernel, copy out; with tensors, the kernel alone): the
   * memory-bandwidth ceiling the benchmark measures the norms against.
   * Returns out when given.
   */
  copyRows<O extends Out>(x: Vector | Tensor, options: RowOptions & OutOption & { out: O }): O;
  copyRows(x: Vector | Tensor, options?: RowOptions & OutOption): Float32Array;

  /**
   * A synthetic model with weights drawn from options.seed. Lives in wasm
   * memory until model.delete() (or this instance's dispose()).
   */
  createModel(options?: ModelOptions): Model;

  /** Size of the wasm memory in bytes. It grows as needed and never shrinks. */
  heapBytes(): number;
  /** Bytes malloc has handed out and not had back, anywhere in the module. */
  mallocBytes(): number;
  /** Workspace buffers and objects, tensors and models alive; back to its old value when nothing leaks. */
  liveAllocations(): number;
  /**
   * Free the wasm-side workspace, every tensor not yet freed and every model
   * not yet deleted; any later call throws. Safe to call twice.
   */
  dispose(): void;
}

/** Load a backend's wasm module and return the API over it. */
export function loadNormlab(options?: LoadOptions): Promise<Normlab>;

// ---------------------------------------------------------------- trainer
//
// A tiny byte-level transformer trained from scratch in the page
// (src/train): vocabulary 256 (UTF-8 bytes), learned positions, MLP 4 hidden
// with GELU, tied embeddings, Adam. Each trainer lives in a wasm instance of
// its own, given back to the engine by delete(). Bad options reject with
// named errors (a TypeError for a wrong type, else a RangeError, e.g.
// "lr must be a finite number > 0"); a run that diverges is reported in its
// results (diverged, NaN losses), never thrown. After delete() every call
// throws Error("trainer was deleted").

/** The defaults are the demonstration config, chosen by the sweep (web/data/train-sweep.json). */
export interface TrainerOptions {
  /** Integer in 1..64. Default 24. */
  layers?: number;
  /** Power of two in 8..256. Default 32. */
  hidden?: number;
  /** Power of two in 1..min(16, hidden / 4). Default 4. */
  heads?: number;
  /**
   * Default 'rmsnorm'. 'dyt' is DyT, dynamic tanh, in place of every norm:
   * gamma * tanh(alpha x) + beta, alpha a learned scalar per norm starting at
   * 0.5, gamma a gain per feature starting at 1, beta a bias starting at 0
   * (gains() reports gamma and beta as gain and bias).
   */
  norm?: NormKind;
  /**
   * Where a layer's norms sit, for each sublayer F (attention, MLP):
   * 'pre' x + F(N(x)), with a final norm before the head; 'post'
   * N(x + F(x)); 'deepnorm' N(alpha x + F(x)) with alpha = (2 layers)^(1/4),
   * and the value projection, attention's output projection and both MLP
   * matrices initialized scaled by beta = (8 layers)^(-1/4) (DeepNorm,
   * decoder-only); 'output' x + N(F(x)) (the norm on the branch's output,
   * as OLMo 2); 'sandwich' x + No(F(N(x))) (a norm before and a second
   * after each sublayer, as Gemma 2). pre, output and sandwich have a final
   * norm before the head (their stream is a sum of unnormalized terms);
   * post and deepnorm none (their stream leaves the last layer normalized).
   * With norm 'none' every placement is x + F(x). Default 'post'.
   */
  placement?: Placement;
  /**
   * QK-norm, true or false: each head's query and key vectors RMS-normalized
   * (with eps) before q.k / sqrt(head size), each with a learned gain per
   * head feature (one for queries, one for keys, per layer, shared by the
   * heads; starting at 1). RMSNorm whatever the norm option, also with norm
   * 'none' (the attention logits are then bounded by sqrt(head size) times
   * the gains, whatever the stream). Default false.
   */
  qkNorm?: boolean;
  /** Number in 0..1. Default 1e-6 for RMSNorm, 1e-5 for LayerNorm (DyT has none; QK-norm uses it). */
  eps?: number;
  /**
   * Standard deviation of every initial weight matrix and both embeddings,
   * a number > 0 and <= 1. Default 0.02 sqrt(768 / hidden) (0.098 at hidden
   * 32): GPT-2's 0.02 at its width 768, scaled as 1 / sqrt(width).
   */
  initStd?: number;
  /**
   * The initial std of each layer's residual-branch output projections
   * (attention's output projection and the MLP's second matrix), as a
   * multiple of initStd: a number in 0..1. Default 1, as every other matrix.
   * GPT-2 takes 1 / sqrt(2 layers); 0 starts every branch adding nothing.
   */
  residualInitScale?: number;
  /** Adam's step size after warmup, a finite number > 0. Default 3e-3. */
  lr?: number;
  /** Steps of linear warmup, integer in 0..100000. Default 0. */
  warmup?: number;
  /** The run's planned length (advance() stops there), integer in 1..100000. Default 400. */
  steps?: number;
  /** Integer in 0..4294967295: the initial weights and the batches. Default 1. */
  seed?: number;
  /** Bytes per training sequence, integer in 2..256. Default 64. */
  seq?: number;
  /** Sequences per step, integer in 1..64. Default 8. */
  batch?: number;
  /**
   * The training text; its last 10% (of its UTF-8 bytes) is held out. At
   * least 10 (seq + 1) bytes. Default: the committed snapshot of the page's
   * Chinese prose (web/data/training-text.zh.txt, 21,912 bytes).
   */
  text?: string;
}

/** The resolved options, the text aside. */
export interface TrainerConfig {
  readonly layers: number;
  readonly hidden: number;
  readonly heads: number;
  readonly norm: NormKind;
  readonly placement: Placement;
  readonly qkNorm: boolean;
  /** Rounded to float32, as the trainer computes with it. */
  readonly eps: number;
  /** Rounded to float32. */
  readonly initStd: number;
  /** Rounded to float32. */
  readonly residualInitScale: number;
  readonly lr: number;
  readonly warmup: number;
  readonly steps: number;
  readonly seed: number;
  readonly seq: number;
  readonly batch: number;
}

/** The N steps one step() or advance() call completed, in order. */
export interface TrainRun {
  /** Mean cross-entropy of each step's batch (nats); NaN after divergence. */
  loss: Float32Array;
  /** L2 norm of the gradients of all of layer 0's parameters, per step. */
  gradFirst: Float32Array;
  /** The same for the last layer. */
  gradLast: Float32Array;
  /**
   * How far each step's update moved layer 0's parameters relative to their
   * size, ||after - before|| / ||before|| (0 when no update was applied).
   * Under Adam a parameter moves by about lr whatever its gradient's size
   * until the gradient falls far below its running average, so this, not the
   * gradient, says whether a layer still learns.
   */
  updateFirst: Float32Array;
  /** The same for the last layer. */
  updateLast: Float32Array;
  /** The learning rate each step's update used (warmup included). */
  lr: Float32Array;
  /**
   * (N * layers): each step's largest attention logit per layer, step k's
   * layer l at k * layers + l: the largest q.k / sqrt(head size) the
   * softmax received, over the batch's sequences, the heads and the causal
   * pairs (key at or before the query), after QK-norm when qkNorm is on.
   * NaN for a step after divergence.
   */
  maxLogit: Float32Array;
  /**
   * (N * (layers + 1)): each step's residual-stream length, step k's point
   * p at k * (layers + 1) + p: the mean over the batch's rows of the row's
   * L2 norm, entering each layer and then leaving the last (as
   * TrainerLayerNorms.residual, but over the step's batch). NaN for a step
   * after divergence.
   */
  streamNorm: Float32Array;
  /** Index of the first of these steps, from 0. */
  firstStep: number;
  /** Steps the trainer has completed after the call. */
  stepsDone: number;
  /** Units of the next step already run (advance() may stop inside a step). */
  unitsDone: number;
  /** Units in a step: batch x (2 layers + 1) + 1. */
  unitsPerStep: number;
  /** True once a loss or gradient was NaN or Inf: no update is applied from then on. */
  diverged: boolean;
}

export interface EvaluationPart {
  done: boolean;
  /** The held-out loss once done, else NaN. */
  loss: number;
  windowsDone: number;
  windows: number;
}

export interface SamplingPart {
  done: boolean;
  /** generate()'s text once done, else ''. */
  text: string;
  /** Once done, the sampled bytes themselves (text decodes them, a broken UTF-8 sequence as U+FFFD). */
  utf8?: Uint8Array;
  bytesDone: number;
  bytes: number;
}

/** A layer's two norms: the attention sub-block's and the MLP sub-block's. */
export type LayerNormName = 'inputNorm' | 'postAttentionNorm';

/** A norm's lengths, layer by layer: mean L2 per token of its input and output (after the gain, and LayerNorm's bias). */
export interface TrainerNormLengths {
  in: Float32Array;
  out: Float32Array;
}

/**
 * One forward pass of the trainer's model measured layer by layer, each
 * value the mean over the tokens of a row's L2 norm. inputNorm is a layer's
 * attention-side norm, postAttentionNorm its MLP-side one. Pre-norm: each
 * reads the stream (inputNorm) or the stream after attention, before its
 * sub-block. Post-norm: each reads the sum after its sub-block's residual
 * addition, and postAttentionNorm's output is the next layer's stream
 * (deepnorm: the same, the sum weighting the stream by alpha). Output: each
 * reads its sub-block's output. Sandwich: the norms before the sub-blocks,
 * as pre-norm's (the second norms, on the sub-blocks' outputs, are not
 * measured).
 */
export interface TrainerLayerNorms {
  layers: number;
  /** Tokens measured: the prompt's bytes, or config.seq for the held-out window. */
  tokens: number;
  /** Steps the trainer had completed when measured. */
  step: number;
  /** (layers + 1): the stream entering each layer, then leaving the last. */
  residual: Float32Array;
  /** Per layer; null with norm 'none'. */
  norms: null | Record<LayerNormName, TrainerNormLengths>;
  /**
   * (layers): how spread each layer's attention is, the entropy of each
   * softmax row over its keys divided by that of equal weights (1 = uniform,
   * 0 = one key), averaged over heads and rows. NaN for a single token.
   */
  attentionEntropy: Float32Array;
  /**
   * (layers + 1): at each point of residual, the mean cosine similarity of
   * two tokens' vectors (1 = every token carries the same vector). NaN for a
   * single token.
   */
  tokenSimilarity: Float32Array;
}

/**
 * The norms' learned parameters, copied when gains() was called (later steps
 * leave the copy alone). For each of a layer's two norms (inputNorm, the
 * attention side; postAttentionNorm, the MLP side) the layers' values lie one
 * after another: layer l's hidden values are
 * `gain.inputNorm.subarray(l * hidden, (l + 1) * hidden)`. RMSNorm learns a
 * gain per feature (starting at 1); LayerNorm a gain and a bias (starting at
 * 0); DyT a gain (gamma) and a bias (beta) per feature and one alpha
 * (starting at 0.5). Pre-norm, output and sandwich have a final norm, before
 * the head. The variants' own parameters are null where the options have
 * none.
 */
export interface TrainerGains {
  layers: number;
  hidden: number;
  /** Steps the trainer had completed when copied. */
  step: number;
  /** (layers * hidden) per norm; null with norm 'none'. */
  gain: null | Record<LayerNormName, Float32Array>;
  /** (layers * hidden) per norm; null unless norm is 'layernorm' or 'dyt' (its beta). */
  bias: null | Record<LayerNormName, Float32Array>;
  /** (hidden): the final norm's gains; null unless pre, output or sandwich with a norm. */
  finalGain: null | Float32Array;
  /** (hidden): the final norm's biases; null unless LayerNorm or DyT in those placements. */
  finalBias: null | Float32Array;
  /** (layers * hidden / heads): QK-norm's query gains, one per head feature, shared by the heads; null without qkNorm. */
  qGain: null | Float32Array;
  /** (layers * hidden / heads): QK-norm's key gains; null without qkNorm. */
  kGain: null | Float32Array;
  /** (layers * hidden) per norm: the sandwich's second norms, on the attention's and the MLP's outputs; null but for 'sandwich'. */
  outGain: null | Record<LayerNormName, Float32Array>;
  /** (layers * hidden) per norm: their biases; null but for 'sandwich' with LayerNorm or DyT. */
  outBias: null | Record<LayerNormName, Float32Array>;
  /** (layers) per norm: DyT's alpha, one per norm and layer; null but for norm 'dyt'. */
  alpha: null | Record<LayerNormName, Float32Array>;
  /** (layers) per norm: the sandwich's second norms' alphas; null but for 'dyt' in 'sandwich'. */
  outAlpha: null | Record<LayerNormName, Float32Array>;
  /** The final norm's alpha; null but for 'dyt' with a final norm. */
  finalAlpha: null | number;
}

export interface GenerateOptions {
  /** Number in 0..100; 0 takes the most likely byte. Default 1. */
  temperature?: number;
  /** Integer in 0..4294967295 for the sampling. Default 1. */
  seed?: number;
}

export interface Trainer {
  readonly config: TrainerConfig;
  /** Unigram byte entropy of the training split (nats): the loss of a model that knows only byte frequencies. */
  readonly unigramEntropy: number;
  /** Bytes the trainer holds: parameters, Adam state, gradients, activations, the text. */
  readonly memoryBytes: number;
  /** Size of this trainer's own wasm memory. */
  readonly heapBytes: number;
  readonly stepsDone: number;
  /** n whole steps (integer in 1..100000, default 1), finishing any step in progress first. */
  step(n?: number): TrainRun;
  /**
   * Runs units of work (one layer of one sequence forward or backward, the
   * head, or Adam's update) until budgetMs has passed: at least one unit;
   * none once config.steps steps are done or the run diverged. However the
   * steps are sliced, the results are bit-identical to step()'s.
   */
  advance(budgetMs: number): TrainRun;
  /** Mean loss over the held-out split cut into consecutive windows of seq bytes (each predicting the next seq), forward only. */
  evaluate(): number;
  /**
   * The same evaluation in parts, for a page's frame budget: held-out
   * windows until budgetMs has passed (at least one). loss is NaN until
   * done, then bit-identical to evaluate()'s. A unit of training between
   * two calls starts it over.
   */
  evaluateFor(budgetMs: number): EvaluationPart;
  /**
   * nBytes bytes (integer in 0..100000) sampled after the prompt, decoded as
   * UTF-8 (a broken sequence becomes U+FFFD).
   */
  generate(prompt: string, nBytes: number, options?: GenerateOptions): string;
  /**
   * The same sampling in parts, for a page's frame budget: bytes until
   * budgetMs has passed (at least one). text is '' until done, then
   * generate()'s with the same arguments. A call with other arguments, or a
   * unit of training between two calls, starts it over.
   */
  generateFor(prompt: string, nBytes: number, options: GenerateOptions | undefined, budgetMs: number): SamplingPart;
  /**
   * The model's probability for each of the 256 byte values to come next
   * after the prompt: a string (its UTF-8 bytes) or bytes, which need not
   * end on a whole character. Its last config.seq bytes count; an empty one
   * reads as a line break. Forward only: training stays bit-identical.
   */
  nextBytes(prompt: string | Uint8Array): Float32Array;
  /**
   * The residual stream's and the norms' mean L2 per token, layer by layer,
   * from one forward pass of the prompt's UTF-8 bytes (1..config.seq; a
   * RangeError names the length otherwise) or, without one, of the held-out
   * split's first window. Forward only: training stays bit-identical.
   */
  layerNorms(prompt?: string): TrainerLayerNorms;
  /** The norms' gains (and LayerNorm's biases) as they are now, copied: reading them changes no result of the training. */
  gains(): TrainerGains;
  /**
   * The training state as bytes, a copy: every parameter, Adam's moments and
   * bias corrections, the steps done and whether the run diverged (the text
   * is not saved, only its length and hash). A trainer made with the same
   * options that restores it continues bit for bit as this one would; store
   * it (IndexedDB) to survive a reload. Between steps only: part-way through
   * a step (advance() stopped with unitsDone > 0) it throws an Error, 'a step
   * is partly done (3 of 50 units): save between steps'.
   */
  saveState(): Uint8Array;
  /**
   * Restores saveState()'s bytes; a step partly done is dropped. Throws and
   * changes nothing for bytes of the wrong type (TypeError 'state must be a
   * Uint8Array') and, as a RangeError naming the problem, too few or too
   * many bytes, bytes that are not a trainer state, another format version,
   * or a state of other options ('state was saved by a trainer with layers
   * 6, this one has 24'; every option but steps must match) or text.
   */
  restoreState(bytes: Uint8Array): void;
  /** Drops the trainer's wasm instance; later calls throw. Safe to call twice. */
  delete(): void;
}

// Merged into the Normlab interface above.
export interface Normlab {
  /**
   * A trainer in a wasm instance of its own (made asynchronously), of the
   * trainer's module, which the first call loads (normlab_train_simd or
   * normlab_train_scalar, the flavour of this instance's backend, beside
   * normlab.js / normlab.mjs). Rejects with a named error for bad options;
   * dispose() deletes it too.
   */
  createTrainer(options?: TrainerOptions): Promise<Trainer>;
}
