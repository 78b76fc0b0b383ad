// libFuzzer target for every kernel of kernels.h: the fuzz input becomes T
// rows of D floats of any bit pattern (NaN, +-inf, subnormals, 3e38), eps,
// temperature and the optional gain/bias; each forward and backward kernel
// and both statistics run on it and are held to the contract of
// reference.h and the numerics notes of the kernel headers:
//   - rows are isolated: running the T rows together gives, bit for bit,
//     what running each row alone gives (a NaN row cannot leak);
//   - on rows that hold NaN or +-inf, the reference's special cases hold
//     exactly: NaN where it gives NaN, the same infinity where it gives one
//     (where finite inputs overflow, the exact result is not a finite float
//     and nothing is promised but that it is not finite either);
//   - where the reference is finite, the kernel is finite and within 1e-5
//     of the row's scale, max |reference| over the row. Where that scale
//     is not what float arithmetic can be held to, each check says which
//     scale it uses: the size of the terms a result is computed from
//     (backward passes, whose dx = r (u - xhat c) cancels; LayerNorm's
//     y = xhat g + b; sums such as the mean), beyond FLT_MAX for none
//     (nothing is held there), plus the underflow allowance below. The
//     variance gets the spec's two-pass float32 allowance on rows whose
//     mean dwarfs their spread.
// Gain and bias entries that are not finite only get the crash, isolation
// and finiteness checks: the reference's special cases are defined for x.
//
// T = rows, D = row length
//
// Input layout (missing bytes read as 0):
//   byte  0      T - 1 (mod kMaxRows)
//   bytes 1, 2   D - 1 (mod kMaxDim), little-endian
//   byte  3      bit 0 gain, bit 1 bias, bit 2 dgain/dbias accumulators
//   byte  4      eps choice (kEpsChoices), the last one reads bytes 5..8
//   bytes 5..8   raw eps bits (|eps| used; not finite -> 0)
//   byte  9      temperature choice, the last one reads bytes 10..13
//   bytes 10..13 raw temperature bits (|t| used; 0 or not finite -> 1)
//   bytes 14, 15 exponent shifts (int8) of x and dy: the same few bit
//                patterns then meet each other at any relative magnitude
//   bytes 16..   a pool of float bit patterns, little-endian. x, dy, gain
//                and bias are filled from it in turn, cyclically, so a short
//                input still fills every size.
#include "normlab/kernels.h"
#include "normlab/reference.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

using namespace normlab;

namespace {

// D up to 2100 crosses the 1024-float blocks of the sums twice; T up to 8
// gives rows on both sides of a bad one.
constexpr int kMaxRows = 8;
constexpr int kMaxDim = 2100;
constexpr std::size_t kHeaderBytes = 16;

constexpr double kTol = 1e-5;
// Underflow. Below FLT_MIN * 2^-7 float32 itself has no 1e-5 relative
// resolution: every bound gets a few subnormal steps. And each float product
// or term that falls below FLT_MIN is off by up to half a step, 2^-150,
// which the kernels do not promise to avoid (only the forward's squares
// and the statistics' sums send such rows to the reference): a result built
// from n of them, then multiplied by f, gets n * f * 2^-150 more (the
// backward's gradients g * dy, distribution_stats' p log p).
constexpr double kSubnormalStep = 0x1.0p-149;
constexpr double kSubnormalSlack = 4 * kSubnormalStep;
// Error allowance, relative to mean |x|, of a float32 mean computed with the
// kernels' blocked sums (at most 1024 / 4W float additions per lane before a
// double reduction, 64 for W = 4, plus the lane reduction): 128 ulps.
constexpr double kFloatMeanError = 128.0 * 0x1.0p-24;

const float kEpsChoices[] = {0.0f, 1e-6f, 1e-5f, 1.0f, FLT_MIN, 0x1.0p-149f, FLT_MAX};
const float kTemperatureChoices[] = {1.0f, 0.5f, 2.0f, 1e-3f, 0x1.0p-149f, 1e36f, 2e36f, FLT_MAX};

struct Reader {
  const std::uint8_t* data;
  std::size_t size;
  std::uint8_t byte(std::size_t i) const { return i < size ? data[i] : 0; }
  float bits_at(std::size_t i) const {
    std::uint32_t u = 0;
    for (int k = 0; k < 4; ++k) u |= static_cast<std::uint32_t>(byte(i + k)) << (8 * k);
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
  }
};

struct Case {
  int T = 1, D = 1;
  bool has_gain = false, has_bias = false, accumulate = false;
  float eps = 0.0f, temperature = 1.0f;
  std::vector<float> x, dy, gain, bias;  // x, dy: (T, D); gain, bias: (D)
};

template <std::size_t N>
float choose(const float (&choices)[N], std::uint8_t selector, float raw, float fallback) {
  if (selector % (N + 1) < N) return choices[selector % (N + 1)];
  const float a = std::fabs(raw);
  return std::isfinite(a) && a > 0.0f ? a : fallback;
}

Case decode(const std::uint8_t* data, std::size_t size) {
  const Reader in{data, size};
  Case c;
  c.T = 1 + in.byte(0) % kMaxRows;
  c.D = 1 + (in.byte(1) | in.byte(2) << 8) % kMaxDim;
  c.has_gain = in.byte(3) & 1;
  c.has_bias = in.byte(3) & 2;
  c.accumulate = in.byte(3) & 4;
  c.eps = choose(kEpsChoices, in.byte(4), in.bits_at(5), 0.0f);
  c.temperature = choose(kTemperatureChoices, in.byte(9), in.bits_at(10), 1.0f);
  std::vector<float> pool;
  for (std::size_t i = kHeaderBytes; i + 4 <= size; i += 4) pool.push_back(in.bits_at(i));
  if (pool.empty()) pool.push_back(0.0f);
  std::size_t next = 0;
  const auto fill = [&](std::vector<float>& v, std::size_t n, int shift) {
    v.resize(n);
    for (float& f : v) f = std::ldexp(pool[next++ % pool.size()], shift);
  };
  const std::size_t n = static_cast<std::size_t>(c.T) * c.D;
  fill(c.x, n, static_cast<std::int8_t>(in.byte(14)));
  fill(c.dy, n, static_cast<std::int8_t>(in.byte(15)));
  if (c.has_gain) fill(c.gain, c.D, 0);
  if (c.has_bias) fill(c.bias, c.D, 0);
  return c;
}

[[noreturn]] void fail(const char* op, const char* what, int t, int i, double got, double want,
                       double bound) {
  std::fprintf(stderr,
               "%s: %s at row %d, index %d: got %.9g, want %.9g (allowed difference %.3g)\n", op,
               what, t, i, got, want, bound);
  std::abort();
}

bool same_special(double got, double want) {
  return std::isnan(want) ? std::isnan(got) : got == want;  // want = +-inf
}

// One value against the reference: the special cases exactly (when
// `specials`), a finite reference within `bound`. An infinite bound means
// the value is beyond float's range (see check_row_scaled): nothing to hold.
void check_value(const char* op, int t, int i, double got, double want, double bound,
                 bool specials) {
  bound += kSubnormalSlack;
  if (std::isfinite(want)) {
    if (std::isinf(bound)) return;
    if (!std::isfinite(got)) fail(op, "not finite where the reference is", t, i, got, want, bound);
    if (!(std::fabs(got - want) <= bound)) fail(op, "beyond tolerance", t, i, got, want, bound);
  } else if (specials && !same_special(got, want)) {
    fail(op, "special case differs from the reference", t, i, got, want, bound);
  }
}

// Row t of got against the reference, within kTol of the row's scale,
// max |want_i| over its finite entries (1 for a zero row), + underflow.
void check_row(const char* op, int t, const float* got, const float* want, int D, double underflow,
               bool specials) {
  double scale = 0.0;
  for (int i = 0; i < D; ++i) {
    if (std::isfinite(want[i])) scale = std::max(scale, std::fabs(static_cast<double>(want[i])));
  }
  if (scale == 0.0) scale = 1.0;
  for (int i = 0; i < D; ++i)
    check_value(op, t, i, got[i], want[i], kTol * scale + underflow, specials);
}

// As check_row, within kTol * scale + underflow.
void check_row_scaled(const char* op, int t, const float* got, const float* want, int D,
                      double scale, double underflow, bool specials) {
  // Terms beyond FLT_MAX (a gradient of 1e29 times rstd 1e19) make any
  // float evaluation overflow: a finite result there is cancellation's luck.
  const double bound = scale <= FLT_MAX ? kTol * scale + underflow : INFINITY;
  for (int i = 0; i < D; ++i) check_value(op, t, i, got[i], want[i], bound, specials);
}

void check_identical(const char* op, const float* batched, const float* alone, std::size_t n,
                     int t) {
  if (std::memcmp(batched, alone, n * sizeof(float)) != 0) {
    fail(op, "row computed with the others differs from the row computed alone", t, -1, 0, 0, 0);
  }
}

bool all_finite(const float* v, std::size_t n) {
  return std::all_of(v, v + n, [](float f) { return std::isfinite(f); });
}
bool all_finite(const std::vector<float>& v) { return all_finite(v.data(), v.size()); }

// max |v_i|; 1 for an absent (empty) gain.
double max_abs(const std::vector<float>& v) {
  double m = v.empty() ? 1.0 : 0.0;
  for (const float f : v) m = std::max(m, std::fabs(static_cast<double>(f)));
  return m;
}

double at(const std::vector<float>& v, int i) {
  return v.empty() ? 1.0 : static_cast<double>(v[i]);
}

void check_rmsnorm(const Case& c) {
  const int T = c.T, D = c.D;
  const std::size_t n = static_cast<std::size_t>(T) * D;
  const float* g = c.has_gain ? c.gain.data() : nullptr;
  const bool finite_gain = all_finite(c.gain);
  // Underflow: x * r before the gain.
  const double gain_underflow = max_abs(c.gain) * kSubnormalStep;
  std::vector<float> y(n), rstd(T), y_ref(n), rstd_ref(T);
  rmsnorm_forward(y.data(), rstd.data(), c.x.data(), g, T, D, c.eps);
  rmsnorm_forward_ref(y_ref.data(), rstd_ref.data(), c.x.data(), g, T, D, c.eps);
  for (int t = 0; t < T; ++t) {
    const std::size_t row = static_cast<std::size_t>(t) * D;
    float y_t[kMaxDim], rstd_t;
    rmsnorm_forward(y_t, &rstd_t, c.x.data() + row, g, 1, D, c.eps);
    check_identical("rmsnorm_forward", y.data() + row, y_t, D, t);
    check_identical("rmsnorm_forward rstd", rstd.data() + t, &rstd_t, 1, t);
    const bool specials = finite_gain && !all_finite(c.x.data() + row, D);
    check_row("rmsnorm_forward", t, y.data() + row, y_ref.data() + row, D, gain_underflow,
              specials);
    check_value("rmsnorm_forward rstd", t, -1, rstd[t], rstd_ref[t], kTol * std::fabs(rstd_ref[t]),
                specials);
  }

  // Backward from the kernel's own cache, against the reference given the
  // same cache. dx_j = r (u_j - xhat_j c), c = mean(u * xhat): the error
  // scale is r (max |u| + max |xhat| mean |u xhat|), the size of the terms.
  std::vector<float> dx(n), dx_ref(n), dg(D, 0.0f), dg_ref(D, 0.0f);
  float* dg_p = c.accumulate ? dg.data() : nullptr;
  float* dg_ref_p = c.accumulate ? dg_ref.data() : nullptr;
  rmsnorm_backward(dx.data(), dg_p, c.dy.data(), c.x.data(), g, rstd.data(), T, D);
  rmsnorm_backward_ref(dx_ref.data(), dg_ref_p, c.dy.data(), c.x.data(), g, rstd.data(), T, D);
  std::vector<double> dg_scale(D, 0.0);
  double accumulated_underflow = 0.0;
  for (int t = 0; t < T; ++t) {
    const std::size_t row = static_cast<std::size_t>(t) * D;
    float dx_t[kMaxDim];
    rmsnorm_backward(dx_t, nullptr, c.dy.data() + row, c.x.data() + row, g, rstd.data() + t, 1, D);
    check_identical("rmsnorm_backward", dx.data() + row, dx_t, D, t);
    const double r = rstd[t];
    double max_u = 0.0, max_dy = 0.0, max_xhat = 0.0, sum_abs_uxhat = 0.0;
    for (int i = 0; i < D; ++i) {
      const double u = at(c.gain, i) * c.dy[row + i];
      const double xhat = c.x[row + i] * r;
      max_u = std::max(max_u, std::fabs(u));
      max_dy = std::max(max_dy, std::fabs(static_cast<double>(c.dy[row + i])));
      max_xhat = std::max(max_xhat, std::fabs(xhat));
      sum_abs_uxhat += std::fabs(u * xhat);
      dg_scale[i] += std::fabs(c.dy[row + i] * xhat);
    }
    // Underflow: xhat, u and u * xhat, then their mean c, times r, xhat,
    // c or u (dgain: xhat times dy).
    const double scale = r * (max_u + max_xhat * sum_abs_uxhat / D);
    const double underflow =
        r * (1.0 + max_u + max_xhat + sum_abs_uxhat / D) * (1.0 + max_xhat) * kSubnormalStep;
    accumulated_underflow += (1.0 + max_dy) * kSubnormalStep;
    const bool specials = finite_gain && !(all_finite(c.x.data() + row, D) &&
                                           all_finite(c.dy.data() + row, D) && std::isfinite(r));
    check_row_scaled("rmsnorm_backward", t, dx.data() + row, dx_ref.data() + row, D, scale,
                     underflow, specials);
  }
  if (c.accumulate) {
    for (int i = 0; i < D; ++i) {
      check_value("rmsnorm_backward dgain", -1, i, dg[i], dg_ref[i],
                  kTol * dg_scale[i] + accumulated_underflow, false);
    }
  }
}

void check_layernorm(const Case& c) {
  const int T = c.T, D = c.D;
  const std::size_t n = static_cast<std::size_t>(T) * D;
  const float* g = c.has_gain ? c.gain.data() : nullptr;
  const float* b = c.has_bias ? c.bias.data() : nullptr;
  const bool finite_params = all_finite(c.gain) && all_finite(c.bias);
  // Underflow: (x - mean) * r before the gain.
  const double gain_underflow = max_abs(c.gain) * kSubnormalStep;
  std::vector<float> y(n), mean(T), rstd(T), y_ref(n), mean_ref(T), rstd_ref(T);
  layernorm_forward(y.data(), mean.data(), rstd.data(), c.x.data(), g, b, T, D, c.eps);
  layernorm_forward_ref(y_ref.data(), mean_ref.data(), rstd_ref.data(), c.x.data(), g, b, T, D,
                        c.eps);
  for (int t = 0; t < T; ++t) {
    const std::size_t row = static_cast<std::size_t>(t) * D;
    float y_t[kMaxDim], mean_t, rstd_t;
    layernorm_forward(y_t, &mean_t, &rstd_t, c.x.data() + row, g, b, 1, D, c.eps);
    check_identical("layernorm_forward", y.data() + row, y_t, D, t);
    check_identical("layernorm_forward mean", mean.data() + t, &mean_t, 1, t);
    check_identical("layernorm_forward rstd", rstd.data() + t, &rstd_t, 1, t);
    const bool specials = finite_params && !all_finite(c.x.data() + row, D);
    // Two allowances beyond 1e-5 of max |y|. y = xhat g + b cancels where
    // b ~ -xhat g, and float cannot do better than its terms: the row's
    // scale is max (|y - b| + |b|), which is max |y| wherever nothing
    // cancels. And centering in float makes each xhat exact to ~2^-24 of
    // the row's largest |xhat|, whatever its own size: element i may be
    // off by 1e-5 of |g_i| max |xhat|, which is more than the row's scale
    // only for gains spanning many orders of magnitude. Terms beyond FLT_MAX
    // (a gain of 3e38 against a bias of -2e38) hold nothing, as in
    // check_row_scaled.
    double scale = 0.0, max_xhat = 0.0;
    for (int i = 0; i < D; ++i) {
      const double y_i = y_ref[row + i], b_i = c.has_bias ? c.bias[i] : 0.0;
      if (std::isfinite(y_i) && std::isfinite(b_i))
        scale = std::max(scale, std::fabs(y_i - b_i) + std::fabs(b_i));
      max_xhat = std::max(
          max_xhat, std::fabs((c.x[row + i] - static_cast<double>(mean_ref[t])) * rstd_ref[t]));
    }
    if (scale == 0.0) scale = 1.0;
    for (int i = 0; i < D; ++i) {
      const double own = std::isfinite(max_xhat) ? std::fabs(at(c.gain, i)) * max_xhat : 0.0;
      const double terms = std::max(scale, own);
      const double bound = terms <= FLT_MAX ? kTol * terms + gain_underflow : INFINITY;
      check_value("layernorm_forward", t, i, y[row + i], y_ref[row + i], bound, specials);
    }
    check_value("layernorm_forward rstd", t, -1, rstd[t], rstd_ref[t],
                kTol * std::fabs(rstd_ref[t]), specials);
    // The mean in units of the row's spread, as the output sees it.
    check_value("layernorm_forward mean", t, -1, mean[t], mean_ref[t], kTol / rstd_ref[t],
                specials);
  }

  // dx_j = r (u_j - mean(u) - xhat_j mean(u xhat)): error scale
  // r (max |u| + mean |u| + max |xhat| mean |u xhat|).
  std::vector<float> dx(n), dx_ref(n), dg(D, 0.0f), dg_ref(D, 0.0f), db(D, 0.0f), db_ref(D, 0.0f);
  float* dg_p = c.accumulate ? dg.data() : nullptr;
  float* db_p = c.accumulate ? db.data() : nullptr;
  float* dg_ref_p = c.accumulate ? dg_ref.data() : nullptr;
  float* db_ref_p = c.accumulate ? db_ref.data() : nullptr;
  layernorm_backward(dx.data(), dg_p, db_p, c.dy.data(), c.x.data(), g, mean.data(), rstd.data(), T,
                     D);
  layernorm_backward_ref(dx_ref.data(), dg_ref_p, db_ref_p, c.dy.data(), c.x.data(), g, mean.data(),
                         rstd.data(), T, D);
  std::vector<double> dg_scale(D, 0.0), db_scale(D, 0.0);
  double accumulated_underflow = 0.0;
  for (int t = 0; t < T; ++t) {
    const std::size_t row = static_cast<std::size_t>(t) * D;
    float dx_t[kMaxDim];
    layernorm_backward(dx_t, nullptr, nullptr, c.dy.data() + row, c.x.data() + row, g,
                       mean.data() + t, rstd.data() + t, 1, D);
    check_identical("layernorm_backward", dx.data() + row, dx_t, D, t);
    const double r = rstd[t], mu = mean[t];
    double max_u = 0.0, max_dy = 0.0, sum_abs_u = 0.0, max_xhat = 0.0, sum_abs_uxhat = 0.0;
    for (int i = 0; i < D; ++i) {
      const double u = at(c.gain, i) * c.dy[row + i];
      const double xhat = (c.x[row + i] - mu) * r;
      max_u = std::max(max_u, std::fabs(u));
      max_dy = std::max(max_dy, std::fabs(static_cast<double>(c.dy[row + i])));
      sum_abs_u += std::fabs(u);
      max_xhat = std::max(max_xhat, std::fabs(xhat));
      sum_abs_uxhat += std::fabs(u * xhat);
      dg_scale[i] += std::fabs(c.dy[row + i] * xhat);
      db_scale[i] += std::fabs(static_cast<double>(c.dy[row + i]));
    }
    const double scale = r * (max_u + sum_abs_u / D + max_xhat * sum_abs_uxhat / D);
    const double underflow =
        r * (2.0 + max_u + max_xhat + sum_abs_uxhat / D) * (1.0 + max_xhat) * kSubnormalStep;
    accumulated_underflow += (1.0 + max_dy) * kSubnormalStep;
    const bool specials =
        finite_params && !(all_finite(c.x.data() + row, D) && all_finite(c.dy.data() + row, D) &&
                           std::isfinite(r) && std::isfinite(mu));
    check_row_scaled("layernorm_backward", t, dx.data() + row, dx_ref.data() + row, D, scale,
                     underflow, specials);
  }
  if (c.accumulate) {
    for (int i = 0; i < D; ++i) {
      const double dg_bound = kTol * dg_scale[i] + accumulated_underflow;
      const double db_bound = kTol * db_scale[i] + accumulated_underflow;
      check_value("layernorm_backward dgain", -1, i, dg[i], dg_ref[i], dg_bound, false);
      check_value("layernorm_backward dbias", -1, i, db[i], db_ref[i], db_bound, false);
    }
  }
}

// Returns the forward output p, which the distribution statistics use.
std::vector<float> check_softmax(const Case& c) {
  const int T = c.T, D = c.D;
  const std::size_t n = static_cast<std::size_t>(T) * D;
  std::vector<float> p(n), p_ref(n);
  softmax_forward(p.data(), c.x.data(), T, D, c.temperature);
  softmax_forward_ref(p_ref.data(), c.x.data(), T, D, c.temperature);
  for (int t = 0; t < T; ++t) {
    const std::size_t row = static_cast<std::size_t>(t) * D;
    float p_t[kMaxDim];
    softmax_forward(p_t, c.x.data() + row, 1, D, c.temperature);
    check_identical("softmax_forward", p.data() + row, p_t, D, t);
    check_row("softmax_forward", t, p.data() + row, p_ref.data() + row, D, 0.0,
              !all_finite(c.x.data() + row, D));
  }

  // dx_j = p_j (dy_j - dot(p, dy)) / temperature, from the kernel's p:
  // error scale max p (max |dy| + sum |p dy|) / temperature.
  std::vector<float> dx(n), dx_ref(n);
  softmax_backward(dx.data(), c.dy.data(), p.data(), T, D, c.temperature);
  softmax_backward_ref(dx_ref.data(), c.dy.data(), p.data(), T, D, c.temperature);
  for (int t = 0; t < T; ++t) {
    const std::size_t row = static_cast<std::size_t>(t) * D;
    float dx_t[kMaxDim];
    softmax_backward(dx_t, c.dy.data() + row, p.data() + row, 1, D, c.temperature);
    check_identical("softmax_backward", dx.data() + row, dx_t, D, t);
    double max_p = 0.0, max_dy = 0.0, sum_abs_pdy = 0.0;
    for (int i = 0; i < D; ++i) {
      const double p_i = p[row + i], dy_i = c.dy[row + i];
      max_p = std::max(max_p, std::fabs(p_i));
      max_dy = std::max(max_dy, std::fabs(dy_i));
      sum_abs_pdy += std::fabs(p_i * dy_i);
    }
    // Underflow: p (dy - dot) (one term) and dot (D terms).
    const double scale = max_p * (max_dy + sum_abs_pdy) / c.temperature;
    const double underflow = (D + 1.0) * kSubnormalStep / c.temperature;
    const bool specials = !(all_finite(p.data() + row, D) && all_finite(c.dy.data() + row, D));
    check_row_scaled("softmax_backward", t, dx.data() + row, dx_ref.data() + row, D, scale,
                     underflow, specials);
  }
  return p;
}

// Each statistic within kTol of its own size, except the mean (of the size
// of mean |x|, which its float sum is exact to) and the variance and std
// (two-pass float32 allowance: the float mean's error, kFloatMeanError of
// mean |x|, enters the deviations squared).
void check_row_stats(const Case& c) {
  const int T = c.T, D = c.D;
  std::vector<RowStats> s(T), s_ref(T);
  row_stats(s.data(), c.x.data(), T, D);
  row_stats_ref(s_ref.data(), c.x.data(), T, D);
  for (int t = 0; t < T; ++t) {
    const std::size_t row = static_cast<std::size_t>(t) * D;
    RowStats s_t;
    row_stats(&s_t, c.x.data() + row, 1, D);
    if (std::memcmp(&s_t, &s[t], sizeof s_t) != 0) {
      fail("row_stats", "row computed with the others differs from the row computed alone", t, -1,
           0, 0, 0);
    }
    double mean_abs = 0.0;
    for (int i = 0; i < D; ++i) mean_abs += std::fabs(static_cast<double>(c.x[row + i]));
    mean_abs /= D;
    const RowStats& got = s[t];
    const RowStats& want = s_ref[t];
    const double spread = kFloatMeanError * mean_abs;
    const bool specials = !all_finite(c.x.data() + row, D);
    check_value("row_stats l2", t, -1, got.l2, want.l2, kTol * want.l2, specials);
    check_value("row_stats rms", t, -1, got.rms, want.rms, kTol * want.rms, specials);
    check_value("row_stats max_abs", t, -1, got.max_abs, want.max_abs, 0.0, specials);
    check_value("row_stats mean", t, -1, got.mean, want.mean, kTol * mean_abs, specials);
    check_value("row_stats variance", t, -1, got.variance, want.variance,
                kTol * want.variance + spread * spread, specials);
    check_value("row_stats std", t, -1, got.std, want.std, kTol * want.std + spread, specials);
  }
}

// On the softmax output (a distribution) and on the raw x (anything).
// Entropy within kTol of sum |p log p| (terms of both signs once p > 1);
// max_prob is exact.
void check_distribution_stats(const float* p, int T, int D, const char* what) {
  std::vector<float> h(T), m(T), h_ref(T), m_ref(T);
  distribution_stats(h.data(), m.data(), p, T, D);
  distribution_stats_ref(h_ref.data(), m_ref.data(), p, T, D);
  for (int t = 0; t < T; ++t) {
    const float* p_t = p + static_cast<std::size_t>(t) * D;
    float h_t, m_t;
    distribution_stats(&h_t, &m_t, p_t, 1, D);
    check_identical(what, h.data() + t, &h_t, 1, t);
    check_identical(what, m.data() + t, &m_t, 1, t);
    double terms = 0.0;
    for (int i = 0; i < D; ++i) {
      const double v = p_t[i];
      if (v != 0.0) terms += std::fabs(v * std::log(v));
    }
    const bool specials = !all_finite(p_t, D);
    check_value(what, t, -1, h[t], h_ref[t], kTol * terms + D * kSubnormalStep, specials);
    check_value(what, t, -1, m[t], m_ref[t], 0.0, specials);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const Case c = decode(data, size);
  check_rmsnorm(c);
  check_layernorm(c);
  const std::vector<float> p = check_softmax(c);
  check_row_stats(c);
  check_distribution_stats(p.data(), c.T, c.D, "distribution_stats of softmax");
  check_distribution_stats(c.x.data(), c.T, c.D, "distribution_stats of x");
  return 0;
}
