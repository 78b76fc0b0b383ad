// One transformer layer of the synthetic model, in either placement.
//
// T = tokens, D = hidden size, H = heads
// N1 = the attention sub-block's norm ("input norm" in the chapter),
// N2 = the MLP sub-block's norm ("post-attention norm"), A = attention,
// F = MLP; with NormKind::none both norms are the identity.
//
//   pre-norm:   h = x + A(N1(x));          x' = h + F(N2(h))
//   post-norm:  h = N1(x + A(x));          x' = N2(h + F(h))
//
// Pre-norm keeps the residual highway x -> h -> x' an identity path; post-
// norm puts both norms on it, so they rescale the stream and every gradient
// that flows back along it.
#pragma once

#include "model/attention.h"
#include "model/mlp.h"
#include "model/options.h"

namespace normlab::model {

// Everything one layer's forward produces: the probes the page plots and
// the caches the backward needs. Names follow the probes (probes.h).
struct LayerCache {
  // (T, D) pre: x_in itself (not copied); post: x + A(x), held in
  // input_norm_sum.
  const float* input_norm_in;
  float* input_norm_sum;     // (T, D) post-norm's x + A(x)
  float* input_norm_normed;  // (T, D) N1 before its gain (LayerNorm only)
  float* input_norm_out;     // (T, D) N1 after its gain (and bias)
  float* input_norm_mean;    // (T) LayerNorm cache
  float* input_norm_rstd;    // (T)
  AttentionCache attention;
  float* attention_out;          // (T, D) A(...)
  float* post_attn_norm_in;      // (T, D) pre: h; post: h + F(h)
  float* post_attn_norm_normed;  // (T, D) N2 before its gain (LayerNorm only)
  float* post_attn_norm_out;     // (T, D)
  float* post_attn_norm_mean;    // (T)
  float* post_attn_norm_rstd;    // (T)
  MlpCache mlp;
  float* mlp_out;  // (T, D) F(...)
};

// Scratch for the backward.
struct LayerScratch {
  AttentionScratch attention;
  float* mlp;  // (T, D) MLP backward scratch
  float* d_a;  // (T, D)
  float* d_b;  // (T, D)
  float* d_c;  // (T, D)
};

// x_out: (T, D); cache: filled; x_in: (T, D) the layer's residual input;
// w: (kLayerTensors, D) the layer's parameters; rope: attention's rotary
// tables for at least T positions.
//
// Only rows first..T-1 of x_out and of the cache are computed (0 <= first
// <= T), the same, bit for bit, as in a run of all T rows (causal
// attention: row t depends on rows 0..t of x_in alone). Attention still
// needs the earlier rows' keys and values, recomputed from x_in: pre-norm
// through N1 (written to input_norm_out for every row), post-norm straight
// from x_in. first = 0 for a run the backward will use.
void layer_forward(float* x_out, LayerCache* cache, const float* x_in, const float* w,
                   const RopeTables& rope, const ModelConfig& config, int first, int T);

// dx_in: (T, D) written (may not alias dx_out); dw: (kLayerTensors, D)
// accumulated; dx_out: (T, D); cache: from layer_forward on the same x_in.
void layer_backward(float* dx_in, float* dw, const float* dx_out, const LayerCache& cache,
                    const float* x_in, const float* w, const RopeTables& rope,
                    LayerScratch* scratch, const ModelConfig& config, int T);

}  // namespace normlab::model
