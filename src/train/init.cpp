// The trainer's initial parameters (see init.h).
//
// V = 256, D = hidden, F = 4 D, T = seq
#include "train/init.h"

#include <algorithm>
#include <cstddef>

#include "model/rng.h"

namespace normlab::train {

namespace {

// Tensor identities for model::tensor_seed; the embeddings belong to no
// layer and take a layer number no model reaches.
enum TensorId : uint32_t { kWte = 1, kWpe, kQkv, kAttnOut, kFc, kFcOut };
constexpr uint32_t kNoLayer = 0xFFFFFF;

void draw_normal(float* out, std::size_t n, float sd, uint32_t seed, uint32_t layer,
                 uint32_t tensor) {
  model::SplitMix64 rng(model::tensor_seed(seed, layer, tensor));
  for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<float>(sd * rng.normal());
}

void fill_if(float* params, std::size_t offset, std::size_t n, float value) {
  if (offset != kAbsent) std::fill(params + offset, params + offset + n, value);
}

void scale_all(float* v, std::size_t n, float s) {
  for (std::size_t i = 0; i < n; ++i) v[i] *= s;
}

}  // namespace

void init_params(float* params, const ParamLayout& p, const TrainConfig& c) {
  const std::size_t D = c.hidden, F = c.mlp_width(), V = TrainConfig::kVocab, T = c.seq;
  const float s = c.init_std;
  // The residual branches' last matrices (attention's output projection and
  // the MLP's second): what each branch adds to the stream starts scaled.
  const float s_out = s * c.residual_init_scale;
  draw_normal(params + p.wte, V * D, s, c.seed, kNoLayer, kWte);
  draw_normal(params + p.wpe, T * D, s, c.seed, kNoLayer, kWpe);
  for (int l = 0; l < c.layers; ++l) {
    const LayerParamOffsets& o = p.layers[l];
    fill_if(params, o.norm1_gain, D, 1.0f);
    fill_if(params, o.norm1_bias, D, 0.0f);
    draw_normal(params + o.qkv, 3 * D * D, s, c.seed, l, kQkv);
    draw_normal(params + o.attn_out, D * D, s_out, c.seed, l, kAttnOut);
    fill_if(params, o.norm2_gain, D, 1.0f);
    fill_if(params, o.norm2_bias, D, 0.0f);
    draw_normal(params + o.fc, F * D, s, c.seed, l, kFc);
    draw_normal(params + o.fc_out, D * F, s_out, c.seed, l, kFcOut);
    if (c.is_deepnorm()) {
      // After the draws, which stay those of every placement: DeepNorm's
      // beta on the value rows of qkv, attn_out, fc and fc_out.
      const float beta = c.deepnorm_beta();
      scale_all(params + o.qkv + 2 * D * D, D * D, beta);
      scale_all(params + o.attn_out, D * D, beta);
      scale_all(params + o.fc, F * D, beta);
      scale_all(params + o.fc_out, D * F, beta);
    }
    fill_if(params, o.q_gain, c.head_dim(), 1.0f);
    fill_if(params, o.k_gain, c.head_dim(), 1.0f);
    fill_if(params, o.norm1_out_gain, D, 1.0f);
    fill_if(params, o.norm1_out_bias, D, 0.0f);
    fill_if(params, o.norm2_out_gain, D, 1.0f);
    fill_if(params, o.norm2_out_bias, D, 0.0f);
    for (std::size_t alpha : {o.norm1_alpha, o.norm2_alpha, o.norm1_out_alpha, o.norm2_out_alpha})
      fill_if(params, alpha, 1, TrainConfig::kDytAlphaInit);
  }
  fill_if(params, p.final_gain, D, 1.0f);
  fill_if(params, p.final_bias, D, 0.0f);
  fill_if(params, p.final_alpha, 1, TrainConfig::kDytAlphaInit);
}

}  // namespace normlab::train
