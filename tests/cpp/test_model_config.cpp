// The synthetic model's configuration, prompts and errors: every message
// the JS wrapper passes on, the defaults, and that nothing crashes on bad
// input.
#include <catch2/catch.hpp>

#include "model/model.h"
#include "model/tokenizer.h"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

using namespace normlab::model;

namespace {

ModelOptions small_options() {
  ModelOptions o;
  o.layers = 2;
  o.hidden = 64;
  o.heads = 4;
  return o;
}

}  // namespace

TEST_CASE("default options are the chapter's model", "[model][config]") {
  const ModelOptions o;
  CHECK(validate_model_options(o).empty());
  const ModelConfig c = resolve_model_options(o);
  CHECK(c.layers == 24);
  CHECK(c.hidden == 1024);
  CHECK(c.heads == 16);
  CHECK(c.head_dim() == 64);
  CHECK(c.norm == NormKind::rmsnorm);
  CHECK(c.placement == Placement::pre);
  CHECK(c.eps == 1e-6f);
  CHECK(std::string(norm_kind_name(c.norm)) == "rmsnorm");
  CHECK(std::string(placement_name(c.placement)) == "pre");
}

TEST_CASE("eps defaults by norm kind and can be set", "[model][config]") {
  ModelOptions o;
  o.norm = "layernorm";
  CHECK(resolve_model_options(o).eps == 1e-5f);
  o.norm = "rmsnorm";
  CHECK(resolve_model_options(o).eps == 1e-6f);
  o.eps = 1e-3;
  CHECK(resolve_model_options(o).eps == 1e-3f);
  o.eps = 0.0;
  CHECK(validate_model_options(o).empty());
}

TEST_CASE("invalid options give one clear message each", "[model][config]") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  struct Case {
    ModelOptions options;
    std::string message;
  };
  std::vector<Case> cases;
  auto with = [](auto change) {
    ModelOptions o;
    change(o);
    return o;
  };
  const std::string layers_msg = "layers must be an integer in 1..64";
  for (double v : {0.0, 65.0, 2.5, -1.0, nan, inf}) {
    cases.push_back({with([v](ModelOptions& o) { o.layers = v; }), layers_msg});
  }
  const std::string hidden_msg = "hidden must be a power of two in 64..1024";
  for (double v : {32.0, 2048.0, 100.0, 512.5, nan}) {
    cases.push_back({with([v](ModelOptions& o) { o.hidden = v; }), hidden_msg});
  }
  for (double v : {0.0, 3.0, 128.0, 12.0, nan}) {
    cases.push_back({with([v](ModelOptions& o) { o.heads = v; }),
                     "heads must be a power of two in 1..64 for hidden 1024"});
  }
  cases.push_back({with([](ModelOptions& o) {
                     o.hidden = 64;
                     o.heads = 32;
                   }),
                   "heads must be a power of two in 1..16 for hidden 64"});
  cases.push_back({with([](ModelOptions& o) { o.norm = "batchnorm"; }),
                   "norm must be 'rmsnorm', 'layernorm' or 'none'"});
  cases.push_back({with([](ModelOptions& o) { o.norm = ""; }),
                   "norm must be 'rmsnorm', 'layernorm' or 'none'"});
  cases.push_back(
      {with([](ModelOptions& o) { o.placement = "middle"; }), "placement must be 'pre' or 'post'"});
  // The trainer's own placements (src/train/options.h) are not the model's.
  cases.push_back({with([](ModelOptions& o) { o.placement = "deepnorm"; }),
                   "placement must be 'pre' or 'post'"});
  cases.push_back({with([](ModelOptions& o) { o.norm = "dyt"; }),
                   "norm must be 'rmsnorm', 'layernorm' or 'none'"});
  for (double v : {-1e-6, 2.0, inf}) {
    cases.push_back({with([v](ModelOptions& o) { o.eps = v; }), "eps must be a number in 0..1"});
  }
  for (double v : {-1.0, 4294967296.0, 0.5, nan}) {
    cases.push_back(
        {with([v](ModelOptions& o) { o.seed = v; }), "seed must be an integer in 0..4294967295"});
  }
  for (const Case& c : cases) {
    INFO("expecting: " << c.message);
    CHECK(validate_model_options(c.options) == c.message);
    // A model built from them is empty and answers every call with it.
    Model model(c.options);
    CHECK(model.error() == c.message);
    CHECK(model.forward("hello") == c.message);
    CHECK(model.gradients("hello") == c.message);
    CHECK(std::isnan(model.loss("hello")));
    CHECK(model.validate_gain_query(0, "inputNorm") == c.message);
  }
  ModelOptions edge;
  edge.seed = 4294967295.0;
  edge.layers = 64;
  CHECK(validate_model_options(edge).empty());
}

TEST_CASE("prompts: UTF-8 bytes, 1..64 of them", "[model][config]") {
  CHECK(validate_prompt("") == "prompt is empty");
  CHECK(validate_prompt(std::string(64, 'a')).empty());
  CHECK(validate_prompt(std::string(65, 'a')) == "prompt longer than 64 tokens (65 UTF-8 bytes)");
  // 22 Chinese characters are 66 bytes: one token per byte.
  std::string zh;
  for (int i = 0; i < 22; i++) zh += "\xe5\xb1\x82";  // U+5C42
  CHECK(validate_prompt(zh) == "prompt longer than 64 tokens (66 UTF-8 bytes)");

  const std::vector<int> tokens = tokenize("A\xe5\xb1\x82");
  REQUIRE(tokens.size() == 4);
  CHECK(tokens[0] == 65);
  CHECK(tokens[1] == 0xe5);
  CHECK(tokens[2] == 0xb1);
  CHECK(tokens[3] == 0x82);
}

TEST_CASE("bad prompts, top_k and gain queries return messages", "[model][config]") {
  Model model(small_options());
  REQUIRE(model.error().empty());
  CHECK(model.forward("") == "prompt is empty");
  CHECK(model.forward(std::string(65, 'x')) == "prompt longer than 64 tokens (65 UTF-8 bytes)");
  CHECK(model.forward("ok", 0) == "top_k must be an integer in 1..256");
  CHECK(model.forward("ok", 257) == "top_k must be an integer in 1..256");
  CHECK(model.forward("ok", 256).empty());
  CHECK(model.gradients("") == "prompt is empty");
  CHECK(model.gradients("x") == "gradients need a prompt of at least 2 tokens");
  CHECK(std::isnan(model.loss("x")));
  CHECK(model.gradients("xy").empty());

  CHECK(model.validate_gain_query(0, "inputNorm").empty());
  CHECK(model.validate_gain_query(1, "postAttentionNorm").empty());
  CHECK(model.validate_gain_query(-7, "finalNorm").empty());
  CHECK(model.validate_gain_query(2, "inputNorm") == "layer must be an integer in 0..1");
  CHECK(model.validate_gain_query(0.5, "inputNorm") == "layer must be an integer in 0..1");
  CHECK(model.validate_gain_query(0, "gain") ==
        "which must be 'inputNorm', 'postAttentionNorm' or 'finalNorm'");
}

TEST_CASE("a failed call leaves the previous result intact", "[model][config]") {
  Model model(small_options());
  REQUIRE(model.forward("abc").empty());
  const std::vector<float> before = model.forward_result().stats;
  CHECK_FALSE(model.forward("").empty());
  CHECK(model.forward_result().stats == before);
}

TEST_CASE("problems name their rule and field; the message is the same", "[model][config]") {
  struct Case {
    Problem problem;
    ProblemCode code;
    Field field;
    std::string message;
  };
  auto with = [](auto change) {
    ModelOptions o;
    change(o);
    return check_model_options(o);
  };
  Model model(small_options());
  REQUIRE(!model.problem());
  const std::vector<Case> cases = {
      {with([](ModelOptions& o) { o.layers = 0; }), ProblemCode::kOutOfRange, Field::kLayers,
       "layers must be an integer in 1..64"},
      {with([](ModelOptions& o) { o.hidden = 100; }), ProblemCode::kOutOfRange, Field::kHidden,
       "hidden must be a power of two in 64..1024"},
      {with([](ModelOptions& o) { o.heads = 3; }), ProblemCode::kOutOfRange, Field::kHeads,
       "heads must be a power of two in 1..64 for hidden 1024"},
      {with([](ModelOptions& o) { o.norm = "batchnorm"; }), ProblemCode::kNotOneOf, Field::kNorm,
       "norm must be 'rmsnorm', 'layernorm' or 'none'"},
      {with([](ModelOptions& o) { o.placement = ""; }), ProblemCode::kNotOneOf, Field::kPlacement,
       "placement must be 'pre' or 'post'"},
      {with([](ModelOptions& o) { o.eps = -1.0; }), ProblemCode::kOutOfRange, Field::kEps,
       "eps must be a number in 0..1"},
      {with([](ModelOptions& o) { o.seed = 0.5; }), ProblemCode::kOutOfRange, Field::kSeed,
       "seed must be an integer in 0..4294967295"},
      // The first bad field in the options' order.
      {with([](ModelOptions& o) {
         o.seed = -1;
         o.hidden = 8;
       }),
       ProblemCode::kOutOfRange, Field::kHidden, "hidden must be a power of two in 64..1024"},
      {check_prompt(""), ProblemCode::kEmpty, Field::kPrompt, "prompt is empty"},
      {check_prompt(std::string(65, 'a')), ProblemCode::kTooLong, Field::kPrompt,
       "prompt longer than 64 tokens (65 UTF-8 bytes)"},
      {model.check_forward(""), ProblemCode::kEmpty, Field::kPrompt, "prompt is empty"},
      {model.check_forward("ok", 0), ProblemCode::kOutOfRange, Field::kTopK,
       "top_k must be an integer in 1..256"},
      {model.check_forward("ok", 5, 3), ProblemCode::kOutOfRange, Field::kLayers,
       "layers must be an integer in 1..2"},
      {model.check_gradients("x"), ProblemCode::kTooShort, Field::kPrompt,
       "gradients need a prompt of at least 2 tokens"},
      {model.check_gradients(std::string(70, 'b')), ProblemCode::kTooLong, Field::kPrompt,
       "prompt longer than 64 tokens (70 UTF-8 bytes)"},
      {model.check_gain_query(0, "gain"), ProblemCode::kNotOneOf, Field::kWhich,
       "which must be 'inputNorm', 'postAttentionNorm' or 'finalNorm'"},
      {model.check_gain_query(2, "inputNorm"), ProblemCode::kOutOfRange, Field::kLayer,
       "layer must be an integer in 0..1"},
  };
  for (const Case& c : cases) {
    INFO(c.message);
    CHECK(static_cast<bool>(c.problem));
    CHECK(c.problem.code == c.code);
    CHECK(c.problem.field == c.field);
    CHECK(c.problem.message == c.message);
  }
  // The names JavaScript gets for them.
  CHECK(std::string(kProblemCodeNames[static_cast<int>(ProblemCode::kOutOfRange)]) == "outOfRange");
  CHECK(std::string(kFieldNames[static_cast<int>(Field::kTopK)]) == "topK");

  // No problem: code kNone, field kNone, no message; a model built from bad
  // options answers every check with its options' problem.
  for (const Problem& ok :
       {check_model_options(ModelOptions{}), check_prompt("hi"), model.check_forward("hi", 256, 2),
        model.check_gradients("hi"), model.check_gain_query(-3, "finalNorm")}) {
    CHECK_FALSE(static_cast<bool>(ok));
    CHECK(ok.code == ProblemCode::kNone);
    CHECK(ok.field == Field::kNone);
    CHECK(ok.message.empty());
  }
  ModelOptions bad;
  bad.norm = "x";
  Model broken(bad);
  for (const Problem& p : {broken.problem(), broken.check_forward("hi"),
                           broken.check_gradients("hi"), broken.check_gain_query(0, "inputNorm")}) {
    CHECK(p.code == ProblemCode::kNotOneOf);
    CHECK(p.field == Field::kNorm);
  }
}
