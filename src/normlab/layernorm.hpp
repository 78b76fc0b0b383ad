// LayerNorm forward and backward, SIMD over one row at a time.
//
// T = rows (tokens), D = row length (hidden size), W = batch::size
//
//   mean_t = mean_i(x_ti),  var_t = mean_i((x_ti - mean_t)^2)
//   r_t    = 1 / sqrt(var_t + eps)              (0 for a constant row, eps = 0)
//   y_ti   = (x_ti - mean_t) * r_t * g_i + b_i
//
// Numerics. The variance uses the corrected two-pass algorithm (Chan, Golub
// & LeVeque): pass 1 gives a float mean m0; pass 2 sums d = x - m0 and d^2.
// sum(d) / D is the error of m0, and var = (sum(d^2) - sum(d)^2 / D) / D
// removes its first-order effect, so a rounded m0 does not inflate the
// variance. The output applies the same correction as (x - m0) - shift:
// x - m0 is exact wherever x is within a factor of 2 of m0 (Sterbenz), which
// keeps rows whose mean dwarfs their spread accurate in the forward pass.
// Such rows stay ill-conditioned in the backward pass, which only has the
// cached float mean: there it is as good as a two-pass float32 computation.
//
// Range: as in rmsnorm, the float sums overflow once |x - m0| reaches ~1.8e19
// (or the plain sum overflows, |x| ~ 3e38 / D), and lose digits once
// sum(d^2) < D * FLT_MIN. Those rows are recomputed by the double reference.
#pragma once

#include "normlab/reference.h"
#include "normlab/vec.hpp"

#include <algorithm>
#include <cassert>
#include <cfloat>
#include <cmath>
#include <cstddef>
#include <utility>

namespace normlab::simd {

// y = ((x - m0) - shift) * r * g + b on one row, for the four combinations
// of an optional gain and bias.
// y_t, x_t: (D); gain, bias: (D) or unused
template <class Arch, bool HasGain, bool HasBias>
void layernorm_row_output(float* y_t, const float* x_t, const float* gain,
                          const float* bias, float m0, float shift, float r,
                          int D) {
  vec_map<Arch>(y_t, D, [=](auto load, int i) {
    auto y = ((load(x_t + i) - m0) - shift) * r;
    if constexpr (HasGain) y = y * load(gain + i);
    if constexpr (HasBias) y = y + load(bias + i);
    return y;
  });
}

// out: (T, D), mean: (T), rstd: (T), inp: (T, D), gain, bias: (D) or nullptr
template <class Arch>
void layernorm_forward(float* out, float* mean, float* rstd, const float* inp,
                       const float* gain, const float* bias, int T, int D,
                       float eps) {
  assert(T >= 0 && D >= 1);
  assert(eps >= 0.0f && std::isfinite(eps));
  assert(T == 0 || (out && mean && rstd && inp));
  const double min_accurate_sum = D * static_cast<double>(FLT_MIN);
  for (int t = 0; t < T; ++t) {
    const float* x_t = inp + static_cast<std::size_t>(t) * D;  // x_t: (D)
    float* y_t = out + static_cast<std::size_t>(t) * D;        // y_t: (D)
    const double sum = vec_sum_of<Arch>(D, [x_t](auto load, int i) { return load(x_t + i); });
    if (!std::isfinite(sum)) {
      layernorm_forward_ref(y_t, mean + t, rstd + t, x_t, gain, bias, 1, D, eps);
      continue;
    }
    const float m0 = static_cast<float>(sum / D);
    const auto [sum_dev, sum_sq_dev] = vec_sum2_of<Arch>(D, [=](auto load, int i) {
      const auto d = load(x_t + i) - m0;
      return std::make_pair(d, d * d);
    });
    // Written so that NaN fails it too.
    if (!(sum_sq_dev >= min_accurate_sum && sum_sq_dev <= FLT_MAX)) {
      layernorm_forward_ref(y_t, mean + t, rstd + t, x_t, gain, bias, 1, D, eps);
      continue;
    }
    // Per-row scalars in double: the correction and + eps cannot overflow.
    const double shift = sum_dev / D;
    const double var = std::max(0.0, (sum_sq_dev - sum_dev * sum_dev / D) / D);
    const double r = var + eps == 0.0 ? 0.0 : 1.0 / std::sqrt(var + eps);
    mean[t] = static_cast<float>(m0 + shift);
    rstd[t] = static_cast<float>(r);
    const float shift_t = static_cast<float>(shift);
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
void layernorm_backward(float* dinp, float* dgain, float* dbias,
                        const float* dout, const float* inp, const float* gain,
                        const float* mean, const float* rstd, int T, int D) {
  assert(T >= 0 && D >= 1);
  assert(T == 0 || (dinp && dout && inp && mean && rstd));
  for (int t = 0; t < T; ++t) {
    const float* x_t = inp + static_cast<std::size_t>(t) * D;    // x_t: (D)
    const float* dy_t = dout + static_cast<std::size_t>(t) * D;  // dy_t: (D)
    float* dx_t = dinp + static_cast<std::size_t>(t) * D;        // dx_t: (D)
    const float mu = mean[t];
    const float r = rstd[t];
    const auto [sum_u, dot_u_xhat] =
        gain ? vec_sum2_of<Arch>(D, [=](auto load, int i) {
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
        gain ? vec_map_sum<Arch>(dx_t, D, [=](auto load, int i) {
                 const auto xhat = (load(x_t + i) - mu) * r;
                 return ((load(gain + i) * load(dy_t + i) - mean_u) - xhat * c) * r;
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
