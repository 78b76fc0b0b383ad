// The trainer's elementwise ops against their double references on every
// tail length (sizes 1..70 and 1023..1025), plus worked values: GELU(0) = 0,
// GELU(1) = 0.8412, GELU(-1) = -0.1588 (tanh approximation), its saturation
// to x and 0 for large |x|, and one Adam step by hand.
//
// n = elements
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "tensor_check.h"
#include "model/vec.h"
#include "train/elementwise.h"

using namespace normlab;
using namespace normlab::test;

TEST_CASE("GELU forward and backward against the double reference", "[train][elementwise]") {
  Rng rng(21);
  double worst_f = 0.0, worst_b = 0.0;
  for (int n : sweep_sizes()) {
    const std::vector<float> x = rng.uniform_vec(n, -6, 6), dy = rng.uniform_vec(n, -1, 1);
    std::vector<float> y(n), y_ref(n), dx(n), dx_ref(n);
    train::gelu_forward(y.data(), x.data(), n);
    train::gelu_forward_ref(y_ref.data(), x.data(), n);
    train::gelu_backward(dx.data(), dy.data(), x.data(), n);
    train::gelu_backward_ref(dx_ref.data(), dy.data(), x.data(), n);
    for (int i = 0; i < n; ++i) {
      // Absolute error: tanh's is ~1e-6 (elementwise.h), scaled by |x| / 2 in
      // the forward and by at most ~1.2 |dy| in the backward.
      worst_f = std::max(worst_f, std::fabs(static_cast<double>(y[i]) - y_ref[i]) /
                                      std::max(1.0, std::fabs(static_cast<double>(x[i]))));
      worst_b = std::max(worst_b, std::fabs(static_cast<double>(dx[i]) - dx_ref[i]));
    }
  }
  std::printf("GELU vs double reference, x in [-6, 6]: forward %.2e x max(1, |x|), backward %.2e\n",
              worst_f, worst_b);
  CHECK(worst_f < 2e-6);
  CHECK(worst_b < 4e-6);

  const float x[] = {0.0f, 1.0f, -1.0f, 30.0f, -30.0f, NAN};
  float y[6], dx[6];
  const float ones[] = {1, 1, 1, 1, 1, 1};
  train::gelu_forward(y, x, 6);
  train::gelu_backward(dx, ones, x, 6);
  CHECK(y[0] == 0.0f);
  CHECK(y[1] == Approx(0.841192).epsilon(1e-5));
  CHECK(y[2] == Approx(-0.158808).epsilon(1e-5));
  CHECK(y[3] == 30.0f);
  CHECK(y[4] == 0.0f);
  CHECK(std::isnan(y[5]));
  CHECK(dx[0] == 0.5f);
  CHECK(dx[3] == 1.0f);
  CHECK(dx[4] == 0.0f);
}

TEST_CASE("Adam update and sum of squares against the double reference", "[train][elementwise]") {
  Rng rng(22);
  double worst_p = 0.0, worst_s = 0.0;
  for (int n : sweep_sizes()) {
    std::vector<float> p = rng.uniform_vec(n, -1, 1), m = rng.uniform_vec(n, -0.01f, 0.01f);
    std::vector<float> v = rng.uniform_vec(n, 0, 1e-4f);
    const std::vector<float> g = rng.uniform_vec(n, -0.1f, 0.1f);
    std::vector<float> p_ref = p, m_ref = m, v_ref = v;
    train::adam_update(p.data(), m.data(), v.data(), g.data(), n, 1e-2f, 0.9f, 0.999f, 1e-8f, 0.19f,
                       0.002f);
    train::adam_update_ref(p_ref.data(), m_ref.data(), v_ref.data(), g.data(), n, 1e-2f, 0.9f,
                           0.999f, 1e-8f, 0.19f, 0.002f);
    for (int i = 0; i < n; ++i)
      worst_p = std::max(worst_p, std::fabs(static_cast<double>(p[i]) - p_ref[i]));
    worst_s = std::max(
        worst_s, rel_diff(train::sum_squares(g.data(), n), model::sum_squares_ref(g.data(), n)));
  }
  std::printf(
      "Adam vs double reference: max |dp| %.2e (steps of up to ~1e-2); sum of squares rel %.2e\n",
      worst_p, worst_s);
  // p is within ~1 of 0, where one float rounding is up to 2^-24 to 2^-23:
  // two ulps of 1 cover the rounding of p - step and the step's own error.
  CHECK(worst_p <= 0x1p-22);
  CHECK(worst_s < 1e-6);

  // The first step, by hand: m = 0.1 g, v = 0.001 g^2, c1 = 0.1, c2 = 0.001:
  // m / c1 = g, v / c2 = g^2, so p -= lr g / (|g| + eps) = lr sign(g).
  float p[] = {1.0f, 1.0f}, m[] = {0, 0}, v[] = {0, 0};
  const float g[] = {0.5f, -2.0f};
  train::adam_update(p, m, v, g, 2, 0.01f, 0.9f, 0.999f, 1e-8f, 1.0f - 0.9f, 1.0f - 0.999f);
  CHECK(p[0] == Approx(0.99).epsilon(1e-6));
  CHECK(p[1] == Approx(1.01).epsilon(1e-6));
}

TEST_CASE("the trainer's add and scale are exact elementwise", "[train][elementwise]") {
  // The model's add and scale (model/vec.h), which the trainer calls: one
  // IEEE operation per element, the same bits as the scalar expression, in
  // the lanes and in the tail, whatever the architecture.
  Rng rng(23);
  for (int n : sweep_sizes()) {
    const std::vector<float> a = rng.uniform_vec(n, -3, 3), b = rng.uniform_vec(n, -3, 3);
    std::vector<float> sum(n), scaled(n);
    model::add(sum.data(), a.data(), b.data(), n);
    model::scale(scaled.data(), a.data(), 0.1f, n);
    for (int i = 0; i < n; ++i) {
      CHECK(sum[i] == a[i] + b[i]);
      CHECK(scaled[i] == a[i] * 0.1f);
    }
  }
}
