// Softmax with temperature, forward and backward, SIMD over one row at a
// time: max and a NaN check (vec_max_sum_of) -> exp and its sum (vec_map_sum)
// -> scale (vec_map). exp is exp2_nonpositive (fast_exp.hpp), not xsimd::exp.
//
// T = rows (tokens), D = row length (vocabulary / keys), W = batch::size
//
//   p_ti = exp((x_ti - m_t) / temperature) / sum_j exp((x_tj - m_t) / temperature),
//   m_t  = max_j x_tj
//
// computed as 2^w_ti with w_ti = (x_ti - m_t) * s, s = log2(e) / temperature
// rounded to float once per call: one multiplication per element, no
// division, and the same code for every temperature. The rounding of s
// changes w by at most |w| 2^-24, i.e. each term by a relative |w| 2^-24 ln 2,
// which is below 2^-25 of the row's largest term (|w| 2^w <= 1 / (e ln 2)).
//
// Subtracting the max makes every exponent <= 0, so exp cannot overflow and
// the max entry contributes 2^0 = 1 exactly: the sum is in [1, D] and its
// single reciprocal per row is safe. -inf entries (masked) give 0.
//
// Rows the fast path does not handle go to the double reference, which
// defines them: a non-finite max (a +inf entry, a fully masked row, or a NaN
// the max kept), a NaN the max dropped (found in the same pass through the
// sum of |x|), and temperatures above kMaxFastTemperature or so small
// that s overflows (below ~4e-39). Above kMaxFastTemperature is the only case
// where x - m overflowing float (a row spanning more than FLT_MAX, say
// -3e38 and 3e38) can change the result: 2^(-FLT_MAX * s) is below the
// smallest float for any temperature up to ~3.3e36.
//
// Every row is sent to the reference, or not, before anything is written, so
// out may be inp (in place; the reference works in place too). No other
// overlap is allowed.
#pragma once

#include "normlab/fast_exp.hpp"
#include "normlab/reference.h"
#include "normlab/vec.hpp"

#include <cassert>
#include <cfloat>
#include <cmath>
#include <cstddef>
#include <utility>

namespace normlab::simd {

inline constexpr float kMaxFastTemperature = 1e36f;

// out: (T, D), inp: (T, D)
template <class Arch>
void softmax_forward(float* out, const float* inp, int T, int D,
                     float temperature) {
  assert(T >= 0 && D >= 1);
  assert(temperature > 0.0f && std::isfinite(temperature));
  assert(T == 0 || (out && inp));
  const float s = static_cast<float>(1.4426950408889634 / temperature);  // log2(e) / temperature
  if (temperature > kMaxFastTemperature || !std::isfinite(s)) {
    softmax_forward_ref(out, inp, T, D, temperature);
    return;
  }
  for (int t = 0; t < T; ++t) {
    const float* x_t = inp + static_cast<std::size_t>(t) * D;  // x_t: (D)
    float* p_t = out + static_cast<std::size_t>(t) * D;        // p_t: (D)
    // The max, and the sum of |x|: NaN exactly when an entry is NaN (its
    // terms are >= 0, so infinities cannot make one), whatever the max did
    // with it.
    const std::pair<float, double> max_sum = vec_max_sum_of<Arch>(D, [x_t](auto load, int i) {
      const auto x = load(x_t + i);
      return std::make_pair(x, xsimd::abs(x));
    });
    const float m = max_sum.first;
    if (!std::isfinite(m) || std::isnan(max_sum.second)) {
      softmax_forward_ref(p_t, x_t, 1, D, temperature);
      continue;
    }
    // 2^w into p_t and the sum of 2^w. No NaN can arise from here on: x is
    // finite or -inf, m finite, s > 0, so every w is <= 0 or -inf.
    const double sum = vec_map_sum<Arch>(p_t, D, [=](auto load, int i) {
      return exp2_nonpositive((load(x_t + i) - m) * s);
    });
    assert(sum >= 1.0 && std::isfinite(sum));
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
