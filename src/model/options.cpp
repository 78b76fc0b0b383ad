// Validation and resolution of the model options (see options.h).
#include "model/options.h"

namespace normlab::model {

Problem check_model_options(const ModelOptions& o) { return check_options(kModelOptions, o); }

std::string validate_model_options(const ModelOptions& o) { return check_model_options(o).message; }

ModelConfig resolve_model_options(const ModelOptions& o) {
  return resolve_options(kModelOptions, o);
}

const char* norm_kind_name(NormKind norm) { return kNormKindNames[static_cast<int>(norm)]; }

const char* placement_name(Placement placement) {
  return kPlacementNames[static_cast<int>(placement)];
}

}  // namespace normlab::model
