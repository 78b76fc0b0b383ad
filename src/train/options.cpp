// Validation and resolution of the trainer's options (see options.h).
//
// V = 256, D = hidden, F = 4 D, T = seq, L = layers, H = heads, B = batch,
// dh = D / H
#include "train/options.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "model/number_checks.h"
#include "train/layout.h"

namespace normlab::train {

using model::is_integer_in;
using model::is_power_of_two_in;

int min_text_bytes(int seq) { return 10 * (seq + 1); }

double init_std_for(int hidden) { return 0.02 * std::sqrt(768.0 / hidden); }

std::string validate_train_options(const TrainOptions& o) {
  if (!is_integer_in(o.layers, 1, 64)) {
    return "layers must be an integer in 1..64";
  }
  if (!is_power_of_two_in(o.hidden, 8, 256)) {
    return "hidden must be a power of two in 8..256";
  }
  // At least 4 features per head.
  const int max_heads = std::min(16, static_cast<int>(o.hidden) / 4);
  if (!is_power_of_two_in(o.heads, 1, max_heads)) {
    return "heads must be a power of two in 1.." + std::to_string(max_heads) + " for hidden " +
           std::to_string(static_cast<int>(o.hidden));
  }
  if (o.norm != "rmsnorm" && o.norm != "layernorm" && o.norm != "none") {
    return "norm must be 'rmsnorm', 'layernorm' or 'none'";
  }
  if (o.placement != "pre" && o.placement != "post") {
    return "placement must be 'pre' or 'post'";
  }
  if (!std::isnan(o.eps) && !(o.eps >= 0.0 && o.eps <= 1.0)) {
    return "eps must be a number in 0..1";
  }
  if (!std::isnan(o.init_std) && !(o.init_std > 0.0 && o.init_std <= 1.0)) {
    return "initStd must be a number > 0 and <= 1";
  }
  if (!(std::isfinite(o.lr) && o.lr > 0.0)) {
    return "lr must be a finite number > 0";
  }
  if (!is_integer_in(o.warmup, 0, 100000)) {
    return "warmup must be an integer in 0..100000";
  }
  if (!is_integer_in(o.steps, 1, 100000)) {
    return "steps must be an integer in 1..100000";
  }
  if (!is_integer_in(o.seed, 0, 4294967295.0)) {
    return "seed must be an integer in 0..4294967295";
  }
  if (!is_integer_in(o.seq, 2, 256)) {
    return "seq must be an integer in 2..256";
  }
  if (!is_integer_in(o.batch, 1, 64)) {
    return "batch must be an integer in 1..64";
  }
  const int min_bytes = min_text_bytes(static_cast<int>(o.seq));
  if (o.text.size() < static_cast<std::size_t>(min_bytes)) {
    return "text must hold at least " + std::to_string(min_bytes) + " bytes for seq " +
           std::to_string(static_cast<int>(o.seq)) + " (its last 10% is held out), not " +
           std::to_string(o.text.size());
  }
  const MemoryReport m = memory_needed(resolve_train_options(o), o.text.size());
  if (m.total > kMaxTrainerBytes) {
    char mib[32];
    std::snprintf(mib, sizeof mib, "%.0f", m.total / (1024.0 * 1024.0));
    return std::string("layers, hidden and seq need ") + mib +
           " MiB together, more than a trainer may use (256 MiB)";
  }
  return "";
}

std::string validate_generate_options(double n_bytes, double temperature, double seed) {
  if (!is_integer_in(n_bytes, 0, 100000)) {
    return "nBytes must be an integer in 0..100000";
  }
  if (!(temperature >= 0.0 && temperature <= 100.0)) {
    return "temperature must be a number in 0..100";
  }
  if (!is_integer_in(seed, 0, 4294967295.0)) {
    return "seed must be an integer in 0..4294967295";
  }
  return "";
}

std::string validate_layer_norms_prompt(std::size_t bytes, int seq) {
  if (bytes >= 1 && bytes <= static_cast<std::size_t>(seq)) return "";
  return "prompt must be 1.." + std::to_string(seq) + " bytes of UTF-8, not " +
         std::to_string(bytes);
}

TrainConfig resolve_train_options(const TrainOptions& o) {
  TrainConfig c;
  c.layers = static_cast<int>(o.layers);
  c.hidden = static_cast<int>(o.hidden);
  c.heads = static_cast<int>(o.heads);
  c.norm = o.norm == "layernorm" ? NormKind::layernorm
           : o.norm == "none"    ? NormKind::none
                                 : NormKind::rmsnorm;
  c.placement = o.placement == "pre" ? Placement::pre : Placement::post;
  if (std::isnan(o.eps)) {
    c.eps = c.norm == NormKind::layernorm ? 1e-5f : 1e-6f;
  } else {
    c.eps = static_cast<float>(o.eps);
  }
  c.init_std = static_cast<float>(std::isnan(o.init_std) ? init_std_for(c.hidden) : o.init_std);
  c.lr = o.lr;
  c.warmup = static_cast<int>(o.warmup);
  c.steps = static_cast<int>(o.steps);
  c.seed = static_cast<uint32_t>(o.seed);
  c.seq = static_cast<int>(o.seq);
  c.batch = static_cast<int>(o.batch);
  return c;
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
