// normlab kernels: row-wise normalization, softmax and the statistics the page
// plots, in float32. Every op works on T rows of D contiguous floats.
//
// T = rows (tokens), D = row length (hidden size / dim)
//
// Argument order follows one rule everywhere: outputs first, then caches the
// backward needs, then inputs, then sizes and scalars. Optional parameters
// (gain, bias) may be nullptr, meaning g = 1 and b = 0.
//
// These entry points run the SIMD implementation built for this target
// (native x86 ISA, WebAssembly SIMD128, or the emulated scalar architecture in
// the fallback wasm build). The double-precision scalar reference of each op
// lives in reference.h.
//
// Preconditions (checked by callers such as the JS wrapper, asserted here in
// debug builds): T >= 0, D >= 1, eps >= 0 and finite, temperature > 0 and
// finite, pointers non-null where marked (T, D) and T > 0.
//
// The forward ops rmsnorm, layernorm and softmax work in place: out may be
// inp (each row is read before it is written, and a row that needs the
// double reference is sent there before anything is written). No other
// overlap of an output with an input is allowed.
#pragma once

#include <cstddef>

namespace normlab {

// Name of the instruction set the kernels were compiled for, xsimd's
// Arch::name(): "avx2", "avx512vnni+avx512vbmi", "wasm", "emulated" (the
// scalar wasm fallback), ...
const char* kernel_arch_name();

// y = x / sqrt(mean(x^2) + eps) * g
// out: (T, D), rstd: (T) = 1 / sqrt(mean(x^2) + eps) (0 for an all-zero row
// with eps = 0), inp: (T, D), gain: (D) or nullptr.
void rmsnorm_forward(float* out, float* rstd, const float* inp, const float* gain, int T, int D,
                     float eps);

// dinp: (T, D) written; dgain: (D) accumulated (+=), may be nullptr.
void rmsnorm_backward(float* dinp, float* dgain, const float* dout, const float* inp,
                      const float* gain, const float* rstd, int T, int D);

// y = (x - mean) / sqrt(var + eps) * g + b, var = mean((x - mean)^2)
// out: (T, D), mean: (T), rstd: (T), inp: (T, D), gain/bias: (D) or nullptr.
void layernorm_forward(float* out, float* mean, float* rstd, const float* inp, const float* gain,
                       const float* bias, int T, int D, float eps);

// dinp: (T, D) written; dgain, dbias: (D) accumulated (+=), may be nullptr.
void layernorm_backward(float* dinp, float* dgain, float* dbias, const float* dout,
                        const float* inp, const float* gain, const float* mean, const float* rstd,
                        int T, int D);

// p = softmax(x / temperature), max-subtracted.
// -inf entries are masked (p = 0). A row that is entirely -inf gives all
// zeros. A row holding +inf splits the mass evenly over its +inf entries.
// A NaN anywhere in a row makes that whole row NaN. out: (T, D), inp: (T, D).
void softmax_forward(float* out, const float* inp, int T, int D, float temperature);

// dinp: (T, D) written, given dout and the forward output p: (T, D).
void softmax_backward(float* dinp, const float* dout, const float* out, int T, int D,
                      float temperature);

// Per-row statistics of a vector.
struct RowStats {
  float l2;        // sqrt(sum x^2)
  float mean;      // mean(x)
  float variance;  // mean((x - mean)^2)
  float std;       // sqrt(variance)
  float rms;       // sqrt(mean(x^2)), no eps
  float max_abs;   // max |x|
};

// out: (T)
void row_stats(RowStats* out, const float* inp, int T, int D);

// Per-row statistics of a probability distribution (e.g. a softmax row).
// entropy = -sum p log p in nats (0 log 0 = 0); max_prob = max p.
// entropy, max_prob: (T); p: (T, D)
void distribution_stats(float* entropy, float* max_prob, const float* p, int T, int D);

// out = inp, D floats per row: the memory-bandwidth ceiling a norm is
// measured against in the benchmark.
void copy_rows(float* out, const float* inp, int T, int D);

}  // namespace normlab
