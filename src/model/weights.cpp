// Deterministic initialization of the synthetic model's parameters (see
// weights.h). D = hidden size, H = heads, dh = D / H, V = vocabulary.
#include "model/weights.h"

#include <algorithm>
#include <cmath>

#include "model/rng.h"

namespace normlab::model {

namespace {

// Tensor ids for tensor_seed(); the layer tensors use their LayerTensor value.
constexpr uint32_t kEmbeddingTensorId = 200;
constexpr uint32_t kFinalGainTensorId = 201;
constexpr uint32_t kHeadTemperatureTensorId = 202;

// Random signs: the "randomized" part of a randomized Hadamard transform.
void draw_signs(float* out, int n, SplitMix64* rng) {
  for (int i = 0; i < n; i++) out[i] = static_cast<float>(rng->sign());
}

// +-scale times a jitter uniform in [0.75, 1.25].
void draw_scaled_signs(float* out, int n, double scale, SplitMix64* rng) {
  for (int i = 0; i < n; i++) {
    const double jitter = 0.75 + 0.5 * rng->uniform();
    out[i] = static_cast<float>(rng->sign() * scale * jitter);
  }
}

// Norm gains the way trained norm layers look: most near 1, a few far.
// 90% are 1 + 0.08 n (n ~ normal, bounded: 0.72..1.28); 10% are
// (1 + w) / (1 - w) with w uniform in [-0.538, 0.33], spread from 0.30 to
// 1.99, denser near 1 than far from it.
void draw_gains(float* out, int n, SplitMix64* rng) {
  for (int i = 0; i < n; i++) {
    if (rng->uniform() < 0.9) {
      out[i] = static_cast<float>(1.0 + 0.08 * rng->normal());
    } else {
      const double w = -0.538 + 0.868 * rng->uniform();
      out[i] = static_cast<float>((1.0 + w) / (1.0 - w));
    }
  }
}

}  // namespace

// Zero everywhere, every layer included: nothing is left to draw.
void ParameterSet::set_zero() {
  std::fill(data_.begin(), data_.end(), 0.0f);
  drawn_layers_ = layers_;
}

const InitScales& init_scales() {
  static const InitScales scales = {
      /*embedding=*/0.3,
      /*query=*/1.0,       /*key=*/1.0,
      /*value=*/0.5,       /*attn_out=*/0.5,
      /*mlp_in=*/1.2,      /*mlp_out=*/0.8,
      /*logit_scale=*/2.0,
  };
  return scales;
}

float lm_head_scale(int hidden) {
  return static_cast<float>(init_scales().logit_scale /
                            (init_scales().embedding * std::sqrt(hidden)));
}

namespace {

// Layer l's tensors, from (seed, l) alone. out: (kLayerTensors, D), its
// biases left as they are (zero).
void draw_layer(float* out, uint32_t seed, int l, int D, int heads) {
  const int dh = D / heads;
  const InitScales& s = init_scales();
  auto tensor = [&](LayerTensor k) { return out + k * D; };
  auto rng_for = [&](LayerTensor k) {
    return SplitMix64(tensor_seed(seed, static_cast<uint32_t>(l), k));
  };
  SplitMix64 r_mix = rng_for(kAttnMix);
  draw_signs(tensor(kAttnMix), D, &r_mix);

  // Each head gets its own logit temperature in [0.7, 1.3], carried by its
  // query scales: some heads attend more sharply than others.
  SplitMix64 r_temp(tensor_seed(seed, static_cast<uint32_t>(l), kHeadTemperatureTensorId));
  SplitMix64 r_query = rng_for(kAttnQuery);
  float* query = tensor(kAttnQuery);
  for (int h = 0; h < heads; h++) {
    const double temperature = 0.7 + 0.6 * r_temp.uniform();
    draw_scaled_signs(query + h * dh, dh, s.query * temperature, &r_query);
  }
  SplitMix64 r_key = rng_for(kAttnKey);
  draw_scaled_signs(tensor(kAttnKey), D, s.key, &r_key);
  SplitMix64 r_value = rng_for(kAttnValue);
  draw_scaled_signs(tensor(kAttnValue), D, s.value, &r_value);
  SplitMix64 r_out = rng_for(kAttnOut);
  draw_scaled_signs(tensor(kAttnOut), D, s.attn_out, &r_out);

  SplitMix64 r_in_mix = rng_for(kMlpInMix);
  draw_signs(tensor(kMlpInMix), D, &r_in_mix);
  SplitMix64 r_in_scale = rng_for(kMlpInScale);
  draw_scaled_signs(tensor(kMlpInScale), D, s.mlp_in, &r_in_scale);
  SplitMix64 r_out_mix = rng_for(kMlpOutMix);
  draw_signs(tensor(kMlpOutMix), D, &r_out_mix);
  SplitMix64 r_out_scale = rng_for(kMlpOutScale);
  draw_scaled_signs(tensor(kMlpOutScale), D, s.mlp_out, &r_out_scale);

  SplitMix64 r_g1 = rng_for(kInputNormGain);
  draw_gains(tensor(kInputNormGain), D, &r_g1);
  SplitMix64 r_g2 = rng_for(kPostAttnNormGain);
  draw_gains(tensor(kPostAttnNormGain), D, &r_g2);
}

}  // namespace

void ParameterSet::draw_layers(int end) const {
  for (; drawn_layers_ < end; drawn_layers_++) {
    draw_layer(data_.data() + layer_offset(drawn_layers_), seed_, drawn_layers_, hidden_, heads_);
  }
}

void init_parameters(ParameterSet* params, const ModelConfig& config) {
  const int D = config.hidden;
  const InitScales& s = init_scales();
  params->set_zero();
  // The layers: each on its first read.
  params->seed_ = config.seed;
  params->heads_ = config.heads;
  params->drawn_layers_ = 0;

  // Embedding rows: a normal direction scaled to L2 = embedding * sqrt(D).
  SplitMix64 r_emb(tensor_seed(config.seed, 0, kEmbeddingTensorId));
  float* embedding = params->embedding();
  std::vector<double> row(D);
  for (int v = 0; v < kVocab; v++) {
    double sum_sq = 0.0;
    for (int i = 0; i < D; i++) {
      row[i] = r_emb.normal();
      sum_sq += row[i] * row[i];
    }
    const double scale = s.embedding * std::sqrt(D) / std::sqrt(sum_sq);
    for (int i = 0; i < D; i++) {
      embedding[v * D + i] = static_cast<float>(row[i] * scale);
    }
  }

  SplitMix64 r_final(tensor_seed(config.seed, 0, kFinalGainTensorId));
  draw_gains(params->final_gain(), D, &r_final);
}

}  // namespace normlab::model
