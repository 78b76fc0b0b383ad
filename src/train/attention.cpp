// Causal multi-head self-attention forward and backward (see attention.h).
//
// S = sequences, T = tokens per sequence, D = hidden size, H = heads,
// dh = D / H
#include "train/attention.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

#include "normlab/kernels.h"
#include "train/matmul.h"

namespace normlab::train {

void attention_forward(float* out, float* att, const float* qkv, float* key_t, int S, int T, int D,
                       int H, float* max_logit) {
  const int dh = D / H;
  const float temperature = std::sqrt(static_cast<float>(dh));
  // The largest raw score: dividing by sqrt(dh) afterwards gives the largest
  // logit exactly, as a correctly rounded division keeps the order.
  float max_score = -INFINITY;
  for (int s = 0; s < S; ++s) {
    const float* qkv_s = qkv + static_cast<std::size_t>(s) * T * 3 * D;  // (T, 3D)
    float* out_s = out + static_cast<std::size_t>(s) * T * D;            // (T, D)
    for (int h = 0; h < H; ++h) {
      const float* q = qkv_s + h * dh;                                 // (T, dh), row stride 3D
      const float* k = qkv_s + D + h * dh;                             // (T, dh), row stride 3D
      const float* v = qkv_s + 2 * D + h * dh;                         // (T, dh), row stride 3D
      float* p = att + (static_cast<std::size_t>(s) * H + h) * T * T;  // (T, T)
      // A = q k^T, only j <= i.
      transpose(key_t, k, T, dh, 3 * D);
      gemm(p, q, key_t, T, T, dh, T, 3 * D, 1, T, false, Causal::out_lower);
      // P row i: softmax over keys 0..i, in place; zeros after it, which the
      // products below read.
      for (int i = 0; i < T; ++i) {
        float* p_i = p + static_cast<std::size_t>(i) * T;
        if (max_logit != nullptr) {
          for (int j = 0; j <= i; ++j) {
            if (p_i[j] > max_score || std::isnan(p_i[j])) max_score = p_i[j];
          }
        }
        softmax_forward(p_i, p_i, 1, i + 1, temperature);
        std::fill(p_i + i + 1, p_i + T, 0.0f);
      }
      // y = P v: row i needs keys 0..i.
      gemm(out_s + h * dh, p, v, T, dh, T, D, T, 1, 3 * D, false, Causal::a_lower);
    }
  }
  if (max_logit != nullptr) {
    const float logit = max_score / temperature;
    if (logit > *max_logit || std::isnan(logit)) *max_logit = logit;
  }
}

void attention_backward(float* dqkv, const float* dout, const float* att, const float* qkv,
                        float* value_t, float* dp, float* da, int S, int T, int D, int H) {
  const int dh = D / H;
  const float temperature = std::sqrt(static_cast<float>(dh));
  for (int s = 0; s < S; ++s) {
    const float* qkv_s = qkv + static_cast<std::size_t>(s) * T * 3 * D;  // (T, 3D)
    float* dqkv_s = dqkv + static_cast<std::size_t>(s) * T * 3 * D;      // (T, 3D)
    const float* dy_s = dout + static_cast<std::size_t>(s) * T * D;      // (T, D)
    for (int h = 0; h < H; ++h) {
      const float* q = qkv_s + h * dh;          // (T, dh), row stride 3D
      const float* k = qkv_s + D + h * dh;      // (T, dh), row stride 3D
      const float* v = qkv_s + 2 * D + h * dh;  // (T, dh), row stride 3D
      const float* dy = dy_s + h * dh;          // (T, dh), row stride D
      float* dq = dqkv_s + h * dh;              // (T, dh), row stride 3D
      float* dk = dqkv_s + D + h * dh;
      float* dv = dqkv_s + 2 * D + h * dh;
      const float* p = att + (static_cast<std::size_t>(s) * H + h) * T * T;  // (T, T)
      // dP = dy v^T, only j <= i.
      transpose(value_t, v, T, dh, 3 * D);
      gemm(dp, dy, value_t, T, T, dh, T, D, 1, T, false, Causal::out_lower);
      // dv = P^T dy: A(j, i) = P(i, j), zero for i < j.
      gemm(dv, p, dy, T, dh, T, 3 * D, 1, T, D, false, Causal::a_upper);
      // dA row i over keys 0..i (includes the 1 / sqrt(dh)); zeros after it.
      for (int i = 0; i < T; ++i) {
        const std::size_t row = static_cast<std::size_t>(i) * T;
        softmax_backward(da + row, dp + row, p + row, 1, i + 1, temperature);
        std::fill(da + row + i + 1, da + row + T, 0.0f);
      }
      // dq = dA k (dA lower triangular), dk = dA^T q (A(j, i) = dA(i, j)).
      gemm(dq, da, k, T, dh, T, 3 * D, T, 1, 3 * D, false, Causal::a_lower);
      gemm(dk, da, q, T, dh, T, 3 * D, 1, T, 3 * D, false, Causal::a_upper);
    }
  }
}

}  // namespace normlab::train
