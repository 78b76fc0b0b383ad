// Tensor offsets and memory sizes of a trainer (see layout.h).
//
// V = 256, D = hidden, F = 4 D, T = seq, L = layers, H = heads,
// S = sequences per micro-batch, R = S T rows
#include "train/layout.h"

namespace normlab::train {

ParamLayout param_layout(const TrainConfig& c) {
  const std::size_t D = c.hidden, F = c.mlp_width(), V = TrainConfig::kVocab, T = c.seq;
  const bool gain = c.has_norm();
  const bool bias = c.norm_has_bias();
  const bool dyt = c.norm == NormKind::dyt;
  ParamLayout p;
  std::size_t at = 0;
  auto take = [&at](std::size_t n) {
    const std::size_t offset = at;
    at += n;
    return offset;
  };
  auto take_if = [&take](bool present, std::size_t n) { return present ? take(n) : kAbsent; };
  p.wte = take(V * D);
  p.wpe = take(T * D);
  p.layers.resize(c.layers);
  for (auto& l : p.layers) {
    l.begin = at;
    l.norm1_gain = take_if(gain, D);
    l.norm1_bias = take_if(bias, D);
    l.qkv = take(3 * D * D);
    l.attn_out = take(D * D);
    l.norm2_gain = take_if(gain, D);
    l.norm2_bias = take_if(bias, D);
    l.fc = take(F * D);
    l.fc_out = take(D * F);
    l.q_gain = take_if(c.qk_norm != 0, c.head_dim());
    l.k_gain = take_if(c.qk_norm != 0, c.head_dim());
    const bool out_norms = c.has_sublayer_out_norms();
    l.norm1_out_gain = take_if(out_norms, D);
    l.norm1_out_bias = take_if(out_norms && bias, D);
    l.norm2_out_gain = take_if(out_norms, D);
    l.norm2_out_bias = take_if(out_norms && bias, D);
    l.norm1_alpha = take_if(dyt, 1);
    l.norm2_alpha = take_if(dyt, 1);
    l.norm1_out_alpha = take_if(dyt && out_norms, 1);
    l.norm2_out_alpha = take_if(dyt && out_norms, 1);
    l.end = at;
  }
  p.final_gain = take_if(c.has_final_norm(), D);
  p.final_bias = take_if(c.has_final_norm() && bias, D);
  p.final_alpha = take_if(c.has_final_norm() && dyt, 1);
  p.total = at;
  return p;
}

TransposedOffsets transposed_offsets(const TrainConfig& c, int layer) {
  const std::size_t D = c.hidden, F = c.mlp_width();
  const std::size_t base = static_cast<std::size_t>(layer) * kLayerMatrixFloatsPerD2 * D * D;
  return {base, base + 3 * D * D, base + 4 * D * D, base + 4 * D * D + D * F};
}

std::size_t transposed_wte_offset(const TrainConfig& c) {
  return static_cast<std::size_t>(c.layers) * kLayerMatrixFloatsPerD2 * c.hidden * c.hidden;
}

std::size_t transposed_floats(const TrainConfig& c) {
  return transposed_wte_offset(c) + static_cast<std::size_t>(TrainConfig::kVocab) * c.hidden;
}

// norm1, mid, norm2, attn_y (R, D); qkv (R, 3D); fc, gelu (R, F); four
// norm statistics (R); att (S, H, T, T); with QK-norm the queries and keys
// before it (R, 2D) and their heads' 1 / rms (R, 2H); output and sandwich
// placements: the two branches' outputs (R, D) and four more statistics (R).
std::size_t layer_activation_floats(const TrainConfig& c) {
  const std::size_t S = c.micro_batch, T = c.seq, R = S * T, D = c.hidden, F = c.mlp_width();
  const std::size_t qk = c.qk_norm != 0 ? R * (2 * D + 2 * c.heads) : 0;
  const std::size_t branches = c.caches_branches() ? R * (2 * D + 4) : 0;
  return R * (4 * D + 3 * D + 2 * F + 4) + S * c.heads * T * T + qk + branches;
}

std::size_t stream_floats(const TrainConfig& c) {
  return static_cast<std::size_t>(c.layers + 1) * c.micro_batch * c.seq * c.hidden;
}

// Final norm output and statistics (R, D) + 2 (R); logits and probabilities
// (R, V) each.
std::size_t head_floats(const TrainConfig& c) {
  const std::size_t R = static_cast<std::size_t>(c.micro_batch) * c.seq;
  return R * (c.hidden + 2) + 2 * R * TrainConfig::kVocab;
}

// dstream, dmid, dtmp, dattn_y, projection output (R, D); dqkv (R, 3D);
// dfc, dgelu (R, F); attention's transposed head (dh, T) and two (T, T);
// the input side of wte's gradient (V, D).
std::size_t backward_floats(const TrainConfig& c) {
  const std::size_t T = c.seq, R = static_cast<std::size_t>(c.micro_batch) * T, D = c.hidden,
                    F = c.mlp_width();
  return R * (5 * D + 3 * D + 2 * F) + static_cast<std::size_t>(c.head_dim()) * T + 2 * T * T +
         static_cast<std::size_t>(TrainConfig::kVocab) * D;
}

// One sequence: one layer's activations (every layer reuses them), the
// stream in and out and the projection output (T, D), the head, and
// attention's transposed head (dh, T).
std::size_t inference_floats(const TrainConfig& c) {
  TrainConfig one = c;
  one.micro_batch = 1;
  const std::size_t T = c.seq, D = c.hidden;
  return layer_activation_floats(one) + 3 * T * D + head_floats(one) +
         static_cast<std::size_t>(c.head_dim()) * T;
}

MemoryReport memory_needed(const TrainConfig& c, std::size_t text_bytes) {
  const double f = sizeof(float);
  const double P = static_cast<double>(param_layout(c).total);
  MemoryReport m;
  m.params = f * (P + static_cast<double>(transposed_floats(c)));
  m.adam = f * 2 * P;
  m.grads = f * P;
  m.activations = f * static_cast<double>(layer_activation_floats(c) * c.layers + stream_floats(c) +
                                          head_floats(c));
  // Two byte arrays (inputs, targets) of the whole batch besides the floats.
  m.scratch =
      f * static_cast<double>(backward_floats(c) + inference_floats(c)) + 2.0 * c.batch * c.seq;
  m.text = static_cast<double>(text_bytes);
  m.total = m.params + m.adam + m.grads + m.activations + m.scratch + m.text;
  return m;
}

}  // namespace normlab::train
