// Vector primitives of the synthetic model: the fast Walsh-Hadamard transform
// its structured projections are built from, the per-head segment products
// of attention, rotary rotations, SiLU, and the elementwise ops around them.
//
// n = vector length, block = Hadamard block length (a power of two dividing
// n), seg = segment length (a head: dh)
//
// add and scale are the trainer's too (train/elementwise.h).
//
// Each op has a SIMD implementation built for this target (the same xsimd
// architecture as the normlab kernels: native x86, WebAssembly SIMD128, or
// the emulated 128-bit architecture of the scalar wasm build) and a plain
// scalar reference `*_ref` next to it; tests compare the two.
#pragma once

namespace normlab::model {

// In-place unnormalized Walsh-Hadamard transform of each of the n / block
// contiguous blocks of x: x_b <- H x_b with H the block x block Sylvester
// Hadamard matrix (entries +-1). H is symmetric and H H = block * I, so
// H / sqrt(block) is orthogonal and is its own inverse and transpose: the
// backward of y = H x / sqrt(block) is dx = H dy / sqrt(block).
// Cost: n * log2(block) additions. x: (n)
void fwht(float* x, int n, int block);
void fwht_ref(float* x, int n, int block);

// out = Hb(diag * inp) * scale, blockwise as fwht: a structured projection's
// transform with its input-side diagonal (nullptr = all ones) and
// normalization fused into the transform's first pass, which saves a pass
// over the row. out may alias inp. out, inp: (n), diag: (n) or nullptr
void hadamard_project(float* out, const float* inp, const float* diag, float scale, int n,
                      int block);
void hadamard_project_ref(float* out, const float* inp, const float* diag, float scale, int n,
                          int block);

// out = a * b * scale, elementwise. out may alias a or b. out, a, b: (n)
void mul(float* out, const float* a, const float* b, float scale, int n);
void mul_ref(float* out, const float* a, const float* b, float scale, int n);

// out = inp * s. out may alias inp. out, inp: (n)
void scale(float* out, const float* inp, float s, int n);
void scale_ref(float* out, const float* inp, float s, int n);

// out = a * b and sum = c + out in one pass: a sub-block's last scaling and
// the residual addition after it. out, sum, a, b, c: (n)
void mul_add(float* out, float* sum, const float* a, const float* b, const float* c, int n);
void mul_add_ref(float* out, float* sum, const float* a, const float* b, const float* c, int n);

// acc += a * b, elementwise. acc, a, b: (n)
void mul_acc(float* acc, const float* a, const float* b, int n);
void mul_acc_ref(float* acc, const float* a, const float* b, int n);

// y += alpha * x. y, x: (n)
void axpy(float* y, float alpha, const float* x, int n);
void axpy_ref(float* y, float alpha, const float* x, int n);

// out = a + b. out may alias a or b. out, a, b: (n)
void add(float* out, const float* a, const float* b, int n);
void add_ref(float* out, const float* a, const float* b, int n);

// sum a * b, summed as vec_sum_of sums (normlab/vec.hpp): four independent
// float accumulators hide the add latency, within blocks of 1024 floats
// added in double. The model only takes dot products of n <= 1024 numbers,
// one block, where float accumulation is accurate to ~1e-6 relative.
// a, b: (n)
float dot(const float* a, const float* b, int n);
float dot_ref(const float* a, const float* b, int n);

// Dot products of matching segments: out_j = sum over segment j of a * b,
// segments of length seg (n a multiple of seg): all heads' q.k of one
// (query, key) pair in one call. out: (n / seg), a, b: (n)
void segment_dots(float* out, const float* a, const float* b, int n, int seg);
void segment_dots_ref(float* out, const float* a, const float* b, int n, int seg);

// segment_dots for four right-hand vectors at once, so a is read once per
// four (four keys against one query):
// out_kj = sum over segment j of a * b_k, k = 0..3. out: (4, n / seg)
void segment_dots4(float* out, const float* a, const float* const b[4], int n, int seg);
void segment_dots4_ref(float* out, const float* a, const float* const b[4], int n, int seg);

// y += alpha_j * x on segment j: all heads' p * v of one pair in one call.
// y, x: (n), alpha: (n / seg)
void segment_axpy(float* y, const float* alpha, const float* x, int n, int seg);
void segment_axpy_ref(float* y, const float* alpha, const float* x, int n, int seg);

// y += sum_k alpha_kj * x_k on segment j, for four vectors x_k at once, so y
// is read and written once per four. y: (n), alpha: (4, n / seg)
void segment_axpy4(float* y, const float* alpha, const float* const x[4], int n, int seg);
void segment_axpy4_ref(float* y, const float* alpha, const float* const x[4], int n, int seg);

// sum x^2 in double: float partial sums over 1024-element blocks (as dot's),
// added in double, so parameter and gradient norms over up to 10^6 numbers
// keep float precision (normlab::simd::vec_sum_squares, which the trainer's
// sum_squares runs too). x: (n)
double sum_squares(const float* x, int n);
double sum_squares_ref(const float* x, int n);

// RoPE fused with a diagonal projection: for each segment of length seg
// (a head), with half = seg / 2, lo = a * b on its first half and hi = a * b
// on its second, out = (lo cos - hi sin, lo sin + hi cos), cos_a and sin_a
// being the same (half) angles for every segment.
// out, a, b: (n); cos_a, sin_a: (seg / 2). out may alias a or b.
void mul_rotate_segments(float* out, const float* a, const float* b, const float* cos_a,
                         const float* sin_a, int n, int seg);
void mul_rotate_segments_ref(float* out, const float* a, const float* b, const float* cos_a,
                             const float* sin_a, int n, int seg);

// Rotates n coordinate pairs (lo_i, hi_i) by angles a_i given as cos_a,
// sin_a: lo' = lo cos - hi sin, hi' = lo sin + hi cos. direction = +1
// applies the rotation, -1 its inverse (= transpose), which is the backward.
// lo, hi: (n) in place; cos_a, sin_a: (n)
void rotate_pairs(float* lo, float* hi, const float* cos_a, const float* sin_a, float direction,
                  int n);
void rotate_pairs_ref(float* lo, float* hi, const float* cos_a, const float* sin_a, float direction,
                      int n);

// out = silu(inp) = inp * sigmoid(inp) = inp / (1 + exp(-inp)).
// exp is the kernels' fast exp (normlab/fast_exp.hpp: exp2_clamped, relative
// error at most 5.2e-7), from +, * and exponent-bit arithmetic only: cheap
// in SIMD128, which has no exp instruction. Its exponent is clamped to
// [-127, 127], so exp(-x) stays finite (<= 2^127) and huge inputs (an
// unnormalized model's) give ~x / 2^127 ~ 0 for x << 0 and x for x >> 0,
// never NaN. out may alias inp. out, inp: (n)
void silu_forward(float* out, const float* inp, int n);
void silu_forward_ref(float* out, const float* inp, int n);

// m = a * b and out = silu(m) in one pass (the MLP's scaling and its
// activation). m, out, a, b: (n)
void mul_silu_forward(float* m, float* out, const float* a, const float* b, int n);
void mul_silu_forward_ref(float* m, float* out, const float* a, const float* b, int n);

// dinp = dout * silu'(inp), silu'(x) = s (1 + x (1 - s)) with s = sigmoid(x)
// (same exp as silu_forward). dinp may alias dout. dinp, dout, inp: (n)
void silu_backward(float* dinp, const float* dout, const float* inp, int n);
void silu_backward_ref(float* dinp, const float* dout, const float* inp, int n);

}  // namespace normlab::model
