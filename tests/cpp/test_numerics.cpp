// Numerics across the whole float range: rows scaled up to 3e38 and down to
// the subnormals, eps = 0 and eps near FLT_MAX, and NaN/inf rows that must
// stay in their row. Wherever the exact result is a finite float, the
// kernels must be finite and within 1e-5 of the output's scale.
//
// T = rows, D = row length
#include <catch2/catch.hpp>

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

// A row of D values with |x| in [0.5, 2), random signs, times 2^e: exact for
// every e in [-125, 126], so 2^e x is the same row at another scale.
std::vector<float> unit_row(Rng& rng, int D) {
  std::vector<float> x(D);
  for (float& v : x) v = rng.uniform(0.5f, 2.0f) * (rng.next() & 1 ? 1.0f : -1.0f);
  return x;
}

std::vector<float> scaled(std::vector<float> x, float s) {
  for (float& v : x) v *= s;
  return x;
}

bool all_finite(const std::vector<float>& v) {
  for (const float x : v) {
    if (!std::isfinite(x)) return false;
  }
  return true;
}

// The exponents tried: 2^126 puts |x| near 1.7e38 (squares overflow float
// by ~1e38), 2^64 ~ 1.8e19 is where a float sum of squares starts to
// overflow, 2^-64 where the squares reach FLT_MIN, 2^-125 ~ 2.4e-38 where
// every square underflows.
constexpr int kExponents[] = {126, 100, 64, 63, 0, -63, -64, -100, -125};

}  // namespace

TEST_CASE("rmsnorm is scale invariant across the float range (eps = 0)", "[numerics][rmsnorm]") {
  Rng rng(41);
  for (const int D : {1, 7, 64, 1025}) {
    const std::vector<float> x = unit_row(rng, D);
    const std::vector<float> g = rng.uniform_vec(D, -2.0f, 2.0f);
    std::vector<float> y_unit(D);
    float rstd_unit;
    rmsnorm_forward_ref(y_unit.data(), &rstd_unit, x.data(), g.data(), 1, D, 0.0f);
    for (const int e : kExponents) {
      const std::vector<float> xs = scaled(x, std::ldexp(1.0f, e));
      std::vector<float> y(D), y_ref(D);
      float rstd, rstd_ref;
      rmsnorm_forward(y.data(), &rstd, xs.data(), g.data(), 1, D, 0.0f);
      rmsnorm_forward_ref(y_ref.data(), &rstd_ref, xs.data(), g.data(), 1, D, 0.0f);
      INFO("D = " << D << ", x scaled by 2^" << e);
      CHECK(all_finite(y));
      CHECK(max_scaled_diff(y, y_ref, 1, D) <= kTol);
      CHECK(max_scaled_diff(y, y_unit, 1, D) <= kTol);
      CHECK(rel_diff(rstd, rstd_ref) <= kTol);
      CHECK(rel_diff(rstd, std::ldexp(static_cast<double>(rstd_unit), -e)) <= kTol);
    }
  }
}

TEST_CASE("rmsnorm on rows of 3e38, 1e19, 1e-38 and mixed magnitudes", "[numerics][rmsnorm]") {
  Rng rng(42);
  const int D = 67;
  // Row 0: up to 3e38. Row 1: 1e19. Row 2: 1e-38 (partly subnormal).
  // Row 3: 3e38 next to 1e-38 and 1: the small entries normalize to ~0.
  // Row 4: subnormal only.
  std::vector<float> x;
  for (const float s : {3e38f, 1e19f, 1e-38f}) {
    const std::vector<float> r = scaled(rng.uniform_vec(D, -1.0f, 1.0f), s);
    x.insert(x.end(), r.begin(), r.end());
  }
  std::vector<float> mixed = rng.uniform_vec(D, -1.0f, 1.0f);
  mixed[3] = 3e38f;
  mixed[40] = -2e38f;
  mixed[9] = 1e-38f;
  x.insert(x.end(), mixed.begin(), mixed.end());
  const std::vector<float> sub = scaled(rng.uniform_vec(D, -1.0f, 1.0f), 1e-40f);
  x.insert(x.end(), sub.begin(), sub.end());
  const int T = 5;
  for (const float eps : {0.0f, 1e-5f}) {
    std::vector<float> y(T * D), y_ref(T * D), rstd(T), rstd_ref(T);
    rmsnorm_forward(y.data(), rstd.data(), x.data(), nullptr, T, D, eps);
    rmsnorm_forward_ref(y_ref.data(), rstd_ref.data(), x.data(), nullptr, T, D, eps);
    INFO("eps = " << eps);
    CHECK(all_finite(y));
    CHECK(max_scaled_diff(y, y_ref, T, D) <= kTol);
    CHECK(max_rel_diff(rstd.data(), rstd_ref.data(), T) <= kTol);
  }
  // The mixed row by hand: rms = sqrt((9e76 + 4e76 + ~D/3) / D).
  float y3[D], r3;
  rmsnorm_forward(y3, &r3, mixed.data(), nullptr, 1, D, 0.0f);
  const double rms = std::sqrt(13e76 / D);
  CHECK(y3[3] == Approx(3e38 / rms).epsilon(1e-6));
  CHECK(y3[40] == Approx(-2e38 / rms).epsilon(1e-6));
  CHECK(std::fabs(y3[9]) < 1e-37f);
}

TEST_CASE("rmsnorm with eps = 0 on an all-zero row gives zeros, not NaN", "[numerics][rmsnorm]") {
  for (const int D : {1, 4, 37, 1024}) {
    const std::vector<float> x(D, 0.0f);
    std::vector<float> y(D, 7.0f);
    float rstd = 7.0f;
    rmsnorm_forward(y.data(), &rstd, x.data(), nullptr, 1, D, 0.0f);
    INFO("D = " << D);
    CHECK(rstd == 0.0f);
    CHECK(y == std::vector<float>(D, 0.0f));
  }
}

TEST_CASE("rmsnorm with eps near FLT_MAX stays finite", "[numerics][rmsnorm]") {
  // mean(x^2) + eps overflows float but not the double it is computed in:
  // r = 1 / sqrt(3.4e38) ~ 5.4e-20.
  Rng rng(43);
  const int D = 33;
  const std::vector<float> x = scaled(rng.uniform_vec(D, -1.0f, 1.0f), 1e19f);
  std::vector<float> y(D), y_ref(D);
  float rstd, rstd_ref;
  rmsnorm_forward(y.data(), &rstd, x.data(), nullptr, 1, D, FLT_MAX);
  rmsnorm_forward_ref(y_ref.data(), &rstd_ref, x.data(), nullptr, 1, D, FLT_MAX);
  CHECK(all_finite(y));
  CHECK(rstd > 0.0f);
  CHECK(max_scaled_diff(y, y_ref, 1, D) <= kTol);
  CHECK(rel_diff(rstd, rstd_ref) <= kTol);
}

TEST_CASE("rmsnorm: a row below ~3e-39 with eps = 0 caches rstd = +inf", "[numerics][rmsnorm]") {
  // rms ~ 1e-40 makes the true r ~ 1e40, beyond FLT_MAX: the cached rstd is
  // +inf (its correctly rounded value), y is still right, and the backward,
  // whose exact gradient ~ r * dy overflows float too, gives NaN.
  Rng rng(48);
  const int D = 19;
  const std::vector<float> x = unit_row(rng, D);
  const std::vector<float> x_tiny = scaled(x, 1e-40f);
  std::vector<float> y(D), y_unit(D), dx(D);
  float rstd, rstd_unit;
  rmsnorm_forward(y.data(), &rstd, x_tiny.data(), nullptr, 1, D, 0.0f);
  rmsnorm_forward_ref(y_unit.data(), &rstd_unit, x.data(), nullptr, 1, D, 0.0f);
  CHECK(rstd == kInf);
  CHECK(all_finite(y));
  CHECK(max_scaled_diff(y, y_unit, 1, D) <= 1e-3);  // x_tiny has ~10 significant bits
  const std::vector<float> dy(D, 1.0f);
  rmsnorm_backward(dx.data(), nullptr, dy.data(), x_tiny.data(), nullptr, &rstd, 1, D);
  for (const float v : dx) CHECK(std::isnan(v));
}

TEST_CASE("long rows keep their accuracy", "[numerics]") {
  // The float sums are blocked (kSumBlock floats per double partial), so
  // the error does not grow with D.
  Rng rng(49);
  const int D = 200003;
  std::vector<float> x = rng.uniform_vec(D, -1.0f, 1.0f);
  for (float& v : x) v += 0.5f;
  std::vector<float> y(D), y_ref(D);
  float a, b, a_ref, b_ref;
  rmsnorm_forward(y.data(), &a, x.data(), nullptr, 1, D, 1e-5f);
  rmsnorm_forward_ref(y_ref.data(), &a_ref, x.data(), nullptr, 1, D, 1e-5f);
  INFO("rmsnorm rstd rel diff " << rel_diff(a, a_ref));
  CHECK(rel_diff(a, a_ref) <= 1e-6);
  CHECK(max_scaled_diff(y, y_ref, 1, D) <= kTol);
  layernorm_forward(y.data(), &a, &b, x.data(), nullptr, nullptr, 1, D, 1e-5f);
  layernorm_forward_ref(y_ref.data(), &a_ref, &b_ref, x.data(), nullptr, nullptr, 1, D, 1e-5f);
  INFO("layernorm rstd rel diff " << rel_diff(b, b_ref));
  CHECK(rel_diff(b, b_ref) <= 1e-6);
  CHECK(max_scaled_diff(y, y_ref, 1, D) <= kTol);
  softmax_forward(y.data(), x.data(), 1, D, 1.0f);
  softmax_forward_ref(y_ref.data(), x.data(), 1, D, 1.0f);
  CHECK(max_scaled_diff(y, y_ref, 1, D) <= kTol);
  RowStats s, s_ref;
  row_stats(&s, x.data(), 1, D);
  row_stats_ref(&s_ref, x.data(), 1, D);
  CHECK(rel_diff(s.rms, s_ref.rms) <= 1e-6);
  CHECK(rel_diff(s.variance, s_ref.variance) <= 1e-6);
  CHECK(rel_diff(s.mean, s_ref.mean) <= 1e-6);
}

TEST_CASE("layernorm is shift and scale invariant across the float range",
          "[numerics][layernorm]") {
  // y(2^e x) = y(x) for eps = 0, and a well-conditioned row (|mean| ~ std)
  // keeps that at every scale.
  Rng rng(44);
  for (const int D : {2, 7, 64, 1025}) {
    std::vector<float> x = unit_row(rng, D);
    for (float& v : x) v = v * 0.5f + 0.25f;  // mean ~ 0.25, exact
    const std::vector<float> g = rng.uniform_vec(D, -2.0f, 2.0f);
    const std::vector<float> b = rng.uniform_vec(D, -1.0f, 1.0f);
    std::vector<float> y_unit(D);
    float mean_unit, rstd_unit;
    layernorm_forward_ref(y_unit.data(), &mean_unit, &rstd_unit, x.data(), g.data(), b.data(), 1, D,
                          0.0f);
    for (const int e : kExponents) {
      const std::vector<float> xs = scaled(x, std::ldexp(1.0f, e));
      std::vector<float> y(D), y_ref(D);
      float mean, rstd, mean_ref, rstd_ref;
      layernorm_forward(y.data(), &mean, &rstd, xs.data(), g.data(), b.data(), 1, D, 0.0f);
      layernorm_forward_ref(y_ref.data(), &mean_ref, &rstd_ref, xs.data(), g.data(), b.data(), 1, D,
                            0.0f);
      INFO("D = " << D << ", x scaled by 2^" << e);
      CHECK(all_finite(y));
      CHECK(max_scaled_diff(y, y_ref, 1, D) <= kTol);
      CHECK(max_scaled_diff(y, y_unit, 1, D) <= kTol);
      CHECK(rel_diff(rstd, rstd_ref) <= kTol);
      CHECK(std::fabs(static_cast<double>(mean) - mean_ref) * rstd_ref <= kTol);
    }
  }
}

TEST_CASE("layernorm on rows of +-3e38, 1e19, 1e-38 and mixed magnitudes",
          "[numerics][layernorm]") {
  Rng rng(45);
  const int D = 53;
  std::vector<float> x;
  for (const float s : {3e38f, 1e19f, 1e-38f, 1e-41f}) {
    const std::vector<float> r = scaled(rng.uniform_vec(D, -1.0f, 1.0f), s);
    x.insert(x.end(), r.begin(), r.end());
  }
  // x - mean overflows float here: 3e38 - (-3e38).
  std::vector<float> extremes(D, 0.0f);
  for (int i = 0; i < D; ++i) extremes[i] = i % 2 ? -3e38f : 3e38f;
  x.insert(x.end(), extremes.begin(), extremes.end());
  const int T = 5;
  for (const float eps : {0.0f, 1e-5f}) {
    std::vector<float> y(T * D), y_ref(T * D), mean(T), mean_ref(T), rstd(T), rstd_ref(T);
    layernorm_forward(y.data(), mean.data(), rstd.data(), x.data(), nullptr, nullptr, T, D, eps);
    layernorm_forward_ref(y_ref.data(), mean_ref.data(), rstd_ref.data(), x.data(), nullptr,
                          nullptr, T, D, eps);
    INFO("eps = " << eps);
    CHECK(all_finite(y));
    CHECK(max_scaled_diff(y, y_ref, T, D) <= kTol);
    CHECK(max_rel_diff(rstd.data(), rstd_ref.data(), T) <= kTol);
  }
  // The alternating row by hand: mean 3e38 / D, std ~ 3e38, y ~ +-1.
  float y4[D], m4, r4;
  layernorm_forward(y4, &m4, &r4, extremes.data(), nullptr, nullptr, 1, D, 0.0f);
  const double mu = 3e38 / D;
  const double var = (27.0 * (3e38 - mu) * (3e38 - mu) + 26.0 * (3e38 + mu) * (3e38 + mu)) / D;
  CHECK(m4 == Approx(mu).epsilon(1e-6));
  CHECK(r4 == Approx(1.0 / std::sqrt(var)).epsilon(1e-6));
  CHECK(y4[0] == Approx((3e38 - mu) / std::sqrt(var)).epsilon(1e-6));
  CHECK(y4[1] == Approx((-3e38 - mu) / std::sqrt(var)).epsilon(1e-6));
}

TEST_CASE("layernorm with eps near FLT_MAX stays finite", "[numerics][layernorm]") {
  Rng rng(46);
  const int D = 33;
  const std::vector<float> x = scaled(rng.uniform_vec(D, -1.0f, 1.0f), 1e19f);
  std::vector<float> y(D), y_ref(D);
  float mean, rstd, mean_ref, rstd_ref;
  layernorm_forward(y.data(), &mean, &rstd, x.data(), nullptr, nullptr, 1, D, FLT_MAX);
  layernorm_forward_ref(y_ref.data(), &mean_ref, &rstd_ref, x.data(), nullptr, nullptr, 1, D,
                        FLT_MAX);
  CHECK(all_finite(y));
  CHECK(max_scaled_diff(y, y_ref, 1, D) <= kTol);
  CHECK(rel_diff(rstd, rstd_ref) <= kTol);
}

TEST_CASE("a NaN or inf row leaves every other row untouched", "[numerics]") {
  // Rows 1 and 3 hold a NaN / an inf; rows 0, 2, 4 must come out exactly as
  // when computed on their own.
  Rng rng(47);
  const int T = 5, D = 45;
  std::vector<float> x = rng.uniform_vec(T * D, -2.0f, 2.0f);
  x[1 * D + 17] = kNaN;
  x[3 * D + 44] = kInf;
  x[3 * D + 2] = -kInf;
  const std::vector<float> g = rng.uniform_vec(D, 0.5f, 1.5f);
  const std::vector<float> b = rng.uniform_vec(D, -1.0f, 1.0f);
  const auto row = [&](int t) { return x.data() + static_cast<std::size_t>(t) * D; };

  SECTION("rmsnorm: NaN row all NaN; inf row: inf entries NaN, finite entries 0") {
    std::vector<float> y(T * D), rstd(T);
    rmsnorm_forward(y.data(), rstd.data(), x.data(), g.data(), T, D, 1e-5f);
    for (const int t : {0, 2, 4}) {
      std::vector<float> y_t(D);
      float rstd_t;
      rmsnorm_forward(y_t.data(), &rstd_t, row(t), g.data(), 1, D, 1e-5f);
      CHECK(std::memcmp(y_t.data(), y.data() + t * D, D * sizeof(float)) == 0);
      CHECK(rstd_t == rstd[t]);
    }
    CHECK(std::isnan(rstd[1]));
    for (int i = 0; i < D; ++i) CHECK(std::isnan(y[1 * D + i]));
    CHECK(rstd[3] == 0.0f);
    for (int i = 0; i < D; ++i) {
      if (i == 44 || i == 2) {
        CHECK(std::isnan(y[3 * D + i]));
      } else {
        CHECK(y[3 * D + i] == 0.0f);
      }
    }
  }

  SECTION("layernorm: NaN and inf rows all NaN") {
    std::vector<float> y(T * D), mean(T), rstd(T);
    layernorm_forward(y.data(), mean.data(), rstd.data(), x.data(), g.data(), b.data(), T, D,
                      1e-5f);
    for (const int t : {0, 2, 4}) {
      std::vector<float> y_t(D);
      float mean_t, rstd_t;
      layernorm_forward(y_t.data(), &mean_t, &rstd_t, row(t), g.data(), b.data(), 1, D, 1e-5f);
      CHECK(std::memcmp(y_t.data(), y.data() + t * D, D * sizeof(float)) == 0);
      CHECK(mean_t == mean[t]);
      CHECK(rstd_t == rstd[t]);
    }
    for (const int t : {1, 3}) {
      for (int i = 0; i < D; ++i) CHECK(std::isnan(y[t * D + i]));
    }
  }

  SECTION("softmax: NaN row all NaN; +inf and -inf row: all mass on the +inf entry") {
    std::vector<float> p(T * D);
    softmax_forward(p.data(), x.data(), T, D, 1.0f);
    for (const int t : {0, 2, 4}) {
      std::vector<float> p_t(D);
      softmax_forward(p_t.data(), row(t), 1, D, 1.0f);
      CHECK(std::memcmp(p_t.data(), p.data() + t * D, D * sizeof(float)) == 0);
    }
    for (int i = 0; i < D; ++i) {
      CHECK(std::isnan(p[1 * D + i]));
      CHECK(p[3 * D + i] == (i == 44 ? 1.0f : 0.0f));
    }
  }

  SECTION("backward: the bad rows' gradients are NaN, the others exact") {
    const std::vector<float> dy = rng.uniform_vec(T * D, -1.0f, 1.0f);
    std::vector<float> y(T * D), mean(T), rstd(T), dx(T * D);
    std::vector<float> clean_x;  // rows 0, 2, 4 alone
    for (const int t : {0, 2, 4}) clean_x.insert(clean_x.end(), row(t), row(t) + D);
    std::vector<float> clean_dy;
    for (const int t : {0, 2, 4})
      clean_dy.insert(clean_dy.end(), dy.begin() + t * D, dy.begin() + (t + 1) * D);
    std::vector<float> y3(3 * D), mean3(3), rstd3(3), dx3(3 * D);

    rmsnorm_forward(y.data(), rstd.data(), x.data(), g.data(), T, D, 1e-5f);
    rmsnorm_backward(dx.data(), nullptr, dy.data(), x.data(), g.data(), rstd.data(), T, D);
    rmsnorm_forward(y3.data(), rstd3.data(), clean_x.data(), g.data(), 3, D, 1e-5f);
    rmsnorm_backward(dx3.data(), nullptr, clean_dy.data(), clean_x.data(), g.data(), rstd3.data(),
                     3, D);
    for (int k = 0; k < 3; ++k) {
      CHECK(std::memcmp(dx3.data() + k * D, dx.data() + 2 * k * D, D * sizeof(float)) == 0);
    }
    for (const int t : {1, 3}) {
      for (int i = 0; i < D; ++i) CHECK(std::isnan(dx[t * D + i]));
    }

    layernorm_forward(y.data(), mean.data(), rstd.data(), x.data(), g.data(), b.data(), T, D,
                      1e-5f);
    layernorm_backward(dx.data(), nullptr, nullptr, dy.data(), x.data(), g.data(), mean.data(),
                       rstd.data(), T, D);
    layernorm_forward(y3.data(), mean3.data(), rstd3.data(), clean_x.data(), g.data(), b.data(), 3,
                      D, 1e-5f);
    layernorm_backward(dx3.data(), nullptr, nullptr, clean_dy.data(), clean_x.data(), g.data(),
                       mean3.data(), rstd3.data(), 3, D);
    for (int k = 0; k < 3; ++k) {
      CHECK(std::memcmp(dx3.data() + k * D, dx.data() + 2 * k * D, D * sizeof(float)) == 0);
    }
    for (const int t : {1, 3}) {
      for (int i = 0; i < D; ++i) CHECK(std::isnan(dx[t * D + i]));
    }
  }

  SECTION("row_stats and distribution_stats") {
    std::vector<RowStats> s(T);
    row_stats(s.data(), x.data(), T, D);
    for (const int t : {0, 2, 4}) {
      RowStats s_t;
      row_stats(&s_t, row(t), 1, D);
      CHECK(std::memcmp(&s_t, &s[t], sizeof(RowStats)) == 0);
    }
    CHECK(std::isnan(s[1].mean));
    CHECK(std::isnan(s[3].mean));  // inf + -inf
    CHECK(s[3].max_abs == kInf);

    std::vector<float> p(T * D), h(T), m(T);
    softmax_forward(p.data(), x.data(), T, D, 1.0f);
    distribution_stats(h.data(), m.data(), p.data(), T, D);
    CHECK(std::isnan(h[1]));
    CHECK(std::isnan(m[1]));
    CHECK(h[3] == 0.0f);  // one-hot
    CHECK(m[3] == 1.0f);
    for (const int t : {0, 2, 4}) {
      float h_t, m_t;
      distribution_stats(&h_t, &m_t, p.data() + t * D, 1, D);
      CHECK(h_t == h[t]);
      CHECK(m_t == m[t]);
      CHECK(std::isfinite(h_t));
    }
  }
}

TEST_CASE("rmsnorm, layernorm and softmax work in place (out = inp)", "[numerics]") {
  // Ordinary rows, and rows that go to the double reference (NaN, +inf,
  // fully masked, 3e38, a NaN next to -inf): in place must give exactly the
  // bits of the out-of-place call, on every tail length.
  Rng rng(48);
  for (const int D : {1, 3, 4, 7, 16, 37, 1025}) {
    const int T = 7;
    std::vector<float> x = rng.uniform_vec(static_cast<std::size_t>(T) * D, -3.0f, 3.0f);
    x[1 * D + D / 2] = kNaN;
    x[2 * D + D - 1] = kInf;
    for (int i = 0; i < D; ++i) x[3 * D + i] = -kInf;
    for (int i = 0; i < D; ++i) x[4 * D + i] *= 1e38f;
    x[5 * D] = -kInf;
    x[5 * D + D - 1] = kNaN;
    const std::vector<float> g = rng.uniform_vec(D, 0.5f, 1.5f);
    const std::vector<float> b = rng.uniform_vec(D, -1.0f, 1.0f);
    const std::size_t bytes = x.size() * sizeof(float);
    INFO("D = " << D);

    std::vector<float> want(x.size()), got = x, stat(T), stat2(T), stat_in(T), stat2_in(T);
    rmsnorm_forward(want.data(), stat.data(), x.data(), g.data(), T, D, 1e-5f);
    rmsnorm_forward(got.data(), stat_in.data(), got.data(), g.data(), T, D, 1e-5f);
    CHECK(std::memcmp(want.data(), got.data(), bytes) == 0);

    got = x;
    layernorm_forward(want.data(), stat.data(), stat2.data(), x.data(), g.data(), b.data(), T, D,
                      1e-5f);
    layernorm_forward(got.data(), stat_in.data(), stat2_in.data(), got.data(), g.data(), b.data(),
                      T, D, 1e-5f);
    CHECK(std::memcmp(want.data(), got.data(), bytes) == 0);

    for (const float temperature : {1.0f, 0.3f, 2e36f}) {
      INFO("temperature = " << temperature);
      got = x;
      softmax_forward(want.data(), x.data(), T, D, temperature);
      softmax_forward(got.data(), got.data(), T, D, temperature);
      CHECK(std::memcmp(want.data(), got.data(), bytes) == 0);
    }
  }
}
