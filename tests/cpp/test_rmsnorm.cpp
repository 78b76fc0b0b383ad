// RMSNorm forward: worked examples, the sqrt(D) norm of a normalized row,
// and the SIMD kernel against the double reference on every tail length.
//
// T = rows, D = row length
#include <catch2/catch.hpp>

#include "normlab/kernels.h"
#include "normlab/reference.h"
#include "tensor_check.h"

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

using namespace normlab;
using namespace normlab::test;

namespace {

double l2_norm(const float* x, int D) {
  double s = 0.0;
  for (int i = 0; i < D; ++i) s += static_cast<double>(x[i]) * x[i];
  return std::sqrt(s);
}

}  // namespace

TEST_CASE("kernel_arch_name names the instruction set the kernels run on", "[rmsnorm]") {
  const std::string name = kernel_arch_name();
  INFO("kernel arch: " << name);
  CHECK_FALSE(name.empty());
#if defined(__wasm_simd128__)
  CHECK(name == "wasm");
#elif defined(__x86_64__)
  CHECK(name != "emulated");
#endif
}

TEST_CASE("rmsnorm worked example [2, -1, 3, 0]", "[rmsnorm]") {
  // mean(x^2) = (4 + 1 + 9 + 0) / 4 = 3.5, RMS = sqrt(3.5) ~ 1.8708
  const float x[4] = {2.0f, -1.0f, 3.0f, 0.0f};
  float y[4];
  float rstd;
  rmsnorm_forward(y, &rstd, x, nullptr, 1, 4, 0.0f);
  const double rms = std::sqrt(3.5);
  CHECK(rms == Approx(1.8708).epsilon(1e-4));
  CHECK(rstd == Approx(1.0 / rms).epsilon(1e-6));
  CHECK(y[0] == Approx(2.0 / rms).margin(1e-4));
  CHECK(y[1] == Approx(-1.0 / rms).margin(1e-4));
  CHECK(y[2] == Approx(3.0 / rms).margin(1e-4));
  CHECK(y[3] == 0.0f);
  // The rounded values of the worked example.
  CHECK(y[0] == Approx(1.069).margin(1e-3));
  CHECK(y[1] == Approx(-0.5345).margin(1e-4));
  CHECK(y[2] == Approx(1.6036).margin(1e-4));
}

TEST_CASE("rmsnorm worked example [2, 4, 4, 8]: RMS 5", "[rmsnorm]") {
  // mean(x^2) = (4 + 16 + 16 + 64) / 4 = 25
  const float x[4] = {2.0f, 4.0f, 4.0f, 8.0f};
  float y[4];
  float rstd;
  rmsnorm_forward(y, &rstd, x, nullptr, 1, 4, 0.0f);
  CHECK(rstd == Approx(0.2).epsilon(1e-7));
  CHECK(y[0] == Approx(0.4).epsilon(1e-6));
  CHECK(y[1] == Approx(0.8).epsilon(1e-6));
  CHECK(y[2] == Approx(0.8).epsilon(1e-6));
  CHECK(y[3] == Approx(1.6).epsilon(1e-6));
}

TEST_CASE("rmsnorm: eps sits inside the square root", "[rmsnorm]") {
  // [2, -1, 3, 0]: mean(x^2) + eps = 3.5 + 0.5 = 4, so y = x / 2.
  const float x[4] = {2.0f, -1.0f, 3.0f, 0.0f};
  float y[4];
  float rstd;
  rmsnorm_forward(y, &rstd, x, nullptr, 1, 4, 0.5f);
  CHECK(rstd == Approx(0.5).epsilon(1e-7));
  CHECK(y[0] == Approx(1.0).epsilon(1e-6));
  CHECK(y[1] == Approx(-0.5).epsilon(1e-6));
  CHECK(y[2] == Approx(1.5).epsilon(1e-6));
  CHECK(y[3] == 0.0f);
}

TEST_CASE("rmsnorm: a normalized row has L2 norm sqrt(D)", "[rmsnorm]") {
  // With g = 1 and eps -> 0: sum y^2 = sum x^2 / mean(x^2) = D.
  Rng rng(1);
  for (const int D : {256, 1024}) {
    const std::vector<float> x = rng.uniform_vec(D, -3.0f, 3.0f);
    std::vector<float> y(D);
    float rstd;
    rmsnorm_forward(y.data(), &rstd, x.data(), nullptr, 1, D, 1e-12f);
    INFO("D = " << D);
    CHECK(l2_norm(y.data(), D) == Approx(std::sqrt(static_cast<double>(D))).epsilon(1e-6));
  }
  CHECK(std::sqrt(1024.0) == 32.0);
  CHECK(std::sqrt(256.0) == 16.0);
}

TEST_CASE("rmsnorm: with a gain the norm becomes sqrt(D) * rms(g)", "[rmsnorm]") {
  // sum (xhat_i g_i)^2 ~ mean(xhat^2) * sum g^2 = D * rms(g)^2 when x and g
  // are independent: approximate, to a few percent at D = 1024.
  Rng rng(2);
  const int D = 1024;
  const std::vector<float> x = rng.uniform_vec(D, -1.0f, 1.0f);
  const std::vector<float> g = rng.uniform_vec(D, 0.5f, 1.5f);
  std::vector<float> y(D);
  float rstd;
  rmsnorm_forward(y.data(), &rstd, x.data(), g.data(), 1, D, 1e-12f);
  const double rms_g = l2_norm(g.data(), D) / std::sqrt(static_cast<double>(D));
  CHECK(l2_norm(y.data(), D) == Approx(32.0 * rms_g).epsilon(0.05));
  // A constant gain c scales the norm exactly: 32 * c.
  const std::vector<float> g_const(D, 2.5f);
  rmsnorm_forward(y.data(), &rstd, x.data(), g_const.data(), 1, D, 1e-12f);
  CHECK(l2_norm(y.data(), D) == Approx(80.0).epsilon(1e-6));
}

TEST_CASE("rmsnorm: a null gain means g = 1", "[rmsnorm]") {
  Rng rng(3);
  const int T = 3, D = 37;
  const std::vector<float> x = rng.uniform_vec(T * D, -2.0f, 2.0f);
  const std::vector<float> ones(D, 1.0f);
  std::vector<float> y_null(T * D), y_ones(T * D), rstd_null(T), rstd_ones(T);
  rmsnorm_forward(y_null.data(), rstd_null.data(), x.data(), nullptr, T, D, 1e-5f);
  rmsnorm_forward(y_ones.data(), rstd_ones.data(), x.data(), ones.data(), T, D, 1e-5f);
  CHECK(std::memcmp(y_null.data(), y_ones.data(), y_null.size() * sizeof(float)) == 0);
  CHECK(rstd_null == rstd_ones);
}

TEST_CASE("rmsnorm: T = 0 touches nothing", "[rmsnorm]") {
  float y = 7.0f, rstd = 7.0f;
  const float x = 1.0f;
  rmsnorm_forward(&y, &rstd, &x, nullptr, 0, 1, 1e-5f);
  CHECK(y == 7.0f);
  CHECK(rstd == 7.0f);
}

TEST_CASE("rmsnorm forward: SIMD matches the reference on every tail length", "[rmsnorm][sweep]") {
  Rng rng(4);
  double worst_y = 0.0, worst_rstd = 0.0;
  int worst_D = 0;
  for (const int D : sweep_sizes()) {
    const int T = kSweepRows;
    const std::vector<float> x = sweep_input(rng, T, D);
    const std::vector<float> g = rng.uniform_vec(D, -2.0f, 2.0f);
    for (const float* gain : {static_cast<const float*>(nullptr), g.data()}) {
      std::vector<float> y(T * D), y_ref(T * D), rstd(T), rstd_ref(T);
      rmsnorm_forward(y.data(), rstd.data(), x.data(), gain, T, D, 1e-5f);
      rmsnorm_forward_ref(y_ref.data(), rstd_ref.data(), x.data(), gain, T, D, 1e-5f);
      const double d = max_scaled_diff(y, y_ref, T, D);
      if (d > worst_y) {
        worst_y = d;
        worst_D = D;
      }
      worst_rstd = std::max(worst_rstd, max_rel_diff(rstd.data(), rstd_ref.data(), T));
    }
  }
  INFO("rmsnorm forward: max |y - y_ref| / row scale = "
       << worst_y << " (D = " << worst_D << "), max rel rstd diff = " << worst_rstd);
  CHECK(worst_y <= kTol);
  CHECK(worst_rstd <= kTol);
}
