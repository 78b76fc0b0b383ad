// Row statistics the page plots, SIMD over one row at a time, and the row
// copy the benchmark uses as its memory-bandwidth ceiling.
//
// T = rows (tokens), D = row length (hidden size / vocabulary), W = batch::size
//
//   row_stats:          l2 = sqrt(sum x^2), mean, variance = mean((x - mean)^2),
//                       std, rms = sqrt(mean(x^2)), max_abs = max |x|
//   distribution_stats: entropy = -sum p log p (nats, 0 log 0 = 0), max p
//
// Numerics as in rmsnorm/layernorm: float sums on the fast path (the variance
// by the corrected two-pass algorithm), and rows whose sums overflow, lose
// digits to underflow (sum < D * FLT_MIN) or hold NaN/inf go to the double
// reference. That keeps rms, mean and std of a row of 3e38 values finite and
// right, while its l2 (exactly ~3e38 * sqrt(D)) is +inf, its true value.
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

// out: (T), inp: (T, D)
template <class Arch>
void row_stats(RowStats* out, const float* inp, int T, int D) {
  assert(T >= 0 && D >= 1);
  assert(T == 0 || (out && inp));
  const double min_accurate_sum = D * static_cast<double>(FLT_MIN);
  for (int t = 0; t < T; ++t) {
    const float* x_t = inp + static_cast<std::size_t>(t) * D;  // x_t: (D)
    const auto [sum, sum_sq] = vec_sum2_of<Arch>(D, [x_t](auto load, int i) {
      const auto x = load(x_t + i);
      return std::make_pair(x, x * x);
    });
    // NaN and inf make sum_sq non-finite; written so that NaN fails it.
    if (!(std::isfinite(sum) && sum_sq >= min_accurate_sum && sum_sq <= FLT_MAX)) {
      row_stats_ref(out + t, x_t, 1, D);
      continue;
    }
    const float max_abs = vec_max_of<Arch>(D, [x_t](auto load, int i) { return xsimd::abs(load(x_t + i)); });
    const float m0 = static_cast<float>(sum / D);
    const auto [sum_dev, sum_sq_dev] = vec_sum2_of<Arch>(D, [=](auto load, int i) {
      const auto d = load(x_t + i) - m0;
      return std::make_pair(d, d * d);
    });
    if (!(sum_sq_dev >= min_accurate_sum && sum_sq_dev <= FLT_MAX)) {
      row_stats_ref(out + t, x_t, 1, D);
      continue;
    }
    const double variance = std::max(0.0, (sum_sq_dev - sum_dev * sum_dev / D) / D);
    RowStats& s = out[t];
    s.l2 = static_cast<float>(std::sqrt(sum_sq));
    s.mean = static_cast<float>(m0 + sum_dev / D);
    s.variance = static_cast<float>(variance);
    s.std = static_cast<float>(std::sqrt(variance));
    s.rms = static_cast<float>(std::sqrt(sum_sq / D));
    s.max_abs = max_abs;
  }
}

// entropy, max_prob: (T); p: (T, D)
template <class Arch>
void distribution_stats(float* entropy, float* max_prob, const float* p, int T,
                        int D) {
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
