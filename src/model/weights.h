// The synthetic model's parameters: one flat float arena with a fixed
// layout (the gradients use the same layout), and their deterministic
// initialization from the seed.
//
// L = layers, D = hidden size, H = heads, dh = D / H, V = vocabulary (256)
//
// Every parameter is a length-D vector: the projections are structured
// (diagonal scalings around fast Walsh-Hadamard transforms, see attention.h
// and mlp.h), so a layer holds 13 vectors of D floats instead of dense
// D x D matrices.
#pragma once

#include <cstdint>
#include <vector>

#include "model/options.h"

namespace normlab::model {

// Vocabulary: one token per UTF-8 byte (see tokenizer.h).
constexpr int kVocab = 256;

// The D-vectors of one layer, in arena order. "mix" vectors are the random
// signs of a randomized Hadamard transform (stored as learnable diagonals of
// magnitude 1); "scale" vectors are the diagonal scalings after it.
enum LayerTensor : int {
  kAttnMix,           // attention: u = H(mix * x) / sqrt(D), the shared transform
  kAttnQuery,         // q = R(query * u)  (R: rotary position embedding)
  kAttnKey,           // k = R(key * u)
  kAttnValue,         // v = value * u
  kAttnOut,           // out = attn_out * y
  kMlpInMix,          // MLP: z1 = H(in_mix * x) / sqrt(D)
  kMlpInScale,        // m = in_scale * z1
  kMlpOutMix,         // z2 = H(out_mix * silu(m)) / sqrt(D)
  kMlpOutScale,       // out = out_scale * z2
  kInputNormGain,     // the attention sub-block's norm (chapter: input norm)
  kInputNormBias,     // LayerNorm only; zero at initialization
  kPostAttnNormGain,  // the MLP sub-block's norm (post-attention norm)
  kPostAttnNormBias,  // LayerNorm only; zero at initialization
  kLayerTensors
};

// Groups of a layer's tensors whose gradient norms are reported together:
// [begin, end) in LayerTensor order.
constexpr int kAttentionTensorsBegin = kAttnMix;
constexpr int kAttentionTensorsEnd = kMlpInMix;
constexpr int kMlpTensorsBegin = kMlpInMix;
constexpr int kMlpTensorsEnd = kInputNormGain;
constexpr int kNormTensorsBegin = kInputNormGain;
constexpr int kNormTensorsEnd = kLayerTensors;

// Arena layout: layer l's tensors (kLayerTensors, D) one after another, then
// the embedding (V, D), then the final norm's gain (D) and bias (D).
//
// A set that init_parameters() drew holds its embedding and final norm at
// once and draws each layer's tensors on the first read of that layer (or of
// a later one, or of the whole arena through data()): a layer's draws depend
// on (seed, layer) alone (tensor_seed), so drawing it later gives the same
// numbers, and a model that runs its first layers does not wait for the
// other ones (64 layers are most of a model's creation). The drawing is
// logically const: the numbers a reader sees never change. Any other set
// (gradients, copies of a fully drawn set) holds all its layers from the
// start.
class ParameterSet {
 public:
  ParameterSet() = default;
  ParameterSet(int layers, int hidden)
      : layers_(layers),
        hidden_(hidden),
        drawn_layers_(layers),
        data_(static_cast<size_t>(layers * kLayerTensors + kVocab + 2) * hidden, 0.0f) {}

  int layers() const { return layers_; }
  int hidden() const { return hidden_; }
  size_t size() const { return data_.size(); }
  // The whole arena: every layer is drawn first.
  float* data() {
    draw_through(layers_ - 1);
    return data_.data();
  }
  const float* data() const {
    draw_through(layers_ - 1);
    return data_.data();
  }

  // One layer's tensors: (kLayerTensors, D)
  float* layer(int l) {
    draw_through(l);
    return data_.data() + layer_offset(l);
  }
  const float* layer(int l) const {
    draw_through(l);
    return data_.data() + layer_offset(l);
  }
  // One tensor: (D)
  float* tensor(int l, LayerTensor k) { return layer(l) + k * hidden_; }
  const float* tensor(int l, LayerTensor k) const { return layer(l) + k * hidden_; }
  // (V, D): row v is token v's embedding and, tied, its LM-head row.
  float* embedding() { return data_.data() + layer_offset(layers_); }
  const float* embedding() const { return data_.data() + layer_offset(layers_); }
  float* final_gain() { return embedding() + kVocab * hidden_; }
  const float* final_gain() const { return embedding() + kVocab * hidden_; }
  float* final_bias() { return final_gain() + hidden_; }
  const float* final_bias() const { return final_gain() + hidden_; }
  // How many layers (from the first) hold their numbers yet.
  int drawn_layers() const { return drawn_layers_; }

  void set_zero();

 private:
  friend void init_parameters(ParameterSet* params, const ModelConfig& config);

  size_t layer_offset(int l) const { return static_cast<size_t>(l) * kLayerTensors * hidden_; }
  // Draws the layers not drawn yet up to and including layer l.
  void draw_through(int l) const {
    if (l >= drawn_layers_) draw_layers(l + 1);
  }
  void draw_layers(int end) const;

  int layers_ = 0;
  int hidden_ = 0;
  // What init_parameters() draws the layers from.
  uint32_t seed_ = 0;
  int heads_ = 0;
  mutable int drawn_layers_ = 0;
  mutable std::vector<float> data_;  // (layers * kLayerTensors + V + 2, D)
};

// The initialization's scale constants. They were set by the forward-pass
// shapes the teaching page shows (listed in model.h) and by nothing else;
// every layer draws from the same distributions.
struct InitScales {
  // Every embedding row has L2 = embedding * sqrt(D): the residual stream
  // starts below sqrt(D).
  double embedding;
  // Magnitudes of the diagonal scalings (each entry is +-scale times a
  // jitter uniform in [0.75, 1.25]; query also times a per-head temperature
  // in [0.7, 1.3]). With a normalized input (L2 ~ sqrt(D), so u has entries
  // of size ~1):
  //   - query * key sets the spread of the attention logits, ~1: attention
  //     stays spread out (mean max probability ~0.2 over 16+ tokens);
  //   - value * attn_out and mlp_in * mlp_out set how much the sub-blocks add
  //     to the residual stream, ~0.15 sqrt(D) and ~0.6 sqrt(D) per layer, in
  //     mostly new directions: from 0.3 sqrt(D) the stream reaches
  //     ~3.2 sqrt(D) after 24 layers (ratio ~10.5);
  //   - mlp_in puts SiLU's input at ~1.2, where it is already ReLU-like:
  //     without a norm the MLP grows with the stream, which then grows by
  //     ~1.2 per layer (ratio 100..160 over 24 layers) and saturates
  //     attention from layer ~16 on.
  double query, key, value, attn_out;
  double mlp_in, mlp_out;
  // LM-head logits are logit_scale * <x_final, e_v> / (embedding * sqrt(D)),
  // so logit_scale is their spread for a normalized final stream.
  double logit_scale;
};

const InitScales& init_scales();

// Draws every parameter from config.seed: same seed, same numbers, on every
// build. Layer l's tensors depend only on (seed, l), so models that differ in
// depth, norm or placement share their weights layer by layer. The embedding
// and the final norm are drawn here, each layer on its first read (see
// ParameterSet).
void init_parameters(ParameterSet* params, const ModelConfig& config);

// The LM head's multiplier on <x_final, e_v> (see InitScales::logit_scale).
float lm_head_scale(int hidden);

}  // namespace normlab::model
