// Scalar double-precision reference of every normlab op (see reference.h for
// the semantics). Plain loops, one row at a time; each op is written once as
// a template over the storage type (float or double) and accumulates in
// double either way.
//
// T = rows (tokens), D = row length (hidden size / dim)
#include "normlab/reference.h"

#include <cassert>
#include <cmath>
#include <cstddef>
#include <limits>

namespace normlab {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// Optional gain/bias: nullptr means g = 1, b = 0.
template <class Real>
double gain_at(const Real* gain, int i) {
  return gain ? static_cast<double>(gain[i]) : 1.0;
}
template <class Real>
double bias_at(const Real* bias, int i) {
  return bias ? static_cast<double>(bias[i]) : 0.0;
}

// 1 / sqrt(v) for v = mean square + eps or variance + eps; 0 for v == 0,
// so an all-zero (rmsnorm) or constant (layernorm) row with eps = 0 gives
// y = 0 (resp. y = b) and a zero gradient instead of 0 * inf = NaN.
double inverse_sqrt_or_zero(double v) { return v == 0.0 ? 0.0 : 1.0 / std::sqrt(v); }

template <class Real>
void rmsnorm_forward_impl(Real* out, Real* rstd, const Real* inp, const Real* gain, int T, int D,
                          double eps) {
  assert(T >= 0 && D >= 1 && eps >= 0.0 && std::isfinite(eps));
  for (int t = 0; t < T; ++t) {
    const Real* x_t = inp + static_cast<std::size_t>(t) * D;  // x_t: (D)
    Real* y_t = out + static_cast<std::size_t>(t) * D;        // y_t: (D)
    double sum_sq = 0.0;
    for (int i = 0; i < D; ++i) {
      sum_sq += static_cast<double>(x_t[i]) * x_t[i];
    }
    const double r = inverse_sqrt_or_zero(sum_sq / D + eps);
    rstd[t] = static_cast<Real>(r);
    for (int i = 0; i < D; ++i) {
      y_t[i] = static_cast<Real>(x_t[i] * r * gain_at(gain, i));
    }
  }
}

// y = g * xhat, xhat = x * r, r = (mean(x^2) + eps)^(-1/2), dr/dx_j = -r^3 x_j / D
// dx_j = r u_j - (r^3 / D) x_j sum_i u_i x_i,  u = g * dy
//      = r (u_j - xhat_j mean(u * xhat))
// dg_j += dy_j xhat_j
template <class Real>
void rmsnorm_backward_impl(Real* dinp, Real* dgain, const Real* dout, const Real* inp,
                           const Real* gain, const Real* rstd, int T, int D) {
  assert(T >= 0 && D >= 1);
  for (int t = 0; t < T; ++t) {
    const Real* x_t = inp + static_cast<std::size_t>(t) * D;    // x_t: (D)
    const Real* dy_t = dout + static_cast<std::size_t>(t) * D;  // dy_t: (D)
    Real* dx_t = dinp + static_cast<std::size_t>(t) * D;        // dx_t: (D)
    const double r = rstd[t];
    double dot_u_xhat = 0.0;
    for (int i = 0; i < D; ++i) {
      dot_u_xhat += gain_at(gain, i) * dy_t[i] * (x_t[i] * r);
    }
    const double c = dot_u_xhat / D;
    for (int i = 0; i < D; ++i) {
      const double xhat = x_t[i] * r;
      dx_t[i] = static_cast<Real>(r * (gain_at(gain, i) * dy_t[i] - xhat * c));
      if (dgain) dgain[i] = static_cast<Real>(dgain[i] + dy_t[i] * xhat);
    }
  }
}

template <class Real>
void layernorm_forward_impl(Real* out, Real* mean, Real* rstd, const Real* inp, const Real* gain,
                            const Real* bias, int T, int D, double eps) {
  assert(T >= 0 && D >= 1 && eps >= 0.0 && std::isfinite(eps));
  for (int t = 0; t < T; ++t) {
    const Real* x_t = inp + static_cast<std::size_t>(t) * D;  // x_t: (D)
    Real* y_t = out + static_cast<std::size_t>(t) * D;        // y_t: (D)
    double sum = 0.0;
    for (int i = 0; i < D; ++i) sum += x_t[i];
    const double mu = sum / D;
    // Two-pass variance: mean((x - mu)^2) has no cancellation, unlike
    // mean(x^2) - mu^2.
    double sum_sq_dev = 0.0;
    for (int i = 0; i < D; ++i) {
      const double d = x_t[i] - mu;
      sum_sq_dev += d * d;
    }
    const double r = inverse_sqrt_or_zero(sum_sq_dev / D + eps);
    mean[t] = static_cast<Real>(mu);
    rstd[t] = static_cast<Real>(r);
    for (int i = 0; i < D; ++i) {
      y_t[i] = static_cast<Real>((x_t[i] - mu) * r * gain_at(gain, i) + bias_at(bias, i));
    }
  }
}

// y = g * xhat + b, xhat = (x - mean) * r, u = g * dy
// dx_j = r (u_j - mean(u) - xhat_j mean(u * xhat))
//   (d mean / dx_j = 1/D, d r / dx_j = -r^3 (x_j - mean) / D)
// dg_j += dy_j xhat_j, db_j += dy_j
template <class Real>
void layernorm_backward_impl(Real* dinp, Real* dgain, Real* dbias, const Real* dout,
                             const Real* inp, const Real* gain, const Real* mean, const Real* rstd,
                             int T, int D) {
  assert(T >= 0 && D >= 1);
  for (int t = 0; t < T; ++t) {
    const Real* x_t = inp + static_cast<std::size_t>(t) * D;    // x_t: (D)
    const Real* dy_t = dout + static_cast<std::size_t>(t) * D;  // dy_t: (D)
    Real* dx_t = dinp + static_cast<std::size_t>(t) * D;        // dx_t: (D)
    const double mu = mean[t];
    const double r = rstd[t];
    double sum_u = 0.0;
    double dot_u_xhat = 0.0;
    for (int i = 0; i < D; ++i) {
      const double u = gain_at(gain, i) * dy_t[i];
      sum_u += u;
      dot_u_xhat += u * ((x_t[i] - mu) * r);
    }
    const double mean_u = sum_u / D;
    const double mean_u_xhat = dot_u_xhat / D;
    for (int i = 0; i < D; ++i) {
      const double xhat = (x_t[i] - mu) * r;
      const double u = gain_at(gain, i) * dy_t[i];
      dx_t[i] = static_cast<Real>(r * (u - mean_u - xhat * mean_u_xhat));
      if (dgain) dgain[i] = static_cast<Real>(dgain[i] + dy_t[i] * xhat);
      if (dbias) dbias[i] = static_cast<Real>(dbias[i] + static_cast<double>(dy_t[i]));
    }
  }
}

template <class Real>
void softmax_forward_impl(Real* out, const Real* inp, int T, int D, double temperature) {
  assert(T >= 0 && D >= 1 && temperature > 0.0 && std::isfinite(temperature));
  for (int t = 0; t < T; ++t) {
    const Real* x_t = inp + static_cast<std::size_t>(t) * D;  // x_t: (D)
    Real* p_t = out + static_cast<std::size_t>(t) * D;        // p_t: (D)
    bool has_nan = false;
    int n_pos_inf = 0;
    double m = -kInf;  // max over the entries below +inf
    for (int i = 0; i < D; ++i) {
      const double v = x_t[i];
      if (std::isnan(v)) {
        has_nan = true;
      } else if (v == kInf) {
        ++n_pos_inf;
      } else if (v > m) {
        m = v;
      }
    }
    if (has_nan) {
      for (int i = 0; i < D; ++i) p_t[i] = static_cast<Real>(kNaN);
    } else if (n_pos_inf > 0) {
      // The limit of softmax as those entries grow together.
      const double share = 1.0 / n_pos_inf;
      for (int i = 0; i < D; ++i) p_t[i] = static_cast<Real>(x_t[i] == kInf ? share : 0.0);
    } else if (m == -kInf) {
      // Fully masked: no distribution exists; zeros, so the row adds nothing.
      for (int i = 0; i < D; ++i) p_t[i] = 0;
    } else {
      // Subtracting the max makes every exponent <= 0: no overflow, and the
      // max entry contributes exp(0) = 1, so the sum is >= 1. -inf entries
      // give exp(-inf) = 0.
      double sum = 0.0;
      for (int i = 0; i < D; ++i) sum += std::exp((x_t[i] - m) / temperature);
      for (int i = 0; i < D; ++i) {
        p_t[i] = static_cast<Real>(std::exp((x_t[i] - m) / temperature) / sum);
      }
    }
  }
}

// p = softmax(z), z = x / temperature
// dz = p * (dy - dot(p, dy)),  dx = dz / temperature
template <class Real>
void softmax_backward_impl(Real* dinp, const Real* dout, const Real* out, int T, int D,
                           double temperature) {
  assert(T >= 0 && D >= 1 && temperature > 0.0 && std::isfinite(temperature));
  for (int t = 0; t < T; ++t) {
    const Real* p_t = out + static_cast<std::size_t>(t) * D;    // p_t: (D)
    const Real* dy_t = dout + static_cast<std::size_t>(t) * D;  // dy_t: (D)
    Real* dx_t = dinp + static_cast<std::size_t>(t) * D;        // dx_t: (D)
    double dot = 0.0;
    for (int i = 0; i < D; ++i) dot += static_cast<double>(p_t[i]) * dy_t[i];
    for (int i = 0; i < D; ++i) {
      dx_t[i] = static_cast<Real>(p_t[i] * (dy_t[i] - dot) / temperature);
    }
  }
}

}  // namespace

void rmsnorm_forward_ref(float* out, float* rstd, const float* inp, const float* gain, int T, int D,
                         float eps) {
  rmsnorm_forward_impl(out, rstd, inp, gain, T, D, eps);
}
void rmsnorm_forward_ref(double* out, double* rstd, const double* inp, const double* gain, int T,
                         int D, double eps) {
  rmsnorm_forward_impl(out, rstd, inp, gain, T, D, eps);
}

void rmsnorm_backward_ref(float* dinp, float* dgain, const float* dout, const float* inp,
                          const float* gain, const float* rstd, int T, int D) {
  rmsnorm_backward_impl(dinp, dgain, dout, inp, gain, rstd, T, D);
}
void rmsnorm_backward_ref(double* dinp, double* dgain, const double* dout, const double* inp,
                          const double* gain, const double* rstd, int T, int D) {
  rmsnorm_backward_impl(dinp, dgain, dout, inp, gain, rstd, T, D);
}

void layernorm_forward_ref(float* out, float* mean, float* rstd, const float* inp,
                           const float* gain, const float* bias, int T, int D, float eps) {
  layernorm_forward_impl(out, mean, rstd, inp, gain, bias, T, D, eps);
}
void layernorm_forward_ref(double* out, double* mean, double* rstd, const double* inp,
                           const double* gain, const double* bias, int T, int D, double eps) {
  layernorm_forward_impl(out, mean, rstd, inp, gain, bias, T, D, eps);
}

void layernorm_backward_ref(float* dinp, float* dgain, float* dbias, const float* dout,
                            const float* inp, const float* gain, const float* mean,
                            const float* rstd, int T, int D) {
  layernorm_backward_impl(dinp, dgain, dbias, dout, inp, gain, mean, rstd, T, D);
}
void layernorm_backward_ref(double* dinp, double* dgain, double* dbias, const double* dout,
                            const double* inp, const double* gain, const double* mean,
                            const double* rstd, int T, int D) {
  layernorm_backward_impl(dinp, dgain, dbias, dout, inp, gain, mean, rstd, T, D);
}

void softmax_forward_ref(float* out, const float* inp, int T, int D, float temperature) {
  softmax_forward_impl(out, inp, T, D, temperature);
}
void softmax_forward_ref(double* out, const double* inp, int T, int D, double temperature) {
  softmax_forward_impl(out, inp, T, D, temperature);
}

void softmax_backward_ref(float* dinp, const float* dout, const float* out, int T, int D,
                          float temperature) {
  softmax_backward_impl(dinp, dout, out, T, D, temperature);
}
void softmax_backward_ref(double* dinp, const double* dout, const double* out, int T, int D,
                          double temperature) {
  softmax_backward_impl(dinp, dout, out, T, D, temperature);
}

void row_stats_ref(RowStats* out, const float* inp, int T, int D) {
  assert(T >= 0 && D >= 1);
  for (int t = 0; t < T; ++t) {
    const float* x_t = inp + static_cast<std::size_t>(t) * D;  // x_t: (D)
    double sum = 0.0;
    double sum_sq = 0.0;
    double max_abs = 0.0;
    for (int i = 0; i < D; ++i) {
      const double v = x_t[i];
      sum += v;
      sum_sq += v * v;
      const double a = std::fabs(v);
      if (std::isnan(a) || a > max_abs) max_abs = a;  // NaN sticks
    }
    const double mu = sum / D;
    double sum_sq_dev = 0.0;  // two-pass variance, as in layernorm
    for (int i = 0; i < D; ++i) {
      const double d = x_t[i] - mu;
      sum_sq_dev += d * d;
    }
    const double variance = sum_sq_dev / D;
    RowStats& s = out[t];
    s.l2 = static_cast<float>(std::sqrt(sum_sq));
    s.mean = static_cast<float>(mu);
    s.variance = static_cast<float>(variance);
    s.std = static_cast<float>(std::sqrt(variance));
    s.rms = static_cast<float>(std::sqrt(sum_sq / D));
    s.max_abs = static_cast<float>(max_abs);
  }
}

void distribution_stats_ref(float* entropy, float* max_prob, const float* p, int T, int D) {
  assert(T >= 0 && D >= 1);
  for (int t = 0; t < T; ++t) {
    const float* p_t = p + static_cast<std::size_t>(t) * D;  // p_t: (D)
    double sum_plogp = 0.0;
    double p_max = -kInf;
    for (int i = 0; i < D; ++i) {
      const double v = p_t[i];
      sum_plogp += v == 0.0 ? 0.0 : v * std::log(v);  // 0 log 0 = 0
      if (std::isnan(v) || v > p_max) p_max = v;      // NaN sticks
    }
    entropy[t] = static_cast<float>(0.0 - sum_plogp);  // 0 - 0 = +0, never -0
    max_prob[t] = static_cast<float>(p_max);
  }
}

}  // namespace normlab
