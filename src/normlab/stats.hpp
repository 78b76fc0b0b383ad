// Row statistics the page plots, SIMD over one row at a time, and the row
// copy the benchmark uses as its memory-bandwidth ceiling.
//
// T = rows (tokens), D = row length (hidden size / vocabulary), W = batch::size
//
//   row_stats:          l2 = sqrt(sum x^2), mean, variance = mean((x - mean)^2),
//                       std, rms = sqrt(mean(x^2)), max_abs = max |x|
//   distribution_stats: entropy = -sum p log p (nats, 0 log 0 = 0), max p
//
// Numerics as in rmsnorm/layernorm: float sums on the fast path, and rows
// whose sums overflow, lose digits to underflow (sum < D * FLT_MIN) or hold
// NaN/inf go to the double reference. That keeps rms, mean and std of a row
// of 3e38 values finite and right, while its l2 (exactly ~3e38 * sqrt(D)) is
// +inf, its true value.
//
// The variance takes one pass or two. A row centred near 0 relative to its
// size (mean^2 <= mean(x^2) / 64, i.e. |mean| <= rms / 8: every residual-stream,
// norm and sub-layer output of the model) gets it from the first pass's sums,
// variance = mean(x^2) - mean^2. As variance >= 63/64 mean(x^2) there, its
// relative error is at most ~1.3 times that of the float-lane sum of x^2 (the
// mean's error adds the rest), the size the second pass's own float-lane sum
// of squared deviations would have had anyway. Other rows take the corrected
// two-pass algorithm, whose deviations from the mean do not cancel.
#pragma once

#include "normlab/kernels.h"
#include "normlab/reference.h"
#include "normlab/vec.hpp"

#include <algorithm>
#include <cassert>
#include <cfloat>
#include <cmath>
#include <cstddef>
#include <utility>

namespace normlab::simd {

// sum x, sum x^2 and max |x| of one row in one pass: row_stats' first pass.
// Sums blocked as vec_sum2_of (float lanes within a kSumBlock block, double
// across); the max needs no blocking. Fusing the max into the sums' pass
// saves a third read of the row, which matters for the model's probes (~40
// rows of D = 1024 per layer and token batch). With a NaN in x the max is
// unreliable (x86 max drops NaN), but sum_sq is NaN too and row_stats sends
// such rows to the reference. x: (n), n >= 1
struct RowMoments {
  double sum, sum_sq;
  float max_abs;
};

template <class Arch>
XSIMD_INLINE RowMoments row_moments(const float* x, int n) {
  using batch = xsimd::batch<float, Arch>;
  constexpr int W = static_cast<int>(batch::size);
  const int n_vec = n - n % W;
  double sum = 0.0, sum_sq = 0.0;
  batch max0(0.0f), max1(0.0f);  // |x| >= 0, so 0 is the max's identity
  int i = 0;
  while (i < n_vec) {
    const int block_end = std::min(n_vec, i + kSumBlock);
    batch s0(0.0f), s1(0.0f), q0(0.0f), q1(0.0f);
    for (; i + 2 * W <= block_end; i += 2 * W) {
      const batch a = batch::load_unaligned(x + i);
      const batch b = batch::load_unaligned(x + i + W);
      s0 += a;
      s1 += b;
      q0 += a * a;
      q1 += b * b;
      max0 = xsimd::max(max0, xsimd::abs(a));
      max1 = xsimd::max(max1, xsimd::abs(b));
    }
    for (; i < block_end; i += W) {
      const batch a = batch::load_unaligned(x + i);
      s0 += a;
      q0 += a * a;
      max0 = xsimd::max(max0, xsimd::abs(a));
    }
    sum += xsimd::reduce_add(s0 + s1);
    sum_sq += xsimd::reduce_add(q0 + q1);
  }
  float max_abs = xsimd::reduce_max(xsimd::max(max0, max1));
  for (; i < n; ++i) {
    sum += x[i];
    sum_sq += static_cast<double>(x[i] * x[i]);
    max_abs = std::max(max_abs, std::fabs(x[i]));
  }
  return {sum, sum_sq, max_abs};
}

// out: (T), inp: (T, D)
template <class Arch>
void row_stats(RowStats* out, const float* inp, int T, int D) {
  assert(T >= 0 && D >= 1);
  assert(T == 0 || (out && inp));
  const double min_accurate_sum = D * static_cast<double>(FLT_MIN);
  for (int t = 0; t < T; ++t) {
    const float* x_t = inp + static_cast<std::size_t>(t) * D;  // x_t: (D)
    const auto [sum, sum_sq, max_abs] = row_moments<Arch>(x_t, D);
    // NaN and inf make sum_sq non-finite; written so that NaN fails it.
    if (!(std::isfinite(sum) && sum_sq >= min_accurate_sum && sum_sq <= FLT_MAX)) {
      row_stats_ref(out + t, x_t, 1, D);
      continue;
    }
    RowStats& s = out[t];
    s.l2 = static_cast<float>(std::sqrt(sum_sq));
    s.rms = static_cast<float>(std::sqrt(sum_sq / D));
    s.max_abs = max_abs;
    const double mean = sum / D;
    const double mean_sq = sum_sq / D;
    if (mean * mean <= mean_sq * (1.0 / 64.0)) {
      const double variance = mean_sq - mean * mean;  // >= 63/64 mean_sq > 0
      s.mean = static_cast<float>(mean);
      s.variance = static_cast<float>(variance);
      s.std = static_cast<float>(std::sqrt(variance));
      continue;
    }
    const float m0 = static_cast<float>(mean);
    const auto [sum_dev, sum_sq_dev] = vec_sum2_of<Arch>(D, [=](auto load, int i) {
      const auto d = load(x_t + i) - m0;
      return std::make_pair(d, d * d);
    });
    if (!(sum_sq_dev >= min_accurate_sum && sum_sq_dev <= FLT_MAX)) {
      row_stats_ref(out + t, x_t, 1, D);
      continue;
    }
    const double variance = std::max(0.0, (sum_sq_dev - sum_dev * sum_dev / D) / D);
    s.mean = static_cast<float>(m0 + sum_dev / D);
    s.variance = static_cast<float>(variance);
    s.std = static_cast<float>(std::sqrt(variance));
  }
}

// entropy, max_prob: (T); p: (T, D)
template <class Arch>
void distribution_stats(float* entropy, float* max_prob, const float* p, int T, int D) {
  assert(T >= 0 && D >= 1);
  assert(T == 0 || (entropy && max_prob && p));
  for (int t = 0; t < T; ++t) {
    const float* p_t = p + static_cast<std::size_t>(t) * D;  // p_t: (D)
    // Each term p log p is in [-1/e, 0] for p in [0, 1], so the float sum is
    // as accurate as its ~log(D) magnitude allows. 0 log 0 = 0 by select
    // (0 * log 0 would be 0 * -inf = NaN); a NaN or negative p still gives
    // NaN (NaN * anything, log of a negative), and sends the row to the
    // reference, whose max keeps the NaN.
    const double sum_plogp = vec_sum_of<Arch>(D, [p_t](auto load, int i) {
      const auto v = load(p_t + i);
      using value = decltype(v);
      return xsimd::select(v == value(0.0f), value(0.0f), v * xsimd::log(v));
    });
    if (!std::isfinite(sum_plogp)) {
      distribution_stats_ref(entropy + t, max_prob + t, p_t, 1, D);
      continue;
    }
    entropy[t] = static_cast<float>(0.0 - sum_plogp);  // 0 - 0 = +0, never -0
    max_prob[t] = vec_max_of<Arch>(D, [p_t](auto load, int i) { return load(p_t + i); });
  }
}

// out = inp, row by row. out: (T, D), inp: (T, D)
template <class Arch>
void copy_rows(float* out, const float* inp, int T, int D) {
  assert(T >= 0 && D >= 1);
  assert(T == 0 || (out && inp));
  for (int t = 0; t < T; ++t) {
    const float* x_t = inp + static_cast<std::size_t>(t) * D;  // x_t: (D)
    float* y_t = out + static_cast<std::size_t>(t) * D;        // y_t: (D)
    vec_map<Arch>(y_t, D, [x_t](auto load, int i) { return load(x_t + i); });
  }
}

}  // namespace normlab::simd
