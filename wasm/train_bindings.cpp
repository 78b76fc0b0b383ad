// The trainer's wasm module (src/train): its own Embind block, one Trainer
// per handle, its results packed by the packer the main module uses too
// (packing.h) from the tables of src/train/results.h. wasm/trainer.js wraps
// it in nl.createTrainer(); the backend loader (wasm/normlab.js) loads this
// module, of the same flavour as the nl instance's, on the first
// createTrainer(), so a page that never trains never downloads it.
//
// N = steps a call completed
//
// - Each JS trainer lives in a module instance of its own (trainer.js makes
//   one per trainer), so the memory a run grew is given back when JS drops
//   that instance; the handle below is the one object in it.
// - Options arrive validated: JS asks checkTrainOptions, on the instance
//   that is to hold the trainer, before it makes the handle, and throws the
//   error its Problem calls for (wasm/boundary.js). A handle built from
//   options that
//   fail anyway holds no trainer and says why in problem(); every other
//   method then does nothing.
// - A step is a sequence of units (train/trainer.h); step(n) runs n whole
//   steps in one call, advanceUnit() one unit, so JS can stop at a time
//   budget between units. The steps completed since beginRun() (or within
//   step(n)) are collected in one TrainRun and packed by packRun().
// - boundary() describes the four results (packing.h: the description), the
//   named axes their enums use, the problem codes and fields, and the option
//   tables of createTrainer() and generate() (src/train/options.h);
//   memoryInfo() is this instance's.
// - saveState()/restoreState(): the training state between steps as bytes
//   (src/train/state.h), for a run that must survive its page.
// - Nothing here throws (the shipped modules have no exceptions).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <memory>
#include <optional>
#include <string>

#include "packing.h"
#include "train/options.h"
#include "train/results.h"
#include "train/trainer.h"

namespace {

using emscripten::typed_memory_view;
using emscripten::val;
namespace ntr = normlab::train;

std::string describe_boundary() {
  Json j;
  j.open("{");
  describe_axes(&j);
  j.key("results").open("{");
  describe(&j, ntr::kTrainRunTable);
  describe(&j, ntr::kTrainConfigTable);
  describe(&j, ntr::kLayerNormTable);
  describe(&j, ntr::kNormGainsTable);
  j.close("}");
  describe_problems(&j);
  j.key("options").open("{");
  describe_options(&j, ntr::kTrainOptions);
  describe_options(&j, ntr::kGenerateOptions);
  j.close("}");
  j.close("}");
  return j.text();
}

JsProblem check_train_options_js(const ntr::TrainOptions& options) {
  return to_js(ntr::check_train_options(options));
}

JsProblem check_generate_options_js(double n_bytes, double temperature, double seed) {
  return to_js(ntr::check_generate_options(n_bytes, temperature, seed));
}

JsProblem check_layer_norms_prompt_js(double bytes, int seq) {
  return to_js(ntr::check_layer_norms_prompt(static_cast<std::size_t>(bytes), seq));
}

class TrainerHandle {
 public:
  explicit TrainerHandle(const ntr::TrainOptions& options)
      : problem_(ntr::check_train_options(options)) {
    ++g_live_allocations;
    if (problem_) return;
    trainer_ = std::make_unique<ntr::Trainer>(ntr::resolve_train_options(options), options.text);
  }
  TrainerHandle(const TrainerHandle&) = delete;
  TrainerHandle& operator=(const TrainerHandle&) = delete;
  ~TrainerHandle() { --g_live_allocations; }

  // Why the options were refused (code 0 when the trainer exists).
  JsProblem problem() const { return to_js(problem_); }

  // The resolved options, into packed() (kTrainConfigTable). "" or the
  // message of a table that does not match its struct.
  std::string pack_config() {
    if (!trainer_) return problem_.message;
    return pack_checked(ntr::kTrainConfigTable, trainer_->config());
  }

  // n >= 1 whole steps (finishing the one in progress first); the run is
  // then in packed() (kTrainRunTable).
  std::string step(int n) {
    if (!trainer_) return problem_.message;
    begin_run();
    ntr::StepResult r;
    for (int k = 0; k < n; ++k) {
      while (!trainer_->advance(&r)) {
      }
      run_.add(r);
    }
    return pack_run();
  }

  // Starts collecting a run of units.
  void begin_run() {
    run_.clear();
    if (trainer_) {
      run_.first_step = trainer_->steps_done();
      run_.layers = trainer_->config().layers;
    }
  }

  // Runs the next unit; true when it completed a step (added to the run).
  bool advance_unit() {
    if (!trainer_) return false;
    ntr::StepResult r;
    if (!trainer_->advance(&r)) return false;
    run_.add(r);
    return true;
  }

  // The run since begin_run(), into packed().
  std::string pack_run() {
    if (!trainer_) return problem_.message;
    run_.steps_done = trainer_->steps_done();
    run_.units_done = trainer_->units_done();
    run_.units_per_step = trainer_->units_per_step();
    run_.diverged = trainer_->diverged() ? 1 : 0;
    return pack_checked(ntr::kTrainRunTable, run_);
  }

  int steps_done() const { return trainer_ ? trainer_->steps_done() : 0; }
  bool diverged() const { return trainer_ && trainer_->diverged(); }
  double evaluate() { return trainer_ ? trainer_->evaluate() : 0.0; }

  // The held-out evaluation a window at a time, for a page's time budget:
  // evaluate() sums the same windows' losses in the same order, so the
  // result has the same bits. A unit of training since the last window
  // starts the evaluation over (the weights changed under it).
  int heldout_windows() const { return trainer_ ? trainer_->heldout_windows() : 0; }
  int windows_done() const { return eval_window_; }
  // Runs the next window; true when it completed the evaluation, whose
  // loss is then evaluation_loss().
  bool evaluate_window() {
    if (!trainer_) return true;
    const long long progress = units_run();
    if (progress != eval_progress_) {
      eval_window_ = 0;
      eval_sum_ = 0.0;
      eval_progress_ = progress;
    }
    eval_sum_ += trainer_->heldout_window_loss(eval_window_++);
    const int windows = trainer_->heldout_windows();
    if (eval_window_ < windows) return false;
    eval_loss_ = eval_sum_ / (static_cast<double>(windows) * trainer_->config().seq);
    eval_window_ = 0;
    eval_sum_ = 0.0;
    return true;
  }
  double evaluation_loss() const { return eval_loss_; }
  double unigram_entropy() const { return trainer_ ? trainer_->unigram_entropy() : 0.0; }
  double memory_bytes() const { return trainer_ ? trainer_->memory().total : 0.0; }

  // n bytes after the prompt's (check_generate_options first); a view of
  // them, good until the next call (the view rule, bindings.cpp).
  val generate(const std::string& prompt_utf8, int n, double temperature, double seed) {
    generated_.clear();
    if (trainer_) {
      generated_ = trainer_->generate(prompt_utf8, n, temperature, static_cast<uint32_t>(seed));
    }
    const auto* bytes = reinterpret_cast<const uint8_t*>(generated_.data());
    return val(typed_memory_view(generated_.size(), bytes));
  }

  // The same sampling a byte at a time, for a page's time budget:
  // begin_sampling, then sample_byte() until the bytes wanted are out (it
  // returns how many are); sampled() is a view of them, good until the
  // next call (the view rule). After n bytes they are generate()'s n. A
  // unit of training since the last byte starts the sampling over.
  void begin_sampling(const std::string& prompt_utf8, double temperature, double seed) {
    sample_prompt_ = prompt_utf8;
    sample_temperature_ = temperature;
    sample_seed_ = static_cast<uint32_t>(seed);
    sampling_.reset();
  }
  int sample_byte() {
    if (!trainer_) return 0;
    if (!sampling_ || units_run() != sample_progress_) {
      sampling_ = trainer_->begin_sampling(sample_prompt_, sample_temperature_, sample_seed_);
      sample_progress_ = units_run();
    }
    trainer_->sample_next(&*sampling_);
    return static_cast<int>(sampling_->out.size());
  }
  val sampled() const {
    static const std::string none;
    const std::string& out = sampling_ ? sampling_->out : none;
    return val(typed_memory_view(out.size(), reinterpret_cast<const uint8_t*>(out.data())));
  }

  // The next-byte distribution after the prompt's bytes
  // (Trainer::next_byte_probabilities); a view of its 256 floats, good until
  // the next call (the view rule).
  val next_bytes(const std::string& prompt_utf8) {
    if (trainer_) trainer_->next_byte_probabilities(next_bytes_.data(), prompt_utf8);
    return val(typed_memory_view(next_bytes_.size(), next_bytes_.data()));
  }

  // Layer by layer, the lengths of one forward pass's residual stream and
  // norm outputs (Trainer::layer_norms), into packed() (kLayerNormTable):
  // on the prompt's bytes, or with none on the held-out split's first
  // window. "" or the problem's message (check_layer_norms_prompt).
  std::string pack_layer_norms(const std::string& prompt_utf8) {
    if (!trainer_) return problem_.message;
    if (prompt_utf8.empty()) {
      trainer_->heldout_layer_norms(&layer_norms_);
    } else {
      const nm::Problem problem =
          ntr::check_layer_norms_prompt(prompt_utf8.size(), trainer_->config().seq);
      if (problem) return problem.message;
      trainer_->layer_norms(&layer_norms_, reinterpret_cast<const uint8_t*>(prompt_utf8.data()),
                            static_cast<int>(prompt_utf8.size()));
    }
    return pack_checked(ntr::kLayerNormTable, layer_norms_);
  }

  // The norms' gains and biases as they are now (Trainer::norm_gains), into
  // packed() (kNormGainsTable). "" or the problem.
  std::string pack_gains() {
    if (!trainer_) return problem_.message;
    gains_ = trainer_->norm_gains();
    return pack_checked(ntr::kNormGainsTable, gains_);
  }

  // The training state as bytes (Trainer::save_state; the format:
  // src/train/state.h), between steps only: the problem of a step partly
  // done, else none and the bytes in savedState(), a view good until the
  // next call (the view rule), which JS copies at once and then lets go of
  // with releaseState() (a state is as big as the parameters and Adam's
  // moments together: no need to keep a second copy in wasm memory).
  JsProblem save_state() {
    if (!trainer_) return to_js(problem_);
    return to_js(trainer_->save_state(&state_));
  }
  val saved_state() const { return val(typed_memory_view(state_.size(), state_.data())); }
  void release_state() { std::vector<uint8_t>().swap(state_); }

  // Restores saved bytes (Trainer::restore_state; a Uint8Array arrives as
  // a std::string), or changes nothing and says why. An evaluation or a
  // sampling in parts starts over after it, as after a unit of training:
  // the weights changed under them.
  JsProblem restore_state(const std::string& bytes) {
    if (!trainer_) return to_js(problem_);
    const nm::Problem problem =
        trainer_->restore_state(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
    if (!problem) {
      eval_progress_ = -1;
      sample_progress_ = -1;
    }
    return to_js(problem);
  }

  // A view of the last packed result (the view rule, bindings.cpp).
  val packed() const { return val(typed_memory_view(packed_.size(), packed_.data())); }

  // Test support: the last result of that name ("trainRun", "trainConfig",
  // "trainLayerNorms", "trainGains") packed with every entry filled by fill_identity, under
  // its dims.
  std::string pack_identity_for_tests(const std::string& result) {
    if (!trainer_) return problem_.message;
    if (result == "trainRun") return pack_identity(ntr::kTrainRunTable, run_);
    if (result == "trainConfig") return pack_identity(ntr::kTrainConfigTable, trainer_->config());
    if (result == "trainLayerNorms") return pack_identity(ntr::kLayerNormTable, layer_norms_);
    if (result == "trainGains") return pack_identity(ntr::kNormGainsTable, gains_);
    return "result must be 'trainRun', 'trainConfig', 'trainLayerNorms' or 'trainGains'";
  }

 private:
  template <class R>
  std::string pack_identity(const nm::ResultTable<R>& table, const R& r) {
    R copy = r;
    fill_identity(&copy, table);
    return checked(table, pack(&packed_, table, copy, nm::dim_values(table, r)));
  }

  template <class R>
  std::string pack_checked(const nm::ResultTable<R>& table, const R& r) {
    return checked(table, pack(&packed_, table, r, nm::dim_values(table, r)));
  }

  // Units of training run so far: what a part-way evaluation or sampling
  // checks for changed weights.
  long long units_run() const {
    return static_cast<long long>(trainer_->steps_done()) * trainer_->units_per_step() +
           trainer_->units_done();
  }

  template <class R>
  static std::string checked(const nm::ResultTable<R>& table, const char* bad_entry) {
    if (bad_entry == nullptr) return "";
    return std::string("normlab: the ") + table.name + " result's '" + bad_entry +
           "' does not match its table";
  }

  nm::Problem problem_;
  std::unique_ptr<ntr::Trainer> trainer_;
  ntr::TrainRun run_;
  ntr::LayerNormProbe layer_norms_;  // the last layerNorms() measurement
  ntr::NormGains gains_;             // the last gains() copy
  std::string generated_;
  std::vector<float> next_bytes_ = std::vector<float>(256);
  // The sampling in progress (sample_byte): its arguments, its state and the
  // training progress (units run) it started at.
  std::string sample_prompt_;
  double sample_temperature_ = 1.0;
  uint32_t sample_seed_ = 1;
  std::optional<ntr::Trainer::Sampling> sampling_;
  long long sample_progress_ = -1;
  // The evaluation in progress (evaluate_window): the next window, the sum
  // so far, and the training progress (units run) it started at.
  int eval_window_ = 0;
  double eval_sum_ = 0.0;
  long long eval_progress_ = -1;
  double eval_loss_ = 0.0;
  // The last packed result; it keeps its capacity across calls.
  std::vector<uint8_t> packed_;
  // The last saved state, until JS has copied it (release_state).
  std::vector<uint8_t> state_;
};

}  // namespace

EMSCRIPTEN_BINDINGS(normlab_trainer) {
  using namespace emscripten;

  function("boundary", &describe_boundary);

  value_object<MemoryInfo>("MemoryInfo")
      .field("heapBytes", &MemoryInfo::heap_bytes)
      .field("mallocBytes", &MemoryInfo::malloc_bytes)
      .field("liveAllocations", &MemoryInfo::live_allocations);
  function("memoryInfo", &memory_info);

  // One field per option of kTrainOptions; JS fills every one (a computed
  // default as NaN; text: UTF-8 bytes).
  {
    value_object<ntr::TrainOptions> train_options("TrainOptions");
    register_options(&train_options, ntr::kTrainOptions);
  }

  value_object<JsProblem>("Problem")
      .field("code", &JsProblem::code)
      .field("field", &JsProblem::field)
      .field("message", &JsProblem::message);

  function("checkTrainOptions", &check_train_options_js);
  function("checkGenerateOptions", &check_generate_options_js);
  function("checkLayerNormsPrompt", &check_layer_norms_prompt_js);

  class_<TrainerHandle>("Trainer")
      .constructor<const ntr::TrainOptions&>()
      .function("problem", &TrainerHandle::problem)
      .function("packConfig", &TrainerHandle::pack_config)
      .function("step", &TrainerHandle::step)
      .function("beginRun", &TrainerHandle::begin_run)
      .function("advanceUnit", &TrainerHandle::advance_unit)
      .function("packRun", &TrainerHandle::pack_run)
      .function("stepsDone", &TrainerHandle::steps_done)
      .function("diverged", &TrainerHandle::diverged)
      .function("evaluate", &TrainerHandle::evaluate)
      .function("heldoutWindows", &TrainerHandle::heldout_windows)
      .function("windowsDone", &TrainerHandle::windows_done)
      .function("evaluateWindow", &TrainerHandle::evaluate_window)
      .function("evaluationLoss", &TrainerHandle::evaluation_loss)
      .function("unigramEntropy", &TrainerHandle::unigram_entropy)
      .function("memoryBytes", &TrainerHandle::memory_bytes)
      .function("generate", &TrainerHandle::generate)
      .function("beginSampling", &TrainerHandle::begin_sampling)
      .function("sampleByte", &TrainerHandle::sample_byte)
      .function("sampled", &TrainerHandle::sampled)
      .function("nextBytes", &TrainerHandle::next_bytes)
      .function("packLayerNorms", &TrainerHandle::pack_layer_norms)
      .function("packGains", &TrainerHandle::pack_gains)
      .function("saveState", &TrainerHandle::save_state)
      .function("savedState", &TrainerHandle::saved_state)
      .function("releaseState", &TrainerHandle::release_state)
      .function("restoreState", &TrainerHandle::restore_state)
      .function("packed", &TrainerHandle::packed)
      .function("packIdentityForTests", &TrainerHandle::pack_identity_for_tests);
}
