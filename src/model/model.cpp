// The synthetic residual-stream model (see model.h): construction, the
// parameters the models of one seed and shape share, and the norms' gains.
// The rest of Model is in model_scratch.cpp (the shared scratch and its
// workspace), model_forward.cpp (forward() and the kept run),
// model_probes.cpp (what a forward pass records) and model_backward.cpp
// (gradients() and its checkpoints).
//
// L = layers, D = hidden size, H = heads, T = prompt tokens, V = vocabulary,
// P = probes per layer, S = statistics per row
#include "model/model.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <string>

#include "model/model_internal.h"

namespace normlab::model {

namespace {

// Model ids, for the shared scratch's owner: unique for the process.
std::atomic<uint64_t> g_next_model_id{1};

// The index in kLayerNormNames of `which`, or -1.
int layer_norm_index(const std::string& which) {
  for (int n = 0; n < kLayerNorms; n++) {
    if (which == kLayerNormNames[n]) return n;
  }
  return -1;
}

}  // namespace

Model::Model(const ModelOptions& options)
    : problem_(check_model_options(options)),
      id_(g_next_model_id.fetch_add(1, std::memory_order_relaxed)),
      params_(std::make_shared<ParameterSet>()) {
  if (problem_) return;
  config_ = resolve_model_options(options);
  params_ = shared_parameters(config_);
  const int half = config_.head_dim() / 2;
  rope_cos_.resize(static_cast<size_t>(Tm) * half);
  rope_sin_.resize(static_cast<size_t>(Tm) * half);
  rope_tables(rope_cos_.data(), rope_sin_.data(), Tm, config_.head_dim());
  rope_ = RopeTables{rope_cos_.data(), rope_sin_.data()};
}

Model::~Model() { forget_kept_run(); }

size_t Model::memory_floats() const {
  return (own_params_ ? params_->size() : 0) + rope_cos_.size() + rope_sin_.size();
}

namespace {

// The parameter sets models share, by what they are drawn from; an entry
// whose models are all gone is dropped when the registry is next read.
struct SharedParameters {
  uint32_t seed;
  int layers, hidden, heads;
  std::weak_ptr<ParameterSet> set;
};

std::vector<SharedParameters>& parameter_registry() {
  thread_local std::vector<SharedParameters> registry;
  auto& r = registry;
  r.erase(
      std::remove_if(r.begin(), r.end(), [](const SharedParameters& e) { return e.set.expired(); }),
      r.end());
  return r;
}

}  // namespace

std::shared_ptr<ParameterSet> Model::shared_parameters(const ModelConfig& c) {
  std::vector<SharedParameters>& registry = parameter_registry();
  for (const SharedParameters& e : registry) {
    if (e.seed == c.seed && e.layers == c.layers && e.hidden == c.hidden && e.heads == c.heads) {
      if (std::shared_ptr<ParameterSet> set = e.set.lock()) return set;
    }
  }
  auto set = std::make_shared<ParameterSet>(c.layers, c.hidden);
  init_parameters(set.get(), c);
  registry.push_back({c.seed, c.layers, c.hidden, c.heads, set});
  return set;
}

size_t Model::shared_parameter_floats() {
  size_t floats = 0;
  for (const SharedParameters& e : parameter_registry()) {
    if (std::shared_ptr<ParameterSet> set = e.set.lock()) floats += set->size();
  }
  return floats;
}

ParameterSet& Model::mutable_parameters() {
  forget_kept_run();
  if (!own_params_) {
    params_ = std::make_shared<ParameterSet>(*params_);
    own_params_ = true;
  }
  return *params_;
}

Problem Model::check_gain_query(double layer, const std::string& which) const {
  if (problem_) return problem_;
  if (which == kFinalNormName) return {};
  if (layer_norm_index(which) < 0) {
    std::string names;
    for (const char* name : kLayerNormNames)
      names += (names.empty() ? "'" : ", '") + std::string(name) + "'";
    return {ProblemCode::kNotOneOf, Field::kWhich,
            "which must be " + names + " or '" + kFinalNormName + "'"};
  }
  if (!(std::isfinite(layer) && layer == std::floor(layer) && layer >= 0 &&
        layer < config_.layers)) {
    return {ProblemCode::kOutOfRange, Field::kLayer,
            "layer must be an integer in 0.." + std::to_string(config_.layers - 1)};
  }
  return {};
}

std::string Model::validate_gain_query(double layer, const std::string& which) const {
  return check_gain_query(layer, which).message;
}

const float* Model::gains(int layer, const std::string& which) const {
  if (which == kFinalNormName) return params_->final_gain();
  return params_->tensor(layer, kLayerNormGains[layer_norm_index(which)]);
}

}  // namespace normlab::model
