// Types of normlab's public JavaScript API (dist/normlab.mjs; the classic
// script dist/normlab.js exposes the same loadNormlab as `normlab.loadNormlab`).
//
// Conventions shared by every function:
// - Vectors are a Float32Array or an array of numbers; results are new
//   Float32Arrays that the caller owns.
// - A vector of length T * D holds T rows of D values; `dim` (D) defaults to
//   the vector's length, i.e. one row.
// - Empty input gives an empty result (empty arrays; NaN for the scalars of
//   the *Steps functions, which are means over nothing).
// - Bad arguments throw before any work: TypeError for a wrong type, RangeError
//   for a wrong value, with a message naming the problem, e.g.
//   "x.length 10 is not a multiple of dim 4" or "gain.length 3 != dim 4".

export type Vector = Float32Array | readonly number[];
export type Backend = 'simd128' | 'scalar';

export interface LoadOptions {
  /** 'auto' (default): SIMD128 when this engine validates a SIMD module, else scalar. */
  backend?: 'auto' | Backend;
}

export interface RowOptions {
  /** Row length D; a positive integer dividing the input's length. Default: the whole input. */
  dim?: number;
}

export interface RmsnormOptions extends RowOptions {
  /** Per-column gain g, length dim. Default: all ones. */
  gain?: Vector | null;
  /** Added to the mean square inside the square root; finite, >= 0. Default 1e-6. */
  eps?: number;
}

export interface LayernormOptions extends RowOptions {
  /** Per-column gain g, length dim. Default: all ones. */
  gain?: Vector | null;
  /** Per-column bias b, length dim. Default: all zeros. */
  bias?: Vector | null;
  /** Added to the variance inside the square root; finite, >= 0. Default 1e-5. */
  eps?: number;
}

export interface SoftmaxOptions extends RowOptions {
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

export interface Normlab {
  /** The backend in use. */
  readonly backend: Backend;
  /** Instruction set the kernels were compiled for: 'wasm' (SIMD128) or 'emulated'. */
  readonly arch: string;

  /** y = x / sqrt(mean(x^2) + eps) * gain, per row. */
  rmsnorm(x: Vector, options?: RmsnormOptions): Float32Array;
  /** y = (x - mean) / sqrt(variance + eps) * gain + bias, per row. */
  layernorm(x: Vector, options?: LayernormOptions): Float32Array;
  /**
   * p = softmax(x / temperature), per row. -Infinity entries get p = 0; a row
   * that is all -Infinity gives zeros; a NaN makes its row NaN.
   */
  softmax(x: Vector, options?: SoftmaxOptions): Float32Array;
  /** The intermediate values of RMSNorm on one row. */
  rmsnormSteps(x: Vector, options?: { eps?: number }): RmsnormSteps;
  /** The intermediate values of LayerNorm on one row. */
  layernormSteps(x: Vector, options?: { eps?: number }): LayernormSteps;
  /** Per-row statistics of x. */
  stats(x: Vector, options?: RowOptions): RowStats;
  /** Per-row entropy and largest probability of p (e.g. softmax output). */
  distributionStats(p: Vector, options?: RowOptions): DistributionStats;

  /**
   * A copy of x made by the kernel copy_rows through the same path as
   * rmsnorm (copy in, kernel, copy out): the memory-bandwidth ceiling the
   * benchmark measures the norms against.
   */
  copyRows(x: Vector, options?: RowOptions): Float32Array;

  /** Size of the wasm memory in bytes. It grows as needed and never shrinks. */
  heapBytes(): number;
  /** Bytes malloc has handed out and not had back, anywhere in the module. */
  mallocBytes(): number;
  /** Workspace buffers and objects alive; back to its old value when nothing leaks. */
  liveAllocations(): number;
  /** Free the wasm-side workspace; any later call throws. Safe to call twice. */
  dispose(): void;
}

/** Load a backend's wasm module and return the API over it. */
export function loadNormlab(options?: LoadOptions): Promise<Normlab>;
