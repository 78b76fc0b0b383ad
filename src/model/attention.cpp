// Causal multi-head softmax attention with structured projections (see
// attention.h). T = tokens, D = hidden size, H = heads, dh = D / H.
#include "model/attention.h"

#include <cmath>
#include <cstring>

#include "model/vec.h"
#include "model/weights.h"
#include "normlab/kernels.h"

namespace normlab::model {

void rope_tables(float* cos_a, float* sin_a, int positions, int dh) {
  const int half = dh / 2;
  for (int t = 0; t < positions; t++) {
    for (int j = 0; j < half; j++) {
      const double angle = t * std::pow(10000.0, -2.0 * j / dh);
      cos_a[t * half + j] = static_cast<float>(std::cos(angle));
      sin_a[t * half + j] = static_cast<float>(std::sin(angle));
    }
  }
}

namespace {

// Rotates every head's pairs (j, j + dh/2) of token t's row by its angles.
// direction -1 applies the inverse rotation (the backward). x_t: (D)
void rotate_heads(float* x_t, const RopeTables& rope, float direction, int t,
                  int D, int H) {
  const int dh = D / H;
  const int half = dh / 2;
  const float* cos_t = rope.cos_a + t * half;
  const float* sin_t = rope.sin_a + t * half;
  for (int h = 0; h < H; h++) {
    float* x_th = x_t + h * dh;
    rotate_pairs(x_th, x_th + half, cos_t, sin_t, direction, half);
  }
}

}  // namespace

void attention_forward(float* out, AttentionCache* c, const float* inp,
                       const float* w, const RopeTables& rope, int T, int D,
                       int H) {
  const int dh = D / H;
  const float inv_sqrt_d = 1.0f / std::sqrt(static_cast<float>(D));
  const float inv_sqrt_dh = 1.0f / std::sqrt(static_cast<float>(dh));
  const float* mix = w + kAttnMix * D;
  const float* query = w + kAttnQuery * D;
  const float* key = w + kAttnKey * D;
  const float* value = w + kAttnValue * D;
  const float* attn_out = w + kAttnOut * D;

  for (int t = 0; t < T; t++) {
    const int o = t * D;
    float* u_t = c->u + o;
    float* ub_t = c->ub + o;
    hadamard_project(u_t, inp + o, mix, inv_sqrt_d, D, D);
    hadamard_project(ub_t, u_t, nullptr, inv_sqrt_dh, D, dh);
    const float* cos_t = rope.cos_a + t * (dh / 2);
    const float* sin_t = rope.sin_a + t * (dh / 2);
    mul_rotate_segments(c->q + o, u_t, query, cos_t, sin_t, D, dh);
    mul_rotate_segments(c->k + o, ub_t, key, cos_t, sin_t, D, dh);
    mul(c->v + o, u_t, value, 1.0f, D);

    // Query t against keys 0..t (causality: they all exist already), all
    // heads of one pair per call. The softmax kernel subtracts each row's
    // max before exp, so the huge logits of an unnormalized model saturate
    // instead of overflowing.
    const int n_keys = t + 1;
    float* logits_t = c->logits + causal_offset(t, H);  // (H, t + 1)
    float* alpha = c->yh + o;  // (H) scratch until yh is built
    for (int s = 0; s <= t; s++) {
      segment_dots(alpha, c->q + o, c->k + s * D, D, dh);
      for (int h = 0; h < H; h++) {
        logits_t[h * n_keys + s] = alpha[h] * inv_sqrt_dh;
      }
    }
    float* p_t = c->p + causal_offset(t, H);  // (H, t + 1)
    softmax_forward(p_t, logits_t, H, n_keys, 1.0f);

    float* y_t = c->y + o;
    std::memset(y_t, 0, D * sizeof(float));
    for (int s = 0; s <= t; s++) {
      for (int h = 0; h < H; h++) alpha[h] = p_t[h * n_keys + s];
      segment_axpy(y_t, alpha, c->v + s * D, D, dh);
    }

    float* yh_t = c->yh + o;
    hadamard_project(yh_t, y_t, nullptr, inv_sqrt_d, D, D);
    mul(out + o, yh_t, attn_out, 1.0f, D);
  }
}

// Backward, from the output to the input (Hd and Hb are symmetric, so each
// transform's transpose is itself):
//   out = attn_out * yh, yh = Hd(y) / sqrt(D):
//     d attn_out += sum_t dout_t * yh_t;   dy = Hd(dout * attn_out) / sqrt(D)
//   y_t = sum_(s<=t) p_ts v_s (per head):
//     dp_ts = <dy_t, v_s>;                  dv_s = sum_(t>=s) p_ts dy_t
//   p = softmax(logits) per row:
//     dlogits = p * (dp - <p, dp>)          (softmax_backward kernel)
//   logits_ts = <q_t, k_s> / sqrt(dh):
//     dq_t = sum_s dlogits_ts k_s / sqrt(dh); dk_s = sum_t dlogits_ts q_t / sqrt(dh)
//   q_t = R_t q0_t, k_t = R_t k0_t (rotations: R^T = R^-1):
//     dq0_t = R_t^-1 dq_t;  dk0_t = R_t^-1 dk_t
//   q0 = query * u, k0 = key * ub, v = value * u, ub = Hb(u) / sqrt(dh):
//     d query += dq0 * u;  d key += dk0 * ub;  d value += dv * u
//     du = dq0 * query + dv * value + Hb(dk0 * key) / sqrt(dh)
//   u = Hd(z) / sqrt(D), z = mix * x:
//     dz = Hd(du) / sqrt(D);  d mix += dz * x;  dx = dz * mix
void attention_backward(float* dinp, float* dw, const float* dout,
                        const AttentionCache& c, const float* inp,
                        const float* w, const RopeTables& rope,
                        AttentionScratch* scratch, int T, int D, int H) {
  const int dh = D / H;
  const int n = T * D;
  const float inv_sqrt_d = 1.0f / std::sqrt(static_cast<float>(D));
  const float inv_sqrt_dh = 1.0f / std::sqrt(static_cast<float>(dh));
  const float* mix = w + kAttnMix * D;
  const float* query = w + kAttnQuery * D;
  const float* key = w + kAttnKey * D;
  const float* value = w + kAttnValue * D;
  const float* attn_out = w + kAttnOut * D;
  float* alpha = scratch->alpha;

  for (int t = 0; t < T; t++) {
    const int o = t * D;
    mul_acc(dw + kAttnOut * D, dout + o, c.yh + o, D);
    hadamard_project(scratch->dy + o, dout + o, attn_out, inv_sqrt_d, D, D);
  }

  std::memset(scratch->dv, 0, n * sizeof(float));
  for (int t = 0; t < T; t++) {
    const int n_keys = t + 1;
    const float* p_t = c.p + causal_offset(t, H);         // (H, t + 1)
    float* dp_t = scratch->dp + causal_offset(t, H);      // (H, t + 1)
    const float* dy_t = scratch->dy + t * D;
    for (int s = 0; s <= t; s++) {
      segment_dots(alpha, dy_t, c.v + s * D, D, dh);
      for (int h = 0; h < H; h++) dp_t[h * n_keys + s] = alpha[h];
      for (int h = 0; h < H; h++) alpha[h] = p_t[h * n_keys + s];
      segment_axpy(scratch->dv + s * D, alpha, dy_t, D, dh);
    }
    softmax_backward(scratch->dlogits + causal_offset(t, H), dp_t, p_t, H,
                     n_keys, 1.0f);
  }

  std::memset(scratch->dq, 0, n * sizeof(float));
  std::memset(scratch->dk, 0, n * sizeof(float));
  for (int t = 0; t < T; t++) {
    const int n_keys = t + 1;
    const float* dlogits_t = scratch->dlogits + causal_offset(t, H);
    for (int s = 0; s <= t; s++) {
      for (int h = 0; h < H; h++) {
        alpha[h] = dlogits_t[h * n_keys + s] * inv_sqrt_dh;
      }
      segment_axpy(scratch->dq + t * D, alpha, c.k + s * D, D, dh);
      segment_axpy(scratch->dk + s * D, alpha, c.q + t * D, D, dh);
    }
  }

  for (int t = 0; t < T; t++) {
    const int o = t * D;
    float* dq_t = scratch->dq + o;
    float* dk_t = scratch->dk + o;
    float* du_t = scratch->du + o;
    float* tmp_t = scratch->dy + o;  // dy_t is spent: reuse its row
    rotate_heads(dq_t, rope, -1.0f, t, D, H);
    rotate_heads(dk_t, rope, -1.0f, t, D, H);
    mul_acc(dw + kAttnQuery * D, dq_t, c.u + o, D);
    mul_acc(dw + kAttnKey * D, dk_t, c.ub + o, D);
    mul_acc(dw + kAttnValue * D, scratch->dv + o, c.u + o, D);
    mul(du_t, dq_t, query, 1.0f, D);
    mul_acc(du_t, scratch->dv + o, value, D);
    hadamard_project(tmp_t, dk_t, key, inv_sqrt_dh, D, dh);
    add(du_t, du_t, tmp_t, D);
    hadamard_project(du_t, du_t, nullptr, inv_sqrt_d, D, D);
    mul_acc(dw + kAttnMix * D, du_t, inp + o, D);
    mul(dinp + o, du_t, mix, 1.0f, D);
  }
}

}  // namespace normlab::model
