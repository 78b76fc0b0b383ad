// Validation and resolution of the trainer's options (see options.h).
//
// V = 256, D = hidden, F = 4 D, T = seq, L = layers, H = heads, B = batch,
// dh = D / H
#include "train/options.h"

#include <cmath>
#include <cstdio>

#include "train/layout.h"

namespace normlab::train {

int min_text_bytes(int seq) { return kHeldOutParts * (seq + 1); }

double init_std_for(int hidden) { return 0.02 * std::sqrt(768.0 / hidden); }

Problem check_train_options(const TrainOptions& o) {
  if (Problem p = model::check_options(kTrainOptions, o)) return p;
  const int min_bytes = min_text_bytes(static_cast<int>(o.seq));
  if (o.text.size() < static_cast<std::size_t>(min_bytes)) {
    return {ProblemCode::kTooShort, Field::kText,
            "text must hold at least " + std::to_string(min_bytes) + " bytes for seq " +
                std::to_string(static_cast<int>(o.seq)) + " (its last 10% is held out), not " +
                std::to_string(o.text.size())};
  }
  const MemoryReport m = memory_needed(resolve_train_options(o), o.text.size());
  if (m.total > kMaxTrainerBytes) {
    char mib[32];
    std::snprintf(mib, sizeof mib, "%.0f", m.total / (1024.0 * 1024.0));
    return {ProblemCode::kOutOfRange, Field::kLayers,
            std::string("layers, hidden and seq need ") + mib +
                " MiB together, more than a trainer may use (256 MiB)"};
  }
  return {};
}

std::string validate_train_options(const TrainOptions& o) { return check_train_options(o).message; }

Problem check_generate_options(double n_bytes, double temperature, double seed) {
  return model::check_options(kGenerateOptions, GenerateOptions{n_bytes, temperature, seed});
}

std::string validate_generate_options(double n_bytes, double temperature, double seed) {
  return check_generate_options(n_bytes, temperature, seed).message;
}

Problem check_layer_norms_prompt(std::size_t bytes, int seq) {
  if (bytes >= 1 && bytes <= static_cast<std::size_t>(seq)) return {};
  return {
      ProblemCode::kOutOfRange, Field::kPrompt,
      "prompt must be 1.." + std::to_string(seq) + " bytes of UTF-8, not " + std::to_string(bytes)};
}

std::string validate_layer_norms_prompt(std::size_t bytes, int seq) {
  return check_layer_norms_prompt(bytes, seq).message;
}

TrainConfig resolve_train_options(const TrainOptions& o) {
  return model::resolve_options(kTrainOptions, o);
}

// Per sequence and layer, forward: the four weight products over T rows,
// 2 T (3D D + D D + F D + D F), and attention's two causal products,
// 2 H dh T (T + 1) / 2 each. The head: 2 T V D. The backward computes two
// products of each forward product's size (the input's and the weight's
// gradient; for attention, two per product): twice the forward.
double flops_per_step(const TrainConfig& c) {
  const double T = c.seq, D = c.hidden, F = c.mlp_width(), H = c.heads, dh = c.head_dim();
  const double V = TrainConfig::kVocab;
  const double layer =
      2 * T * (3 * D * D + D * D + F * D + D * F) + 2 * (2 * H * dh * T * (T + 1) / 2);
  const double forward = c.layers * layer + 2 * T * V * D;
  return c.batch * 3 * forward;
}

}  // namespace normlab::train
