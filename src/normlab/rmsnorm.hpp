// RMSNorm forward and backward, SIMD over one row at a time.
//
// T = rows (tokens), D = row length (hidden size), W = batch::size
//
//   r_t  = 1 / sqrt(mean_i(x_ti^2) + eps)        (0 for an all-zero row, eps = 0)
//   y_ti = x_ti * r_t * g_i
//
// Numerics. The fast path sums the squares in float, which is accurate only
// while every square is a normal float and the sum stays finite: it
// overflows once |x| reaches ~1.8e19, and squares below FLT_MIN ~ 1.2e-38
// lose digits to gradual underflow. Each row checks its sum: when it is not
// finite, or below D * FLT_MIN (where the at most D * 2^-150 of underflow
// error could exceed 2^-24 relative), the row is recomputed by the double
// reference, whose squares are exact and cannot overflow. The per-row
// scalar math (mean + eps, sqrt, reciprocal) is in double on both paths, so
// an eps near FLT_MAX cannot overflow.
#pragma once

#include "normlab/reference.h"
#include "normlab/vec.hpp"

#include <cassert>
#include <cfloat>
#include <cmath>
#include <cstddef>

namespace normlab::simd {

// out: (T, D), rstd: (T), inp: (T, D), gain: (D) or nullptr
template <class Arch>
void rmsnorm_forward(float* out, float* rstd, const float* inp, const float* gain, int T, int D,
                     float eps) {
  assert(T >= 0 && D >= 1);
  assert(eps >= 0.0f && std::isfinite(eps));
  assert(T == 0 || (out && rstd && inp));
  const double min_accurate_sum = D * static_cast<double>(FLT_MIN);
  for (int t = 0; t < T; ++t) {
    const float* x_t = inp + static_cast<std::size_t>(t) * D;  // x_t: (D)
    float* y_t = out + static_cast<std::size_t>(t) * D;        // y_t: (D)
    const double sum_sq = vec_sum_of<Arch>(D, [x_t](auto load, int i) {
      const auto x = load(x_t + i);
      return x * x;
    });
    // Written so that NaN fails it too.
    if (!(sum_sq >= min_accurate_sum && sum_sq <= FLT_MAX)) {
      rmsnorm_forward_ref(y_t, rstd + t, x_t, gain, 1, D, eps);
      continue;
    }
    // One reciprocal per row. sum_sq is in [D * FLT_MIN, FLT_MAX] and
    // eps <= FLT_MAX, so r is in [~3.8e-20, ~9.2e18]: a normal float.
    const double r = 1.0 / std::sqrt(sum_sq / D + eps);
    const float r_t = static_cast<float>(r);
    rstd[t] = r_t;
    // (x * r) first: |x_i * r| <= sqrt(D) cannot overflow; the gain is
    // applied in the same pass.
    if (gain) {
      vec_map<Arch>(y_t, D, [=](auto load, int i) { return load(x_t + i) * r_t * load(gain + i); });
    } else {
      vec_map<Arch>(y_t, D, [=](auto load, int i) { return load(x_t + i) * r_t; });
    }
  }
}

// y = g * xhat, xhat = x * r, r = (mean(x^2) + eps)^(-1/2), dr/dx_j = -r^3 x_j / D
// dx_j = r u_j - (r^3 / D) x_j dot(u, x),  u = g * dy
//      = r (u_j - xhat_j c),  c = mean(u * xhat)
// dg_j += dy_j xhat_j
// Working with xhat rather than x keeps every product O(|u|) even for rows
// of 3e38 (where dot(u, x) would overflow) or 1e-38 (where r^3 would). A row
// whose float dot product or dx is still not finite (NaN/inf input, or
// gradients near FLT_MAX, where u - xhat c can overflow before r < 1 brings
// it back) is recomputed by the double reference; dx is checked through its
// sum, taken in the same pass, before dgain is touched.
//
// dinp: (T, D) written; dgain: (D) accumulated (+=) or nullptr;
// dout, inp: (T, D); gain: (D) or nullptr; rstd: (T) from the forward
template <class Arch>
void rmsnorm_backward(float* dinp, float* dgain, const float* dout, const float* inp,
                      const float* gain, const float* rstd, int T, int D) {
  assert(T >= 0 && D >= 1);
  assert(T == 0 || (dinp && dout && inp && rstd));
  for (int t = 0; t < T; ++t) {
    const float* x_t = inp + static_cast<std::size_t>(t) * D;    // x_t: (D)
    const float* dy_t = dout + static_cast<std::size_t>(t) * D;  // dy_t: (D)
    float* dx_t = dinp + static_cast<std::size_t>(t) * D;        // dx_t: (D)
    const float r = rstd[t];
    const double dot_u_xhat =
        gain ? vec_sum_of<Arch>(D,
                                [=](auto load, int i) {
                                  return (load(gain + i) * load(dy_t + i)) * (load(x_t + i) * r);
                                })
             : vec_sum_of<Arch>(
                   D, [=](auto load, int i) { return load(dy_t + i) * (load(x_t + i) * r); });
    if (!std::isfinite(dot_u_xhat)) {
      rmsnorm_backward_ref(dx_t, dgain, dy_t, x_t, gain, rstd + t, 1, D);
      continue;
    }
    const float c = static_cast<float>(dot_u_xhat / D);
    const double sum_dx =
        gain ? vec_map_sum<Arch>(
                   dx_t, D,
                   [=](auto load, int i) {
                     return (load(gain + i) * load(dy_t + i) - (load(x_t + i) * r) * c) * r;
                   })
             : vec_map_sum<Arch>(dx_t, D, [=](auto load, int i) {
                 return (load(dy_t + i) - (load(x_t + i) * r) * c) * r;
               });
    if (!std::isfinite(sum_dx)) {
      rmsnorm_backward_ref(dx_t, dgain, dy_t, x_t, gain, rstd + t, 1, D);
      continue;
    }
    if (dgain) {
      vec_map<Arch>(dgain, D, [=](auto load, int i) {
        return load(dgain + i) + load(dy_t + i) * (load(x_t + i) * r);
      });
    }
  }
}

}  // namespace normlab::simd
