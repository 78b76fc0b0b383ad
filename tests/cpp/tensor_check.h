// Helpers shared by the kernel tests: deterministic inputs, and comparison
// of a kernel's output with the reference's, reported as one number (the
// max difference), as llm.c's check_tensor does.
//
// T = rows, D = row length
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace normlab::test {

// SplitMix64: the same inputs natively and under wasm (the std::
// distributions differ between libstdc++ and libc++).
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}

  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }

  // Uniform in [lo, hi), from 24 random bits.
  float uniform(float lo, float hi) {
    const double u = static_cast<double>(next() >> 40) * 0x1.0p-24;
    return static_cast<float>(lo + (static_cast<double>(hi) - lo) * u);
  }

  std::vector<float> uniform_vec(std::size_t n, float lo, float hi) {
    std::vector<float> v(n);
    for (float& x : v) x = uniform(lo, hi);
    return v;
  }

 private:
  std::uint64_t state_;
};

// Worst difference between got and want, both (T, D), each row's
// differences divided by that row's scale = max |want| over its finite
// entries (1 for an all-zero row). A NaN must meet a NaN and an infinity the
// same infinity; otherwise the difference is +inf. Float or double either
// side.
template <class G, class W>
double max_scaled_diff(const G* got, const W* want, int T, int D) {
  double worst = 0.0;
  for (int t = 0; t < T; ++t) {
    const G* g_t = got + static_cast<std::size_t>(t) * D;   // g_t: (D)
    const W* w_t = want + static_cast<std::size_t>(t) * D;  // w_t: (D)
    double scale = 0.0;
    for (int i = 0; i < D; ++i) {
      if (std::isfinite(w_t[i])) scale = std::max(scale, std::fabs(static_cast<double>(w_t[i])));
    }
    if (scale == 0.0) scale = 1.0;
    for (int i = 0; i < D; ++i) {
      const double g = g_t[i], w = w_t[i];
      double d;
      if (std::isnan(w) || std::isnan(g)) {
        d = std::isnan(w) && std::isnan(g) ? 0.0 : INFINITY;
      } else if (std::isinf(w) || std::isinf(g)) {
        d = w == g ? 0.0 : INFINITY;
      } else {
        d = std::fabs(g - w) / scale;
      }
      worst = std::max(worst, d);
    }
  }
  return worst;
}

template <class G, class W>
double max_scaled_diff(const std::vector<G>& got, const std::vector<W>& want, int T, int D) {
  return max_scaled_diff(got.data(), want.data(), T, D);
}

// Relative difference of two per-row scalars (rstd, mean, a statistic),
// with the same NaN/inf rules.
inline double rel_diff(double got, double want) {
  if (std::isnan(want) || std::isnan(got))
    return std::isnan(want) && std::isnan(got) ? 0.0 : INFINITY;
  if (std::isinf(want) || std::isinf(got)) return want == got ? 0.0 : INFINITY;
  const double scale = std::fabs(want) > 0.0 ? std::fabs(want) : 1.0;
  return std::fabs(got - want) / scale;
}

// Worst rel_diff over two (n) vectors.
inline double max_rel_diff(const float* got, const float* want, std::size_t n) {
  double worst = 0.0;
  for (std::size_t i = 0; i < n; ++i) worst = std::max(worst, rel_diff(got[i], want[i]));
  return worst;
}

// Every size the sweeps test: 1..70 covers every tail length for all SIMD
// widths (W <= 16) with and without the 4W-unrolled main loop; 1023..1025
// are a typical hidden size and its neighbours.
inline std::vector<int> sweep_sizes() {
  std::vector<int> sizes;
  for (int d = 1; d <= 70; ++d) sizes.push_back(d);
  for (int d = 1023; d <= 1025; ++d) sizes.push_back(d);
  return sizes;
}

// Each sweep runs this many rows per size, at different magnitudes.
inline constexpr int kSweepRows = 3;

// Inputs for a sweep: row t is uniform in [-1, 1) scaled by 1, 100 and
// 0.01 in turn, so the tails meet very different sums.
inline std::vector<float> sweep_input(Rng& rng, int T, int D) {
  static constexpr float kScales[] = {1.0f, 100.0f, 0.01f};
  std::vector<float> x(static_cast<std::size_t>(T) * D);
  for (int t = 0; t < T; ++t) {
    for (int i = 0; i < D; ++i)
      x[static_cast<std::size_t>(t) * D + i] = kScales[t % 3] * rng.uniform(-1.0f, 1.0f);
  }
  return x;
}

// The accuracy the spec asks for: 1e-5 of the output's scale.
inline constexpr double kTol = 1e-5;

}  // namespace normlab::test
