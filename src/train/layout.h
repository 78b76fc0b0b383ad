// Where a trainer's tensors live: the parameters in one flat array (the
// gradients and Adam's moments use the same offsets), the transposed weight
// copies the forward multiplies with, and the bytes the whole trainer holds.
//
// V = 256, D = hidden, F = 4 D, T = seq, L = layers, H = heads,
// S = sequences per micro-batch, R = S T rows
//
// Parameter order: wte, wpe, then each layer's tensors contiguously (so a
// layer's gradient norm is one range), then the final norm. A layer holds
// norm1 (gain, bias), qkv, attn_out, norm2 (gain, bias), fc, fc_out, then
// what the options added later bring (QK-norm's q and k gains); a norm has a
// gain for RMSNorm and a gain and a bias for LayerNorm, nothing with norm
// 'none'. A tensor an option adds comes after the tensors every
// configuration has, so those keep their offsets with the option off.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "train/options.h"

namespace normlab::train {

// The offset of a tensor the configuration does not have.
inline constexpr std::size_t kAbsent = SIZE_MAX;

struct LayerParamOffsets {
  std::size_t norm1_gain;  // (D) or kAbsent
  std::size_t norm1_bias;  // (D) or kAbsent (LayerNorm only)
  std::size_t qkv;         // (3D, D): rows [q | k | v], heads side by side in each
  std::size_t attn_out;    // (D, D)
  std::size_t norm2_gain;  // (D) or kAbsent
  std::size_t norm2_bias;  // (D) or kAbsent
  std::size_t fc;          // (F, D)
  std::size_t fc_out;      // (D, F)
  // QK-norm's gains, one per head feature, shared by the heads (as Qwen3's
  // and OLMo 2's per-head q_norm / k_norm): kAbsent without qkNorm.
  std::size_t q_gain;  // (dh) or kAbsent
  std::size_t k_gain;  // (dh) or kAbsent
  // Sandwich norm's second norms, on the attention's and the MLP's outputs
  // (N1o, N2o), as norm1 and norm2 otherwise: kAbsent but for 'sandwich'.
  std::size_t norm1_out_gain;  // (D) or kAbsent
  std::size_t norm1_out_bias;  // (D) or kAbsent (LayerNorm only)
  std::size_t norm2_out_gain;  // (D) or kAbsent
  std::size_t norm2_out_bias;  // (D) or kAbsent
  // DyT's alpha of each norm above that the layer has: kAbsent but for
  // norm 'dyt' (whose gamma and beta are the norms' gain and bias).
  std::size_t norm1_alpha;      // (1) or kAbsent
  std::size_t norm2_alpha;      // (1) or kAbsent
  std::size_t norm1_out_alpha;  // (1) or kAbsent (sandwich)
  std::size_t norm2_out_alpha;  // (1) or kAbsent (sandwich)
  std::size_t begin, end;       // the layer's range [begin, end)
};

struct ParamLayout {
  std::size_t wte;                        // (V, D) byte embeddings, also the LM head (tied)
  std::size_t wpe;                        // (T, D) learned positions
  std::vector<LayerParamOffsets> layers;  // (L)
  std::size_t final_gain;                 // (D) or kAbsent (pre-norm with a norm only)
  std::size_t final_bias;                 // (D) or kAbsent
  std::size_t final_alpha;                // (1) or kAbsent (DyT with a final norm)
  std::size_t total;                      // floats
};

ParamLayout param_layout(const TrainConfig& config);

// p + offset, or nullptr for an absent tensor (the norm kernels read nullptr
// as g = 1, b = 0).
inline float* tensor_at(float* p, std::size_t offset) {
  return offset == kAbsent ? nullptr : p + offset;
}
inline const float* tensor_at(const float* p, std::size_t offset) {
  return offset == kAbsent ? nullptr : p + offset;
}

// The transposed copies W^T of the weight matrices, layer by layer:
// qkv_t (D, 3D), attn_out_t (D, D), fc_t (D, F), fc_out_t (F, D); then
// wte_t (D, V) for the head.
struct TransposedOffsets {
  std::size_t qkv, attn_out, fc, fc_out;
};
inline constexpr std::size_t kLayerMatrixFloatsPerD2 = 12;  // 3 + 1 + 4 + 4
TransposedOffsets transposed_offsets(const TrainConfig& config, int layer);
std::size_t transposed_wte_offset(const TrainConfig& config);
std::size_t transposed_floats(const TrainConfig& config);

// Floats per micro-batch: what one layer keeps for its backward, what the
// residual stream, the head and the backward's scratch take, and the
// forward-only buffers of evaluate() and generate() (one sequence).
std::size_t layer_activation_floats(const TrainConfig& config);
std::size_t stream_floats(const TrainConfig& config);     // (L + 1, R, D)
std::size_t head_floats(const TrainConfig& config);       // final norm, logits
std::size_t backward_floats(const TrainConfig& config);   // gradients of activations
std::size_t inference_floats(const TrainConfig& config);  // evaluate / generate

// Bytes a trainer holds, by purpose.
struct MemoryReport {
  double params;       // parameters and their transposed copies
  double adam;         // first and second moments
  double grads;        // parameter gradients
  double activations;  // one micro-batch's forward cache, stream and head
  double scratch;      // backward buffers, forward-only buffers, the batch
  double text;         // the training text
  double total;
};

MemoryReport memory_needed(const TrainConfig& config, std::size_t text_bytes);

}  // namespace normlab::train
