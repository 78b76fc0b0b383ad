// Softmax forward: worked example, normalization, shift invariance,
// temperature, masking and the +inf / NaN rules, the SIMD kernel against
// the double reference on every tail length, and its exp on its own.
//
// T = rows, D = row length
#include <catch2/catch.hpp>

// As in kernels.cpp: GCC 12's false positives in its own AVX-512 intrinsics
// (GCC bug 105593), which fast_exp.hpp's xsimd batches pull in natively.
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ == 12
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include "normlab/arch.hpp"
#include "normlab/fast_exp.hpp"
#include "normlab/kernels.h"
#include "normlab/reference.h"
#include "tensor_check.h"

#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

using namespace normlab;
using namespace normlab::test;

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

std::vector<float> softmax(const std::vector<float>& x, float temperature = 1.0f) {
  std::vector<float> p(x.size());
  softmax_forward(p.data(), x.data(), 1, static_cast<int>(x.size()), temperature);
  return p;
}

}  // namespace

TEST_CASE("softmax worked example [1, 2, 3]", "[softmax]") {
  const std::vector<float> p = softmax({1.0f, 2.0f, 3.0f});
  const double s = std::exp(1.0) + std::exp(2.0) + std::exp(3.0);
  CHECK(p[0] == Approx(std::exp(1.0) / s).epsilon(1e-6));
  CHECK(p[1] == Approx(std::exp(2.0) / s).epsilon(1e-6));
  CHECK(p[2] == Approx(std::exp(3.0) / s).epsilon(1e-6));
  CHECK(p[0] == Approx(0.0900306).epsilon(1e-5));
  CHECK(p[1] == Approx(0.2447285).epsilon(1e-5));
  CHECK(p[2] == Approx(0.6652410).epsilon(1e-5));
}

TEST_CASE("softmax: every row sums to 1", "[softmax]") {
  Rng rng(21);
  const int T = 5, D = 1000;
  const std::vector<float> x = rng.uniform_vec(T * D, -20.0f, 20.0f);
  std::vector<float> p(T * D);
  softmax_forward(p.data(), x.data(), T, D, 1.0f);
  for (int t = 0; t < T; ++t) {
    double s = 0.0;
    for (int i = 0; i < D; ++i) {
      s += p[t * D + i];
      CHECK(p[t * D + i] >= 0.0f);
    }
    CHECK(s == Approx(1.0).epsilon(1e-5));
  }
}

TEST_CASE("softmax: adding a constant to a row changes nothing", "[softmax]") {
  // x on a grid of 1/16 and a shift of 1024: x + 1024 is exact in float, so
  // the max-subtracted exponents are identical.
  Rng rng(22);
  const int D = 67;
  std::vector<float> x(D), x_shifted(D);
  for (int i = 0; i < D; ++i) {
    x[i] = std::round(rng.uniform(-160.0f, 160.0f)) / 16.0f;
    x_shifted[i] = x[i] + 1024.0f;
  }
  CHECK(max_scaled_diff(softmax(x), softmax(x_shifted), 1, D) <= 1e-6);
  // Without the max subtraction exp(1034) would overflow.
  for (const float v : softmax(x_shifted)) CHECK(std::isfinite(v));
}

TEST_CASE("softmax: temperature divides the logits", "[softmax]") {
  Rng rng(23);
  const int D = 41;
  std::vector<float> x(D), x_over_2(D);
  for (int i = 0; i < D; ++i) {
    x[i] = rng.uniform(-8.0f, 8.0f);
    x_over_2[i] = x[i] / 2.0f;  // exact
  }
  CHECK(max_scaled_diff(softmax(x, 2.0f), softmax(x_over_2, 1.0f), 1, D) <= 1e-6);

  // Low temperature -> one-hot at the argmax; high -> uniform.
  const std::vector<float> logits = {0.5f, 2.0f, -1.0f, 1.9f};
  const std::vector<float> cold = softmax(logits, 1e-4f);
  CHECK(cold == std::vector<float>{0.0f, 1.0f, 0.0f, 0.0f});
  for (const float v : softmax(logits, 1e6f)) CHECK(v == Approx(0.25).epsilon(1e-5));
}

TEST_CASE("softmax: -inf entries are masked out", "[softmax]") {
  const std::vector<float> p = softmax({-kInf, 0.0f, 0.0f, -kInf});
  CHECK(p == std::vector<float>{0.0f, 0.5f, 0.5f, 0.0f});

  // A causal mask over a long row: masked entries are exactly 0, and the
  // rest is the softmax of the unmasked entries alone.
  Rng rng(24);
  const int D = 70, visible = 45;
  std::vector<float> x = rng.uniform_vec(D, -4.0f, 4.0f);
  const std::vector<float> unmasked(x.begin(), x.begin() + visible);
  for (int i = visible; i < D; ++i) x[i] = -kInf;
  const std::vector<float> p_masked = softmax(x);
  const std::vector<float> p_unmasked = softmax(unmasked);
  for (int i = visible; i < D; ++i) CHECK(p_masked[i] == 0.0f);
  CHECK(max_scaled_diff(p_masked.data(), p_unmasked.data(), 1, visible) <= 1e-6);
}

TEST_CASE("softmax: a fully masked row gives zeros", "[softmax]") {
  for (const int D : {1, 5, 33}) {
    const std::vector<float> p = softmax(std::vector<float>(D, -kInf));
    INFO("D = " << D);
    CHECK(p == std::vector<float>(D, 0.0f));
  }
}

TEST_CASE("softmax: +inf entries share the mass evenly", "[softmax]") {
  CHECK(softmax({kInf, 1.0f, kInf, -kInf}) == std::vector<float>{0.5f, 0.0f, 0.5f, 0.0f});
  CHECK(softmax({3.0f, kInf, 1e30f}) == std::vector<float>{0.0f, 1.0f, 0.0f});
  std::vector<float> x(20, 0.0f);
  x[3] = x[7] = x[11] = x[19] = kInf;
  const std::vector<float> p = softmax(x, 0.5f);
  for (int i = 0; i < 20; ++i)
    CHECK(p[i] == (i == 3 || i == 7 || i == 11 || i == 19 ? 0.25f : 0.0f));
}

TEST_CASE("softmax: a NaN makes its whole row NaN", "[softmax]") {
  // NaN first, last, in a SIMD lane and in the tail, and next to +inf.
  for (const int pos : {0, 5, 16, 36}) {
    std::vector<float> x(37, 1.0f);
    x[pos] = kNaN;
    INFO("NaN at " << pos);
    for (const float v : softmax(x)) CHECK(std::isnan(v));
    x[(pos + 1) % 37] = kInf;
    for (const float v : softmax(x)) CHECK(std::isnan(v));
  }
}

TEST_CASE("softmax: a NaN row in place, beside masked entries, between clean rows", "[softmax]") {
  // The kernel finds a NaN the max dropped only through the sum of exp, after
  // the row is written: in place, the row must still come out all NaN, and
  // its neighbours as they would alone. -inf entries next to the NaN take the
  // exp's clamped path; -1e30 and 0 make a row spanning past 2^-127.
  constexpr int D = 37;
  for (const int pos : {0, 5, 16, 36}) {
    std::vector<float> x(3 * D);
    for (int i = 0; i < 3 * D; ++i) x[i] = 0.25f * static_cast<float>(i % 11) - 1.0f;
    x[D + 3] = -kInf;
    x[D + 20] = -1e30f;
    x[D + pos] = kNaN;
    std::vector<float> want(3 * D);
    softmax_forward(want.data(), x.data(), 3, D, 0.7f);
    softmax_forward(x.data(), x.data(), 3, D, 0.7f);  // in place
    INFO("NaN at " << pos);
    for (int i = 0; i < D; ++i) CHECK(std::isnan(x[D + i]));
    for (const int t : {0, 2}) {
      double sum = 0.0;
      for (int i = 0; i < D; ++i) {
        CHECK(x[t * D + i] == want[t * D + i]);
        sum += x[t * D + i];
      }
      CHECK(sum == Approx(1.0).epsilon(1e-6));
    }
  }
}

TEST_CASE("softmax: logits spanning the whole float range", "[softmax]") {
  // x - max overflows float for -3e38 vs 3e38; exp(-inf) = 0 is the right
  // answer at any ordinary temperature.
  CHECK(softmax({-3e38f, 3e38f, 0.0f}) == std::vector<float>{0.0f, 1.0f, 0.0f});
  CHECK(softmax({3e38f, 3e38f}) == std::vector<float>{0.5f, 0.5f});
  // At temperature 1e38 the exponents are -6, 0, -3: finite, nonzero.
  const std::vector<float> p = softmax({-3e38f, 3e38f, 0.0f}, 1e38f);
  const double s = std::exp(-6.0) + 1.0 + std::exp(-3.0);
  CHECK(p[0] == Approx(std::exp(-6.0) / s).epsilon(1e-5));
  CHECK(p[1] == Approx(1.0 / s).epsilon(1e-5));
  CHECK(p[2] == Approx(std::exp(-3.0) / s).epsilon(1e-5));
}

TEST_CASE("softmax forward: SIMD matches the reference on every tail length", "[softmax][sweep]") {
  Rng rng(25);
  double worst = 0.0;
  int worst_D = 0;
  for (const int D : sweep_sizes()) {
    const int T = kSweepRows;
    std::vector<float> x = sweep_input(rng, T, D);
    // Mask every fifth entry of the last row (never all of it).
    for (int i = 1; i < D; i += 5) x[static_cast<std::size_t>(T - 1) * D + i] = -kInf;
    for (const float temperature : {1.0f, 0.3f, 7.0f}) {
      std::vector<float> p(T * D), p_ref(T * D);
      softmax_forward(p.data(), x.data(), T, D, temperature);
      softmax_forward_ref(p_ref.data(), x.data(), T, D, temperature);
      const double d = max_scaled_diff(p, p_ref, T, D);
      if (d > worst) {
        worst = d;
        worst_D = D;
      }
    }
  }
  INFO("softmax forward: max |p - p_ref| / row scale = " << worst << " (D = " << worst_D << ")");
  CHECK(worst <= kTol);
}

// exp2_nonpositive (fast_exp.hpp) on its own, on the architecture the
// kernels of this build use, lane by lane against the scalar-tail version
// and std::exp2 in double.
TEST_CASE("exp2_nonpositive: accuracy, exact points, range ends", "[softmax][exp]") {
  using batch = xsimd::batch<float, simd::kernel_arch>;
  constexpr int W = static_cast<int>(batch::size);
  const auto lanes = [](float w) {
    alignas(64) float in[W], out[W];
    for (float& v : in) v = w;
    simd::exp2_nonpositive(batch::load_aligned(in)).store_aligned(out);
    return out[W - 1];
  };

  // Every w in [-127, 0] on a grid of 2^-12 (the reduction's every phase),
  // plus random points.
  Rng rng(26);
  std::vector<float> ws;
  for (int k = 0; k <= 127 * 4096; ++k) ws.push_back(-static_cast<float>(k) / 4096.0f);
  for (int k = 0; k < 100000; ++k) ws.push_back(rng.uniform(-127.0f, 0.0f));
  double worst = 0.0;
  float worst_w = 0.0f;
  int lane_mismatches = 0;
  for (const float w : ws) {
    const float y = simd::exp2_nonpositive(w);
    const float y_lane = lanes(w);
    if (std::memcmp(&y, &y_lane, sizeof y) != 0) ++lane_mismatches;
    const double want = std::exp2(static_cast<double>(w));
    if (want >= FLT_MIN) {
      const double rel = std::fabs(y - want) / want;
      if (rel > worst) {
        worst = rel;
        worst_w = w;
      }
    } else {
      // Below FLT_MIN: 0 (w < -126.5) or subnormal, off by < FLT_MIN.
      CHECK(std::fabs(y - want) < FLT_MIN);
    }
  }
  INFO("max relative error " << worst << " at w = " << worst_w);
  CHECK(worst <= 6e-7);  // the polynomial's 4.4e-7 plus the float rounding
  CHECK(lane_mismatches == 0);

  // Exact: 2^0 = 1 (a softmax row's max contributes exactly 1), and every
  // integer power of two.
  for (int k = 0; k <= 126; ++k) {
    INFO("w = -" << k);
    CHECK(simd::exp2_nonpositive(-static_cast<float>(k)) == std::ldexp(1.0f, -k));
    CHECK(lanes(-static_cast<float>(k)) == std::ldexp(1.0f, -k));
  }
  // NaN stays NaN in every build, lanes and tail: softmax finds a NaN entry
  // through the sum of 2^w.
  CHECK(std::isnan(simd::exp2_nonpositive(kNaN)));
  CHECK(std::isnan(lanes(kNaN)));
  // The low end: exactly 0 from w = -126.5 down, -inf included.
  for (const float w : {-126.51f, -127.0f, -1000.0f, -3e38f, -kInf}) {
    INFO("w = " << w);
    CHECK(simd::exp2_nonpositive(w) == 0.0f);
    CHECK(lanes(w) == 0.0f);
  }
}

// exp2_clamped, the same exp for any w (the model's SiLU), in the same way:
// the accuracy over its whole range, the clamps at both ends, NaN, and the
// same bits as exp2_nonpositive where both apply.
TEST_CASE("exp2_clamped: accuracy on [-127, 127], the clamps, NaN", "[softmax][exp]") {
  using batch = xsimd::batch<float, simd::kernel_arch>;
  constexpr int W = static_cast<int>(batch::size);
  const auto lanes = [](float w) {
    alignas(64) float in[W], out[W];
    for (float& v : in) v = w;
    simd::exp2_clamped(batch::load_aligned(in)).store_aligned(out);
    return out[W - 1];
  };

  Rng rng(27);
  std::vector<float> ws;
  for (int k = -127 * 4096; k <= 127 * 4096; ++k) ws.push_back(static_cast<float>(k) / 4096.0f);
  for (int k = 0; k < 100000; ++k) ws.push_back(rng.uniform(-127.0f, 127.0f));
  double worst = 0.0;
  float worst_w = 0.0f;
  int lane_mismatches = 0, nonpositive_mismatches = 0;
  for (const float w : ws) {
    const float y = simd::exp2_clamped(w);
    const float y_lane = lanes(w);
    if (std::memcmp(&y, &y_lane, sizeof y) != 0) ++lane_mismatches;
    if (w <= 0.0f) {
      const float y_nonpositive = simd::exp2_nonpositive(w);
      if (std::memcmp(&y, &y_nonpositive, sizeof y) != 0) ++nonpositive_mismatches;
    }
    const double want = std::exp2(static_cast<double>(w));
    if (want >= FLT_MIN) {
      const double rel = std::fabs(y - want) / want;
      if (rel > worst) {
        worst = rel;
        worst_w = w;
      }
    } else {
      CHECK(std::fabs(y - want) < FLT_MIN);
    }
  }
  INFO("max relative error " << worst << " at w = " << worst_w);
  CHECK(worst <= 6e-7);
  CHECK(lane_mismatches == 0);
  CHECK(nonpositive_mismatches == 0);

  for (int k = -126; k <= 127; ++k) {
    INFO("w = " << k);
    CHECK(simd::exp2_clamped(static_cast<float>(k)) == std::ldexp(1.0f, k));
    CHECK(lanes(static_cast<float>(k)) == std::ldexp(1.0f, k));
  }
  // Both ends: 0 from w = -126.5 down, 2^127 from w = 127 up; infinities
  // and the largest floats included, so the result is finite for every w.
  for (const float w : {-126.51f, -1000.0f, -3e38f, -kInf}) {
    INFO("w = " << w);
    CHECK(simd::exp2_clamped(w) == 0.0f);
    CHECK(lanes(w) == 0.0f);
  }
  for (const float w : {127.0f, 127.5f, 1000.0f, 3e38f, kInf}) {
    INFO("w = " << w);
    CHECK(simd::exp2_clamped(w) == std::ldexp(1.0f, 127));
    CHECK(lanes(w) == std::ldexp(1.0f, 127));
  }
  CHECK(std::isnan(simd::exp2_clamped(kNaN)));
  CHECK(std::isnan(lanes(kNaN)));
}
