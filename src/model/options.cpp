// Validation and resolution of the model options (see options.h).
#include "model/options.h"

#include <algorithm>
#include <cmath>

namespace normlab::model {

namespace {

bool is_integer_in(double v, double lo, double hi) {
  return std::isfinite(v) && v == std::floor(v) && v >= lo && v <= hi;
}

bool is_power_of_two_in(double v, int lo, int hi) {
  if (!is_integer_in(v, lo, hi)) return false;
  const int n = static_cast<int>(v);
  return (n & (n - 1)) == 0;
}

}  // namespace

std::string validate_model_options(const ModelOptions& o) {
  if (!is_integer_in(o.layers, 1, 64)) {
    return "layers must be an integer in 1..64";
  }
  if (!is_power_of_two_in(o.hidden, 64, 1024)) {
    return "hidden must be a power of two in 64..1024";
  }
  // At least 4 features per head; at most 64 heads.
  const int max_heads = std::min(64, static_cast<int>(o.hidden) / 4);
  if (!is_power_of_two_in(o.heads, 1, max_heads)) {
    return "heads must be a power of two in 1.." + std::to_string(max_heads) +
           " for hidden " + std::to_string(static_cast<int>(o.hidden));
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
  if (!is_integer_in(o.seed, 0, 4294967295.0)) {
    return "seed must be an integer in 0..4294967295";
  }
  return "";
}

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
    c.eps = c.norm == NormKind::layernorm ? 1e-5f : 1e-6f;
  } else {
    c.eps = static_cast<float>(o.eps);
  }
  c.seed = static_cast<uint32_t>(o.seed);
  return c;
}

const char* norm_kind_name(NormKind norm) {
  switch (norm) {
    case NormKind::rmsnorm: return "rmsnorm";
    case NormKind::layernorm: return "layernorm";
    case NormKind::none: return "none";
  }
  return "";
}

const char* placement_name(Placement placement) {
  return placement == Placement::post ? "post" : "pre";
}

}  // namespace normlab::model
