// Scalar double-precision reference of every normlab op: the semantics the
// SIMD kernels of kernels.h are tested against, including every edge case.
//
// T = rows (tokens), D = row length (hidden size / dim)
//
// Same signatures as kernels.h: float in and out, every intermediate in
// double. A float squared is exact in double, and a double sum of at most
// 2^31 squared floats neither overflows nor underflows, so these loops are
// accurate across the whole float range. The forward/backward ops also have
// double-in/double-out overloads, used by the finite-difference tests.
//
// Edge cases (one row never affects another):
//   rmsnorm    r = 1 / sqrt(mean(x^2) + eps), except r = 0 when
//              mean(x^2) + eps == 0 (all-zero row, eps = 0): y = 0 there, and
//              the backward gives dx = 0. A row holding NaN gives NaN. A row
//              holding +-inf has r = 0: its finite entries give 0, its
//              infinite entries NaN (inf * 0).
//   layernorm  r = 1 / sqrt(var + eps), except r = 0 when var + eps == 0
//              (constant row, eps = 0): y = b there. A row holding NaN or
//              +-inf gives NaN (its mean or variance is NaN).
//   softmax    any NaN in the row -> the whole row NaN; else any +inf ->
//              1/k on each of the k +inf entries, 0 elsewhere; else all -inf
//              (fully masked) -> all zeros; else the max-subtracted softmax
//              of x / temperature, -inf entries getting exactly 0.
//   row_stats  plain IEEE evaluation in double, rounded to float once at
//              the end: l2 of a row of 3e38 values is +inf (its exact value
//              exceeds FLT_MAX) while rms, mean and std stay finite.
//   distribution_stats  0 log 0 = 0; a NaN or negative entry gives NaN
//              entropy; a NaN entry gives NaN max_prob.
// In the backward ops, intermediates follow IEEE arithmetic: a cached rstd
// that overflowed to +inf (rms below ~3e-39 with eps = 0) gives NaN.
#pragma once

#include "normlab/kernels.h"

namespace normlab {

void rmsnorm_forward_ref(float* out, float* rstd, const float* inp, const float* gain, int T, int D,
                         float eps);
void rmsnorm_forward_ref(double* out, double* rstd, const double* inp, const double* gain, int T,
                         int D, double eps);

void rmsnorm_backward_ref(float* dinp, float* dgain, const float* dout, const float* inp,
                          const float* gain, const float* rstd, int T, int D);
void rmsnorm_backward_ref(double* dinp, double* dgain, const double* dout, const double* inp,
                          const double* gain, const double* rstd, int T, int D);

void layernorm_forward_ref(float* out, float* mean, float* rstd, const float* inp,
                           const float* gain, const float* bias, int T, int D, float eps);
void layernorm_forward_ref(double* out, double* mean, double* rstd, const double* inp,
                           const double* gain, const double* bias, int T, int D, double eps);

void layernorm_backward_ref(float* dinp, float* dgain, float* dbias, const float* dout,
                            const float* inp, const float* gain, const float* mean,
                            const float* rstd, int T, int D);
void layernorm_backward_ref(double* dinp, double* dgain, double* dbias, const double* dout,
                            const double* inp, const double* gain, const double* mean,
                            const double* rstd, int T, int D);

void softmax_forward_ref(float* out, const float* inp, int T, int D, float temperature);
void softmax_forward_ref(double* out, const double* inp, int T, int D, double temperature);

void softmax_backward_ref(float* dinp, const float* dout, const float* out, int T, int D,
                          float temperature);
void softmax_backward_ref(double* dinp, const double* dout, const double* out, int T, int D,
                          double temperature);

// out: (T)
void row_stats_ref(RowStats* out, const float* inp, int T, int D);

// entropy, max_prob: (T); p: (T, D)
void distribution_stats_ref(float* entropy, float* max_prob, const float* p, int T, int D);

}  // namespace normlab
