// The trainer's state as bytes: Trainer::save_state and restore_state (the
// format: state.h).
//
// P = parameters
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <string>
#include <vector>

#include "model/options.h"
#include "train/state.h"
#include "train/trainer.h"

namespace normlab::train {

namespace {

// Little-endian writes at a cursor.
struct Writer {
  uint8_t* at;
  void u32(uint32_t v) {
    for (int i = 0; i < 4; ++i) *at++ = static_cast<uint8_t>(v >> (8 * i));
  }
  void u64(uint64_t v) {
    for (int i = 0; i < 8; ++i) *at++ = static_cast<uint8_t>(v >> (8 * i));
  }
  void f32(float v) {
    uint32_t bits;
    std::memcpy(&bits, &v, 4);
    u32(bits);
  }
  void f64(double v) {
    uint64_t bits;
    std::memcpy(&bits, &v, 8);
    u64(bits);
  }
  void floats(const float* v, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) f32(v[i]);
  }
};

// Little-endian reads at a cursor.
struct Reader {
  const uint8_t* at;
  uint32_t u32() {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= static_cast<uint32_t>(*at++) << (8 * i);
    return v;
  }
  uint64_t u64() {
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= static_cast<uint64_t>(*at++) << (8 * i);
    return v;
  }
  float f32() {
    const uint32_t bits = u32();
    float v;
    std::memcpy(&v, &bits, 4);
    return v;
  }
  double f64() {
    const uint64_t bits = u64();
    double v;
    std::memcpy(&v, &bits, 8);
    return v;
  }
  void floats(float* v, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) v[i] = f32();
  }
};

// FNV-1a, 64 bits: tells one training text from another without saving it.
uint64_t text_hash(const std::string& text) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (const char c : text) {
    h ^= static_cast<uint8_t>(c);
    h *= 0x100000001b3ULL;
  }
  return h;
}

// The shortest decimal that reads back as v (as a float when single).
std::string shortest(double v, bool single) {
  char text[32];
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(text, sizeof text, "%.*g", digits, v);
    const double back = std::strtod(text, nullptr);
    if (single ? static_cast<float>(back) == static_cast<float>(v) : back == v) break;
  }
  // As JavaScript writes it: 1e-6, not C's 1e-06.
  std::string s = text;
  const std::size_t e = s.find('e');
  if (e != std::string::npos && e + 2 < s.size() && s[e + 2] == '0') s.erase(e + 2, 1);
  return s;
}

// The config's fields a state must match, in the order of the header:
// each as its bits (what must match) and as the API writes it.
struct ConfigField {
  const char* name;  // the option's JS name
  uint64_t bits;
  std::string text;
};

std::vector<ConfigField> config_fields(const TrainConfig& c) {
  const auto u = [](const char* name, uint32_t v) {
    return ConfigField{name, v, std::to_string(v)};
  };
  const auto f = [](const char* name, float v) {
    uint32_t bits;
    std::memcpy(&bits, &v, 4);
    return ConfigField{name, bits, shortest(v, true)};
  };
  const auto norm = static_cast<uint32_t>(c.norm);
  const auto placement = static_cast<uint32_t>(c.placement);
  uint64_t lr_bits;
  std::memcpy(&lr_bits, &c.lr, 8);
  return {
      u("layers", static_cast<uint32_t>(c.layers)),
      u("hidden", static_cast<uint32_t>(c.hidden)),
      u("heads", static_cast<uint32_t>(c.heads)),
      {"norm", norm, std::string("'") + model::kNormKindNames[norm] + "'"},
      {"placement", placement, std::string("'") + model::kPlacementNames[placement] + "'"},
      {"qkNorm", static_cast<uint32_t>(c.qk_norm), c.qk_norm != 0 ? "true" : "false"},
      f("eps", c.eps),
      f("initStd", c.init_std),
      f("residualInitScale", c.residual_init_scale),
      u("warmup", static_cast<uint32_t>(c.warmup)),
      {"lr", lr_bits, shortest(c.lr, false)},
      u("seed", c.seed),
      u("seq", static_cast<uint32_t>(c.seq)),
      u("batch", static_cast<uint32_t>(c.batch)),
  };
}

// The fields as the header stores them (state.h), read back into a config
// (norm and placement as stored, unchecked: only compared, by their bits).
std::vector<ConfigField> read_config_fields(Reader* r) {
  TrainConfig c;
  c.layers = static_cast<int>(r->u32());
  c.hidden = static_cast<int>(r->u32());
  c.heads = static_cast<int>(r->u32());
  const uint32_t norm = r->u32();
  const uint32_t placement = r->u32();
  c.qk_norm = static_cast<int32_t>(r->u32());
  c.eps = r->f32();
  c.init_std = r->f32();
  c.residual_init_scale = r->f32();
  c.warmup = static_cast<int>(r->u32());
  c.lr = r->f64();
  c.seed = r->u32();
  c.seq = static_cast<int>(r->u32());
  c.batch = static_cast<int>(r->u32());
  // Names for the enums' message only when they are ones this build knows.
  const bool norm_known = norm < std::size(model::kNormKindNames);
  const bool placement_known = placement < std::size(model::kPlacementNames);
  std::vector<ConfigField> fields = config_fields(c);
  fields[3] = {
      "norm", norm,
      norm_known ? std::string("'") + model::kNormKindNames[norm] + "'" : std::to_string(norm)};
  fields[4] = {"placement", placement,
               placement_known ? std::string("'") + model::kPlacementNames[placement] + "'"
                               : std::to_string(placement)};
  return fields;
}

Problem state_problem(ProblemCode code, std::string message) {
  return {code, Field::kState, std::move(message)};
}

}  // namespace

std::size_t Trainer::state_bytes() const { return state_bytes_for(layout_.total); }

Problem Trainer::save_state(std::vector<uint8_t>* out) const {
  if (units_done_ != 0) {
    return state_problem(ProblemCode::kMidStep,
                         "a step is partly done (" + std::to_string(units_done_) + " of " +
                             std::to_string(units_per_step()) + " units): save between steps");
  }
  const std::size_t P = layout_.total;
  out->assign(state_bytes(), 0);
  Writer w{out->data()};
  std::memcpy(w.at, kStateMagic, sizeof kStateMagic);
  w.at += sizeof kStateMagic;
  w.u32(kStateVersion);
  const std::vector<ConfigField> fields = config_fields(config_);
  for (const ConfigField& f : fields) {
    if (std::strcmp(f.name, "lr") == 0) {
      w.u64(f.bits);
    } else {
      w.u32(static_cast<uint32_t>(f.bits));
    }
  }
  w.u32(diverged_ ? 1 : 0);
  w.u64(text_.size());
  w.u64(text_hash(text_));
  w.u64(P);
  w.u64(static_cast<uint64_t>(step_));
  w.f64(beta1_power_);
  w.f64(beta2_power_);
  w.floats(params_.data(), P);
  w.floats(adam_m_.data(), P);
  w.floats(adam_v_.data(), P);
  return {};
}

Problem Trainer::restore_state(const uint8_t* bytes, std::size_t n) {
  if (n < kStateHeaderBytes) {
    return state_problem(ProblemCode::kTooShort,
                         "state must hold at least " + std::to_string(kStateHeaderBytes) +
                             " bytes (its header), not " + std::to_string(n));
  }
  if (std::memcmp(bytes, kStateMagic, sizeof kStateMagic) != 0) {
    return state_problem(ProblemCode::kNotOneOf,
                         "state is not a normlab trainer state (it does not begin with 'NLTRAIN')");
  }
  Reader r{bytes + kStateVersionOffset};
  const uint32_t version = r.u32();
  if (version != kStateVersion) {
    return state_problem(ProblemCode::kNotOneOf,
                         "state has format version " + std::to_string(version) +
                             ", this trainer reads version " + std::to_string(kStateVersion));
  }
  const std::vector<ConfigField> saved = read_config_fields(&r);
  const std::vector<ConfigField> ours = config_fields(config_);
  for (std::size_t i = 0; i < ours.size(); ++i) {
    if (saved[i].bits != ours[i].bits) {
      return state_problem(ProblemCode::kOutOfRange,
                           std::string("state was saved by a trainer with ") + ours[i].name + " " +
                               saved[i].text + ", this one has " + ours[i].text);
    }
  }
  const uint32_t diverged = r.u32();
  const uint64_t text_bytes = r.u64();
  const uint64_t hash = r.u64();
  if (text_bytes != text_.size()) {
    return state_problem(ProblemCode::kOutOfRange, "state was saved by a trainer with a text of " +
                                                       std::to_string(text_bytes) +
                                                       " bytes, this one has " +
                                                       std::to_string(text_.size()));
  }
  if (hash != text_hash(text_)) {
    return state_problem(ProblemCode::kOutOfRange,
                         "state was saved by a trainer with another text of the same length (" +
                             std::to_string(text_bytes) + " bytes)");
  }
  const std::size_t P = layout_.total;
  const uint64_t saved_P = r.u64();
  if (saved_P != P) {
    // The same config gives the same layout: a state edited, or a bug.
    return state_problem(ProblemCode::kInternal, "state holds " + std::to_string(saved_P) +
                                                     " parameters, this trainer has " +
                                                     std::to_string(P));
  }
  if (n != state_bytes()) {
    return state_problem(n < state_bytes() ? ProblemCode::kTooShort : ProblemCode::kTooLong,
                         "state must be " + std::to_string(state_bytes()) +
                             " bytes for this trainer, not " + std::to_string(n));
  }
  const uint64_t steps = r.u64();
  const double beta1_power = r.f64();
  const double beta2_power = r.f64();
  // Steps fit an int, and beta^t lies in (0, 1]: else the bytes were changed.
  if (diverged > 1 || steps > 2147483647u || !(beta1_power > 0.0 && beta1_power <= 1.0) ||
      !(beta2_power > 0.0 && beta2_power <= 1.0)) {
    return state_problem(ProblemCode::kOutOfRange,
                         "state is damaged: its steps, divergence or Adam corrections are out of "
                         "range");
  }

  r.floats(params_.data(), P);
  r.floats(adam_m_.data(), P);
  r.floats(adam_v_.data(), P);
  refresh_transposed();
  step_ = static_cast<int>(steps);
  diverged_ = diverged == 1;
  beta1_power_ = beta1_power;
  beta2_power_ = beta2_power;
  // Between steps, as the saving trainer was: no gradient summed yet, no
  // unit of a step run (a step partly done here is dropped).
  std::fill(grads_.begin(), grads_.end(), 0.0f);
  std::fill(dwte_input_,
            dwte_input_ + static_cast<std::size_t>(TrainConfig::kVocab) * config_.hidden, 0.0f);
  phase_ = Phase::forward;
  mb_ = 0;
  layer_ = 0;
  units_done_ = 0;
  loss_sum_ = 0.0;
  return {};
}

}  // namespace normlab::train
