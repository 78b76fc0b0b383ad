// Configuration of the trainer: the options as the JS API receives them,
// their validation (messages that start with the JS field name; no
// exceptions, the shipped wasm modules have none), and the resolved, typed
// configuration a Trainer is built from.
//
// The defaults are the demonstration config, chosen from the sweep on the
// committed text (web/data/train-sweep.json): at this depth and learning
// rate post-norm without warmup stalls on the unigram plateau while pre-norm
// and post-norm with warmup learn, and the 6-layer post-norm model learns.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>

#include "model/options.h"

namespace normlab::train {

using model::NormKind;
using model::Placement;

// The default standard deviation of the initial weights at width D:
// GPT-2's 0.02, which it uses at width 768, scaled as 1 / sqrt(width),
// 0.02 sqrt(768 / D) (0.098 at D = 32). A weight's Adam update is about lr
// whatever its size, so at width 32 GPT-2's own 0.02 lets the first few
// steps outweigh the random start (web/data/lab-setup.md).
double init_std_for(int hidden);

// Options exactly as JavaScript passes them: numbers as double (so integer-
// ness and range are checked here rather than truncated by the binding),
// enums as strings, the training text as its UTF-8 bytes.
struct TrainOptions {
  double layers = 24;              // integer in 1..64
  double hidden = 32;              // power of two in 8..256
  double heads = 4;                // power of two in 1..min(16, hidden / 4)
  std::string norm = "rmsnorm";    // "rmsnorm" | "layernorm" | "none"
  std::string placement = "post";  // "pre" | "post"
  // NaN means the norm's default: 1e-6 for RMSNorm, 1e-5 for LayerNorm.
  double eps = std::numeric_limits<double>::quiet_NaN();
  // NaN means the width's default, init_std_for(hidden): 0.098 at 32.
  double init_std = std::numeric_limits<double>::quiet_NaN();
  double lr = 3e-3;    // finite, > 0: Adam's step size after warmup
  double warmup = 0;   // integer in 0..100000: steps of linear warmup
  double steps = 400;  // integer in 1..100000: the run's planned length
  double seed = 1;     // integer in 0..4294967295: weights and batches
  double seq = 64;     // integer in 2..256: bytes per training sequence
  double batch = 8;    // integer in 1..64: sequences per step
  std::string text;    // the training text's bytes; the last 10% is held out
};

// The resolved configuration. V = 256 (bytes), D = hidden, H = heads,
// L = layers, T = seq, B = batch, F = 4 D (the MLP's width).
struct TrainConfig {
  int layers = 24;
  int hidden = 32;
  int heads = 4;
  NormKind norm = NormKind::rmsnorm;
  Placement placement = Placement::post;
  float eps = 1e-6f;
  float init_std = static_cast<float>(init_std_for(hidden));  // init.h
  double lr = 3e-3;
  int warmup = 0;
  int steps = 400;
  uint32_t seed = 1;
  int seq = 64;
  int batch = 8;
  // Sequences per micro-batch: the rows one forward/backward unit works on,
  // and what the per-layer activations are sized for. Not an option of the
  // JS API: results do not depend on it (every gradient is summed row by
  // row in the same order whatever the micro-batch), only memory and speed.
  int micro_batch = 1;

  static constexpr int kVocab = 256;
  int head_dim() const { return hidden / heads; }
  int mlp_width() const { return 4 * hidden; }
  // Whether the layers and the head have norms at all, and whether a final
  // norm precedes the head (pre-norm only: a post-norm stream leaves its
  // last layer already normalized).
  bool has_norm() const { return norm != NormKind::none; }
  bool has_final_norm() const { return has_norm() && placement == Placement::pre; }
};

// A trainer may use at most this much memory (parameters, Adam state,
// gradients, activations): a phone's tab holds it.
inline constexpr double kMaxTrainerBytes = 256.0 * 1024 * 1024;

// Empty if the options are valid, else one message naming the first bad
// field, e.g. "lr must be a finite number > 0".
std::string validate_train_options(const TrainOptions& options);

// Precondition: validate_train_options(options) is empty.
TrainConfig resolve_train_options(const TrainOptions& options);

// Empty if Trainer::generate's arguments, as JavaScript passes them, are
// valid, else a message naming the first bad one: "nBytes must be an integer
// in 0..100000", "temperature must be a number in 0..100", "seed must be an
// integer in 0..4294967295".
std::string validate_generate_options(double n_bytes, double temperature, double seed);

// Empty if a prompt of `bytes` UTF-8 bytes fits Trainer::layer_norms (one
// window: 1..seq bytes), else "prompt must be 1..64 bytes of UTF-8, not 70".
std::string validate_layer_norms_prompt(std::size_t bytes, int seq);

// The smallest text a configuration trains on: its held-out tenth must hold
// one window of seq + 1 bytes.
int min_text_bytes(int seq);

// Floating-point operations of one training step (forward, backward and
// nothing else), counted exactly for the products: 2 M N K for each M x N x K
// matrix product, and for causal attention 2 dh per (query, key <= query)
// pair and product. The backward does each product's two partner products.
// Norms, softmax, GELU, residual additions, the embedding and Adam are not
// counted: they are O(rows x D), O(rows x T) or O(parameters) elementwise work.
double flops_per_step(const TrainConfig& config);

}  // namespace normlab::train
