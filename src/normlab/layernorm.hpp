// LayerNorm forward and backward, SIMD over one row at a time.
//
// T = rows (tokens), D = row length (hidden size), W = batch::size
//
//   mean_t = mean_i(x_ti),  var_t = mean_i((x_ti - mean_t)^2)
//   r_t    = 1 / sqrt(var_t + eps)              (0 for a constant row, eps = 0)
//   y_ti   = (x_ti - mean_t) * r_t * g_i + b_i
//
// Passes. Two over each row: its sums, then its output. The sums are of
// d = x - K and d^2 around a shift K, the mean of the row's first
// kShiftPrefix entries (a prefix that is still in L1 for the main pass):
//   mean = K + sum(d) / D,  var = (sum(d^2) - sum(d)^2 / D) / D.
// That is exact algebra for any K; in float its error is that of the sum of
// d^2, amplified by sum(d^2) / (D var) = 1 + (mean - K)^2 / var. The row keeps
// this one pass only when 4 sum(d)^2 <= D sum(d^2), i.e. (mean - K)^2 <= var / 3
// and the amplification is at most 4/3 (for Gaussian-like rows a 64-entry
// prefix is within var / 3 of the mean unless it is 4.6 sigma off). A row that
// fails the test (a prefix of outliers, a trend along the row) takes a second
// sums pass around m0 = the rounded mean of the first: the corrected two-pass
// algorithm (Chan, Golub & LeVeque), whose sum(d) / D removes the first-order
// effect of the error in m0.
//
// Numerics. x - K is exact wherever x is within a factor of 2 of K
// (Sterbenz), which keeps rows whose mean dwarfs their spread accurate. The
// output applies the mean as (x - m0) - shift, m0 = the mean rounded to float
// and shift = mean - m0 from the double sums: x - m0 is exact for the same
// rows. Such rows stay ill-conditioned in the backward pass, which only has
// the cached float mean: there it is as good as a two-pass float32
// computation.
//
// Range: as in rmsnorm, the float sums overflow once |x - K| reaches ~1.8e19
// (or the prefix sum overflows, |x| ~ 3e38 / kShiftPrefix), and lose digits
// once sum(d^2) < D * FLT_MIN. Those rows are recomputed by the double
// reference.
#pragma once

#include "normlab/reference.h"
#include "normlab/vec.hpp"

#include <algorithm>
#include <cassert>
#include <cfloat>
#include <cmath>
#include <cstddef>
#include <tuple>
#include <utility>

namespace normlab::simd {

// y = ((x - m0) - shift) * r * g + b on one row, for the four combinations
// of an optional gain and bias.
// y_t, x_t: (D); gain, bias: (D) or unused
template <class Arch, bool HasGain, bool HasBias>
void layernorm_row_output(float* y_t, const float* x_t, const float* gain, const float* bias,
                          float m0, float shift, float r, int D) {
  vec_map<Arch>(y_t, D, [=](auto load, int i) {
    auto y = ((load(x_t + i) - m0) - shift) * r;
    if constexpr (HasGain) y = y * load(gain + i);
    if constexpr (HasBias) y = y + load(bias + i);
    return y;
  });
}

inline constexpr int kShiftPrefix = 64;

// out: (T, D), mean: (T), rstd: (T), inp: (T, D), gain, bias: (D) or nullptr
template <class Arch>
void layernorm_forward(float* out, float* mean, float* rstd, const float* inp, const float* gain,
                       const float* bias, int T, int D, float eps) {
  assert(T >= 0 && D >= 1);
  assert(eps >= 0.0f && std::isfinite(eps));
  assert(T == 0 || (out && mean && rstd && inp));
  const double min_accurate_sum = D * static_cast<double>(FLT_MIN);
  const int prefix = std::min(D, kShiftPrefix);
  for (int t = 0; t < T; ++t) {
    const float* x_t = inp + static_cast<std::size_t>(t) * D;  // x_t: (D)
    float* y_t = out + static_cast<std::size_t>(t) * D;        // y_t: (D)
    // sum(x - k) and sum((x - k)^2) over the row; NaN fails the range test.
    const auto sums_around = [=](float k) {
      return vec_sum2_of<Arch>(D, [=](auto load, int i) {
        const auto d = load(x_t + i) - k;
        return std::make_pair(d, d * d);
      });
    };
    const auto in_range = [=](double sum_sq_dev) {
      return sum_sq_dev >= min_accurate_sum && sum_sq_dev <= FLT_MAX;
    };
    float k = static_cast<float>(
        vec_sum_of<Arch>(prefix, [x_t](auto load, int i) { return load(x_t + i); }) / prefix);
    auto [sum_dev, sum_sq_dev] = sums_around(k);
    if (in_range(sum_sq_dev) && 4.0 * sum_dev * sum_dev > D * sum_sq_dev) {
      // The prefix was a poor guess: a second pass around the first pass's mean.
      k = static_cast<float>(k + sum_dev / D);
      std::tie(sum_dev, sum_sq_dev) = sums_around(k);
    }
    if (!in_range(sum_sq_dev)) {
      layernorm_forward_ref(y_t, mean + t, rstd + t, x_t, gain, bias, 1, D, eps);
      continue;
    }
    // Per-row scalars in double: the correction and + eps cannot overflow.
    const double mu = k + sum_dev / D;
    const double var = std::max(0.0, (sum_sq_dev - sum_dev * sum_dev / D) / D);
    const double r = var + eps == 0.0 ? 0.0 : 1.0 / std::sqrt(var + eps);
    const float m0 = static_cast<float>(mu);
    mean[t] = m0;
    rstd[t] = static_cast<float>(r);
    const float shift_t = static_cast<float>(mu - m0);
    const float r_t = static_cast<float>(r);
    if (gain && bias) {
      layernorm_row_output<Arch, true, true>(y_t, x_t, gain, bias, m0, shift_t, r_t, D);
    } else if (gain) {
      layernorm_row_output<Arch, true, false>(y_t, x_t, gain, bias, m0, shift_t, r_t, D);
    } else if (bias) {
      layernorm_row_output<Arch, false, true>(y_t, x_t, gain, bias, m0, shift_t, r_t, D);
    } else {
      layernorm_row_output<Arch, false, false>(y_t, x_t, gain, bias, m0, shift_t, r_t, D);
    }
  }
}

// y = g * xhat + b, xhat = (x - mean) * r, u = g * dy
// dx_j = r (u_j - mean(u) - xhat_j mean(u * xhat))
//   (d mean / dx_j = 1/D, d r / dx_j = -r^3 (x_j - mean) / D)
// dg_j += dy_j xhat_j, db_j += dy_j
// A row whose float sums or dx are not finite (NaN/inf input, x - mean
// overflowing in float for rows near +-3e38, or gradients near FLT_MAX,
// where u - mean(u) - xhat c can overflow before r < 1 brings it back) is
// recomputed by the double reference; dx is checked through its sum, taken
// in the same pass, before dgain and dbias are touched.
//
// dinp: (T, D) written; dgain, dbias: (D) accumulated (+=) or nullptr;
// dout, inp: (T, D); gain: (D) or nullptr; mean, rstd: (T) from the forward
template <class Arch>
void layernorm_backward(float* dinp, float* dgain, float* dbias, const float* dout,
                        const float* inp, const float* gain, const float* mean, const float* rstd,
                        int T, int D) {
  assert(T >= 0 && D >= 1);
  assert(T == 0 || (dinp && dout && inp && mean && rstd));
  for (int t = 0; t < T; ++t) {
    const float* x_t = inp + static_cast<std::size_t>(t) * D;    // x_t: (D)
    const float* dy_t = dout + static_cast<std::size_t>(t) * D;  // dy_t: (D)
    float* dx_t = dinp + static_cast<std::size_t>(t) * D;        // dx_t: (D)
    const float mu = mean[t];
    const float r = rstd[t];
    const auto [sum_u, dot_u_xhat] =
        gain ? vec_sum2_of<Arch>(D,
                                 [=](auto load, int i) {
                                   const auto u = load(gain + i) * load(dy_t + i);
                                   return std::make_pair(u, u * ((load(x_t + i) - mu) * r));
                                 })
             : vec_sum2_of<Arch>(D, [=](auto load, int i) {
                 const auto u = load(dy_t + i);
                 return std::make_pair(u, u * ((load(x_t + i) - mu) * r));
               });
    if (!std::isfinite(sum_u) || !std::isfinite(dot_u_xhat)) {
      layernorm_backward_ref(dx_t, dgain, dbias, dy_t, x_t, gain, mean + t, rstd + t, 1, D);
      continue;
    }
    const float mean_u = static_cast<float>(sum_u / D);
    const float c = static_cast<float>(dot_u_xhat / D);
    const double sum_dx =
        gain ? vec_map_sum<Arch>(dx_t, D,
                                 [=](auto load, int i) {
                                   const auto xhat = (load(x_t + i) - mu) * r;
                                   return ((load(gain + i) * load(dy_t + i) - mean_u) - xhat * c) *
                                          r;
                                 })
             : vec_map_sum<Arch>(dx_t, D, [=](auto load, int i) {
                 const auto xhat = (load(x_t + i) - mu) * r;
                 return ((load(dy_t + i) - mean_u) - xhat * c) * r;
               });
    if (!std::isfinite(sum_dx)) {
      layernorm_backward_ref(dx_t, dgain, dbias, dy_t, x_t, gain, mean + t, rstd + t, 1, D);
      continue;
    }
    if (dgain) {
      vec_map<Arch>(dgain, D, [=](auto load, int i) {
        return load(dgain + i) + load(dy_t + i) * ((load(x_t + i) - mu) * r);
      });
    }
    if (dbias) {
      vec_map<Arch>(dbias, D, [=](auto load, int i) { return load(dbias + i) + load(dy_t + i); });
    }
  }
}

}  // namespace normlab::simd
