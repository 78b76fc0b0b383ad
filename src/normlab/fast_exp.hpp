// exp(z) for z <= 0: the softmax's max-subtracted exponents. One source for
// every build (xsimd batches on SIMD128, native and emulated<128>; plain
// float for the scalar tails, with the same operations in the same order, so
// a tail element gets the same bits as it would in a lane).
//
// Why not xsimd::exp: it handles the whole float range (overflow, both
// signs) and its SIMD128 code is ~5x slower than what the softmax needs.
//
// Method (Cephes expf): z = n ln2 + r with n = round(z / ln2), |r| <= ln2 / 2;
// ln2 is split in two (Cody-Waite: n * kLn2Hi is exact for |n| < 2^15), so r
// carries no extra rounding; e^r = 1 + r + r^2 P(r), P of degree 5; then
// 2^n e^r by adding n to the exponent bits. n is rounded by adding
// 1.5 * 2^23 (round to nearest even), whose bits then hold n in their low
// bits: (bits << 23) is n << 23 modulo 2^32, no float -> int conversion.
// Max error ~1 ulp (measured by the Catch2 test against double, see
// test_softmax.cpp).
//
// Range: z < kExpMin (-86.5, exp ~ 2.7e-38) gives 0, so -inf gives 0 and
// e^r's exponent never drops below the normal range. Results in
// (FLT_MIN, 2.7e-38) and the subnormal ones are flushed to 0: in a softmax,
// where the row sum is >= 1, that is an absolute error below 3e-38. NaN
// gives NaN. z > 0 is not supported (the result is wrong above ~88).
#pragma once

#include <xsimd/xsimd.hpp>

#include <cstdint>
#include <cstring>

namespace normlab::simd {

namespace fast_exp_detail {
inline constexpr float kExpMin = -86.5f;
inline constexpr float kLog2e = 1.44269504088896341f;
inline constexpr float kRound = 12582912.0f;  // 1.5 * 2^23
inline constexpr float kLn2Hi = 0.693359375f;
inline constexpr float kLn2Lo = -2.12194440e-4f;
inline constexpr float kP0 = 1.9875691500e-4f;
inline constexpr float kP1 = 1.3981999507e-3f;
inline constexpr float kP2 = 8.3334519073e-3f;
inline constexpr float kP3 = 4.1665795894e-2f;
inline constexpr float kP4 = 1.6666665459e-1f;
inline constexpr float kP5 = 5.0000001201e-1f;
}  // namespace fast_exp_detail

// e^r and the rounded n (as kRound + n), for z clamped to >= kExpMin. Works
// on float and on any xsimd float batch.
template <class V>
XSIMD_INLINE V fast_exp_core(V zc, V& t) {
  using namespace fast_exp_detail;
  t = zc * V(kLog2e) + V(kRound);
  const V n = t - V(kRound);
  V r = zc - n * V(kLn2Hi);
  r = r - n * V(kLn2Lo);
  V p = V(kP0);
  p = p * r + V(kP1);
  p = p * r + V(kP2);
  p = p * r + V(kP3);
  p = p * r + V(kP4);
  p = p * r + V(kP5);
  return (p * (r * r) + r) + V(1.0f);
}

template <class Arch>
XSIMD_INLINE xsimd::batch<float, Arch> exp_nonpositive(xsimd::batch<float, Arch> z) noexcept {
  using B = xsimd::batch<float, Arch>;
  using fast_exp_detail::kExpMin;
  B t;
  const B e = fast_exp_core(xsimd::max(z, B(kExpMin)), t);
  const auto bits = xsimd::bitwise_cast<int32_t>(e) + (xsimd::bitwise_cast<int32_t>(t) << 23);
  const B y = xsimd::select(z >= B(kExpMin), xsimd::bitwise_cast<float>(bits), B(0.0f));
  return xsimd::select(z == z, y, z);
}

XSIMD_INLINE float exp_nonpositive(float z) noexcept {
  using fast_exp_detail::kExpMin;
  if (z != z) return z;
  if (!(z >= kExpMin)) return 0.0f;
  float t;
  const float e = fast_exp_core(z, t);
  uint32_t e_bits, t_bits;
  std::memcpy(&e_bits, &e, sizeof e);
  std::memcpy(&t_bits, &t, sizeof t);
  const uint32_t bits = e_bits + (t_bits << 23);
  float y;
  std::memcpy(&y, &bits, sizeof y);
  return y;
}

}  // namespace normlab::simd
