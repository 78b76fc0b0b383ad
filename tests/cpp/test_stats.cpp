// Row statistics, distribution statistics and copy_rows: worked examples,
// rows at the ends of the float range, and the SIMD kernels against the
// double reference on every tail length.
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

RowStats stats_of(const std::vector<float>& x) {
  RowStats s;
  row_stats(&s, x.data(), 1, static_cast<int>(x.size()));
  return s;
}

// Worst difference between two RowStats: relative for every field but the
// mean, whose error is measured against the row's rms (a mean near 0 has no
// meaningful relative error).
double stats_diff(const RowStats& got, const RowStats& want) {
  double d = 0.0;
  d = std::max(d, rel_diff(got.l2, want.l2));
  d = std::max(d, rel_diff(got.variance, want.variance));
  d = std::max(d, rel_diff(got.std, want.std));
  d = std::max(d, rel_diff(got.rms, want.rms));
  d = std::max(d, rel_diff(got.max_abs, want.max_abs));
  const double mean_scale = want.rms > 0.0f ? want.rms : 1.0;
  d = std::max(d, std::isfinite(want.mean)
                      ? std::fabs(static_cast<double>(got.mean) - want.mean) / mean_scale
                      : rel_diff(got.mean, want.mean));
  return d;
}

}  // namespace

TEST_CASE("row_stats worked example [2, -1, 3, 0]", "[stats]") {
  // sum x^2 = 14, mean 1, deviations (1, -2, 2, -1): variance 10/4 = 2.5
  const RowStats s = stats_of({2.0f, -1.0f, 3.0f, 0.0f});
  CHECK(s.l2 == Approx(std::sqrt(14.0)).epsilon(1e-6));
  CHECK(s.mean == 1.0f);
  CHECK(s.variance == Approx(2.5).epsilon(1e-6));
  CHECK(s.std == Approx(std::sqrt(2.5)).epsilon(1e-6));
  CHECK(s.rms == Approx(std::sqrt(3.5)).epsilon(1e-6));
  CHECK(s.max_abs == 3.0f);
}

TEST_CASE("row_stats worked example [2, 4, 4, 8]", "[stats]") {
  const RowStats s = stats_of({2.0f, 4.0f, 4.0f, 8.0f});
  CHECK(s.l2 == Approx(10.0).epsilon(1e-6));
  CHECK(s.mean == 4.5f);
  CHECK(s.variance == Approx(4.75).epsilon(1e-6));
  CHECK(s.std == Approx(std::sqrt(4.75)).epsilon(1e-6));
  CHECK(s.rms == Approx(5.0).epsilon(1e-6));
  CHECK(s.max_abs == 8.0f);
}

TEST_CASE("row_stats of rows near FLT_MAX: l2 overflows, the rest is right", "[stats]") {
  // +-3e38 alternating, D = 64: l2 = 3e38 * 8 is beyond FLT_MAX, so +inf is
  // its correctly rounded value; variance 9e76 likewise.
  std::vector<float> x(64);
  for (int i = 0; i < 64; ++i) x[i] = i % 2 ? -3e38f : 3e38f;
  RowStats s = stats_of(x);
  CHECK(s.l2 == kInf);
  CHECK(s.mean == 0.0f);
  CHECK(s.variance == kInf);
  CHECK(s.std == Approx(3e38).epsilon(1e-6));
  CHECK(s.rms == Approx(3e38).epsilon(1e-6));
  CHECK(s.max_abs == 3e38f);

  s = stats_of(std::vector<float>(33, 3e38f));
  CHECK(s.l2 == kInf);
  CHECK(s.mean == Approx(3e38).epsilon(1e-6));
  CHECK(s.variance == 0.0f);
  CHECK(s.std == 0.0f);
  CHECK(s.rms == Approx(3e38).epsilon(1e-6));

  // 1e19 squared overflows a float sum; its statistics are ordinary.
  Rng rng(31);
  std::vector<float> y = rng.uniform_vec(100, -1.0f, 1.0f);
  for (float& v : y) v *= 1e19f;
  RowStats ref;
  row_stats_ref(&ref, y.data(), 1, 100);
  s = stats_of(y);
  CHECK(std::isfinite(s.l2));
  CHECK(stats_diff(s, ref) <= kTol);
}

TEST_CASE("row_stats of tiny rows keep their digits", "[stats]") {
  // |x| in [0.5, 1) scaled by 2^-125 lies in [2^-126, 2^-125): still normal
  // floats, so the scaling is exact, but every square underflows a float.
  // The statistics scale with the row: compare with the unscaled row's.
  Rng rng(32);
  const int D = 50;
  std::vector<float> x(D), x_tiny(D);
  for (int i = 0; i < D; ++i) {
    x[i] = rng.uniform(0.5f, 1.0f) * (i % 3 ? 1.0f : -1.0f);
    x_tiny[i] = std::ldexp(x[i], -125);
  }
  const RowStats s = stats_of(x);
  const RowStats t = stats_of(x_tiny);
  const double k = std::ldexp(1.0, -125);
  CHECK(t.rms == Approx(s.rms * k).epsilon(1e-6));
  CHECK(t.l2 == Approx(s.l2 * k).epsilon(1e-6));
  CHECK(t.std == Approx(s.std * k).epsilon(1e-6));
  CHECK(t.variance == 0.0f);  // ~1e-76: below the smallest float
  CHECK(t.max_abs == Approx(s.max_abs * k).epsilon(1e-6));
  CHECK(t.mean == Approx(s.mean * k).epsilon(1e-5));

  // Uniform in +-1e-38 (partly subnormal) and a subnormal-only row.
  for (const float scale : {1e-38f, 1e-42f}) {
    std::vector<float> y = rng.uniform_vec(70, -1.0f, 1.0f);
    for (float& v : y) v *= scale;
    RowStats ref;
    row_stats_ref(&ref, y.data(), 1, 70);
    INFO("scale " << scale);
    CHECK(stats_diff(stats_of(y), ref) <= kTol);
  }
}

TEST_CASE("row_stats: NaN and inf rows follow IEEE and stay in their row", "[stats]") {
  const int D = 21;
  std::vector<float> x(3 * D, 1.5f);
  x[D + 4] = kNaN;
  x[2 * D + 20] = -kInf;
  RowStats s[3];
  row_stats(s, x.data(), 3, D);
  CHECK(s[0].mean == 1.5f);
  CHECK(s[0].variance == 0.0f);
  CHECK(s[0].rms == Approx(1.5).epsilon(1e-7));
  CHECK(std::isnan(s[1].mean));
  CHECK(std::isnan(s[1].variance));
  CHECK(std::isnan(s[1].l2));
  CHECK(std::isnan(s[1].max_abs));
  CHECK(s[2].l2 == kInf);
  CHECK(s[2].rms == kInf);
  CHECK(s[2].max_abs == kInf);
  CHECK(s[2].mean == -kInf);
  CHECK(std::isnan(s[2].variance));  // (-inf) - (-inf)
}

TEST_CASE("row_stats: SIMD matches the reference on every tail length", "[stats][sweep]") {
  Rng rng(33);
  double worst = 0.0;
  int worst_D = 0;
  for (const int D : sweep_sizes()) {
    const int T = kSweepRows;
    std::vector<float> x = sweep_input(rng, T, D);
    for (float& v : x) v += 0.1f;
    std::vector<RowStats> s(T), s_ref(T);
    row_stats(s.data(), x.data(), T, D);
    row_stats_ref(s_ref.data(), x.data(), T, D);
    for (int t = 0; t < T; ++t) {
      const double d = stats_diff(s[t], s_ref[t]);
      if (d > worst) {
        worst = d;
        worst_D = D;
      }
    }
  }
  INFO("row_stats: max relative diff = " << worst << " (D = " << worst_D << ")");
  CHECK(worst <= kTol);
}

TEST_CASE("row_stats: one-pass and two-pass variance both match the reference", "[stats]") {
  // Rows N(offset, 1): |mean| / rms runs from 0 through the one-pass limit
  // (1/8) to mostly offset, where only the two-pass algorithm is accurate.
  Rng rng(34);
  for (const int D : {7, 64, 1000, 1024, 4099}) {
    for (const float offset : {0.0f, 0.01f, 0.1f, 0.124f, 0.126f, 0.2f, 1.0f, 30.0f, 1000.0f}) {
      std::vector<float> x = rng.uniform_vec(D, -1.7f, 1.7f);
      for (float& v : x) v += offset;
      RowStats ref;
      row_stats_ref(&ref, x.data(), 1, D);
      INFO("D " << D << ", offset " << offset << ", |mean| / rms "
                << std::fabs(ref.mean) / ref.rms);
      CHECK(stats_diff(stats_of(x), ref) <= kTol);
    }
  }
}

TEST_CASE("distribution_stats worked examples", "[stats]") {
  // Uniform over D: entropy log D, max 1/D.
  for (const int D : {1, 4, 50, 1024}) {
    const std::vector<float> p(D, 1.0f / D);
    float h, m;
    distribution_stats(&h, &m, p.data(), 1, D);
    INFO("D = " << D);
    CHECK(h == Approx(std::log(static_cast<double>(D))).epsilon(1e-6).margin(1e-7));
    CHECK(m == 1.0f / D);
  }
  // One-hot: entropy exactly +0 (0 log 0 = 0, 1 log 1 = 0), max 1.
  std::vector<float> one_hot(37, 0.0f);
  one_hot[20] = 1.0f;
  float h, m;
  distribution_stats(&h, &m, one_hot.data(), 1, 37);
  CHECK(h == 0.0f);
  CHECK_FALSE(std::signbit(h));
  CHECK(m == 1.0f);
  // Two halves among zeros: log 2.
  const std::vector<float> halves = {0.0f, 0.5f, 0.0f, 0.5f, 0.0f};
  distribution_stats(&h, &m, halves.data(), 1, 5);
  CHECK(h == Approx(std::log(2.0)).epsilon(1e-6));
  CHECK(m == 0.5f);
}

TEST_CASE("distribution_stats: NaN and negative entries", "[stats]") {
  const int D = 19;
  std::vector<float> p(3 * D, 1.0f / D);
  p[D + 18] = kNaN;
  p[2 * D + 3] = -0.01f;
  float h[3], m[3];
  distribution_stats(h, m, p.data(), 3, D);
  CHECK(h[0] == Approx(std::log(19.0)).epsilon(1e-6));
  CHECK(std::isnan(h[1]));
  CHECK(std::isnan(m[1]));
  CHECK(std::isnan(h[2]));
  CHECK(m[2] == 1.0f / D);
}

TEST_CASE("distribution_stats: SIMD matches the reference on every tail length", "[stats][sweep]") {
  Rng rng(34);
  double worst = 0.0;
  int worst_D = 0;
  for (const int D : sweep_sizes()) {
    const int T = kSweepRows;
    std::vector<float> x = sweep_input(rng, T, D);
    for (int i = 0; i < D; i += 3) x[i] = -kInf;  // exact zeros in row 0
    if (D > 1) x[0] = 0.0f;
    std::vector<float> p(T * D);
    softmax_forward(p.data(), x.data(), T, D, 0.2f);  // peaked rows, tiny entries
    std::vector<float> h(T), h_ref(T), m(T), m_ref(T);
    distribution_stats(h.data(), m.data(), p.data(), T, D);
    distribution_stats_ref(h_ref.data(), m_ref.data(), p.data(), T, D);
    for (int t = 0; t < T; ++t) {
      // Entropy is compared on the scale of max(H, 1e-3): a near one-hot row
      // has H ~ 0 and its absolute error is what matters.
      const double dh = std::fabs(static_cast<double>(h[t]) - h_ref[t]) /
                        std::max(1e-3, static_cast<double>(h_ref[t]));
      const double d = std::max(dh, rel_diff(m[t], m_ref[t]));
      if (d > worst) {
        worst = d;
        worst_D = D;
      }
    }
  }
  INFO("distribution_stats: max relative diff = " << worst << " (D = " << worst_D << ")");
  CHECK(worst <= kTol);
}

TEST_CASE("copy_rows copies every bit", "[stats]") {
  Rng rng(35);
  for (const int D : sweep_sizes()) {
    const int T = 2;
    std::vector<float> x = rng.uniform_vec(T * D, -1.0f, 1.0f);
    x[0] = kNaN;
    x[D - 1] = -0.0f;
    std::vector<float> y(T * D, 7.0f);
    copy_rows(y.data(), x.data(), T, D);
    INFO("D = " << D);
    CHECK(std::memcmp(x.data(), y.data(), x.size() * sizeof(float)) == 0);
  }
}
