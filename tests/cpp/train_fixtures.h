// Shared by the trainer's tests: small configurations, the committed
// training text, and parameters drawn away from the initialization so every
// term of the backward matters.
//
// D = hidden, L = layers, T = seq
#pragma once

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tensor_check.h"
#include "train/layout.h"
#include "train/options.h"

namespace normlab::test {

// A path under the source tree's root (source_dir.cpp).
std::string source_path(const std::string& relative);

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

// The page's Chinese prose as committed (web/data/training-text.zh.txt).
inline const std::string& training_text() {
  static const std::string text = read_file(source_path("web/data/training-text.zh.txt"));
  return text;
}

// The trainer tests' model: D 16, L 3, 2 heads, T 16, B 4, lr 1e-2, a few
// milliseconds a step in every build.
inline train::TrainOptions small_options(const char* placement, const char* norm = "rmsnorm",
                                         int warmup = 3) {
  train::TrainOptions o;
  o.layers = 3;
  o.hidden = 16;
  o.heads = 2;
  o.seq = 16;
  o.batch = 4;
  o.lr = 1e-2;
  o.warmup = warmup;
  o.placement = placement;
  o.norm = norm;
  o.text = training_text();
  return o;
}

// The gradient check's model: D 8, L 2, 2 heads, T 6, batch 2.
inline train::TrainOptions tiny_options(const char* placement, const char* norm) {
  train::TrainOptions o;
  o.layers = 2;
  o.hidden = 8;
  o.heads = 2;
  o.seq = 6;
  o.batch = 2;
  o.placement = placement;
  o.norm = norm;
  o.text = training_text();
  return o;
}

// Weights uniform in [-0.5, 0.5), gains in [0.5, 1.5), biases in [-0.2, 0.2):
// far from the N(0, 0.02) start, where the model is nearly linear.
inline std::vector<float> spread_params(const train::ParamLayout& layout,
                                        const train::TrainConfig& c, uint64_t seed) {
  Rng rng(seed);
  std::vector<float> p(layout.total);
  for (float& x : p) x = rng.uniform(-0.5f, 0.5f);
  auto fill = [&](std::size_t offset, float lo, float hi, int n) {
    if (offset == train::kAbsent) return;
    for (int i = 0; i < n; ++i) p[offset + i] = rng.uniform(lo, hi);
  };
  const int D = c.hidden, dh = c.head_dim();
  for (const auto& l : layout.layers) {
    fill(l.norm1_gain, 0.5f, 1.5f, D);
    fill(l.norm2_gain, 0.5f, 1.5f, D);
    fill(l.norm1_bias, -0.2f, 0.2f, D);
    fill(l.norm2_bias, -0.2f, 0.2f, D);
  }
  // The tensors options add draw after every other, so that each existing
  // configuration keeps its spread parameters.
  for (const auto& l : layout.layers) {
    fill(l.q_gain, 0.5f, 1.5f, dh);
    fill(l.k_gain, 0.5f, 1.5f, dh);
    fill(l.norm1_out_gain, 0.5f, 1.5f, D);
    fill(l.norm2_out_gain, 0.5f, 1.5f, D);
    fill(l.norm1_out_bias, -0.2f, 0.2f, D);
    fill(l.norm2_out_bias, -0.2f, 0.2f, D);
    for (std::size_t alpha : {l.norm1_alpha, l.norm2_alpha, l.norm1_out_alpha, l.norm2_out_alpha})
      fill(alpha, 0.3f, 1.2f, 1);
  }
  fill(layout.final_alpha, 0.3f, 1.2f, 1);
  fill(layout.final_gain, 0.5f, 1.5f, D);
  fill(layout.final_bias, -0.2f, 0.2f, D);
  return p;
}

}  // namespace normlab::test
