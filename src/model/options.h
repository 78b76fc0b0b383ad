// Configuration of the synthetic model: the options as the JS API receives
// them, their validation (a Problem naming the field, which the JS wrapper
// turns into an exception, since C++ exceptions do not cross into
// JavaScript usefully), and the resolved, typed configuration the model is
// built from.
#pragma once

#include <cmath>
#include <cstdint>
#include <iterator>
#include <limits>
#include <string>

#include "model/option_table.h"
#include "model/problem.h"

namespace normlab::model {

// The enums' names, in enumerator order, are what the options and the JS
// config spell. The trainer (src/train) takes them all; the model only the
// ones it computes, its own lists below, so that it refuses the others by
// its own message.
enum class NormKind : int { rmsnorm, layernorm, none, dyt };
enum class Placement : int { pre, post, deepnorm, output, sandwich };
inline constexpr const char* kNormKindNames[] = {"rmsnorm", "layernorm", "none", "dyt"};
inline constexpr const char* kPlacementNames[] = {"pre", "post", "deepnorm", "output", "sandwich"};
inline constexpr const char* kModelNormNames[] = {"rmsnorm", "layernorm", "none"};
inline constexpr const char* kModelPlacementNames[] = {"pre", "post"};

// Options exactly as JavaScript passes them: numbers as double (so integer-
// ness and range can be checked here rather than truncated by the binding),
// enums as strings. The defaults are the chapter's reference model; the
// rules are kModelOptions' below.
struct ModelOptions {
  double layers = 24;
  double hidden = 1024;
  double heads = 16;
  std::string norm = "rmsnorm";
  std::string placement = "pre";
  // NaN means the norm's default: 1e-6 for RMSNorm, 1e-5 for LayerNorm.
  double eps = std::numeric_limits<double>::quiet_NaN();
  double seed = 1;
};

// The resolved configuration. D = hidden, H = heads, L = layers.
struct ModelConfig {
  int layers = 24;
  int hidden = 1024;
  int heads = 16;
  NormKind norm = NormKind::rmsnorm;
  Placement placement = Placement::pre;
  float eps = 1e-6f;  // what the norms compute with
  // eps as the options gave it, or the norm's default, before rounding to
  // float: what the JS config reports back.
  double eps_option = 1e-6;
  uint32_t seed = 1;

  int head_dim() const { return hidden / heads; }
};

// createModel()'s options (normlab.d.ts: ModelOptions), in the order they
// are checked, and how each resolves (model/option_table.h).
using ModelOption = OptionSpec<ModelOptions, ModelConfig>;
inline constexpr ModelOption kModelOptionSpecs[] = {
    integer<ModelOptions, ModelConfig>("layers", Field::kLayers, &ModelOptions::layers, 1, 64)
        .resolving(
            [](const ModelOptions& o, ModelConfig* c) { c->layers = static_cast<int>(o.layers); }),
    power_of_two<ModelOptions, ModelConfig>("hidden", Field::kHidden, &ModelOptions::hidden, 64,
                                            1024)
        .resolving(
            [](const ModelOptions& o, ModelConfig* c) { c->hidden = static_cast<int>(o.hidden); }),
    // At least 4 features per head; at most 64 heads.
    power_of_two<ModelOptions, ModelConfig>("heads", Field::kHeads, &ModelOptions::heads, 1, 64)
        .capped_by("hidden", &ModelOptions::hidden, 4)
        .resolving(
            [](const ModelOptions& o, ModelConfig* c) { c->heads = static_cast<int>(o.heads); }),
    choice<ModelOptions, ModelConfig>("norm", Field::kNorm, &ModelOptions::norm, kModelNormNames)
        .resolving([](const ModelOptions& o, ModelConfig* c) {
          c->norm = o.norm == "layernorm" ? NormKind::layernorm
                    : o.norm == "none"    ? NormKind::none
                                          : NormKind::rmsnorm;
        }),
    choice<ModelOptions, ModelConfig>("placement", Field::kPlacement, &ModelOptions::placement,
                                      kModelPlacementNames)
        .resolving([](const ModelOptions& o, ModelConfig* c) {
          c->placement = o.placement == "post" ? Placement::post : Placement::pre;
        }),
    numeric<ModelOptions, ModelConfig>("eps", Field::kEps, OptionKind::kNumber, &ModelOptions::eps,
                                       0, 1)
        .with_computed_default("the norm's: 1e-6 for RMSNorm (and 'none'), 1e-5 for LayerNorm")
        .resolving([](const ModelOptions& o, ModelConfig* c) {
          const double fallback = c->norm == NormKind::layernorm ? 1e-5 : 1e-6;
          c->eps_option = std::isnan(o.eps) ? fallback : o.eps;
          c->eps = static_cast<float>(c->eps_option);
        }),
    integer<ModelOptions, ModelConfig>("seed", Field::kSeed, &ModelOptions::seed, 0, 4294967295.0)
        .resolving(
            [](const ModelOptions& o, ModelConfig* c) { c->seed = static_cast<uint32_t>(o.seed); }),
};
inline constexpr OptionTable<ModelOptions, ModelConfig> kModelOptions = {
    "model", kModelOptionSpecs, static_cast<int>(std::size(kModelOptionSpecs))};

// No problem if the options are valid, else the first bad field in the
// order above, e.g. {kOutOfRange, kLayers, "layers must be an integer in
// 1..64"}.
Problem check_model_options(const ModelOptions& options);
// check_model_options' message alone: empty if the options are valid.
std::string validate_model_options(const ModelOptions& options);

// Precondition: check_model_options(options) finds no problem.
ModelConfig resolve_model_options(const ModelOptions& options);

const char* norm_kind_name(NormKind norm);
const char* placement_name(Placement placement);

}  // namespace normlab::model
