// LayerNorm forward: worked example, zero mean / unit variance of the
// output, gain and bias, ill-conditioned rows, and the SIMD kernel against
// the double reference on every tail length.
//
// T = rows, D = row length
#include <catch2/catch.hpp>

#include "normlab/kernels.h"
#include "normlab/reference.h"
#include "tensor_check.h"

#include <cmath>
#include <vector>

using namespace normlab;
using namespace normlab::test;

TEST_CASE("layernorm worked example [2, 4, 4, 8]", "[layernorm]") {
  // mean = 4.5, deviations (-2.5, -0.5, -0.5, 3.5),
  // var = (6.25 + 0.25 + 0.25 + 12.25) / 4 = 4.75
  const float x[4] = {2.0f, 4.0f, 4.0f, 8.0f};
  float y[4], mean, rstd;
  layernorm_forward(y, &mean, &rstd, x, nullptr, nullptr, 1, 4, 0.0f);
  const double sd = std::sqrt(4.75);
  CHECK(mean == 4.5f);
  CHECK(rstd == Approx(1.0 / sd).epsilon(1e-6));
  CHECK(y[0] == Approx(-2.5 / sd).epsilon(1e-6));
  CHECK(y[1] == Approx(-0.5 / sd).epsilon(1e-6));
  CHECK(y[2] == Approx(-0.5 / sd).epsilon(1e-6));
  CHECK(y[3] == Approx(3.5 / sd).epsilon(1e-6));
  CHECK(y[0] == Approx(-1.1471).margin(1e-4));
  CHECK(y[3] == Approx(1.6059).margin(1e-4));
}

TEST_CASE("layernorm: output has mean 0 and variance 1 before the affine", "[layernorm]") {
  Rng rng(11);
  const int T = 4, D = 1000;
  std::vector<float> x = rng.uniform_vec(T * D, -1.0f, 1.0f);
  for (int i = 0; i < D; ++i) x[2 * D + i] = 50.0f + 3.0f * x[2 * D + i];  // shifted, wider row
  std::vector<float> y(T * D), mean(T), rstd(T);
  layernorm_forward(y.data(), mean.data(), rstd.data(), x.data(), nullptr, nullptr, T, D, 1e-12f);
  for (int t = 0; t < T; ++t) {
    double s = 0.0, s2 = 0.0;
    for (int i = 0; i < D; ++i) {
      s += y[t * D + i];
      s2 += static_cast<double>(y[t * D + i]) * y[t * D + i];
    }
    INFO("row " << t);
    CHECK(s / D == Approx(0.0).margin(1e-6));
    CHECK(s2 / D == Approx(1.0).epsilon(1e-5));
  }
  CHECK(mean[2] == Approx(50.0).epsilon(0.01));
}

TEST_CASE("layernorm: gain and bias are applied after normalizing", "[layernorm]") {
  Rng rng(12);
  const int T = 2, D = 29;
  const std::vector<float> x = rng.uniform_vec(T * D, -1.0f, 1.0f);
  const std::vector<float> g = rng.uniform_vec(D, -2.0f, 2.0f);
  const std::vector<float> b = rng.uniform_vec(D, -1.0f, 1.0f);
  std::vector<float> xhat(T * D), y(T * D), mean(T), rstd(T);
  layernorm_forward(xhat.data(), mean.data(), rstd.data(), x.data(), nullptr, nullptr, T, D, 1e-5f);
  layernorm_forward(y.data(), mean.data(), rstd.data(), x.data(), g.data(), b.data(), T, D, 1e-5f);
  for (int t = 0; t < T; ++t) {
    for (int i = 0; i < D; ++i) {
      CHECK(y[t * D + i] == Approx(xhat[t * D + i] * g[i] + b[i]).margin(1e-6));
    }
  }
  // Gain only and bias only.
  std::vector<float> y_g(T * D), y_b(T * D);
  layernorm_forward(y_g.data(), mean.data(), rstd.data(), x.data(), g.data(), nullptr, T, D, 1e-5f);
  layernorm_forward(y_b.data(), mean.data(), rstd.data(), x.data(), nullptr, b.data(), T, D, 1e-5f);
  for (int i = 0; i < D; ++i) {
    CHECK(y_g[i] == Approx(xhat[i] * g[i]).margin(1e-6));
    CHECK(y_b[i] == Approx(xhat[i] + b[i]).margin(1e-6));
  }
}

TEST_CASE("layernorm: a constant row gives y = b", "[layernorm]") {
  // var = 0: with eps > 0 the deviations are 0; with eps = 0 rstd is 0 by
  // definition (not 1/0), and y = 0 * g + b either way.
  const std::vector<float> b = {0.5f, -1.0f, 2.0f, 0.0f, 3.0f, 1.0f, -2.0f};
  for (const int D : {1, 3, 7}) {
    for (const float c : {0.0f, 0.1f, 1.0f / 3.0f, 7.0f, -1e10f, 1e-30f}) {
      for (const float eps : {0.0f, 1e-5f}) {
        const std::vector<float> x(D, c);
        std::vector<float> y(D);
        float mean, rstd;
        layernorm_forward(y.data(), &mean, &rstd, x.data(), nullptr, b.data(), 1, D, eps);
        INFO("D = " << D << ", c = " << c << ", eps = " << eps);
        CHECK(mean == c);
        if (eps == 0.0f) CHECK(rstd == 0.0f);
        for (int i = 0; i < D; ++i) CHECK(y[i] == b[i]);
      }
    }
  }
  // Longer constant rows, through the SIMD path.
  for (const int D : {64, 1025}) {
    for (const float c : {0.1f, 1.0f / 3.0f, -1e10f}) {
      const std::vector<float> x(D, c);
      std::vector<float> y(D);
      float mean, rstd;
      layernorm_forward(y.data(), &mean, &rstd, x.data(), nullptr, nullptr, 1, D, 0.0f);
      INFO("D = " << D << ", c = " << c);
      CHECK(mean == c);
      CHECK(rstd == 0.0f);
      CHECK(max_scaled_diff(y, std::vector<float>(D, 0.0f), 1, D) == 0.0);
    }
  }
}

TEST_CASE("layernorm: a row whose mean dwarfs its spread", "[layernorm]") {
  // x = 1e4 + U(-1, 1): |mean| / std ~ 1.7e4. Only as good as a two-pass
  // float32 computation is required, i.e. a few ulps of the mean relative
  // to the spread: 8 * 2^-24 * |mean| / std ~ 8e-3. The forward's
  // (x - m0) - shift does much better.
  Rng rng(13);
  const int D = 777;
  std::vector<float> x(D);
  for (float& v : x) v = 1e4f + rng.uniform(-1.0f, 1.0f);
  std::vector<float> y(D), y_ref(D);
  float mean, rstd, mean_ref, rstd_ref;
  layernorm_forward(y.data(), &mean, &rstd, x.data(), nullptr, nullptr, 1, D, 1e-5f);
  layernorm_forward_ref(y_ref.data(), &mean_ref, &rstd_ref, x.data(), nullptr, nullptr, 1, D,
                        1e-5f);
  const double cond = 1e4 * rstd_ref;
  const double two_pass_bound = 8.0 * 0x1.0p-24 * cond;
  const double d = max_scaled_diff(y, y_ref, 1, D);
  INFO("|mean|/std = " << cond << ", max |y - y_ref| / scale = " << d << ", two-pass bound "
                       << two_pass_bound);
  CHECK(d <= two_pass_bound);
  CHECK(d <= kTol);
  CHECK(rel_diff(mean, mean_ref) <= 0x1.0p-24);
  CHECK(rel_diff(rstd, rstd_ref) <= kTol);
}

TEST_CASE("layernorm forward: SIMD matches the reference on every tail length",
          "[layernorm][sweep]") {
  Rng rng(14);
  double worst_y = 0.0, worst_cache = 0.0;
  int worst_D = 0;
  for (const int D : sweep_sizes()) {
    const int T = kSweepRows;
    std::vector<float> x = sweep_input(rng, T, D);
    for (float& v : x) v += 0.25f;  // a nonzero mean, comparable to the spread
    const std::vector<float> g = rng.uniform_vec(D, -2.0f, 2.0f);
    const std::vector<float> b = rng.uniform_vec(D, -1.0f, 1.0f);
    for (int variant = 0; variant < 4; ++variant) {
      const float* gain = variant & 1 ? g.data() : nullptr;
      const float* bias = variant & 2 ? b.data() : nullptr;
      std::vector<float> y(T * D), y_ref(T * D), mean(T), mean_ref(T), rstd(T), rstd_ref(T);
      layernorm_forward(y.data(), mean.data(), rstd.data(), x.data(), gain, bias, T, D, 1e-5f);
      layernorm_forward_ref(y_ref.data(), mean_ref.data(), rstd_ref.data(), x.data(), gain, bias, T,
                            D, 1e-5f);
      const double d = max_scaled_diff(y, y_ref, T, D);
      if (d > worst_y) {
        worst_y = d;
        worst_D = D;
      }
      worst_cache = std::max(worst_cache, max_rel_diff(rstd.data(), rstd_ref.data(), T));
      // The mean's error measured against the row's spread (std = 1 / rstd):
      // a mean near 0 has no meaningful relative error.
      for (int t = 0; t < T; ++t) {
        worst_cache = std::max(worst_cache,
                               std::fabs(static_cast<double>(mean[t]) - mean_ref[t]) * rstd_ref[t]);
      }
    }
  }
  INFO("layernorm forward: max |y - y_ref| / row scale = "
       << worst_y << " (D = " << worst_D << "), max rstd/mean diff = " << worst_cache);
  CHECK(worst_y <= kTol);
  CHECK(worst_cache <= kTol);
}

TEST_CASE("layernorm: rows whose first entries are a poor guess at the mean", "[layernorm]") {
  // The kernel's one sums pass is taken around the mean of the first 64
  // entries; these rows make that guess far off (an outlying prefix, a
  // trend along the row, a prefix of a different scale), so they take the
  // second, corrected pass. Either way the result is the reference's.
  Rng rng(36);
  for (const int D : {65, 100, 1024, 1031}) {
    const int T = 4;
    std::vector<float> x = rng.uniform_vec(static_cast<std::size_t>(T) * D, -1.0f, 1.0f);
    for (int i = 0; i < 64; ++i) x[0 * D + i] += 1000.0f;               // outlying prefix
    for (int i = 0; i < D; ++i) x[1 * D + i] += 0.5f * i;               // trend
    for (int i = 0; i < 64; ++i) x[2 * D + i] *= 1e-3f;                 // quiet prefix, loud rest
    for (int i = 0; i < D; ++i) x[3 * D + i] += i < 64 ? -3e4f : 3e4f;  // two plateaus
    const std::vector<float> g = rng.uniform_vec(D, 0.5f, 1.5f);
    const std::vector<float> b = rng.uniform_vec(D, -1.0f, 1.0f);
    std::vector<float> y(x.size()), y_ref(x.size()), mean(T), mean_ref(T), rstd(T), rstd_ref(T);
    layernorm_forward(y.data(), mean.data(), rstd.data(), x.data(), g.data(), b.data(), T, D,
                      1e-5f);
    layernorm_forward_ref(y_ref.data(), mean_ref.data(), rstd_ref.data(), x.data(), g.data(),
                          b.data(), T, D, 1e-5f);
    INFO("D = " << D);
    CHECK(max_scaled_diff(y, y_ref, T, D) <= kTol);
    CHECK(max_rel_diff(rstd.data(), rstd_ref.data(), T) <= kTol);
    // The rows spread over >= 1: the mean to 1e-6 of it (or of itself).
    for (int t = 0; t < T; ++t) CHECK(mean[t] == Approx(mean_ref[t]).epsilon(1e-6).margin(1e-6));
  }
}
