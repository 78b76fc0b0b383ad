// A double-precision reference of the trainer's model (train/trainer.h):
// the same forward, written as plain loops over the same parameter layout,
// its backward by hand, and Adam, all in double. The tests hold its backward
// to finite differences of its forward, and the float trainer to it.
//
// V = 256, D = hidden, H = heads, dh = D / H, F = 4 D, L = layers, T = seq,
// N = sequences
#pragma once

#include <cstdint>
#include <vector>

#include "train/layout.h"
#include "train/options.h"

namespace normlab::test {

// The forward's lengths as train::LayerNormProbe lays them out, in double:
// each the mean over the N T rows of the row's L2 norm.
struct ReferenceLengths {
  std::vector<double> residual;  // (L + 1)
  std::vector<double> norm_in;   // (L, 2) or empty (norm 'none')
  std::vector<double> norm_out;  // (L, 2)
  // As train::LayerNormProbe defines them, for N = 1.
  std::vector<double> attention_entropy;  // (L)
  std::vector<double> token_similarity;   // (L + 1)
  // As train::StepResult defines it, over all N sequences: each layer's
  // largest q.k / sqrt(dh) over heads and causal pairs.
  std::vector<double> max_logit;  // (L)
};

// Mean cross-entropy of N sequences (inputs, targets: (N, T)) under params
// (laid out as param_layout(config)); with grads, also its gradient (written,
// same layout); with lengths, the forward's lengths.
double reference_loss(const train::TrainConfig& config, const train::ParamLayout& layout,
                      const std::vector<double>& params, const uint8_t* inputs,
                      const uint8_t* targets, int N, std::vector<double>* grads,
                      ReferenceLengths* lengths = nullptr);

// Adam as the trainer applies it (beta 0.9, 0.999, eps 1e-8, no weight
// decay), in double. step counts from 1.
void reference_adam(std::vector<double>& params, std::vector<double>& m, std::vector<double>& v,
                    const std::vector<double>& grads, double lr, int step);

}  // namespace normlab::test
