// The trainer's elementwise ops (see elementwise.h): SIMD on vec_map /
// vec_sum_of for this build's architecture, and scalar references in double.
//
// n = elements
#include "train/elementwise.h"

// GCC 12 flags its own AVX-512 intrinsics (the deliberately undefined
// register of _mm512_undefined_ps, GCC bug 105593) as (maybe-)uninitialized
// wherever they are inlined; a known false positive, fixed in GCC 13.
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ == 12
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include <algorithm>
#include <cmath>

#include "normlab/fast_exp.hpp"
#include "normlab/arch.hpp"
#include "normlab/vec.hpp"

namespace normlab::train {

namespace {

using normlab::simd::exp2_nonpositive;
using normlab::simd::train_arch;
using normlab::simd::vec_map;
using normlab::simd::vec_sum_of;

constexpr float kSqrt2OverPi = 0.7978845608028654f;
constexpr float kGeluCubic = 0.044715f;
constexpr float kMinus2Log2e = -2.8853900817779268f;  // -2 log2(e): e^(-2|u|) = 2^(-2 log2(e) |u|)

// tanh(u) for a batch or a float: sign(u) (1 - e) / (1 + e), e = e^(-2|u|).
template <class V>
XSIMD_INLINE V tanh_of(V u) {
  const V e = exp2_nonpositive(xsimd::abs(u) * V(kMinus2Log2e));
  return xsimd::copysign((V(1.0f) - e) / (V(1.0f) + e), u);
}

template <class V>
XSIMD_INLINE V gelu_of(V h) {
  const V t = tanh_of(V(kSqrt2OverPi) * (h + V(kGeluCubic) * h * h * h));
  return V(0.5f) * h * (V(1.0f) + t);
}

template <class V>
XSIMD_INLINE V gelu_grad_of(V h) {
  const V h2 = h * h;
  const V t = tanh_of(V(kSqrt2OverPi) * (h + V(kGeluCubic) * h2 * h));
  const V du_dh = V(kSqrt2OverPi) * (V(1.0f) + V(3.0f * kGeluCubic) * h2);
  return V(0.5f) * (V(1.0f) + t) + V(0.5f) * h * (V(1.0f) - t * t) * du_dh;
}

}  // namespace

void gelu_forward(float* out, const float* inp, int n) {
  vec_map<train_arch>(out, n, [inp](auto load, int i) { return gelu_of(load(inp + i)); });
}

void gelu_backward(float* dinp, const float* dout, const float* inp, int n) {
  vec_map<train_arch>(
      dinp, n, [=](auto load, int i) { return load(dout + i) * gelu_grad_of(load(inp + i)); });
}

void dyt_forward(float* out, const float* inp, float alpha, const float* gain, const float* bias,
                 int R, int D) {
  for (int r = 0; r < R; ++r) {
    const float* x = inp + static_cast<std::size_t>(r) * D;
    vec_map<train_arch>(out + static_cast<std::size_t>(r) * D, D, [=](auto load, int i) {
      return load(gain + i) * tanh_of(load(x + i) * alpha) + load(bias + i);
    });
  }
}

// Three passes per row, each recomputing t: dinp, the parameter sums,
// and alpha's sum; each row's x and dout stay in cache between them.
void dyt_backward(float* dinp, float* dgain, float* dbias, float* dalpha, const float* dout,
                  const float* inp, float alpha, const float* gain, int R, int D) {
  for (int r = 0; r < R; ++r) {
    const std::size_t row = static_cast<std::size_t>(r) * D;
    const float* x = inp + row;
    const float* dy = dout + row;
    // d tanh(u) / du = 1 - t^2, u = alpha x.
    const double sum = vec_sum_of<train_arch>(D, [=](auto load, int i) {
      const auto t = tanh_of(load(x + i) * alpha);
      return load(dy + i) * load(gain + i) * load(x + i) * (1.0f - t * t);
    });
    vec_map<train_arch>(dgain, D, [=](auto load, int i) {
      return load(dgain + i) + load(dy + i) * tanh_of(load(x + i) * alpha);
    });
    vec_map<train_arch>(dbias, D, [=](auto load, int i) { return load(dbias + i) + load(dy + i); });
    vec_map<train_arch>(dinp + row, D, [=](auto load, int i) {
      const auto t = tanh_of(load(x + i) * alpha);
      return load(dy + i) * load(gain + i) * alpha * (1.0f - t * t);
    });
    *dalpha += static_cast<float>(sum);
  }
}

// One pass over the four arrays: each batch of m, v and p is read and
// written once (three vec_map passes read m and v twice more), with the
// same float operations per element as a pass per array.
void adam_update(float* p, float* m, float* v, const float* grad, std::size_t n, float lr,
                 float beta1, float beta2, float eps, float c1, float c2) {
  using batch = xsimd::batch<float, train_arch>;
  constexpr std::size_t W = batch::size;
  const float one_minus_b1 = 1.0f - beta1, one_minus_b2 = 1.0f - beta2;
  const float inv_c1 = 1.0f / c1, inv_c2 = 1.0f / c2;
  // The update of one batch or one float at index i.
  auto update = [=](auto load, std::size_t i, auto store) {
    const auto g = load(grad + i);
    const auto m_i = load(m + i) * beta1 + g * one_minus_b1;
    const auto v_i = load(v + i) * beta2 + (g * g) * one_minus_b2;
    const auto m_hat = m_i * inv_c1;
    const auto v_hat = v_i * inv_c2;
    store(m + i, m_i);
    store(v + i, v_i);
    store(p + i, load(p + i) - lr * m_hat / (xsimd::sqrt(v_hat) + eps));
  };
  const auto load_batch = [](const float* at) { return batch::load_unaligned(at); };
  const auto store_batch = [](float* at, const batch& x) { x.store_unaligned(at); };
  const auto load_float = [](const float* at) { return *at; };
  const auto store_float = [](float* at, float x) { *at = x; };
  const std::size_t n_vec = n - n % W;
  std::size_t i = 0;
  for (; i < n_vec; i += W) update(load_batch, i, store_batch);
  for (; i < n; ++i) update(load_float, i, store_float);
}

double sum_squares(const float* x, std::size_t n) {
  return normlab::simd::vec_sum_squares<train_arch>(x, n);
}

// References: the same formulas in double with libm's tanh and sqrt.

void gelu_forward_ref(float* out, const float* inp, int n) {
  for (int i = 0; i < n; ++i) {
    const double h = inp[i];
    const double t = std::tanh(0.7978845608028654 * (h + 0.044715 * h * h * h));
    out[i] = static_cast<float>(0.5 * h * (1.0 + t));
  }
}

void gelu_backward_ref(float* dinp, const float* dout, const float* inp, int n) {
  for (int i = 0; i < n; ++i) {
    const double h = inp[i];
    const double t = std::tanh(0.7978845608028654 * (h + 0.044715 * h * h * h));
    const double du_dh = 0.7978845608028654 * (1.0 + 3.0 * 0.044715 * h * h);
    dinp[i] = static_cast<float>(dout[i] * (0.5 * (1.0 + t) + 0.5 * h * (1.0 - t * t) * du_dh));
  }
}

void dyt_forward_ref(float* out, const float* inp, float alpha, const float* gain,
                     const float* bias, int R, int D) {
  for (std::size_t i = 0; i < static_cast<std::size_t>(R) * D; ++i) {
    const int c = static_cast<int>(i % D);
    out[i] = static_cast<float>(gain[c] * std::tanh(static_cast<double>(alpha) * inp[i]) + bias[c]);
  }
}

void dyt_backward_ref(float* dinp, float* dgain, float* dbias, float* dalpha, const float* dout,
                      const float* inp, float alpha, const float* gain, int R, int D) {
  for (int r = 0; r < R; ++r) {
    double sum = 0.0;
    for (int c = 0; c < D; ++c) {
      const std::size_t i = static_cast<std::size_t>(r) * D + c;
      const double t = std::tanh(static_cast<double>(alpha) * inp[i]);
      sum += dout[i] * static_cast<double>(gain[c]) * inp[i] * (1.0 - t * t);
      dgain[c] = static_cast<float>(dgain[c] + dout[i] * t);
      dbias[c] = dbias[c] + dout[i];
      dinp[i] = static_cast<float>(dout[i] * static_cast<double>(gain[c]) * alpha * (1.0 - t * t));
    }
    *dalpha = static_cast<float>(*dalpha + sum);
  }
}

void adam_update_ref(float* p, float* m, float* v, const float* grad, std::size_t n, float lr,
                     float beta1, float beta2, float eps, float c1, float c2) {
  for (std::size_t i = 0; i < n; ++i) {
    const double g = grad[i];
    const double m_i = static_cast<double>(beta1) * m[i] + (1.0 - beta1) * g;
    const double v_i = static_cast<double>(beta2) * v[i] + (1.0 - beta2) * g * g;
    m[i] = static_cast<float>(m_i);
    v[i] = static_cast<float>(v_i);
    p[i] = static_cast<float>(p[i] - lr * (m_i / c1) / (std::sqrt(v_i / c2) + eps));
  }
}

}  // namespace normlab::train
