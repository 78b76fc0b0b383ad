// One transformer layer (see layer.h). T = tokens, D = hidden size.
#include "model/layer.h"

#include <cassert>
#include <cstring>

#include "model/norm.h"
#include "model/vec.h"
#include "model/weights.h"

namespace normlab::model {

void layer_forward(float* x_out, LayerCache* c, const float* x_in, const float* w,
                   const RopeTables& rope, const ModelConfig& config, int first, int T) {
  const int D = config.hidden;
  const int H = config.heads;
  const NormKind kind = config.norm;
  const float eps = config.eps;
  const float* g1 = w + kInputNormGain * D;
  const float* b1 = w + kInputNormBias * D;
  const float* g2 = w + kPostAttnNormGain * D;
  const float* b2 = w + kPostAttnNormBias * D;
  // Rows first..T-1 of a (T, D) buffer, and of a per-row (T) one.
  const int rows = T - first;
  const size_t o = static_cast<size_t>(first) * D;
  auto row = [first](float* per_row) { return per_row + first; };
  // Per-token intermediates kept for the backward would sit at the wrong
  // rows.
  assert(first == 0 || (c->attention.row_stride == 0 && c->mlp.row_stride == 0));

  if (config.placement == Placement::pre) {
    c->input_norm_in = x_in;
    // Every row: the kept rows' keys and values are computed from N1(x).
    norm_forward(c->input_norm_out, c->input_norm_normed, c->input_norm_mean, c->input_norm_rstd,
                 c->input_norm_in, g1, b1, kind, T, D, eps);
    attention_forward(c->attention_out, c->post_attn_norm_in, &c->attention, c->input_norm_out,
                      x_in, w, rope, first, T, D, H);
    norm_forward(c->post_attn_norm_out + o, c->post_attn_norm_normed + o,
                 row(c->post_attn_norm_mean), row(c->post_attn_norm_rstd), c->post_attn_norm_in + o,
                 g2, b2, kind, rows, D, eps);
    mlp_forward(c->mlp_out + o, x_out + o, &c->mlp, c->post_attn_norm_out + o,
                c->post_attn_norm_in + o, w, rows, D);
  } else {
    attention_forward(c->attention_out, c->input_norm_sum, &c->attention, x_in, x_in, w, rope,
                      first, T, D, H);
    c->input_norm_in = c->input_norm_sum;
    norm_forward(c->input_norm_out + o, c->input_norm_normed + o, row(c->input_norm_mean),
                 row(c->input_norm_rstd), c->input_norm_sum + o, g1, b1, kind, rows, D, eps);
    mlp_forward(c->mlp_out + o, c->post_attn_norm_in + o, &c->mlp, c->input_norm_out + o,
                c->input_norm_out + o, w, rows, D);
    norm_forward(c->post_attn_norm_out + o, c->post_attn_norm_normed + o,
                 row(c->post_attn_norm_mean), row(c->post_attn_norm_rstd), c->post_attn_norm_in + o,
                 g2, b2, kind, rows, D, eps);
    std::memcpy(x_out + o, c->post_attn_norm_out + o,
                static_cast<size_t>(rows) * D * sizeof(float));
  }
}

// Backward. The residual additions pass the gradient through unchanged to
// both of their inputs, so:
//   pre-norm,  h = x + A(N1(x)), x' = h + F(N2(h)):
//     dh = dx' + N2'(F'(dx'));   dx = dh + N1'(A'(dh))
//   post-norm, h = N1(x + A(x)), x' = N2(h + F(h)):
//     db = N2'(dx');  dh = db + F'(db);  da = N1'(dh);  dx = da + A'(da)
// where N', A', F' are the sub-blocks' vector-Jacobian products.
void layer_backward(float* dx_in, float* dw, const float* dx_out, const LayerCache& c,
                    const float* x_in, const float* w, const RopeTables& rope, LayerScratch* s,
                    const ModelConfig& config, int T) {
  const int D = config.hidden;
  const int H = config.heads;
  const int n = T * D;
  const NormKind kind = config.norm;
  const float* g1 = w + kInputNormGain * D;
  const float* g2 = w + kPostAttnNormGain * D;
  float* dg1 = dw + kInputNormGain * D;
  float* db1 = dw + kInputNormBias * D;
  float* dg2 = dw + kPostAttnNormGain * D;
  float* db2 = dw + kPostAttnNormBias * D;

  if (config.placement == Placement::pre) {
    float* dh = s->d_a;
    mlp_backward(s->d_b, dw, dx_out, c.mlp, c.post_attn_norm_out, w, s->mlp, T, D);
    norm_backward(dh, dg2, db2, s->d_b, c.post_attn_norm_in, g2, c.post_attn_norm_mean,
                  c.post_attn_norm_rstd, kind, T, D);
    add(dh, dh, dx_out, n);
    attention_backward(s->d_b, dw, dh, c.attention, c.input_norm_out, w, rope, &s->attention, T, D,
                       H);
    norm_backward(dx_in, dg1, db1, s->d_b, c.input_norm_in, g1, c.input_norm_mean,
                  c.input_norm_rstd, kind, T, D);
    add(dx_in, dx_in, dh, n);
  } else {
    float* db = s->d_a;
    float* dh = s->d_b;
    float* da = s->d_c;
    norm_backward(db, dg2, db2, dx_out, c.post_attn_norm_in, g2, c.post_attn_norm_mean,
                  c.post_attn_norm_rstd, kind, T, D);
    mlp_backward(dh, dw, db, c.mlp, c.input_norm_out, w, s->mlp, T, D);
    add(dh, dh, db, n);
    norm_backward(da, dg1, db1, dh, c.input_norm_in, g1, c.input_norm_mean, c.input_norm_rstd, kind,
                  T, D);
    attention_backward(dx_in, dw, da, c.attention, x_in, w, rope, &s->attention, T, D, H);
    add(dx_in, dx_in, da, n);
  }
}

}  // namespace normlab::model
