// Backward passes: the reference and the SIMD kernels against central
// finite differences of the double reference forward, gradient identities,
// accumulation into dgain/dbias, every tail length, and rows at the ends of
// the float range.
//
// T = rows, D = row length. The loss is L = sum(w * y) for a fixed random
// w, so dL/dy = w is the dout fed to the backward.
#include <catch2/catch.hpp>

#include "normlab/kernels.h"
#include "normlab/reference.h"
#include "tensor_check.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <vector>

using namespace normlab;
using namespace normlab::test;

namespace {

std::vector<double> to_double(const std::vector<float>& v) {
  return std::vector<double>(v.begin(), v.end());
}

double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

// Central differences of loss() with respect to every entry of v, in
// double: h = 1e-6 leaves a truncation error ~h^2 and a rounding error
// ~1e-16 * |L| / h, both far below the 1e-7 the reference is held to.
std::vector<double> finite_diff(std::vector<double>& v, const std::function<double()>& loss) {
  const double h = 1e-6;
  std::vector<double> grad(v.size());
  for (std::size_t j = 0; j < v.size(); ++j) {
    const double saved = v[j];
    v[j] = saved + h;
    const double up = loss();
    v[j] = saved - h;
    const double down = loss();
    v[j] = saved;
    grad[j] = (up - down) / (2.0 * h);
  }
  return grad;
}

// The reference backward (double) is held to the finite differences at
// this accuracy, the float kernels at kTol.
constexpr double kRefTol = 1e-7;

// Where a backward formula cancels, the exact gradient is far smaller than
// the terms it is computed from, and no float32 evaluation resolves it: a
// saturated softmax row (p_max -> 1: dy_k - dot(p, dy) ~ (1 - p_max) |dy|,
// while the float p it is given sums to 1 only within ~2^-24), rmsnorm at
// D = 1 and layernorm at D = 2 (the row is all scale/shift direction; only
// eps survives), a dy parallel to y. The sweeps therefore measure the
// kernels' error on the scale of those terms, per row: the bound a
// backward-stable float computation meets.

// r * max_i (|u_i| + |xhat_i| * mean_j |u_j xhat_j|), u = g * dy, xhat = x * r
std::vector<double> rmsnorm_term_scale(const std::vector<float>& x, const float* gain,
                                       const std::vector<float>& dy, const std::vector<float>& rstd,
                                       int T, int D) {
  std::vector<double> scale(T);
  for (int t = 0; t < T; ++t) {
    const double r = rstd[t];
    double mean_abs_uxhat = 0.0;
    for (int i = 0; i < D; ++i)
      mean_abs_uxhat += std::fabs((gain ? gain[i] : 1.0) * dy[t * D + i] * x[t * D + i] * r) / D;
    double m = 0.0;
    for (int i = 0; i < D; ++i) {
      const double u = (gain ? gain[i] : 1.0) * dy[t * D + i];
      m = std::max(m, std::fabs(u) + std::fabs(x[t * D + i] * r) * mean_abs_uxhat);
    }
    scale[t] = r * m;
  }
  return scale;
}

// r * max_i (|u_i| + mean |u| + |xhat_i| * mean_j |u_j xhat_j|), xhat = (x - mean) * r
std::vector<double> layernorm_term_scale(const std::vector<float>& x, const float* gain,
                                         const std::vector<float>& dy,
                                         const std::vector<float>& mean,
                                         const std::vector<float>& rstd, int T, int D) {
  std::vector<double> scale(T);
  for (int t = 0; t < T; ++t) {
    const double r = rstd[t];
    double mean_abs_u = 0.0, mean_abs_uxhat = 0.0;
    for (int i = 0; i < D; ++i) {
      const double u = (gain ? gain[i] : 1.0) * dy[t * D + i];
      mean_abs_u += std::fabs(u) / D;
      mean_abs_uxhat += std::fabs(u * (x[t * D + i] - mean[t]) * r) / D;
    }
    double m = 0.0;
    for (int i = 0; i < D; ++i) {
      const double u = (gain ? gain[i] : 1.0) * dy[t * D + i];
      m = std::max(
          m, std::fabs(u) + mean_abs_u + std::fabs((x[t * D + i] - mean[t]) * r) * mean_abs_uxhat);
    }
    scale[t] = r * m;
  }
  return scale;
}

// max_i p_i (|dy_i| + sum_j p_j |dy_j|) / temperature
std::vector<double> softmax_term_scale(const std::vector<float>& p, const std::vector<float>& dy,
                                       int T, int D, float temperature) {
  std::vector<double> scale(T);
  for (int t = 0; t < T; ++t) {
    double dot_abs = 0.0;
    for (int i = 0; i < D; ++i)
      dot_abs += std::fabs(static_cast<double>(p[t * D + i]) * dy[t * D + i]);
    double m = 0.0;
    for (int i = 0; i < D; ++i)
      m = std::max(m, p[t * D + i] * (std::fabs(dy[t * D + i]) + dot_abs));
    scale[t] = m / temperature;
  }
  return scale;
}

// Worst |got - want| / scale[t] over (T, D).
double max_diff_on_scale(const std::vector<float>& got, const std::vector<float>& want,
                         const std::vector<double>& scale, int T, int D) {
  double worst = 0.0;
  for (int t = 0; t < T; ++t) {
    for (int i = 0; i < D; ++i) {
      const double d = std::fabs(static_cast<double>(got[t * D + i]) - want[t * D + i]);
      worst = std::max(worst, scale[t] > 0.0 ? d / scale[t] : d);
    }
  }
  return worst;
}

// The scale of an accumulated dgain/dbias: max_i (|start_i| + sum_t |term_ti|).
double accumulated_scale(float start, const std::vector<double>& abs_sums) {
  double m = 0.0;
  for (const double v : abs_sums) m = std::max(m, std::fabs(start) + v);
  return m;
}

}  // namespace

TEST_CASE("rmsnorm backward matches finite differences", "[backward][rmsnorm]") {
  Rng rng(51);
  for (const int D : {7, 37}) {
    const int T = 2;
    const float eps = 1e-3f;  // large enough to matter in the derivative
    const std::vector<float> x = rng.uniform_vec(T * D, -2.0f, 2.0f);
    const std::vector<float> g = rng.uniform_vec(D, -1.5f, 1.5f);
    const std::vector<float> w = rng.uniform_vec(T * D, -1.0f, 1.0f);
    std::vector<double> xd = to_double(x), gd = to_double(g);
    const std::vector<double> wd = to_double(w);
    std::vector<double> yd(T * D), rd(T);
    const auto loss = [&] {
      rmsnorm_forward_ref(yd.data(), rd.data(), xd.data(), gd.data(), T, D,
                          static_cast<double>(eps));
      return dot(wd, yd);
    };
    const std::vector<double> dx_fd = finite_diff(xd, loss);
    const std::vector<double> dg_fd = finite_diff(gd, loss);

    // Reference, in double.
    loss();
    std::vector<double> dx_ref(T * D), dg_ref(D, 0.0);
    rmsnorm_backward_ref(dx_ref.data(), dg_ref.data(), wd.data(), xd.data(), gd.data(), rd.data(),
                         T, D);
    // SIMD kernel, in float, with its own forward's rstd.
    std::vector<float> y(T * D), rstd(T), dx(T * D), dg(D, 0.0f);
    rmsnorm_forward(y.data(), rstd.data(), x.data(), g.data(), T, D, eps);
    rmsnorm_backward(dx.data(), dg.data(), w.data(), x.data(), g.data(), rstd.data(), T, D);

    INFO("D = " << D);
    CHECK(max_scaled_diff(dx_ref, dx_fd, T, D) <= kRefTol);
    CHECK(max_scaled_diff(dg_ref, dg_fd, 1, D) <= kRefTol);
    CHECK(max_scaled_diff(dx, dx_fd, T, D) <= kTol);
    CHECK(max_scaled_diff(dg, dg_fd, 1, D) <= kTol);
  }
}

TEST_CASE("layernorm backward matches finite differences", "[backward][layernorm]") {
  Rng rng(52);
  for (const int D : {7, 37}) {
    const int T = 2;
    const float eps = 1e-3f;
    std::vector<float> x = rng.uniform_vec(T * D, -2.0f, 2.0f);
    for (float& v : x) v += 0.5f;
    const std::vector<float> g = rng.uniform_vec(D, -1.5f, 1.5f);
    const std::vector<float> b = rng.uniform_vec(D, -1.0f, 1.0f);
    const std::vector<float> w = rng.uniform_vec(T * D, -1.0f, 1.0f);
    std::vector<double> xd = to_double(x), gd = to_double(g), bd = to_double(b);
    const std::vector<double> wd = to_double(w);
    std::vector<double> yd(T * D), md(T), rd(T);
    const auto loss = [&] {
      layernorm_forward_ref(yd.data(), md.data(), rd.data(), xd.data(), gd.data(), bd.data(), T, D,
                            static_cast<double>(eps));
      return dot(wd, yd);
    };
    const std::vector<double> dx_fd = finite_diff(xd, loss);
    const std::vector<double> dg_fd = finite_diff(gd, loss);
    const std::vector<double> db_fd = finite_diff(bd, loss);

    loss();
    std::vector<double> dx_ref(T * D), dg_ref(D, 0.0), db_ref(D, 0.0);
    layernorm_backward_ref(dx_ref.data(), dg_ref.data(), db_ref.data(), wd.data(), xd.data(),
                           gd.data(), md.data(), rd.data(), T, D);
    std::vector<float> y(T * D), mean(T), rstd(T), dx(T * D), dg(D, 0.0f), db(D, 0.0f);
    layernorm_forward(y.data(), mean.data(), rstd.data(), x.data(), g.data(), b.data(), T, D, eps);
    layernorm_backward(dx.data(), dg.data(), db.data(), w.data(), x.data(), g.data(), mean.data(),
                       rstd.data(), T, D);

    INFO("D = " << D);
    CHECK(max_scaled_diff(dx_ref, dx_fd, T, D) <= kRefTol);
    CHECK(max_scaled_diff(dg_ref, dg_fd, 1, D) <= kRefTol);
    CHECK(max_scaled_diff(db_ref, db_fd, 1, D) <= kRefTol);
    CHECK(max_scaled_diff(dx, dx_fd, T, D) <= kTol);
    CHECK(max_scaled_diff(dg, dg_fd, 1, D) <= kTol);
    CHECK(max_scaled_diff(db, db_fd, 1, D) <= kTol);
  }
}

TEST_CASE("softmax backward matches finite differences", "[backward][softmax]") {
  Rng rng(53);
  for (const int D : {7, 37}) {
    for (const float temperature : {1.0f, 0.5f, 3.0f}) {
      const int T = 2;
      const std::vector<float> x = rng.uniform_vec(T * D, -3.0f, 3.0f);
      const std::vector<float> w = rng.uniform_vec(T * D, -1.0f, 1.0f);
      std::vector<double> xd = to_double(x);
      const std::vector<double> wd = to_double(w);
      std::vector<double> pd(T * D);
      const auto loss = [&] {
        softmax_forward_ref(pd.data(), xd.data(), T, D, static_cast<double>(temperature));
        return dot(wd, pd);
      };
      const std::vector<double> dx_fd = finite_diff(xd, loss);

      loss();
      std::vector<double> dx_ref(T * D);
      softmax_backward_ref(dx_ref.data(), wd.data(), pd.data(), T, D,
                           static_cast<double>(temperature));
      std::vector<float> p(T * D), dx(T * D);
      softmax_forward(p.data(), x.data(), T, D, temperature);
      softmax_backward(dx.data(), w.data(), p.data(), T, D, temperature);

      INFO("D = " << D << ", temperature = " << temperature);
      CHECK(max_scaled_diff(dx_ref, dx_fd, T, D) <= kRefTol);
      CHECK(max_scaled_diff(dx, dx_fd, T, D) <= kTol);
    }
  }
}

TEST_CASE("gradient identities of the normalizations", "[backward]") {
  // With eps = 0, rmsnorm is invariant to scaling x, so dx is orthogonal to
  // x; layernorm is invariant to shifting and scaling x, so sum(dx) = 0 and
  // dx is orthogonal to x. Softmax is invariant to shifts: sum(dx) = 0.
  Rng rng(54);
  const int T = 3, D = 101;
  const std::vector<float> x = rng.uniform_vec(T * D, -2.0f, 2.0f);
  const std::vector<float> g = rng.uniform_vec(D, -1.5f, 1.5f);
  const std::vector<float> dy = rng.uniform_vec(T * D, -1.0f, 1.0f);
  std::vector<float> y(T * D), mean(T), rstd(T), dx(T * D);
  const auto row_dot = [&](const std::vector<float>& a, const std::vector<float>* b, int t,
                           double* norms) {
    double s = 0.0, na = 0.0, nb = 0.0;
    for (int i = 0; i < D; ++i) {
      const double bi = b ? (*b)[t * D + i] : 1.0;
      s += a[t * D + i] * bi;
      na += static_cast<double>(a[t * D + i]) * a[t * D + i];
      nb += bi * bi;
    }
    *norms = std::sqrt(na * nb);
    return s;
  };

  rmsnorm_forward(y.data(), rstd.data(), x.data(), g.data(), T, D, 0.0f);
  rmsnorm_backward(dx.data(), nullptr, dy.data(), x.data(), g.data(), rstd.data(), T, D);
  for (int t = 0; t < T; ++t) {
    double n;
    const double s = row_dot(dx, &x, t, &n);
    CHECK(std::fabs(s) <= 1e-6 * n);
  }

  layernorm_forward(y.data(), mean.data(), rstd.data(), x.data(), g.data(), nullptr, T, D, 0.0f);
  layernorm_backward(dx.data(), nullptr, nullptr, dy.data(), x.data(), g.data(), mean.data(),
                     rstd.data(), T, D);
  for (int t = 0; t < T; ++t) {
    double n;
    double s = row_dot(dx, nullptr, t, &n);
    CHECK(std::fabs(s) <= 1e-6 * n);
    s = row_dot(dx, &x, t, &n);
    CHECK(std::fabs(s) <= 1e-6 * n);
  }

  std::vector<float> p(T * D);
  softmax_forward(p.data(), x.data(), T, D, 0.7f);
  softmax_backward(dx.data(), dy.data(), p.data(), T, D, 0.7f);
  for (int t = 0; t < T; ++t) {
    double n;
    const double s = row_dot(dx, nullptr, t, &n);
    CHECK(std::fabs(s) <= 1e-6 * n);
  }
}

TEST_CASE("dgain and dbias accumulate; nullptr skips them", "[backward]") {
  Rng rng(55);
  const int T = 4, D = 23;
  const std::vector<float> x = rng.uniform_vec(T * D, -2.0f, 2.0f);
  const std::vector<float> g = rng.uniform_vec(D, 0.5f, 1.5f);
  const std::vector<float> dy = rng.uniform_vec(T * D, -1.0f, 1.0f);
  const std::vector<float> start = rng.uniform_vec(D, -1.0f, 1.0f);
  std::vector<float> y(T * D), mean(T), rstd(T), dx(T * D), dx_no_grads(T * D);

  SECTION("rmsnorm") {
    rmsnorm_forward(y.data(), rstd.data(), x.data(), g.data(), T, D, 1e-5f);
    std::vector<float> dg_zero(D, 0.0f), dg(start);
    rmsnorm_backward(dx.data(), dg_zero.data(), dy.data(), x.data(), g.data(), rstd.data(), T, D);
    rmsnorm_backward(dx.data(), dg.data(), dy.data(), x.data(), g.data(), rstd.data(), T, D);
    rmsnorm_backward(dx.data(), dg.data(), dy.data(), x.data(), g.data(), rstd.data(), T, D);
    for (int i = 0; i < D; ++i) CHECK(dg[i] == Approx(start[i] + 2.0 * dg_zero[i]).margin(1e-5));
    rmsnorm_backward(dx_no_grads.data(), nullptr, dy.data(), x.data(), g.data(), rstd.data(), T, D);
    CHECK(std::memcmp(dx.data(), dx_no_grads.data(), dx.size() * sizeof(float)) == 0);
  }

  SECTION("layernorm") {
    layernorm_forward(y.data(), mean.data(), rstd.data(), x.data(), g.data(), nullptr, T, D, 1e-5f);
    std::vector<float> dg_zero(D, 0.0f), db_zero(D, 0.0f), dg(start), db(start);
    layernorm_backward(dx.data(), dg_zero.data(), db_zero.data(), dy.data(), x.data(), g.data(),
                       mean.data(), rstd.data(), T, D);
    layernorm_backward(dx.data(), dg.data(), db.data(), dy.data(), x.data(), g.data(), mean.data(),
                       rstd.data(), T, D);
    layernorm_backward(dx.data(), dg.data(), db.data(), dy.data(), x.data(), g.data(), mean.data(),
                       rstd.data(), T, D);
    for (int i = 0; i < D; ++i) {
      CHECK(dg[i] == Approx(start[i] + 2.0 * dg_zero[i]).margin(1e-5));
      CHECK(db[i] == Approx(start[i] + 2.0 * db_zero[i]).margin(1e-5));
      double sum_dy = 0.0;
      for (int t = 0; t < T; ++t) sum_dy += dy[t * D + i];
      CHECK(db_zero[i] == Approx(sum_dy).margin(1e-6));
    }
    layernorm_backward(dx_no_grads.data(), nullptr, nullptr, dy.data(), x.data(), g.data(),
                       mean.data(), rstd.data(), T, D);
    CHECK(std::memcmp(dx.data(), dx_no_grads.data(), dx.size() * sizeof(float)) == 0);
  }
}

TEST_CASE("eps = 0 zero rows have zero gradient", "[backward][numerics]") {
  const int D = 37;
  const std::vector<float> x(D, 0.0f);
  const std::vector<float> dy(D, 0.5f);
  const std::vector<float> g(D, 2.0f);
  std::vector<float> y(D), dx(D, 7.0f), dg(D, 1.0f), db(D, 1.0f);
  float rstd, mean;
  rmsnorm_forward(y.data(), &rstd, x.data(), g.data(), 1, D, 0.0f);
  rmsnorm_backward(dx.data(), dg.data(), dy.data(), x.data(), g.data(), &rstd, 1, D);
  CHECK(dx == std::vector<float>(D, 0.0f));
  CHECK(dg == std::vector<float>(D, 1.0f));

  // A constant row in layernorm: r = 0, xhat = 0, so dx = 0, dg += 0, db += dy.
  const std::vector<float> c(D, 3.25f);
  std::fill(dx.begin(), dx.end(), 7.0f);
  layernorm_forward(y.data(), &mean, &rstd, c.data(), g.data(), nullptr, 1, D, 0.0f);
  CHECK(rstd == 0.0f);
  layernorm_backward(dx.data(), dg.data(), db.data(), dy.data(), c.data(), g.data(), &mean, &rstd,
                     1, D);
  CHECK(dx == std::vector<float>(D, 0.0f));
  CHECK(dg == std::vector<float>(D, 1.0f));
  CHECK(db == std::vector<float>(D, 1.5f));
}

TEST_CASE("backward on rows across the float range (eps = 0)", "[backward][numerics]") {
  // rmsnorm and layernorm with eps = 0 are scale invariant, so
  // dx(2^e x) = 2^-e dx(x) and dgain, dbias do not change. Checked against
  // the reference and against the unscaled row.
  Rng rng(56);
  const int T = 2, D = 45;
  std::vector<float> x(T * D);
  for (float& v : x) v = rng.uniform(0.5f, 2.0f) * (rng.next() & 1 ? 1.0f : -1.0f);
  const std::vector<float> g = rng.uniform_vec(D, -1.5f, 1.5f);
  const std::vector<float> dy = rng.uniform_vec(T * D, -1.0f, 1.0f);
  std::vector<float> y(T * D), mean(T), rstd(T);
  std::vector<float> dx_unit(T * D), dg_unit(D, 0.0f), db_unit(D, 0.0f);
  std::vector<float> dx_unit_ln(T * D), dg_unit_ln(D, 0.0f);
  rmsnorm_forward(y.data(), rstd.data(), x.data(), g.data(), T, D, 0.0f);
  rmsnorm_backward(dx_unit.data(), dg_unit.data(), dy.data(), x.data(), g.data(), rstd.data(), T,
                   D);
  layernorm_forward(y.data(), mean.data(), rstd.data(), x.data(), g.data(), nullptr, T, D, 0.0f);
  layernorm_backward(dx_unit_ln.data(), dg_unit_ln.data(), db_unit.data(), dy.data(), x.data(),
                     g.data(), mean.data(), rstd.data(), T, D);

  for (const int e : {126, 64, 63, -64, -100, -120}) {
    std::vector<float> xs(x);
    for (float& v : xs) v = std::ldexp(v, e);
    std::vector<float> dx_expected(T * D);
    INFO("x scaled by 2^" << e);

    std::vector<float> dx(T * D), dx_ref(T * D), dg(D, 0.0f), db(D, 0.0f);
    rmsnorm_forward(y.data(), rstd.data(), xs.data(), g.data(), T, D, 0.0f);
    rmsnorm_backward(dx.data(), dg.data(), dy.data(), xs.data(), g.data(), rstd.data(), T, D);
    rmsnorm_backward_ref(dx_ref.data(), nullptr, dy.data(), xs.data(), g.data(), rstd.data(), T, D);
    for (int k = 0; k < T * D; ++k) dx_expected[k] = std::ldexp(dx_unit[k], -e);
    CHECK(max_scaled_diff(dx, dx_ref, T, D) <= kTol);
    CHECK(max_scaled_diff(dx, dx_expected, T, D) <= kTol);
    CHECK(max_scaled_diff(dg, dg_unit, 1, D) <= kTol);

    std::fill(dg.begin(), dg.end(), 0.0f);
    layernorm_forward(y.data(), mean.data(), rstd.data(), xs.data(), g.data(), nullptr, T, D, 0.0f);
    layernorm_backward(dx.data(), dg.data(), db.data(), dy.data(), xs.data(), g.data(), mean.data(),
                       rstd.data(), T, D);
    layernorm_backward_ref(dx_ref.data(), nullptr, nullptr, dy.data(), xs.data(), g.data(),
                           mean.data(), rstd.data(), T, D);
    for (int k = 0; k < T * D; ++k) dx_expected[k] = std::ldexp(dx_unit_ln[k], -e);
    CHECK(max_scaled_diff(dx, dx_ref, T, D) <= kTol);
    CHECK(max_scaled_diff(dx, dx_expected, T, D) <= kTol);
    CHECK(max_scaled_diff(dg, dg_unit_ln, 1, D) <= kTol);
    CHECK(max_scaled_diff(db, db_unit, 1, D) <= kTol);
  }
}

TEST_CASE("backward with gradients near FLT_MAX stays finite where the exact dx is",
          "[backward][numerics]") {
  // Found by fuzzing: u - xhat c (and softmax's dy - dot) can overflow float
  // while r < 1 (resp. p < 1) brings the exact dx back into range.
  // rmsnorm, x = [4, 4, 4, -4]: r = 1/4, xhat = [1, 1, 1, -1],
  // c = mean(u xhat) = -0.75e38, dx = r (u - xhat c).
  const std::vector<float> x = {4.0f, 4.0f, 4.0f, -4.0f};
  const std::vector<float> dy = {3e38f, -3e38f, -3e38f, 0.0f};
  std::vector<float> y(4), dx(4), dx_ref(4), mean(1), rstd(1);
  rmsnorm_forward(y.data(), rstd.data(), x.data(), nullptr, 1, 4, 0.0f);
  rmsnorm_backward(dx.data(), nullptr, dy.data(), x.data(), nullptr, rstd.data(), 1, 4);
  CHECK(dx[0] == Approx(9.375e37).epsilon(1e-6));
  CHECK(dx[1] == Approx(-5.625e37).epsilon(1e-6));
  CHECK(dx[2] == Approx(-5.625e37).epsilon(1e-6));
  CHECK(dx[3] == Approx(-1.875e37).epsilon(1e-6));

  // layernorm on the same row: mean 2, var 12; u - mean(u) = 3.75e38 alone
  // would overflow.
  layernorm_forward(y.data(), mean.data(), rstd.data(), x.data(), nullptr, nullptr, 1, 4, 0.0f);
  layernorm_backward(dx.data(), nullptr, nullptr, dy.data(), x.data(), nullptr, mean.data(),
                     rstd.data(), 1, 4);
  layernorm_backward_ref(dx_ref.data(), nullptr, nullptr, dy.data(), x.data(), nullptr, mean.data(),
                         rstd.data(), 1, 4);
  CHECK(std::all_of(dx.begin(), dx.end(), [](float v) { return std::isfinite(v); }));
  CHECK(max_scaled_diff(dx, dx_ref, 1, 4) <= kTol);

  // softmax, p = [0.9, 0.1]: dot(p, dy) = 2.4e38, dx = p (dy - dot) =
  // [5.4e37, -5.4e37], where dy_1 - dot = -5.4e38 overflows.
  const std::vector<float> logits = {std::log(9.0f), 0.0f};
  const std::vector<float> dy2 = {3e38f, -3e38f};
  std::vector<float> p(2), dx2(2);
  softmax_forward(p.data(), logits.data(), 1, 2, 1.0f);
  softmax_backward(dx2.data(), dy2.data(), p.data(), 1, 2, 1.0f);
  CHECK(dx2[0] == Approx(5.4e37).epsilon(1e-5));
  CHECK(dx2[1] == Approx(-5.4e37).epsilon(1e-5));
}

TEST_CASE("backward: SIMD matches the reference on every tail length", "[backward][sweep]") {
  Rng rng(57);
  double worst_rms = 0.0, worst_ln = 0.0, worst_sm = 0.0, worst_sm_row = 0.0;
  int worst_sm_row_D = 0;
  for (const int D : sweep_sizes()) {
    const int T = kSweepRows;
    std::vector<float> x = sweep_input(rng, T, D);
    for (float& v : x) v += 0.1f;
    const std::vector<float> g = rng.uniform_vec(D, -2.0f, 2.0f);
    const std::vector<float> dy = rng.uniform_vec(T * D, -1.0f, 1.0f);
    std::vector<float> y(T * D), mean(T), rstd(T);
    std::vector<float> dx(T * D), dx_ref(T * D);
    for (const float* gain : {static_cast<const float*>(nullptr), g.data()}) {
      const float start = 0.5f;
      std::vector<float> dg(D, start), dg_ref(D, start), db(D, start), db_ref(D, start);
      std::vector<double> abs_dg(D, 0.0), abs_db(D, 0.0);

      rmsnorm_forward(y.data(), rstd.data(), x.data(), gain, T, D, 1e-5f);
      rmsnorm_backward(dx.data(), dg.data(), dy.data(), x.data(), gain, rstd.data(), T, D);
      rmsnorm_backward_ref(dx_ref.data(), dg_ref.data(), dy.data(), x.data(), gain, rstd.data(), T,
                           D);
      for (int t = 0; t < T; ++t) {
        for (int i = 0; i < D; ++i)
          abs_dg[i] += std::fabs(static_cast<double>(dy[t * D + i]) * x[t * D + i] * rstd[t]);
      }
      worst_rms = std::max(
          {worst_rms,
           max_diff_on_scale(dx, dx_ref, rmsnorm_term_scale(x, gain, dy, rstd, T, D), T, D),
           max_diff_on_scale(dg, dg_ref, {accumulated_scale(start, abs_dg)}, 1, D)});

      std::fill(dg.begin(), dg.end(), start);
      std::fill(dg_ref.begin(), dg_ref.end(), start);
      std::fill(abs_dg.begin(), abs_dg.end(), 0.0);
      layernorm_forward(y.data(), mean.data(), rstd.data(), x.data(), gain, nullptr, T, D, 1e-5f);
      layernorm_backward(dx.data(), dg.data(), db.data(), dy.data(), x.data(), gain, mean.data(),
                         rstd.data(), T, D);
      layernorm_backward_ref(dx_ref.data(), dg_ref.data(), db_ref.data(), dy.data(), x.data(), gain,
                             mean.data(), rstd.data(), T, D);
      for (int t = 0; t < T; ++t) {
        for (int i = 0; i < D; ++i) {
          abs_dg[i] +=
              std::fabs(static_cast<double>(dy[t * D + i]) * (x[t * D + i] - mean[t]) * rstd[t]);
          abs_db[i] += std::fabs(dy[t * D + i]);
        }
      }
      worst_ln = std::max(
          {worst_ln,
           max_diff_on_scale(dx, dx_ref, layernorm_term_scale(x, gain, dy, mean, rstd, T, D), T, D),
           max_diff_on_scale(dg, dg_ref, {accumulated_scale(start, abs_dg)}, 1, D),
           max_diff_on_scale(db, db_ref, {accumulated_scale(start, abs_db)}, 1, D)});
    }
    for (const float temperature : {1.0f, 0.3f}) {
      softmax_forward(y.data(), x.data(), T, D, temperature);
      softmax_backward(dx.data(), dy.data(), y.data(), T, D, temperature);
      softmax_backward_ref(dx_ref.data(), dy.data(), y.data(), T, D, temperature);
      worst_sm = std::max(
          worst_sm,
          max_diff_on_scale(dx, dx_ref, softmax_term_scale(y, dy, T, D, temperature), T, D));
      // Row 0 (logits in +-1, never saturated) also meets the plain row scale.
      const double d = max_scaled_diff(dx, dx_ref, 1, D);
      if (d > worst_sm_row) {
        worst_sm_row = d;
        worst_sm_row_D = D;
      }
    }
  }
  INFO("backward: max |d - d_ref| / term scale (dx, dgain, dbias): rmsnorm "
       << worst_rms << ", layernorm " << worst_ln << ", softmax " << worst_sm
       << "; softmax unsaturated row on the row scale " << worst_sm_row
       << " (D = " << worst_sm_row_D << ")");
  CHECK(worst_rms <= kTol);
  CHECK(worst_ln <= kTol);
  CHECK(worst_sm <= kTol);
  CHECK(worst_sm_row <= kTol);
}
