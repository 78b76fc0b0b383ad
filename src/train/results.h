// What crosses from the trainer to JavaScript, declared like the model's
// results (model/results.h: the table types, the packed layout, the paths):
// TrainRun, the steps one call completed (trainer.step(n), trainer.advance),
// the resolved TrainConfig (trainer.config) and LayerNormProbe, the lengths
// of one forward pass's stream and norm outputs (trainer.layerNorms()), and
// NormGains, the norms' learned gains and biases (trainer.gains()).
// wasm/train_bindings.cpp (the trainer's own wasm module) packs them by
// walking these tables; wasm/trainer.js reads them with wasm/boundary.js from
// that module's description, as boundary.results.trainRun,
// .trainConfig, .trainLayerNorms and .trainGains.
//
// Symbols: N = steps completed by the call; L = layers, L+1 = the points of
// the residual stream (each layer's input, then the last layer's output);
// D = hidden; named axes norm and placement (model/results.h) name the config's enums,
// and the layer-norm axis (also model/results.h: inputNorm, the attention
// sub-block's norm N1, and postAttentionNorm, the MLP sub-block's N2) a
// layer's two norms.
#pragma once

#include <cstdint>
#include <iterator>
#include <vector>

#include "model/results.h"
#include "train/options.h"
#include "train/trainer.h"

namespace normlab::train {

// The table entries' sources (NORMLAB_RESULT_MEMBER) call span_of unqualified.
using model::span_of;

// The steps one call completed, in order. A call may complete none
// (trainer.advance within a budget shorter than the rest of a step).
struct TrainRun {
  int32_t steps = 0;       // N
  int32_t first_step = 0;  // index of the first of them, from 0
  int32_t steps_done = 0;  // the trainer's steps completed after the call
  int32_t units_done = 0;  // units of the next step already run
  int32_t units_per_step = 0;
  int32_t layers = 0;               // L
  int32_t diverged = 0;             // 1 once a loss or gradient was not finite
  std::vector<float> loss;          // (N) mean cross-entropy of each step's batch
  std::vector<float> grad_first;    // (N) L2 of layer 0's parameter gradients
  std::vector<float> grad_last;     // (N) L2 of layer L - 1's
  std::vector<float> update_first;  // (N) layer 0's relative update size (StepResult)
  std::vector<float> update_last;   // (N) layer L - 1's
  std::vector<float> lr;            // (N) the learning rate of each step's update
  std::vector<float> max_logit;     // (N, L) each step's largest attention logit per layer
  std::vector<float> stream_norm;   // (N, L + 1) each step's mean row L2 of the stream

  // Appends one step's figures, as float32.
  void add(const StepResult& r) {
    ++steps;
    loss.push_back(static_cast<float>(r.loss));
    grad_first.push_back(static_cast<float>(r.grad_first));
    grad_last.push_back(static_cast<float>(r.grad_last));
    update_first.push_back(static_cast<float>(r.update_first));
    update_last.push_back(static_cast<float>(r.update_last));
    lr.push_back(static_cast<float>(r.lr));
    max_logit.insert(max_logit.end(), r.max_logit.begin(), r.max_logit.end());
    stream_norm.insert(stream_norm.end(), r.stream_norm.begin(), r.stream_norm.end());
  }

  void clear() {
    steps = 0;
    loss.clear();
    grad_first.clear();
    grad_last.clear();
    update_first.clear();
    update_last.clear();
    lr.clear();
    max_logit.clear();
    stream_norm.clear();
  }
};

inline constexpr model::ResultDim<TrainRun> kTrainRunDims[] = {
    {"N", [](const TrainRun& r) { return static_cast<int>(r.steps); }},
    {"L", [](const TrainRun& r) { return static_cast<int>(r.layers); }},
    {"L+1", [](const TrainRun& r) { return static_cast<int>(r.layers) + 1; }},
};
// trainer.step() and trainer.advance()'s result (normlab.d.ts: TrainRun).
// JavaScript turns diverged into a boolean.
inline constexpr model::ResultEntry<TrainRun> kTrainRunEntries[] = {
    // path, shape, source
    {"loss", "N", NORMLAB_RESULT_MEMBER(loss)},
    {"gradFirst", "N", NORMLAB_RESULT_MEMBER(grad_first)},
    {"gradLast", "N", NORMLAB_RESULT_MEMBER(grad_last)},
    {"updateFirst", "N", NORMLAB_RESULT_MEMBER(update_first)},
    {"updateLast", "N", NORMLAB_RESULT_MEMBER(update_last)},
    {"lr", "N", NORMLAB_RESULT_MEMBER(lr)},
    {"maxLogit", "N L", NORMLAB_RESULT_MEMBER(max_logit)},
    {"streamNorm", "N L+1", NORMLAB_RESULT_MEMBER(stream_norm)},
    {"firstStep", "", NORMLAB_RESULT_MEMBER(first_step)},
    {"stepsDone", "", NORMLAB_RESULT_MEMBER(steps_done)},
    {"unitsDone", "", NORMLAB_RESULT_MEMBER(units_done)},
    {"unitsPerStep", "", NORMLAB_RESULT_MEMBER(units_per_step)},
    {"diverged", "", NORMLAB_RESULT_MEMBER(diverged)},
};

// trainer.config (normlab.d.ts: TrainerConfig): the options resolved, but
// for the text. JavaScript turns qkNorm into a boolean.
inline constexpr model::ResultEntry<TrainConfig> kTrainConfigEntries[] = {
    // path, shape, source[, source shape[, when[, names]]]
    {"layers", "", NORMLAB_RESULT_MEMBER(layers)},
    {"hidden", "", NORMLAB_RESULT_MEMBER(hidden)},
    {"heads", "", NORMLAB_RESULT_MEMBER(heads)},
    {"norm", "", NORMLAB_RESULT_MEMBER(norm), nullptr, nullptr, "norm"},
    {"placement", "", NORMLAB_RESULT_MEMBER(placement), nullptr, nullptr, "placement"},
    {"qkNorm", "", NORMLAB_RESULT_MEMBER(qk_norm)},
    {"eps", "", NORMLAB_RESULT_MEMBER(eps)},
    {"initStd", "", NORMLAB_RESULT_MEMBER(init_std)},
    {"residualInitScale", "", NORMLAB_RESULT_MEMBER(residual_init_scale)},
    {"lr", "", NORMLAB_RESULT_MEMBER(lr)},
    {"warmup", "", NORMLAB_RESULT_MEMBER(warmup)},
    {"steps", "", NORMLAB_RESULT_MEMBER(steps)},
    {"seed", "", NORMLAB_RESULT_MEMBER(seed)},
    {"seq", "", NORMLAB_RESULT_MEMBER(seq)},
    {"batch", "", NORMLAB_RESULT_MEMBER(batch)},
};

// trainer.layerNorms()'s result (normlab.d.ts: TrainerLayerNorms), measured
// by Trainer::layer_norms (trainer.h). The layer-norm axis is named "N" in
// model/results.h; here that symbol is the norms, not steps.
inline constexpr model::ResultDim<LayerNormProbe> kLayerNormDims[] = {
    {"L", [](const LayerNormProbe& r) { return static_cast<int>(r.layers); }},
    {"L+1", [](const LayerNormProbe& r) { return static_cast<int>(r.layers) + 1; }},
};
// Set unless the config's norm is 'none' (no norm to measure: norms is null).
inline constexpr model::ResultFlag<LayerNormProbe> kLayerNormFlags[] = {
    {"norm", [](const LayerNormProbe& r) { return !r.norm_out.empty(); }},
};
inline constexpr model::ResultEntry<LayerNormProbe> kLayerNormEntries[] = {
    // path, shape, source[, source shape[, when[, names]]]
    {"layers", "", NORMLAB_RESULT_MEMBER(layers)},
    {"tokens", "", NORMLAB_RESULT_MEMBER(tokens)},
    {"step", "", NORMLAB_RESULT_MEMBER(step)},
    {"residual", "L+1", NORMLAB_RESULT_MEMBER(residual)},
    {"norms.{N}.in", "N L", NORMLAB_RESULT_MEMBER(norm_in), "L N", "norm"},
    {"norms.{N}.out", "N L", NORMLAB_RESULT_MEMBER(norm_out), "L N", "norm"},
    {"attentionEntropy", "L", NORMLAB_RESULT_MEMBER(attention_entropy)},
    {"tokenSimilarity", "L+1", NORMLAB_RESULT_MEMBER(token_similarity)},
};

// trainer.gains()'s result (normlab.d.ts: TrainerGains), copied by
// Trainer::norm_gains (trainer.h). Each layer-norm entry holds the L layers'
// D values one after another: layer l's are [l D, (l + 1) D).
inline constexpr model::ResultDim<NormGains> kNormGainsDims[] = {
    {"L", [](const NormGains& r) { return static_cast<int>(r.layers); }},
    {"D", [](const NormGains& r) { return static_cast<int>(r.hidden); }},
    {"Dh", [](const NormGains& r) { return static_cast<int>(r.head_size); }},
};
// An unset flag leaves its entries null.
inline constexpr model::ResultFlag<NormGains> kNormGainsFlags[] = {
    {"gain", [](const NormGains& r) { return !r.gain.empty(); }},
    {"bias", [](const NormGains& r) { return !r.bias.empty(); }},
    {"finalGain", [](const NormGains& r) { return !r.final_gain.empty(); }},
    {"finalBias", [](const NormGains& r) { return !r.final_bias.empty(); }},
    {"qkGain", [](const NormGains& r) { return !r.q_gain.empty(); }},
    {"outGain", [](const NormGains& r) { return !r.out_gain.empty(); }},
    {"outBias", [](const NormGains& r) { return !r.out_bias.empty(); }},
    {"alpha", [](const NormGains& r) { return !r.alpha.empty(); }},
    {"outAlpha", [](const NormGains& r) { return !r.out_alpha.empty(); }},
    {"finalAlpha", [](const NormGains& r) { return !r.final_alpha.empty(); }},
};
inline constexpr model::ResultEntry<NormGains> kNormGainsEntries[] = {
    // path, shape, source[, source shape[, when]]
    {"layers", "", NORMLAB_RESULT_MEMBER(layers)},
    {"hidden", "", NORMLAB_RESULT_MEMBER(hidden)},
    {"step", "", NORMLAB_RESULT_MEMBER(step)},
    {"gain.{N}", "N L D", NORMLAB_RESULT_MEMBER(gain), "L N D", "gain"},
    {"bias.{N}", "N L D", NORMLAB_RESULT_MEMBER(bias), "L N D", "bias"},
    {"finalGain", "D", NORMLAB_RESULT_MEMBER(final_gain), nullptr, "finalGain"},
    {"finalBias", "D", NORMLAB_RESULT_MEMBER(final_bias), nullptr, "finalBias"},
    {"qGain", "L Dh", NORMLAB_RESULT_MEMBER(q_gain), nullptr, "qkGain"},
    {"kGain", "L Dh", NORMLAB_RESULT_MEMBER(k_gain), nullptr, "qkGain"},
    {"outGain.{N}", "N L D", NORMLAB_RESULT_MEMBER(out_gain), "L N D", "outGain"},
    {"outBias.{N}", "N L D", NORMLAB_RESULT_MEMBER(out_bias), "L N D", "outBias"},
    {"alpha.{N}", "N L", NORMLAB_RESULT_MEMBER(alpha), "L N", "alpha"},
    {"outAlpha.{N}", "N L", NORMLAB_RESULT_MEMBER(out_alpha), "L N", "outAlpha"},
    {"finalAlpha", "", NORMLAB_RESULT_MEMBER(final_alpha), nullptr, "finalAlpha"},
};

inline constexpr model::ResultTable<TrainRun> kTrainRunTable = {
    "trainRun", kTrainRunDims,    std::size(kTrainRunDims),   nullptr,
    0,          kTrainRunEntries, std::size(kTrainRunEntries)};
inline constexpr model::ResultTable<TrainConfig> kTrainConfigTable = {
    "trainConfig", nullptr, 0, nullptr, 0, kTrainConfigEntries, std::size(kTrainConfigEntries)};
inline constexpr model::ResultTable<LayerNormProbe> kLayerNormTable = {
    "trainLayerNorms",          kLayerNormDims,    std::size(kLayerNormDims),   kLayerNormFlags,
    std::size(kLayerNormFlags), kLayerNormEntries, std::size(kLayerNormEntries)};
inline constexpr model::ResultTable<NormGains> kNormGainsTable = {"trainGains",
                                                                  kNormGainsDims,
                                                                  std::size(kNormGainsDims),
                                                                  kNormGainsFlags,
                                                                  std::size(kNormGainsFlags),
                                                                  kNormGainsEntries,
                                                                  std::size(kNormGainsEntries)};

// Every table's dims fit a model::DimValues, and its flags the packer's array.
static_assert(std::size(kTrainRunDims) <= model::DimValues::kMaxDims &&
                  std::size(kLayerNormDims) <= model::DimValues::kMaxDims &&
                  std::size(kNormGainsDims) <= model::DimValues::kMaxDims,
              "a table has more dims than DimValues holds");
static_assert(std::size(kLayerNormFlags) <= model::kMaxFlags &&
                  std::size(kNormGainsFlags) <= model::kMaxFlags,
              "a table has more flags than the packer holds");

}  // namespace normlab::train
