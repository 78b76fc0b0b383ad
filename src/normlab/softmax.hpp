// Softmax with temperature, forward and backward, SIMD over one row at a
// time: max (vec_max_of) -> exp (vec_map) -> its sum, NaN exactly when the
// row has a NaN (vec_sum_of) -> scale (vec_map). exp is exp2_nonpositive
// (fast_exp.hpp), not xsimd::exp.
//
// The sum is a pass of its own, over the row just written (still in L1):
// the exp pass then carries no dependency from one step to the next, and
// the sum pass has four accumulators. Summed in the exp pass, the row would
// be paced by one accumulator's reload-add-store chain, as V8 keeps that
// accumulator on the stack.
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
// the max kept) and temperatures above kMaxFastTemperature or so small
// that s overflows (below ~4e-39). Above kMaxFastTemperature is the only case
// where x - m overflowing float (a row spanning more than FLT_MAX, say
// -3e38 and 3e38) can change the result: 2^(-FLT_MAX * s) is below the
// smallest float for any temperature up to ~3.3e36.
//
// A row with a NaN the max dropped shows as a NaN sum of 2^w, after p_t is
// written; it gets the reference's result for such a row, all NaN. Every
// other row is sent to the reference, or not, before anything is written, so
// out may be inp (in place; the reference works in place too). No other
// overlap is allowed.
#pragma once

#include "normlab/fast_exp.hpp"
#include "normlab/reference.h"
#include "normlab/vec.hpp"

#include <algorithm>
#include <cassert>
#include <cfloat>
#include <cmath>
#include <cstddef>

namespace normlab::simd {

inline constexpr float kMaxFastTemperature = 1e36f;

// out: (T, D), inp: (T, D)
template <class Arch>
void softmax_forward(float* out, const float* inp, int T, int D, float temperature) {
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
    // The max. It may drop a NaN entry (which max keeps one is up to the
    // instruction set); the sum of 2^w below cannot.
    const float m = vec_max_of<Arch>(D, [x_t](auto load, int i) { return load(x_t + i); });
    if (!std::isfinite(m)) {
      softmax_forward_ref(p_t, x_t, 1, D, temperature);
      continue;
    }
    // 2^w into p_t and the sum of 2^w. x is finite, -inf or NaN, m finite and
    // s > 0, so every w is <= 0, -inf or NaN; a NaN w gives a NaN 2^w
    // (fast_exp.hpp), and the sum is NaN exactly when the row has a NaN.
    vec_map<Arch>(p_t, D,
                  [=](auto load, int i) { return exp2_nonpositive((load(x_t + i) - m) * s); });
    const double sum = vec_sum_of<Arch>(D, [p_t](auto load, int i) { return load(p_t + i); });
    if (std::isnan(sum)) {
      // The reference's result for a row with a NaN, which needs no input:
      // p_t may be x_t, already overwritten.
      std::fill(p_t, p_t + D, NAN);
      continue;
    }
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
void softmax_backward(float* dinp, const float* dout, const float* out, int T, int D,
                      float temperature) {
  assert(T >= 0 && D >= 1);
  assert(temperature > 0.0f && std::isfinite(temperature));
  assert(T == 0 || (dinp && dout && out));
  for (int t = 0; t < T; ++t) {
    const float* p_t = out + static_cast<std::size_t>(t) * D;    // p_t: (D)
    const float* dy_t = dout + static_cast<std::size_t>(t) * D;  // dy_t: (D)
    float* dx_t = dinp + static_cast<std::size_t>(t) * D;        // dx_t: (D)
    const double dot =
        vec_sum_of<Arch>(D, [=](auto load, int i) { return load(p_t + i) * load(dy_t + i); });
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
