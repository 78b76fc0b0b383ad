// Softmax with temperature, forward and backward, SIMD over one row at a
// time: max (vec_max_of) -> exp and its sum (vec_map_sum) -> scale (vec_map).
// exp is exp_nonpositive (fast_exp.hpp), not xsimd::exp.
//
// T = rows (tokens), D = row length (vocabulary / keys), W = batch::size
//
//   p_ti = exp((x_ti - m_t) / temperature) / sum_j exp((x_tj - m_t) / temperature),
//   m_t  = max_j x_tj
//
// Subtracting the max makes every exponent <= 0, so exp cannot overflow and
// the max entry contributes exp(0) = 1: the sum is in [1, D] and its single
// reciprocal per row is safe. -inf entries (masked) give exp(-inf) = 0.
//
// Rows the fast path does not handle go to the double reference, which
// defines them: a non-finite max (a +inf entry, a fully masked row, or a NaN
// the max kept), a NaN the max dropped (found through the sum, see below),
// and temperatures above kMaxFastTemperature. The last case is the only one
// where x - m overflowing float (a row spanning more than FLT_MAX, say
// -3e38 and 3e38) can change the result: exp(-FLT_MAX / temperature) is
// below the smallest float for any temperature up to ~3.3e36.
//
// out must not overlap inp: the exp pass stores into out before it knows
// whether the row needs the reference.
#pragma once

#include "normlab/fast_exp.hpp"
#include "normlab/reference.h"
#include "normlab/vec.hpp"

#include <cassert>
#include <cfloat>
#include <cmath>
#include <cstddef>

namespace normlab::simd {

inline constexpr float kMaxFastTemperature = 1e36f;

// out: (T, D), inp: (T, D)
template <class Arch>
void softmax_forward(float* out, const float* inp, int T, int D,
                     float temperature) {
  assert(T >= 0 && D >= 1);
  assert(temperature > 0.0f && std::isfinite(temperature));
  assert(T == 0 || (out && inp));
  if (temperature > kMaxFastTemperature) {
    softmax_forward_ref(out, inp, T, D, temperature);
    return;
  }
  for (int t = 0; t < T; ++t) {
    const float* x_t = inp + static_cast<std::size_t>(t) * D;  // x_t: (D)
    float* p_t = out + static_cast<std::size_t>(t) * D;        // p_t: (D)
    const float m = vec_max_of<Arch>(D, [x_t](auto load, int i) { return load(x_t + i); });
    if (!std::isfinite(m)) {
      softmax_forward_ref(p_t, x_t, 1, D, temperature);
      continue;
    }
    // exp((x - m) / temperature) into p_t, and its sum, by exp_nonpositive
    // (fast_exp.hpp: the exponents are <= 0). A NaN exponent gives NaN, so
    // the sum turns NaN. Temperature 1 skips the division (x / 1 is exact:
    // same result).
    const auto exp_pass = [=](auto scale) {
      return vec_map_sum<Arch>(p_t, D, [=](auto load, int i) { return exp_nonpositive(scale(load(x_t + i) - m)); });
    };
    const double sum = temperature == 1.0f ? exp_pass([](auto z) { return z; })
                                           : exp_pass([temperature](auto z) { return z / temperature; });
    if (!std::isfinite(sum)) {
      softmax_forward_ref(p_t, x_t, 1, D, temperature);
      continue;
    }
    const float inv_sum = static_cast<float>(1.0 / sum);
    vec_map<Arch>(p_t, D, [=](auto load, int i) { return load(p_t + i) * inv_sum; });
  }
}

// p = softmax(z), z = x / temperature
// dz_j = p_j (dy_j - dot(p, dy)),  dx_j = dz_j / temperature
// A row whose dot(p, dy) is not a finite float (NaN in p or dy, or dy near
// FLT_MAX rounding it past FLT_MAX) is recomputed by the double reference.
// dz_j is evaluated as p_j dy_j - p_j dot: for a distribution p both
// products are at most max |dy|, and dz_j = p_j sum_k p_k (dy_j - dy_k) is at
// most max |dy| / 2, so nothing overflows where dy_j - dot would (dy_j =
// -3e38 while dot ~ 3e38).
//
// dinp: (T, D) written; dout: (T, D); out: (T, D) = p from the forward
template <class Arch>
void softmax_backward(float* dinp, const float* dout, const float* out, int T,
                      int D, float temperature) {
  assert(T >= 0 && D >= 1);
  assert(temperature > 0.0f && std::isfinite(temperature));
  assert(T == 0 || (dinp && dout && out));
  for (int t = 0; t < T; ++t) {
    const float* p_t = out + static_cast<std::size_t>(t) * D;    // p_t: (D)
    const float* dy_t = dout + static_cast<std::size_t>(t) * D;  // dy_t: (D)
    float* dx_t = dinp + static_cast<std::size_t>(t) * D;        // dx_t: (D)
    const double dot = vec_sum_of<Arch>(D, [=](auto load, int i) {
      return load(p_t + i) * load(dy_t + i);
    });
    // Written so that NaN fails it too.
    if (!(std::fabs(dot) <= FLT_MAX)) {
      softmax_backward_ref(dx_t, dy_t, p_t, 1, D, temperature);
      continue;
    }
    const float dot_t = static_cast<float>(dot);
    vec_map<Arch>(dx_t, D, [=](auto load, int i) {
      const auto p = load(p_t + i);
      return (p * load(dy_t + i) - p * dot_t) / temperature;
    });
  }
}

}  // namespace normlab::simd
