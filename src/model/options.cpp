// Validation and resolution of the model options (see options.h).
#include "model/options.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <iterator>

#include "model/number_checks.h"

namespace normlab::model {

namespace {

template <std::size_t N>
bool is_one_of(const std::string& s, const char* const (&names)[N]) {
  return std::find(std::begin(names), std::end(names), s) != std::end(names);
}

}  // namespace

Problem check_model_options(const ModelOptions& o) {
  if (!is_integer_in(o.layers, 1, 64)) {
    return {ProblemCode::kOutOfRange, Field::kLayers, "layers must be an integer in 1..64"};
  }
  if (!is_power_of_two_in(o.hidden, 64, 1024)) {
    return {ProblemCode::kOutOfRange, Field::kHidden, "hidden must be a power of two in 64..1024"};
  }
  // At least 4 features per head; at most 64 heads.
  const int max_heads = std::min(64, static_cast<int>(o.hidden) / 4);
  if (!is_power_of_two_in(o.heads, 1, max_heads)) {
    return {ProblemCode::kOutOfRange, Field::kHeads,
            "heads must be a power of two in 1.." + std::to_string(max_heads) + " for hidden " +
                std::to_string(static_cast<int>(o.hidden))};
  }
  if (!is_one_of(o.norm, kNormKindNames)) {
    return {ProblemCode::kNotOneOf, Field::kNorm, "norm must be 'rmsnorm', 'layernorm' or 'none'"};
  }
  if (!is_one_of(o.placement, kPlacementNames)) {
    return {ProblemCode::kNotOneOf, Field::kPlacement, "placement must be 'pre' or 'post'"};
  }
  if (!std::isnan(o.eps) && !(o.eps >= 0.0 && o.eps <= 1.0)) {
    return {ProblemCode::kOutOfRange, Field::kEps, "eps must be a number in 0..1"};
  }
  if (!is_integer_in(o.seed, 0, 4294967295.0)) {
    return {ProblemCode::kOutOfRange, Field::kSeed, "seed must be an integer in 0..4294967295"};
  }
  return {};
}

std::string validate_model_options(const ModelOptions& o) { return check_model_options(o).message; }

ModelConfig resolve_model_options(const ModelOptions& o) {
  ModelConfig c;
  c.layers = static_cast<int>(o.layers);
  c.hidden = static_cast<int>(o.hidden);
  c.heads = static_cast<int>(o.heads);
  c.norm = o.norm == "layernorm" ? NormKind::layernorm
           : o.norm == "none"    ? NormKind::none
                                 : NormKind::rmsnorm;
  c.placement = o.placement == "post" ? Placement::post : Placement::pre;
  if (std::isnan(o.eps)) {
    c.eps_option = c.norm == NormKind::layernorm ? 1e-5 : 1e-6;
  } else {
    c.eps_option = o.eps;
  }
  c.eps = static_cast<float>(c.eps_option);
  c.seed = static_cast<uint32_t>(o.seed);
  return c;
}

const char* norm_kind_name(NormKind norm) { return kNormKindNames[static_cast<int>(norm)]; }

const char* placement_name(Placement placement) {
  return kPlacementNames[static_cast<int>(placement)];
}

}  // namespace normlab::model
