// Configuration of the trainer: the options as the JS API receives them,
// their table (model/option_table.h) and validation (a Problem naming the
// field; no exceptions, the shipped wasm modules have none), and the
// resolved, typed configuration a Trainer is built from.
//
// The defaults are the demonstration config, chosen from the sweep on the
// committed text (web/data/train-sweep.json): at this depth and learning
// rate post-norm without warmup stalls on the unigram plateau while pre-norm
// and post-norm with warmup learn, and the 6-layer post-norm model learns.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>
#include <string>

#include "model/options.h"

namespace normlab::train {

using model::Field;
using model::NormKind;
using model::OptionKind;
using model::Placement;
using model::Problem;
using model::ProblemCode;

// The default standard deviation of the initial weights at width D:
// GPT-2's 0.02, which it uses at width 768, scaled as 1 / sqrt(width),
// 0.02 sqrt(768 / D) (0.098 at D = 32). A weight's Adam update is about lr
// whatever its size, so at width 32 GPT-2's own 0.02 lets the first few
// steps outweigh the random start (web/data/lab-setup.md).
double init_std_for(int hidden);

// The held-out split is the text's last 1 / kHeldOutParts.
inline constexpr int kHeldOutParts = 10;

// Options exactly as JavaScript passes them: numbers as double (so integer-
// ness and range are checked here rather than truncated by the binding),
// enums as strings, the training text as its UTF-8 bytes. The defaults are
// the members' initializers; the rules are kTrainOptions' below.
struct TrainOptions {
  double layers = 24;
  double hidden = 32;
  double heads = 4;
  std::string norm = "rmsnorm";
  std::string placement = "post";
  // RMSNorm on each head's queries and keys (QK-norm): a boolean, 0 or 1.
  double qk_norm = 0;
  // NaN means the norm's default: 1e-6 for RMSNorm, 1e-5 for LayerNorm.
  double eps = std::numeric_limits<double>::quiet_NaN();
  // NaN means the width's default, init_std_for(hidden): 0.098 at 32.
  double init_std = std::numeric_limits<double>::quiet_NaN();
  // The residual branches' output projections' initial std, as a multiple
  // of init_std: 1 leaves them as every other matrix; GPT-2 takes
  // 1 / sqrt(2 L), DeepNorm its beta; 0 starts every branch at zero.
  double residual_init_scale = 1;
  double lr = 3e-3;    // Adam's step size after warmup
  double warmup = 0;   // steps of linear warmup
  double steps = 400;  // the run's planned length
  double seed = 1;     // weights and batches
  double seq = 64;     // bytes per training sequence
  double batch = 8;    // sequences per step
  std::string text;    // the training text's bytes; the last 10% is held out
};

// Trainer::generate's arguments as JavaScript passes them:
// trainer.generate(prompt, nBytes, { temperature, seed }).
struct GenerateOptions {
  double n_bytes = 0;
  double temperature = 1;
  double seed = 1;
};

inline constexpr model::OptionSpec<GenerateOptions> kGenerateOptionSpecs[] = {
    model::integer<GenerateOptions>("nBytes", Field::kNBytes, &GenerateOptions::n_bytes, 0, 100000)
        .as_positional(),
    model::numeric<GenerateOptions>("temperature", Field::kTemperature, OptionKind::kNumber,
                                    &GenerateOptions::temperature, 0, 100),
    model::integer<GenerateOptions>("seed", Field::kSeed, &GenerateOptions::seed, 0, 4294967295.0),
};
inline constexpr model::OptionTable<GenerateOptions> kGenerateOptions = {
    "generate", kGenerateOptionSpecs, static_cast<int>(std::size(kGenerateOptionSpecs))};

// The resolved configuration. V = 256 (bytes), D = hidden, H = heads,
// L = layers, T = seq, B = batch, F = 4 D (the MLP's width).
struct TrainConfig {
  int layers = 24;
  int hidden = 32;
  int heads = 4;
  NormKind norm = NormKind::rmsnorm;
  Placement placement = Placement::post;
  // QK-norm: each head's query and key vectors RMS-normalized before q.k,
  // with a learned gain per head feature (init.h, layout.h). 0 or 1, an
  // int32 to cross to JS as a result entry (JS makes it a boolean).
  int32_t qk_norm = 0;
  float eps = 1e-6f;
  float init_std = static_cast<float>(init_std_for(hidden));  // init.h
  float residual_init_scale = 1.0f;                           // init.h
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
  // Placements (trainer.h): pre, output and sandwich leave the stream a sum
  // of unnormalized terms, so a final norm precedes the head; post and
  // deepnorm leave it normalized by the last layer's N2, and have none.
  bool has_norm() const { return norm != NormKind::none; }
  bool has_final_norm() const {
    return has_norm() && (placement == Placement::pre || placement == Placement::output ||
                          placement == Placement::sandwich);
  }
  // Which norms learn a per-feature bias: LayerNorm's, and DyT's beta.
  bool norm_has_bias() const { return norm == NormKind::layernorm || norm == NormKind::dyt; }
  // DyT's alpha, a learned scalar per norm, starts here (Zhu et al. 2025).
  static constexpr float kDytAlphaInit = 0.5f;
  // Sandwich norm: a second norm on each sublayer's output (layout.h).
  bool has_sublayer_out_norms() const { return has_norm() && placement == Placement::sandwich; }
  // Whether the norms sit on the residual branches' outputs (output,
  // sandwich), so that the layer caches those outputs (trainer.h LayerActs).
  bool caches_branches() const {
    return has_norm() && (placement == Placement::output || placement == Placement::sandwich);
  }
  // DeepNorm (Wang et al. 2022, decoder-only): x = N(alpha x + F(x)), with
  // alpha = (2 L)^(1/4) and the branches' value projection, attention output
  // projection and both MLP matrices initialized scaled by
  // beta = (8 L)^(-1/4). With norm 'none' the placement plays no part (nor
  // do alpha and beta): every placement is then x += F(x).
  bool is_deepnorm() const { return has_norm() && placement == Placement::deepnorm; }
  float deepnorm_alpha() const { return static_cast<float>(std::pow(2.0 * layers, 0.25)); }
  float deepnorm_beta() const { return static_cast<float>(std::pow(8.0 * layers, -0.25)); }
  // The stream's weight in a layer's residual sums: DeepNorm's alpha, else 1.
  float residual_alpha() const { return is_deepnorm() ? deepnorm_alpha() : 1.0f; }
};

// createTrainer()'s options (normlab.d.ts: TrainerOptions), in the order
// they are checked, and how each resolves (model/option_table.h); the
// text's size and the memory the whole configuration needs are checked
// after them (check_train_options).
using TrainOption = model::OptionSpec<TrainOptions, TrainConfig>;
inline constexpr TrainOption kTrainOptionSpecs[] = {
    model::integer<TrainOptions, TrainConfig>("layers", Field::kLayers, &TrainOptions::layers, 1,
                                              64)
        .resolving(
            [](const TrainOptions& o, TrainConfig* c) { c->layers = static_cast<int>(o.layers); }),
    model::power_of_two<TrainOptions, TrainConfig>("hidden", Field::kHidden, &TrainOptions::hidden,
                                                   8, 256)
        .resolving(
            [](const TrainOptions& o, TrainConfig* c) { c->hidden = static_cast<int>(o.hidden); }),
    // At least 4 features per head; at most 16 heads.
    model::power_of_two<TrainOptions, TrainConfig>("heads", Field::kHeads, &TrainOptions::heads, 1,
                                                   16)
        .capped_by("hidden", &TrainOptions::hidden, 4)
        .resolving(
            [](const TrainOptions& o, TrainConfig* c) { c->heads = static_cast<int>(o.heads); }),
    model::choice<TrainOptions, TrainConfig>("norm", Field::kNorm, &TrainOptions::norm,
                                             model::kNormKindNames)
        .resolving([](const TrainOptions& o, TrainConfig* c) {
          c->norm = o.norm == "layernorm" ? NormKind::layernorm
                    : o.norm == "none"    ? NormKind::none
                    : o.norm == "dyt"     ? NormKind::dyt
                                          : NormKind::rmsnorm;
        }),
    model::choice<TrainOptions, TrainConfig>("placement", Field::kPlacement,
                                             &TrainOptions::placement, model::kPlacementNames)
        .resolving([](const TrainOptions& o, TrainConfig* c) {
          c->placement = o.placement == "pre"        ? Placement::pre
                         : o.placement == "deepnorm" ? Placement::deepnorm
                         : o.placement == "output"   ? Placement::output
                         : o.placement == "sandwich" ? Placement::sandwich
                                                     : Placement::post;
        }),
    model::boolean<TrainOptions, TrainConfig>("qkNorm", Field::kQkNorm, &TrainOptions::qk_norm)
        .resolving([](const TrainOptions& o, TrainConfig* c) { c->qk_norm = o.qk_norm != 0; }),
    model::numeric<TrainOptions, TrainConfig>("eps", Field::kEps, OptionKind::kNumber,
                                              &TrainOptions::eps, 0, 1)
        .with_computed_default("the norm's: 1e-6 for RMSNorm, 1e-5 for LayerNorm")
        .resolving([](const TrainOptions& o, TrainConfig* c) {
          const float fallback = c->norm == NormKind::layernorm ? 1e-5f : 1e-6f;
          c->eps = std::isnan(o.eps) ? fallback : static_cast<float>(o.eps);
        }),
    model::numeric<TrainOptions, TrainConfig>("initStd", Field::kInitStd, OptionKind::kNumberAbove,
                                              &TrainOptions::init_std, 0, 1)
        .with_computed_default("the width's: 0.02 sqrt(768 / hidden)")
        .resolving([](const TrainOptions& o, TrainConfig* c) {
          c->init_std =
              static_cast<float>(std::isnan(o.init_std) ? init_std_for(c->hidden) : o.init_std);
        }),
    model::numeric<TrainOptions, TrainConfig>("residualInitScale", Field::kResidualInitScale,
                                              OptionKind::kNumber,
                                              &TrainOptions::residual_init_scale, 0, 1)
        .resolving([](const TrainOptions& o, TrainConfig* c) {
          c->residual_init_scale = static_cast<float>(o.residual_init_scale);
        }),
    model::numeric<TrainOptions, TrainConfig>("lr", Field::kLr, OptionKind::kFiniteAbove,
                                              &TrainOptions::lr, 0, 0)
        .resolving([](const TrainOptions& o, TrainConfig* c) { c->lr = o.lr; }),
    model::integer<TrainOptions, TrainConfig>("warmup", Field::kWarmup, &TrainOptions::warmup, 0,
                                              100000)
        .resolving(
            [](const TrainOptions& o, TrainConfig* c) { c->warmup = static_cast<int>(o.warmup); }),
    model::integer<TrainOptions, TrainConfig>("steps", Field::kSteps, &TrainOptions::steps, 1,
                                              100000)
        .resolving(
            [](const TrainOptions& o, TrainConfig* c) { c->steps = static_cast<int>(o.steps); }),
    model::integer<TrainOptions, TrainConfig>("seed", Field::kSeed, &TrainOptions::seed, 0,
                                              4294967295.0)
        .resolving(
            [](const TrainOptions& o, TrainConfig* c) { c->seed = static_cast<uint32_t>(o.seed); }),
    model::integer<TrainOptions, TrainConfig>("seq", Field::kSeq, &TrainOptions::seq, 2, 256)
        .resolving([](const TrainOptions& o, TrainConfig* c) { c->seq = static_cast<int>(o.seq); }),
    model::integer<TrainOptions, TrainConfig>("batch", Field::kBatch, &TrainOptions::batch, 1, 64)
        .resolving(
            [](const TrainOptions& o, TrainConfig* c) { c->batch = static_cast<int>(o.batch); }),
    // The Trainer takes the text itself, beside the config.
    model::text<TrainOptions, TrainConfig>("text", Field::kText, &TrainOptions::text)
        .with_computed_default("the committed text")
        .holding_out(kHeldOutParts),
};
inline constexpr model::OptionTable<TrainOptions, TrainConfig> kTrainOptions = {
    "trainer", kTrainOptionSpecs, static_cast<int>(std::size(kTrainOptionSpecs))};

// A trainer may use at most this much memory (parameters, Adam state,
// gradients, activations): a phone's tab holds it.
inline constexpr double kMaxTrainerBytes = 256.0 * 1024 * 1024;

// No problem if the options are valid, else the first: a rule of
// kTrainOptions broken, e.g. {kOutOfRange, kLr, "lr must be a finite number
// > 0"}; then a text too short for seq ({kTooShort, kText}); then a
// configuration needing more than kMaxTrainerBytes ({kOutOfRange, kLayers}).
Problem check_train_options(const TrainOptions& options);
// check_train_options' message alone: empty if the options are valid.
std::string validate_train_options(const TrainOptions& options);

// Precondition: check_train_options(options) finds no problem.
TrainConfig resolve_train_options(const TrainOptions& options);

// No problem if Trainer::generate's arguments, as JavaScript passes them,
// are valid, else the first bad one's (kGenerateOptions): "nBytes must be an
// integer in 0..100000", "temperature must be a number in 0..100", "seed
// must be an integer in 0..4294967295".
Problem check_generate_options(double n_bytes, double temperature, double seed);
std::string validate_generate_options(double n_bytes, double temperature, double seed);

// No problem if a prompt of `bytes` UTF-8 bytes fits Trainer::layer_norms
// (one window: 1..seq bytes), else {kOutOfRange, kPrompt, "prompt must be
// 1..64 bytes of UTF-8, not 70"}.
Problem check_layer_norms_prompt(std::size_t bytes, int seq);
std::string validate_layer_norms_prompt(std::size_t bytes, int seq);

// The smallest text a configuration trains on: its held-out part must hold
// one window of seq + 1 bytes: kHeldOutParts (seq + 1).
int min_text_bytes(int seq);

// Floating-point operations of one training step (forward, backward and
// nothing else), counted exactly for the products: 2 M N K for each M x N x K
// matrix product, and for causal attention 2 dh per (query, key <= query)
// pair and product. The backward does each product's two partner products.
// Norms, softmax, GELU, residual additions, the embedding and Adam are not
// counted: they are O(rows x D), O(rows x T) or O(parameters) elementwise work.
double flops_per_step(const TrainConfig& config);

}  // namespace normlab::train
