// The trainer's result tables (train/results.h) against the structs they
// describe: every entry's member holds exactly the elements its declared
// shape counts, for a run of 3 steps of a real trainer, a resolved config
// and the layer-norm probe (with a norm, and with none: its flagged entries
// then hold nothing), and every symbol is a dim or a named axis. The JS side of the
// same tables is tested in tests/js/trainer.test.mjs (keys, types, and
// identity packings through the module).
//
// N = steps of a run
#include <catch2/catch.hpp>

#include <string>

#include "train/results.h"
#include "train/trainer.h"
#include "train_fixtures.h"

using namespace normlab;

namespace {

// Whether flag `name` of the table is set for r.
template <class R>
bool flag_set(const model::ResultTable<R>& table, const R& r, const char* name) {
  for (int f = 0; f < table.flag_count; f++) {
    if (std::string(table.flags[f].name) == name) return table.flags[f].value(r);
  }
  FAIL("no flag " << name);
  return false;
}

template <class R>
void check_table(const model::ResultTable<R>& table, const R& r) {
  const model::DimValues dims = model::dim_values(table, r);
  REQUIRE(dims.count == table.dim_count);
  for (int i = 0; i < table.entry_count; i++) {
    const model::ResultEntry<R>& e = table.entries[i];
    INFO(table.name << " entry " << e.path);
    REQUIRE(e.source != nullptr);
    if (e.names != nullptr) CHECK(model::find_named_axis(e.names) != nullptr);
    const long long n = model::element_count(e.shape, dims);
    REQUIRE(n >= 0);
    if (e.source_shape != nullptr) CHECK(model::element_count(e.source_shape, dims) == n);
    const bool packed = e.when == nullptr || flag_set(table, r, e.when);
    CHECK(static_cast<long long>(e.source(r).count) == (packed ? n : 0));
  }
}

}  // namespace

TEST_CASE("trainer result tables match their structs", "[train][results]") {
  train::TrainOptions o;
  o.text = test::training_text();
  o.layers = 2;
  o.hidden = 16;
  o.heads = 2;
  o.seq = 16;
  o.batch = 2;
  REQUIRE(train::validate_train_options(o).empty());
  const train::TrainConfig c = train::resolve_train_options(o);
  train::Trainer trainer(c, o.text);
  train::TrainRun run;
  run.layers = c.layers;
  for (int s = 0; s < 3; s++) run.add(trainer.step());
  check_table(train::kTrainRunTable, run);
  CHECK(model::dim_values(train::kTrainRunTable, run).size_of("N") == 3);
  CHECK(run.max_logit.size() == 3u * 2);
  CHECK(run.stream_norm.size() == 3u * 3);
  check_table(train::kTrainConfigTable, trainer.config());

  train::LayerNormProbe probe;
  trainer.heldout_layer_norms(&probe);
  check_table(train::kLayerNormTable, probe);
  CHECK(flag_set(train::kLayerNormTable, probe, "norm"));
  o.norm = "none";
  train::Trainer plain(train::resolve_train_options(o), o.text);
  plain.heldout_layer_norms(&probe);
  check_table(train::kLayerNormTable, probe);
  CHECK_FALSE(flag_set(train::kLayerNormTable, probe, "norm"));

  // The gains: every flag set for pre-norm LayerNorm, none without a norm.
  o.norm = "layernorm";
  o.placement = "pre";
  train::Trainer layer_norm(train::resolve_train_options(o), o.text);
  const train::NormGains gains = layer_norm.norm_gains();
  check_table(train::kNormGainsTable, gains);
  for (const char* flag : {"gain", "bias", "finalGain", "finalBias"})
    CHECK(flag_set(train::kNormGainsTable, gains, flag));
  const train::NormGains none = plain.norm_gains();
  check_table(train::kNormGainsTable, none);
  for (const char* flag : {"gain", "bias", "finalGain", "finalBias", "qkGain", "outGain", "outBias",
                           "alpha", "outAlpha", "finalAlpha"})
    CHECK_FALSE(flag_set(train::kNormGainsTable, none, flag));
  // The variants' flags: QK-norm's gains; DyT in a sandwich, every other.
  o.norm = "rmsnorm";
  o.qk_norm = 1;
  train::Trainer qk(train::resolve_train_options(o), o.text);
  const train::NormGains qk_gains = qk.norm_gains();
  check_table(train::kNormGainsTable, qk_gains);
  CHECK(model::dim_values(train::kNormGainsTable, qk_gains).size_of("Dh") == o.hidden / o.heads);
  CHECK(flag_set(train::kNormGainsTable, qk_gains, "qkGain"));
  CHECK_FALSE(flag_set(train::kNormGainsTable, qk_gains, "outGain"));
  o.qk_norm = 0;
  o.norm = "dyt";
  o.placement = "sandwich";
  train::Trainer dyt(train::resolve_train_options(o), o.text);
  const train::NormGains dyt_gains = dyt.norm_gains();
  check_table(train::kNormGainsTable, dyt_gains);
  for (const char* flag : {"outGain", "outBias", "alpha", "outAlpha", "finalAlpha"})
    CHECK(flag_set(train::kNormGainsTable, dyt_gains, flag));
  CHECK_FALSE(flag_set(train::kNormGainsTable, dyt_gains, "qkGain"));

  // A run of no steps (advance() within a short budget) packs empty arrays.
  train::TrainRun empty;
  check_table(train::kTrainRunTable, empty);
}
