// Configuration of the synthetic model: the options as the JS API receives
// them, their validation (a Problem naming the field, which the JS wrapper
// turns into an exception, since C++ exceptions do not cross into
// JavaScript usefully), and the resolved, typed configuration the model is
// built from.
#pragma once

#include <cstdint>
#include <limits>
#include <string>

#include "model/problem.h"

namespace normlab::model {

// The enums' names, in enumerator order, are what the options and the JS
// config spell.
enum class NormKind : int { rmsnorm, layernorm, none };
enum class Placement : int { pre, post };
inline constexpr const char* kNormKindNames[] = {"rmsnorm", "layernorm", "none"};
inline constexpr const char* kPlacementNames[] = {"pre", "post"};

// Options exactly as JavaScript passes them: numbers as double (so integer-
// ness and range can be checked here rather than truncated by the binding),
// enums as strings. The defaults are the chapter's reference model.
struct ModelOptions {
  double layers = 24;             // integer in 1..64
  double hidden = 1024;           // power of two in 64..1024
  double heads = 16;              // power of two in 1..min(64, hidden / 4)
  std::string norm = "rmsnorm";   // "rmsnorm" | "layernorm" | "none"
  std::string placement = "pre";  // "pre" | "post"
  // NaN means the norm's default: 1e-6 for RMSNorm, 1e-5 for LayerNorm.
  double eps = std::numeric_limits<double>::quiet_NaN();
  double seed = 1;  // integer in 0..4294967295
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
