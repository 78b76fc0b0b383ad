// The synthetic model's vector primitives: each SIMD op against its scalar
// reference on every tail length, and the Walsh-Hadamard transform's
// defining properties (H H = n I, an orthogonal H / sqrt(n)).
//
// n = vector length, block = Hadamard block length, seg = segment length
#include <catch2/catch.hpp>

#include "model/vec.h"
#include "tensor_check.h"

#include <cmath>
#include <vector>

using namespace normlab::model;
using normlab::test::max_scaled_diff;
using normlab::test::Rng;
using normlab::test::sweep_sizes;

namespace {

constexpr double kTol = 1e-5;

double l2(const std::vector<float>& x) {
  double s = 0.0;
  for (float v : x) s += static_cast<double>(v) * v;
  return std::sqrt(s);
}

}  // namespace

TEST_CASE("fwht and hadamard_project match the reference on every block size", "[model][vec]") {
  Rng rng(11);
  for (int block = 1; block <= 1024; block *= 2) {
    for (int n_blocks : {1, 3}) {
      const int n = block * n_blocks;
      const std::vector<float> x = rng.uniform_vec(n, -1.0f, 1.0f);
      const std::vector<float> diag = rng.uniform_vec(n, -2.0f, 2.0f);
      std::vector<float> got = x, want = x;
      fwht(got.data(), n, block);
      fwht_ref(want.data(), n, block);
      INFO("block " << block << " n " << n);
      // Entries grow to ~sqrt(block): compare relative to the row's scale.
      CHECK(max_scaled_diff(got, want, 1, n) < kTol);

      std::vector<float> proj(n), proj_ref(n);
      const float scale = 1.0f / std::sqrt(static_cast<float>(block));
      hadamard_project(proj.data(), x.data(), diag.data(), scale, n, block);
      hadamard_project_ref(proj_ref.data(), x.data(), diag.data(), scale, n, block);
      CHECK(max_scaled_diff(proj, proj_ref, 1, n) < kTol);

      // In place, without a diagonal: the plain normalized transform.
      std::vector<float> in_place = x;
      hadamard_project(in_place.data(), in_place.data(), nullptr, scale, n, block);
      std::vector<float> expected = x;
      fwht_ref(expected.data(), n, block);
      for (float& v : expected) v *= scale;
      CHECK(max_scaled_diff(in_place, expected, 1, n) < kTol);
    }
  }
}

TEST_CASE("the normalized Hadamard transform is orthogonal and its own inverse", "[model][vec]") {
  Rng rng(12);
  for (int n : {4, 64, 256, 1024}) {
    const std::vector<float> x = rng.uniform_vec(n, -1.0f, 1.0f);
    const float scale = 1.0f / std::sqrt(static_cast<float>(n));
    std::vector<float> y(n), back(n);
    hadamard_project(y.data(), x.data(), nullptr, scale, n, n);
    INFO("n " << n << ": ||Hx|| / sqrt(n) = " << l2(y) << ", ||x|| = " << l2(x));
    CHECK(l2(y) == Approx(l2(x)).epsilon(1e-5));
    hadamard_project(back.data(), y.data(), nullptr, scale, n, n);
    CHECK(max_scaled_diff(back, x, 1, n) < kTol);
  }
  // H e_0 is the all-ones vector: the first row and column of H are 1.
  std::vector<float> e0(8, 0.0f);
  e0[0] = 1.0f;
  fwht(e0.data(), 8, 8);
  for (float v : e0) CHECK(v == 1.0f);
}

TEST_CASE("elementwise primitives match their references on every tail length", "[model][vec]") {
  Rng rng(13);
  for (int n : sweep_sizes()) {
    INFO("n " << n);
    const std::vector<float> a = rng.uniform_vec(n, -3.0f, 3.0f);
    const std::vector<float> b = rng.uniform_vec(n, -3.0f, 3.0f);
    const std::vector<float> c = rng.uniform_vec(n, -3.0f, 3.0f);

    std::vector<float> got(n), want(n), got2(n), want2(n);
    mul(got.data(), a.data(), b.data(), 0.5f, n);
    mul_ref(want.data(), a.data(), b.data(), 0.5f, n);
    CHECK(max_scaled_diff(got, want, 1, n) < kTol);

    mul_add(got.data(), got2.data(), a.data(), b.data(), c.data(), n);
    mul_add_ref(want.data(), want2.data(), a.data(), b.data(), c.data(), n);
    CHECK(max_scaled_diff(got, want, 1, n) < kTol);
    CHECK(max_scaled_diff(got2, want2, 1, n) < kTol);

    scale(got.data(), a.data(), -1.5f, n);
    scale_ref(want.data(), a.data(), -1.5f, n);
    CHECK(max_scaled_diff(got, want, 1, n) < kTol);

    got = c;
    want = c;
    mul_acc(got.data(), a.data(), b.data(), n);
    mul_acc_ref(want.data(), a.data(), b.data(), n);
    CHECK(max_scaled_diff(got, want, 1, n) < kTol);

    got = c;
    want = c;
    axpy(got.data(), 0.25f, a.data(), n);
    axpy_ref(want.data(), 0.25f, a.data(), n);
    CHECK(max_scaled_diff(got, want, 1, n) < kTol);

    add(got.data(), a.data(), b.data(), n);
    add_ref(want.data(), a.data(), b.data(), n);
    CHECK(max_scaled_diff(got, want, 1, n) < kTol);

    CHECK(dot(a.data(), b.data(), n) == Approx(dot_ref(a.data(), b.data(), n)).margin(1e-5 * n));
    CHECK(sum_squares(a.data(), n) == Approx(sum_squares_ref(a.data(), n)).epsilon(1e-5));

    silu_forward(got.data(), a.data(), n);
    silu_forward_ref(want.data(), a.data(), n);
    CHECK(max_scaled_diff(got, want, 1, n) < kTol);

    mul_silu_forward(got2.data(), got.data(), a.data(), b.data(), n);
    mul_silu_forward_ref(want2.data(), want.data(), a.data(), b.data(), n);
    CHECK(max_scaled_diff(got2, want2, 1, n) < kTol);
    CHECK(max_scaled_diff(got, want, 1, n) < kTol);

    silu_backward(got.data(), c.data(), a.data(), n);
    silu_backward_ref(want.data(), c.data(), a.data(), n);
    CHECK(max_scaled_diff(got, want, 1, n) < kTol);
  }
}

TEST_CASE("silu: values, its exp's range limits, and the derivative", "[model][vec]") {
  // silu(0) = 0, silu(x) -> x for large x, -> 0 for very negative x, and
  // never NaN for huge inputs (the exponent is clamped).
  const float x[6] = {0.0f, 1.0f, -1.0f, 20.0f, -1e30f, 1e30f};
  float y[6];
  silu_forward(y, x, 6);
  CHECK(y[0] == 0.0f);
  CHECK(y[1] == Approx(1.0 / (1.0 + std::exp(-1.0))).epsilon(1e-6));
  CHECK(y[2] == Approx(-1.0 / (1.0 + std::exp(1.0))).epsilon(1e-6));
  CHECK(y[3] == Approx(20.0).epsilon(1e-6));
  CHECK(std::fabs(y[4]) < 1e-6f);
  CHECK(y[5] == 1e30f);

  // The derivative against a central difference of the reference.
  Rng rng(14);
  const std::vector<float> in = rng.uniform_vec(40, -6.0f, 6.0f);
  std::vector<float> ones(40, 1.0f), slope(40);
  silu_backward(slope.data(), ones.data(), in.data(), 40);
  for (int i = 0; i < 40; i++) {
    const double h = 1e-3;
    auto f = [](double v) { return v / (1.0 + std::exp(-v)); };
    const double numeric = (f(in[i] + h) - f(in[i] - h)) / (2 * h);
    CHECK(slope[i] == Approx(numeric).margin(1e-5));
  }
}

TEST_CASE("segment and rotation primitives match their references", "[model][vec]") {
  Rng rng(15);
  // 1030: segments past the sums' 1024-float blocks, with a tail.
  for (int seg : {2, 4, 8, 16, 64, 1030}) {
    for (int n_seg : {1, 3, 16}) {
      const int n = seg * n_seg;
      INFO("seg " << seg << " segments " << n_seg);
      const std::vector<float> a = rng.uniform_vec(n, -1.0f, 1.0f);
      std::vector<std::vector<float>> b(4);
      for (auto& v : b) v = rng.uniform_vec(n, -1.0f, 1.0f);
      const std::vector<float> alpha = rng.uniform_vec(4 * n_seg, -1.0f, 1.0f);

      std::vector<float> got(4 * n_seg), want(4 * n_seg);
      segment_dots(got.data(), a.data(), b[0].data(), n, seg);
      segment_dots_ref(want.data(), a.data(), b[0].data(), n, seg);
      CHECK(max_scaled_diff(got.data(), want.data(), 1, n_seg) < kTol);

      const float* const b4[4] = {b[0].data(), b[1].data(), b[2].data(), b[3].data()};
      segment_dots4(got.data(), a.data(), b4, n, seg);
      segment_dots4_ref(want.data(), a.data(), b4, n, seg);
      CHECK(max_scaled_diff(got, want, 1, 4 * n_seg) < kTol);
      // The reference of four is four references of one.
      for (int k = 0; k < 4; k++) {
        std::vector<float> one(n_seg);
        segment_dots_ref(one.data(), a.data(), b4[k], n, seg);
        CHECK(max_scaled_diff(one.data(), want.data() + k * n_seg, 1, n_seg) == 0.0);
      }

      std::vector<float> y = a, y_ref = a;
      segment_axpy(y.data(), alpha.data(), b[0].data(), n, seg);
      segment_axpy_ref(y_ref.data(), alpha.data(), b[0].data(), n, seg);
      CHECK(max_scaled_diff(y, y_ref, 1, n) < kTol);

      y = a;
      y_ref = a;
      segment_axpy4(y.data(), alpha.data(), b4, n, seg);
      segment_axpy4_ref(y_ref.data(), alpha.data(), b4, n, seg);
      CHECK(max_scaled_diff(y, y_ref, 1, n) < kTol);

      // Rotations by seg/2 angles: against the reference, and the inverse
      // (direction -1) undoes the forward.
      const int half = seg / 2;
      std::vector<float> angle_cos(half), angle_sin(half);
      for (int j = 0; j < half; j++) {
        angle_cos[j] = std::cos(0.3f * (j + 1));
        angle_sin[j] = std::sin(0.3f * (j + 1));
      }
      std::vector<float> r(n), r_ref(n);
      mul_rotate_segments(r.data(), a.data(), b[1].data(), angle_cos.data(), angle_sin.data(), n,
                          seg);
      mul_rotate_segments_ref(r_ref.data(), a.data(), b[1].data(), angle_cos.data(),
                              angle_sin.data(), n, seg);
      CHECK(max_scaled_diff(r, r_ref, 1, n) < kTol);
      std::vector<float> ab(n);
      mul_ref(ab.data(), a.data(), b[1].data(), 1.0f, n);
      for (int o = 0; o < n; o += seg) {
        rotate_pairs(r.data() + o, r.data() + o + half, angle_cos.data(), angle_sin.data(), -1.0f,
                     half);
      }
      CHECK(max_scaled_diff(r, ab, 1, n) < kTol);
    }
  }
  for (int n : sweep_sizes()) {
    const std::vector<float> lo = rng.uniform_vec(n, -1.0f, 1.0f);
    const std::vector<float> hi = rng.uniform_vec(n, -1.0f, 1.0f);
    const std::vector<float> angle = rng.uniform_vec(n, -3.0f, 3.0f);
    std::vector<float> c(n), s(n);
    for (int i = 0; i < n; i++) {
      c[i] = std::cos(angle[i]);
      s[i] = std::sin(angle[i]);
    }
    std::vector<float> lo1 = lo, hi1 = hi, lo2 = lo, hi2 = hi;
    rotate_pairs(lo1.data(), hi1.data(), c.data(), s.data(), 1.0f, n);
    rotate_pairs_ref(lo2.data(), hi2.data(), c.data(), s.data(), 1.0f, n);
    INFO("n " << n);
    CHECK(max_scaled_diff(lo1, lo2, 1, n) < kTol);
    CHECK(max_scaled_diff(hi1, hi2, 1, n) < kTol);
  }
}
