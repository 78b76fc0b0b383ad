// 2^w: the one fast exp of normlab, for the softmax and the model's SiLU.
//   exp2_nonpositive(w), w <= 0: the softmax's max-subtracted exponents,
//     already scaled by log2(e) / temperature (softmax.hpp);
//   exp2_clamped(w), any w: SiLU's e^-x = 2^(-x log2 e) (model/vec.cpp).
// One source for every build (xsimd batches on SIMD128, native and
// emulated<128>; plain float for the scalar tails, with the same operations
// in the same order, so a tail element gets the same bits as it would in a
// lane).
//
// Accuracy: relative error at most 5.2e-7 (the polynomial's 4.4e-7 plus
// float rounding) wherever the result is a normal float, i.e. for w in
// [-126, 127]; measured over every float w in that range (the tests check
// 6e-7 on a grid).
//
// Why not xsimd::exp: it handles the whole float range (overflow, both
// signs) and its SIMD128 code is ~5x slower than what the softmax needs.
//
// Every operation below is one SIMD128 instruction (f32x4.max/min/add/sub/mul,
// i32x4.shl) and one x86 instruction: no float -> int conversion, no lane
// extract, no select, no division: exp2_nonpositive is 16 of them per batch,
// exp2_clamped 17. The constants are the only other cost, so there are few
// of them (8 and 9): on V8 more would crowd the caller's accumulators out of
// registers.
//
// Method: w = n + f with n = round(w), |f| <= 1/2; 2^f by a degree-5
// polynomial with p(0) = 1 exactly (minimax for relative error on
// [-1/2, 1/2], max 4.4e-7, ~3.7 ulp; computed with mpmath's Remez, see
// the coefficients); then 2^f * 2^n with 2^n built from its exponent bits.
// n is rounded by adding kRound = 1.5 * 2^23 + 127 (round to nearest even),
// whose bits then hold n + 127, the biased exponent of 2^n, in their low
// bits: (bits << 23) is that float's bit pattern, no float -> int conversion.
//
// Range: w is clamped to >= -127, so n + 127 >= 0. n = -127 gives 2^n's
// bits = 0, i.e. the result 0: w < -126.5 (exp(z) below ~8e-39) gives
// exactly 0, and -inf gives 0. Results between that and FLT_MIN are
// subnormal (2^f times FLT_MIN, rounded once). In a softmax, where the row sum
// is >= 1, the flush is an absolute error below 1e-38. exp2_clamped also
// clamps w to <= 127, so n + 127 <= 254 stays a finite exponent: from w = 127
// up (+inf included) it gives 2^127 ~ 1.7e38. exp2_nonpositive has no upper
// clamp (the softmax does not need it): from w = 127.5 up, n + 127 would
// overflow the exponent field.
// NaN: a NaN w gives NaN in every build, lanes and tail alike, so a caller
// that sums the results finds it there (softmax does). The clamps keep it:
// their operand order is the one whose max and min return w when w is NaN
// (clamp_low, clamp_high).
#pragma once

#include <xsimd/xsimd.hpp>

#include <cstdint>
#include <cstring>

namespace normlab::simd {

namespace fast_exp_detail {
inline constexpr float kExp2Min = -127.0f;
inline constexpr float kExp2Max = 127.0f;
inline constexpr float kRound = 12583039.0f;  // 1.5 * 2^23 + 127
// 2^f ~ 1 + f (c1 + f (c2 + f (c3 + f (c4 + f c5)))) on [-1/2, 1/2].
inline constexpr float kC1 = 0.69314283061102996f;
inline constexpr float kC2 = 0.24022350650173076f;
inline constexpr float kC3 = 0.055574004686395205f;
inline constexpr float kC4 = 0.009666282547493229f;
inline constexpr float kC5 = 0.001112550926354402f;
}  // namespace fast_exp_detail

// 2^f for |f| <= 1/2 and the clamp / round steps, on float or any xsimd float
// batch. Returns 2^f; t receives kRound + n (as a float).
template <class V>
XSIMD_INLINE V exp2_reduced(V w, V& t) {
#if defined(__clang__)
  // No fused multiply-add for the float (tail) version: clang contracts
  // p * f + c into an FMA on float where the hardware has one (x86 with FMA),
  // but never across xsimd's operator calls, which would give a tail element
  // other bits than a lane. (g++ builds in ISO mode: no contraction; wasm has
  // no FMA.)
#pragma clang fp contract(off)
#endif
  using namespace fast_exp_detail;
  t = w + V(kRound);
  const V n = t - V(kRound);
  const V f = w - n;  // exact (Sterbenz): w and n are within a factor 2, or n = 0
  V p = V(kC5);
  p = p * f + V(kC4);
  p = p * f + V(kC3);
  p = p * f + V(kC2);
  p = p * f + V(kC1);
  return p * f + V(1.0f);
}

// max(w, lo), NaN when w is NaN: one max instruction, whose NaN rule
// decides the operand order. x86 max (maxps) returns its second operand when
// either is NaN; SIMD128's pmax(a, b) = a < b ? b : a and emulated<128>'s
// std::max return the first.
template <class Arch>
XSIMD_INLINE xsimd::batch<float, Arch> clamp_low(xsimd::batch<float, Arch> w,
                                                 xsimd::batch<float, Arch> lo) noexcept {
#if defined(__x86_64__) || defined(__i386__)
  return xsimd::max(lo, w);
#else
  return xsimd::max(w, lo);
#endif
}

// min(w, hi), NaN when w is NaN, by the same rule: x86 min (minps) returns
// its second operand when either is NaN; SIMD128's pmin(a, b) = b < a ? b : a
// and emulated<128>'s min return the first.
template <class Arch>
XSIMD_INLINE xsimd::batch<float, Arch> clamp_high(xsimd::batch<float, Arch> w,
                                                  xsimd::batch<float, Arch> hi) noexcept {
#if defined(__x86_64__) || defined(__i386__)
  return xsimd::min(hi, w);
#else
  return xsimd::min(w, hi);
#endif
}

// 2^w for w in [-127, 127] (clamped by the callers): 2^f times 2^n, whose
// bits are t's low bits n + 127 shifted into the exponent field.
template <class Arch>
XSIMD_INLINE xsimd::batch<float, Arch> exp2_in_range(xsimd::batch<float, Arch> w) noexcept {
  using B = xsimd::batch<float, Arch>;
  B t;
  const B p = exp2_reduced(w, t);
  const B pow2n = xsimd::bitwise_cast<float>(xsimd::bitwise_cast<int32_t>(t) << 23);
  return p * pow2n;
}

XSIMD_INLINE float exp2_in_range(float w) noexcept {
  float t;
  const float p = exp2_reduced(w, t);
  uint32_t t_bits;
  std::memcpy(&t_bits, &t, sizeof t);
  const uint32_t pow2n_bits = t_bits << 23;
  float pow2n;
  std::memcpy(&pow2n, &pow2n_bits, sizeof pow2n);
  return p * pow2n;
}

// 2^w for w <= 0 (w > 0 is not supported).
template <class Arch>
XSIMD_INLINE xsimd::batch<float, Arch> exp2_nonpositive(xsimd::batch<float, Arch> w) noexcept {
  using B = xsimd::batch<float, Arch>;
  return exp2_in_range(clamp_low(w, B(fast_exp_detail::kExp2Min)));
}

XSIMD_INLINE float exp2_nonpositive(float w) noexcept {
  // clamp_low's rule: NaN stays.
  return exp2_in_range(w < fast_exp_detail::kExp2Min ? fast_exp_detail::kExp2Min : w);
}

// 2^w for any w, w clamped to [-127, 127].
template <class Arch>
XSIMD_INLINE xsimd::batch<float, Arch> exp2_clamped(xsimd::batch<float, Arch> w) noexcept {
  using B = xsimd::batch<float, Arch>;
  return exp2_in_range(
      clamp_high(clamp_low(w, B(fast_exp_detail::kExp2Min)), B(fast_exp_detail::kExp2Max)));
}

XSIMD_INLINE float exp2_clamped(float w) noexcept {
  // clamp_low's and clamp_high's rule: NaN stays.
  const float lo = w < fast_exp_detail::kExp2Min ? fast_exp_detail::kExp2Min : w;
  return exp2_in_range(lo > fast_exp_detail::kExp2Max ? fast_exp_detail::kExp2Max : lo);
}

}  // namespace normlab::simd
