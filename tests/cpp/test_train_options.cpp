// The trainer's options: the exact message for each bad field (the JS API
// shows them as they are), the resolved defaults, and the FLOP count of a
// step against an enumeration of the model's products.
//
// D = hidden, H = heads, dh = D / H, F = 4 D, L = layers, T = seq, B = batch
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "train/layout.h"
#include "train/options.h"
#include "train_fixtures.h"

using namespace normlab;
using namespace normlab::test;

namespace {

train::TrainOptions valid() {
  train::TrainOptions o;
  o.text = training_text();
  return o;
}

template <class Edit>
std::string message_for(Edit edit) {
  train::TrainOptions o = valid();
  edit(o);
  return train::validate_train_options(o);
}

}  // namespace

TEST_CASE("trainer options: each bad field gets its message", "[train][options]") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  CHECK(train::validate_train_options(valid()).empty());
  for (double v : {0.0, 65.0, 2.5, nan, inf}) {
    CHECK(message_for([v](auto& o) { o.layers = v; }) == "layers must be an integer in 1..64");
  }
  for (double v : {4.0, 12.0, 512.0, nan}) {
    CHECK(message_for([v](auto& o) { o.hidden = v; }) == "hidden must be a power of two in 8..256");
  }
  for (double v : {0.0, 3.0, 16.0}) {
    CHECK(message_for([v](auto& o) { o.heads = v; }) ==
          "heads must be a power of two in 1..8 for hidden 32");
  }
  CHECK(message_for([](auto& o) {
          o.hidden = 256;
          o.heads = 32;
        }) == "heads must be a power of two in 1..16 for hidden 256");
  CHECK(message_for([](auto& o) { o.norm = "batchnorm"; }) ==
        "norm must be 'rmsnorm', 'layernorm', 'none' or 'dyt'");
  CHECK(message_for([](auto& o) { o.placement = "middle"; }) ==
        "placement must be 'pre', 'post', 'deepnorm', 'output' or 'sandwich'");
  // A boolean: JS passes 0 or 1 (wasm/boundary.js), and -1 for a value of
  // another type.
  for (double v : {-1.0, 0.5, 2.0, nan}) {
    CHECK(message_for([v](auto& o) { o.qk_norm = v; }) == "qkNorm must be true or false");
  }
  CHECK(message_for([](auto& o) { o.qk_norm = 1; }).empty());
  for (double v : {-1e-9, 1.5, inf}) {
    CHECK(message_for([v](auto& o) { o.eps = v; }) == "eps must be a number in 0..1");
  }
  for (double v : {0.0, -0.02, 1.5, inf, -inf}) {
    CHECK(message_for([v](auto& o) { o.init_std = v; }) == "initStd must be a number > 0 and <= 1");
  }
  CHECK(message_for([](auto& o) { o.init_std = 1.0; }).empty());
  for (double v : {0.0, -1e-3, nan, inf}) {
    CHECK(message_for([v](auto& o) { o.lr = v; }) == "lr must be a finite number > 0");
  }
  for (double v : {-1.0, 0.5, 100001.0}) {
    CHECK(message_for([v](auto& o) { o.warmup = v; }) == "warmup must be an integer in 0..100000");
  }
  for (double v : {0.0, 1e6, nan}) {
    CHECK(message_for([v](auto& o) { o.steps = v; }) == "steps must be an integer in 1..100000");
  }
  for (double v : {-1.0, 4294967296.0, 0.25}) {
    CHECK(message_for([v](auto& o) { o.seed = v; }) == "seed must be an integer in 0..4294967295");
  }
  for (double v : {1.0, 257.0}) {
    CHECK(message_for([v](auto& o) { o.seq = v; }) == "seq must be an integer in 2..256");
  }
  for (double v : {0.0, 65.0}) {
    CHECK(message_for([v](auto& o) { o.batch = v; }) == "batch must be an integer in 1..64");
  }
  CHECK(message_for([](auto& o) { o.text = "RMSNorm"; }) ==
        "text must hold at least 650 bytes for seq 64 (its last 10% is held out), not 7");
  CHECK(message_for([](auto& o) {
          o.seq = 8;
          o.text = std::string(89, 'x');
        }) == "text must hold at least 90 bytes for seq 8 (its last 10% is held out), not 89");
  CHECK(message_for([](auto& o) {
          o.seq = 8;
          o.text = std::string(90, 'x');
        }).empty());
  // The largest model: 64 layers of hidden 256 over 256-byte sequences.
  const std::string too_big = message_for([](auto& o) {
    o.layers = 64;
    o.hidden = 256;
    o.seq = 256;
  });
  train::TrainOptions big = valid();
  big.layers = 64;
  big.hidden = 256;
  big.seq = 256;
  const double mib =
      train::memory_needed(train::resolve_train_options(big), big.text.size()).total /
      (1024.0 * 1024.0);
  char expected[128];
  std::snprintf(
      expected, sizeof expected,
      "layers, hidden and seq need %.0f MiB together, more than a trainer may use (256 MiB)", mib);
  CHECK(too_big == expected);
  CHECK(mib > 256);
}

TEST_CASE("generate options: each bad argument gets its message", "[train][options]") {
  CHECK(train::validate_generate_options(100, 0.8, 1).empty());
  CHECK(train::validate_generate_options(0, 0, 0).empty());
  for (double n : {-1.0, 1.5, 100001.0, std::numeric_limits<double>::quiet_NaN()}) {
    CHECK(train::validate_generate_options(n, 1, 1) == "nBytes must be an integer in 0..100000");
  }
  for (double t : {-0.1, 101.0, std::numeric_limits<double>::infinity(),
                   std::numeric_limits<double>::quiet_NaN()}) {
    CHECK(train::validate_generate_options(10, t, 1) == "temperature must be a number in 0..100");
  }
  CHECK(train::validate_generate_options(10, 1, -1) == "seed must be an integer in 0..4294967295");
}

TEST_CASE("trainer problems name their rule and the field the table gives them",
          "[train][options]") {
  auto with = [](auto edit) {
    train::TrainOptions o = valid();
    edit(o);
    return train::check_train_options(o);
  };
  struct Case {
    model::Problem problem;
    model::ProblemCode code;
    const char* field;
  };
  using model::ProblemCode;
  const Case cases[] = {
      {with([](auto& o) { o.layers = 0; }), ProblemCode::kOutOfRange, "layers"},
      {with([](auto& o) { o.hidden = 12; }), ProblemCode::kOutOfRange, "hidden"},
      {with([](auto& o) { o.heads = 3; }), ProblemCode::kOutOfRange, "heads"},
      {with([](auto& o) { o.norm = "batchnorm"; }), ProblemCode::kNotOneOf, "norm"},
      {with([](auto& o) { o.placement = ""; }), ProblemCode::kNotOneOf, "placement"},
      {with([](auto& o) { o.qk_norm = -1; }), ProblemCode::kOutOfRange, "qkNorm"},
      {with([](auto& o) { o.eps = 2; }), ProblemCode::kOutOfRange, "eps"},
      {with([](auto& o) { o.init_std = 0; }), ProblemCode::kOutOfRange, "initStd"},
      {with([](auto& o) { o.lr = 0; }), ProblemCode::kOutOfRange, "lr"},
      {with([](auto& o) { o.warmup = -1; }), ProblemCode::kOutOfRange, "warmup"},
      {with([](auto& o) { o.steps = 0; }), ProblemCode::kOutOfRange, "steps"},
      {with([](auto& o) { o.seed = -1; }), ProblemCode::kOutOfRange, "seed"},
      {with([](auto& o) { o.seq = 1; }), ProblemCode::kOutOfRange, "seq"},
      {with([](auto& o) { o.batch = 0; }), ProblemCode::kOutOfRange, "batch"},
      {with([](auto& o) { o.text = "short"; }), ProblemCode::kTooShort, "text"},
      {with([](auto& o) {
         o.layers = 64;
         o.hidden = 256;
         o.seq = 256;
       }),
       ProblemCode::kOutOfRange, "layers"},
      {train::check_generate_options(-1, 1, 1), ProblemCode::kOutOfRange, "nBytes"},
      {train::check_generate_options(1, -1, 1), ProblemCode::kOutOfRange, "temperature"},
      {train::check_generate_options(1, 1, -1), ProblemCode::kOutOfRange, "seed"},
      {train::check_layer_norms_prompt(0, 64), ProblemCode::kOutOfRange, "prompt"},
      {train::check_layer_norms_prompt(65, 64), ProblemCode::kOutOfRange, "prompt"},
  };
  for (const Case& c : cases) {
    INFO(c.problem.message);
    CHECK(c.problem.code == c.code);
    CHECK(std::string(model::kFieldNames[static_cast<int>(c.problem.field)]) == c.field);
  }
  // Every option's problem names the field of the option's own name (each
  // option's cases, through the module, are in tests/js/trainer.test.mjs).
  for (const auto& spec : train::kTrainOptionSpecs) {
    INFO(spec.name);
    CHECK(std::string(model::kFieldNames[static_cast<int>(spec.field)]) == spec.name);
  }
  CHECK(!train::check_train_options(valid()));
  CHECK(!train::check_generate_options(0, 0, 0));
  CHECK(!train::check_layer_norms_prompt(64, 64));
}

TEST_CASE("trainer options: resolved values", "[train][options]") {
  train::TrainOptions o = valid();
  train::TrainConfig c = train::resolve_train_options(o);
  CHECK(c.layers == 24);
  CHECK(c.hidden == 32);
  CHECK(c.heads == 4);
  CHECK(c.norm == train::NormKind::rmsnorm);
  CHECK(c.placement == train::Placement::post);
  CHECK(c.qk_norm == 0);
  CHECK(c.eps == 1e-6f);
  // GPT-2's 0.02 at width 768, scaled to width 32 as 1 / sqrt(width).
  CHECK(c.init_std == static_cast<float>(0.02 * std::sqrt(768.0 / 32.0)));
  CHECK(c.init_std == Approx(0.0979796).epsilon(1e-6));
  CHECK(c.lr == 3e-3);
  CHECK(c.warmup == 0);
  CHECK(c.steps == 400);
  CHECK(c.seed == 1u);
  CHECK(c.seq == 64);
  CHECK(c.batch == 8);
  CHECK(c.micro_batch == 1);
  o.norm = "layernorm";
  o.placement = "pre";
  o.seed = 4294967295.0;
  o.qk_norm = 1;
  c = train::resolve_train_options(o);
  CHECK(c.qk_norm == 1);
  CHECK(c.norm == train::NormKind::layernorm);
  CHECK(c.placement == train::Placement::pre);
  CHECK(c.eps == 1e-5f);
  CHECK(c.seed == 4294967295u);
  CHECK(c.has_final_norm());
  o.eps = 0;
  CHECK(train::resolve_train_options(o).eps == 0.0f);
  // The default follows the width; an explicit one is taken as given.
  for (int hidden : {8, 64, 256}) {
    o.hidden = hidden;
    o.heads = 2;
    CHECK(train::resolve_train_options(o).init_std == Approx(0.02 * std::sqrt(768.0 / hidden)));
  }
  CHECK(train::init_std_for(768) == 0.02);
  o.init_std = 0.02;
  CHECK(train::resolve_train_options(o).init_std == 0.02f);
  // A default-constructed config is the default options' resolution.
  CHECK(train::TrainConfig().init_std == train::resolve_train_options(valid()).init_std);
}

TEST_CASE("flops_per_step counts every product of a step", "[train][options]") {
  // Enumerated: per sequence and layer, each linear layer's R x OC x C
  // multiply-adds, attention's (query, key <= query) pairs times dh for
  // q.k and for P v, per head; the head's T x V x D. A multiply-add is 2
  // FLOPs; the backward does two products per forward product.
  for (int layers : {6, 24, 48}) {
    train::TrainOptions o = valid();
    o.layers = layers;
    const train::TrainConfig c = train::resolve_train_options(o);
    const long D = c.hidden, F = c.mlp_width(), T = c.seq, H = c.heads, dh = c.head_dim();
    long pairs = 0;
    for (long i = 0; i < T; ++i) {
      for (long j = 0; j <= i; ++j) ++pairs;
    }
    long madds = 0;
    for (long l = 0; l < c.layers; ++l) {
      madds += T * 3 * D * D + T * D * D + T * F * D + T * D * F;  // qkv, attn_out, fc, fc_out
      madds += 2 * H * pairs * dh;                                 // q k^T, P v
    }
    madds += T * train::TrainConfig::kVocab * D;  // the tied head
    const double expected = 2.0 * 3.0 * static_cast<double>(madds) * c.batch;
    CHECK(train::flops_per_step(c) == expected);
    if (layers == 24) {
      std::printf("FLOPs per step, D 32, L 24, T 64, B 8: %.0f\n", expected);
      CHECK(expected == 1084489728.0);
    }
  }
}
