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

void attention_forward(float* out, float* sum, AttentionCache* c, const float* inp,
                       const float* residual, const float* w, const RopeTables& rope, int first,
                       int T, int D, int H) {
  const int dh = D / H;
  const int half = dh / 2;
  const float inv_sqrt_d = 1.0f / std::sqrt(static_cast<float>(D));
  const float inv_sqrt_dh = 1.0f / std::sqrt(static_cast<float>(dh));
  const float* mix = w + kAttnMix * D;
  const float* query = w + kAttnQuery * D;
  const float* key = w + kAttnKey * D;
  const float* value = w + kAttnValue * D;
  const float* attn_out = w + kAttnOut * D;

  for (int t = 0; t < T; t++) {
    const int o = t * D;
    const int r = t * c->row_stride;
    float* u_t = c->u + r;
    float* q_t = c->q + r;
    hadamard_project(u_t, inp + o, mix, inv_sqrt_d, D, D);
    const float* cos_t = rope.cos_a + t * half;
    const float* sin_t = rope.sin_a + t * half;
    mul_rotate_segments(c->k + o, u_t, key, cos_t, sin_t, D, dh);
    mul(c->v + o, u_t, value, 1.0f, D);
    if (t < first) continue;  // a kept row: its key and value only
    mul_rotate_segments(q_t, u_t, query, cos_t, sin_t, D, dh);

    // Query t against keys 0..t (causality: they all exist already), all
    // heads of a pair per call, four keys per call where possible (q_t is
    // then read once per four keys). The softmax kernel subtracts each
    // row's max before exp, so the huge logits of an unnormalized model
    // saturate instead of overflowing.
    const int n_keys = t + 1;
    float* logits_t = c->logits + causal_offset(t, H);  // (H, t + 1)
    float* p_t = c->p + causal_offset(t, H);            // (H, t + 1)
    float* y_t = c->y + r;
    float* alpha = out + o;  // (4, H) scratch until out's row is written
    int s = 0;
    for (; s + 4 <= n_keys; s += 4) {
      const float* k_s[4] = {c->k + s * D, c->k + (s + 1) * D, c->k + (s + 2) * D,
                             c->k + (s + 3) * D};
      segment_dots4(alpha, q_t, k_s, D, dh);
      for (int j = 0; j < 4; j++) {
        for (int h = 0; h < H; h++) {
          logits_t[h * n_keys + s + j] = alpha[j * H + h] * inv_sqrt_dh;
        }
      }
    }
    for (; s < n_keys; s++) {
      segment_dots(alpha, q_t, c->k + s * D, D, dh);
      for (int h = 0; h < H; h++) {
        logits_t[h * n_keys + s] = alpha[h] * inv_sqrt_dh;
      }
    }
    softmax_forward(p_t, logits_t, H, n_keys, 1.0f);

    std::memset(y_t, 0, D * sizeof(float));
    s = 0;
    for (; s + 4 <= n_keys; s += 4) {
      const float* v_s[4] = {c->v + s * D, c->v + (s + 1) * D, c->v + (s + 2) * D,
                             c->v + (s + 3) * D};
      for (int j = 0; j < 4; j++) {
        for (int h = 0; h < H; h++) alpha[j * H + h] = p_t[h * n_keys + s + j];
      }
      segment_axpy4(y_t, alpha, v_s, D, dh);
    }
    for (; s < n_keys; s++) {
      for (int h = 0; h < H; h++) alpha[h] = p_t[h * n_keys + s];
      segment_axpy(y_t, alpha, c->v + s * D, D, dh);
    }
    mul_add(out + o, sum + o, y_t, attn_out, residual + o, D);
  }
}

// Backward, from the output to the input (Hd is symmetric, so the
// transform's transpose is itself; R_t is a rotation, so R_t^T = R_t^-1):
//   out = attn_out * y:
//     d attn_out += sum_t dout_t * y_t;    dy = dout * attn_out
//   y_t = sum_(s<=t) p_ts v_s (per head):
//     dp_ts = <dy_t, v_s>;                  dv_s = sum_(t>=s) p_ts dy_t
//   p = softmax(logits) per row:
//     dlogits = p * (dp - <p, dp>)          (softmax_backward kernel)
//   logits_ts = <q_t, k_s> / sqrt(dh):
//     dq_t = sum_s dlogits_ts k_s / sqrt(dh); dk_s = sum_t dlogits_ts q_t / sqrt(dh)
//   q_t = R_t(query * u_t), k_t = R_t(key * u_t), v = value * u:
//     dq0 = R_t^-1 dq_t, dk0 = R_t^-1 dk_t
//     d query += dq0 * u;  d key += dk0 * u;  d value += dv * u
//     du = dq0 * query + dk0 * key + dv * value
//   u = Hd(z) / sqrt(D), z = mix * x:
//     dz = Hd(du) / sqrt(D);  d mix += dz * x;  dx = dz * mix
void attention_backward(float* dinp, float* dw, const float* dout, const AttentionCache& c,
                        const float* inp, const float* w, const RopeTables& rope,
                        AttentionScratch* scratch, int T, int D, int H) {
  const int dh = D / H;
  const int half = dh / 2;
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
    mul_acc(dw + kAttnOut * D, dout + o, c.y + o, D);
    mul(scratch->dy + o, dout + o, attn_out, 1.0f, D);
  }

  // dp and dlogits, query by query; dy_t against four values per call
  // where possible, as the forward's logits.
  for (int t = 0; t < T; t++) {
    const int n_keys = t + 1;
    const float* p_t = c.p + causal_offset(t, H);     // (H, t + 1)
    float* dp_t = scratch->dp + causal_offset(t, H);  // (H, t + 1)
    const float* dy_t = scratch->dy + t * D;
    int s = 0;
    for (; s + 4 <= n_keys; s += 4) {
      const float* v_s[4] = {c.v + s * D, c.v + (s + 1) * D, c.v + (s + 2) * D, c.v + (s + 3) * D};
      segment_dots4(alpha, dy_t, v_s, D, dh);
      for (int j = 0; j < 4; j++) {
        for (int h = 0; h < H; h++) dp_t[h * n_keys + s + j] = alpha[j * H + h];
      }
    }
    for (; s < n_keys; s++) {
      segment_dots(alpha, dy_t, c.v + s * D, D, dh);
      for (int h = 0; h < H; h++) dp_t[h * n_keys + s] = alpha[h];
    }
    softmax_backward(scratch->dlogits + causal_offset(t, H), dp_t, p_t, H, n_keys, 1.0f);
  }

  // The three sums over pairs, each output row's terms added in ascending
  // order of the other index, four per call (the row is then read and
  // written once per four terms):
  //   dv_s = sum_(t>=s) p_ts dy_t;   dk_s = sum_(t>=s) dlogits_ts q_t / sqrt(dh)
  //   dq_t = sum_(s<=t) dlogits_ts k_s / sqrt(dh)
  // coef(t, s, h): the pair's coefficient for head h; x(i): row i of the
  // summed vectors.
  auto accumulate = [&](float* y, int first, int end, auto&& coef, auto&& x) {
    std::memset(y, 0, D * sizeof(float));
    int i = first;
    for (; i + 4 <= end; i += 4) {
      const float* x4[4] = {x(i), x(i + 1), x(i + 2), x(i + 3)};
      for (int j = 0; j < 4; j++) {
        for (int h = 0; h < H; h++) alpha[j * H + h] = coef(i + j, h);
      }
      segment_axpy4(y, alpha, x4, D, dh);
    }
    for (; i < end; i++) {
      for (int h = 0; h < H; h++) alpha[h] = coef(i, h);
      segment_axpy(y, alpha, x(i), D, dh);
    }
  };
  const float* dlogits = scratch->dlogits;
  for (int s = 0; s < T; s++) {
    accumulate(
        scratch->dv + s * D, s, T,
        [&](int t, int h) { return c.p[causal_offset(t, H) + h * (t + 1) + s]; },
        [&](int t) { return scratch->dy + t * D; });
    accumulate(
        scratch->dk + s * D, s, T,
        [&](int t, int h) { return dlogits[causal_offset(t, H) + h * (t + 1) + s] * inv_sqrt_dh; },
        [&](int t) { return c.q + t * D; });
  }
  for (int t = 0; t < T; t++) {
    const float* dlogits_t = dlogits + causal_offset(t, H);
    accumulate(
        scratch->dq + t * D, 0, t + 1,
        [&](int s, int h) { return dlogits_t[h * (t + 1) + s] * inv_sqrt_dh; },
        [&](int s) { return c.k + s * D; });
  }

  float* du = scratch->du;
  for (int t = 0; t < T; t++) {
    const int o = t * D;
    const float* u_t = c.u + o;
    const float* cos_t = rope.cos_a + t * half;
    const float* sin_t = rope.sin_a + t * half;
    // The inverse rotation: the same pairs turned by minus the angle, done
    // in place on dq_t and dk_t.
    for (float* d_t : {scratch->dq + o, scratch->dk + o}) {
      for (int h = 0; h < H; h++) {
        float* d_th = d_t + h * dh;
        rotate_pairs(d_th, d_th + half, cos_t, sin_t, -1.0f, half);
      }
    }
    mul_acc(dw + kAttnQuery * D, scratch->dq + o, u_t, D);
    mul_acc(dw + kAttnKey * D, scratch->dk + o, u_t, D);
    mul_acc(dw + kAttnValue * D, scratch->dv + o, u_t, D);
    mul(du, scratch->dq + o, query, 1.0f, D);
    mul_acc(du, scratch->dk + o, key, D);
    mul_acc(du, scratch->dv + o, value, D);
    hadamard_project(du, du, nullptr, inv_sqrt_d, D, D);
    mul_acc(dw + kAttnMix * D, du, inp + o, D);
    mul(dinp + o, du, mix, 1.0f, D);
  }
}

}  // namespace normlab::model
