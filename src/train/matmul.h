// Matrix products of the trainer: one general SIMD kernel (gemm) with a
// plain scalar reference next to it, and the linear layer's forward and
// backward built on it.
//
// M, N, K = the product's rows, columns and reduction length;
// R = rows (tokens of a micro-batch), C = input features, OC = output features
//
// gemm computes out = A B (or out += A B) where
//   out: (M, N), row stride ld_out, columns contiguous
//   A:   (M, K), A(i, k) = a[i * a_rs + k * a_cs]: any strides, so A may be a
//        transposed view (a_rs = 1) of a row-major matrix
//   B:   (K, N), row stride ldb, columns contiguous
// One kernel serves every product of the model: a linear layer's forward
// (against the weight's transposed copy), both of its backward products, and
// attention's four per-head products, whose operands are column slices of
// wider rows (a head of the (R, 3C) qkv rows: ldb = 3C).
//
// Accumulation order. Each output is one float sum over k in increasing
// order, started from the output's old value (accumulate) or from 0, with one
// multiply-add per step: the result does not depend on how the rows of out
// are blocked, and a sum over k split into consecutive calls (accumulate) is
// bit-identical to one call over the whole range. The trainer relies on that:
// weight gradients summed micro-batch by micro-batch equal the whole batch's.
// Natively (AVX2 + FMA) each step is a fused multiply-add in the SIMD columns
// and whatever the compiler makes of acc + a * b in the scalar tail columns;
// on wasm both are a multiply then an add. The reference sums in double.
#pragma once

namespace normlab::train {

// Which part of a product the caller needs, so causal attention skips the
// zero half of its triangular matrices. i = row of out, j = column, k = the
// reduction index. The kernel works on blocks of a few rows; "the block" is
// the block holding row i.
enum class Causal {
  none,       // every out(i, j), every k
  out_lower,  // only out(i, j) with j <= i is needed: columns after the
              // block's last row are skipped; out(i, j) with j > i may still
              // be written, with the product's value
  a_lower,    // A(i, k) = 0 for k > i: k stops after the block's last row
  a_upper,    // A(i, k) = 0 for k < i: k starts at the block's first row
};

// Name of the xsimd architecture the trainer's kernels run on (normlab/arch.hpp: train_arch):
// "fma3<avx2>", "wasm", "emulated", ...
const char* matmul_arch_name();

// out = A B, or out += A B with accumulate (see above for the layout).
// out must not overlap A or B.
void gemm(float* out, const float* a, const float* b, int M, int N, int K, int ld_out, int a_rs,
          int a_cs, int ldb, bool accumulate, Causal causal);

// The reference: every out(i, j) that the causal mode asks for, summed over
// every k in double and rounded once; the zeros the mode assumes are read
// like any other entry.
void gemm_ref(float* out, const float* a, const float* b, int M, int N, int K, int ld_out, int a_rs,
              int a_cs, int ldb, bool accumulate, Causal causal);

// out = inp^T. out: (cols, rows) contiguous; inp: (rows, cols), row stride
// ld_inp.
void transpose(float* out, const float* inp, int rows, int cols, int ld_inp);

// A linear layer without bias, y = x W^T, as a product against W's
// transposed copy (kept by the trainer, refreshed after every update), so the
// kernel streams contiguous rows of W^T.
// out: (R, OC); inp: (R, C); weight_t: (C, OC) = W^T
void matmul_forward(float* out, const float* inp, const float* weight_t, int R, int C, int OC);

// dinp = dout W (or dinp += dout W with accumulate_dinp, where the layer's
// input also feeds another path: the residual stream); dweight += dout^T inp.
// dinp: (R, C); dweight: (OC, C) accumulated; dout: (R, OC); inp: (R, C);
// weight: (OC, C)
void matmul_backward(float* dinp, float* dweight, const float* dout, const float* inp,
                     const float* weight, int R, int C, int OC, bool accumulate_dinp);

}  // namespace normlab::train
