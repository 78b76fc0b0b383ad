// Trainer::layer_norms, the forward probe behind trainer.layerNorms(): its
// lengths against the double reference's forward measured by hand, for each
// placement and norm; the norm outputs pinned at sqrt(D) rms(g) at the
// initialization; the held-out window as its default input; and a probe
// between the units of a step leaves the training bit-identical. Every build
// runs it (native, SIMD128 and scalar wasm), each held to the same tolerance
// against the same reference.
//
// D = hidden, L = layers, T = tokens measured
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "train/results.h"
#include "train/text.h"
#include "train/trainer.h"
#include "train_fixtures.h"
#include "train_reference.h"

using namespace normlab;
using namespace normlab::test;

namespace {

// D 16, L 3, 2 heads, T 16.
train::TrainConfig probe_config(const char* placement, const char* norm) {
  train::TrainOptions o;
  o.layers = 3;
  o.hidden = 16;
  o.heads = 2;
  o.seq = 16;
  o.batch = 2;
  o.placement = placement;
  o.norm = norm;
  o.text = training_text();
  REQUIRE(train::validate_train_options(o).empty());
  return train::resolve_train_options(o);
}

// The largest relative difference between a float probe array and the
// reference's, reported.
double max_relative(const std::vector<float>& got, const std::vector<double>& want,
                    const char* what) {
  REQUIRE(got.size() == want.size());
  double worst = 0.0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    worst = std::max(worst, std::abs(got[i] - want[i]) / std::abs(want[i]));
  }
  std::printf("layer_norms %s: max relative difference %.3g\n", what, worst);
  return worst;
}

// The largest absolute difference, reported: for values in [-1, 1].
double max_difference(const std::vector<float>& got, const std::vector<double>& want,
                      const char* what) {
  REQUIRE(got.size() == want.size());
  double worst = 0.0;
  for (std::size_t i = 0; i < got.size(); ++i) worst = std::max(worst, std::abs(got[i] - want[i]));
  std::printf("layer_norms %s: max difference %.3g\n", what, worst);
  return worst;
}

}  // namespace

TEST_CASE("trainer layer_norms: each length equals the reference forward's", "[train][probe]") {
  for (const char* placement : {"pre", "post"}) {
    for (const char* norm : {"rmsnorm", "layernorm", "none"}) {
      INFO(placement << ", " << norm);
      const train::TrainConfig c = probe_config(placement, norm);
      train::Trainer trainer(c, training_text());
      // Spread weights: every sub-block changes the stream's length.
      const std::vector<float> p = spread_params(trainer.layout(), c, 7);
      trainer.set_params(p.data());
      const std::string prompt = "the residual stream";  // 19 bytes: the last 16 are used
      const auto* tokens = reinterpret_cast<const uint8_t*>(prompt.data()) + 3;
      train::LayerNormProbe probe;
      trainer.layer_norms(&probe, tokens, 16);

      ReferenceLengths want;
      const std::vector<double> pd(p.begin(), p.end());
      reference_loss(c, trainer.layout(), pd, tokens, tokens, 1, nullptr, &want);
      CHECK(probe.layers == 3);
      CHECK(probe.tokens == 16);
      CHECK(probe.step == 0);
      CHECK(max_relative(probe.residual, want.residual, "residual") < 1e-6);
      CHECK(max_difference(probe.attention_entropy, want.attention_entropy, "attention entropy") <
            1e-5);
      CHECK(max_difference(probe.token_similarity, want.token_similarity, "token similarity") <
            1e-5);
      if (c.norm == train::NormKind::none) {
        CHECK(probe.norm_in.empty());
        CHECK(probe.norm_out.empty());
      } else {
        CHECK(max_relative(probe.norm_in, want.norm_in, "norm inputs") < 1e-6);
        CHECK(max_relative(probe.norm_out, want.norm_out, "norm outputs") < 1e-6);
      }
      // Post-norm: a layer's output is its N2's, the next layer's stream.
      if (c.placement == train::Placement::post && c.norm != train::NormKind::none) {
        for (int l = 0; l < 3; ++l) CHECK(probe.norm_out[2 * l + 1] == probe.residual[l + 1]);
      }
      // Pre-norm: N1 reads the stream itself.
      if (c.placement == train::Placement::pre && c.norm != train::NormKind::none) {
        for (int l = 0; l < 3; ++l) CHECK(probe.norm_in[2 * l] == probe.residual[l]);
      }
    }
  }
}

TEST_CASE("trainer layer_norms: at init the norm outputs sit at sqrt(D) rms(g)", "[train][probe]") {
  for (const char* placement : {"pre", "post"}) {
    INFO(placement);
    train::TrainOptions o;
    o.placement = placement;  // the lab's model: D 32, L 24, T 64
    o.text = training_text();
    REQUIRE(train::validate_train_options(o).empty());
    const train::TrainConfig c = train::resolve_train_options(o);
    REQUIRE(c.hidden == 32);
    train::Trainer trainer(c, o.text);
    train::LayerNormProbe probe;
    trainer.heldout_layer_norms(&probe);
    REQUIRE(probe.norm_out.size() == 2 * 24u);
    // Gain 1: L2 = sqrt(32) sqrt(ms / (ms + eps)) per row; the init's rows
    // have ms of about 2e-2 against eps 1e-6, so within 1e-3 of sqrt(32).
    const double sqrt_d = std::sqrt(32.0);
    for (const float v : probe.norm_out) CHECK(std::abs(v - sqrt_d) < 1e-3 * sqrt_d);

    // Every gain 2.5: the outputs are 2.5 sqrt(32), to the same tolerance.
    std::vector<float> p(trainer.params(), trainer.params() + trainer.layout().total);
    for (const auto& l : trainer.layout().layers) {
      for (int i = 0; i < c.hidden; ++i) {
        p[l.norm1_gain + i] = 2.5f;
        p[l.norm2_gain + i] = 2.5f;
      }
    }
    trainer.set_params(p.data());
    trainer.heldout_layer_norms(&probe);
    for (const float v : probe.norm_out) CHECK(std::abs(v - 2.5 * sqrt_d) < 2.5e-3 * sqrt_d);
    // The stream entering layer 0 is the embedding, whatever the gains: a
    // byte's row plus a position's, each D draws of N(0, s^2), so about
    // s sqrt(2 D) long (0.78 at D 32).
    const double embedding = c.init_std * std::sqrt(2.0 * c.hidden);
    CHECK(probe.residual[0] > 0.9 * embedding);
    CHECK(probe.residual[0] < 1.1 * embedding);
  }
}

TEST_CASE("trainer layer_norms: the held-out first window, and training unchanged",
          "[train][probe]") {
  const train::TrainConfig c = probe_config("pre", "rmsnorm");
  train::Trainer a(c, training_text());
  train::Trainer b(c, training_text());

  // heldout_layer_norms is layer_norms on window 0's inputs.
  const train::TextSplit split = train::split_text(training_text());
  std::vector<uint8_t> inputs(c.seq), targets(c.seq);
  train::heldout_window(inputs.data(), targets.data(), split, 0, c.seq);
  train::LayerNormProbe held, direct;
  a.heldout_layer_norms(&held);
  a.layer_norms(&direct, inputs.data(), c.seq);
  CHECK(held.residual == direct.residual);
  CHECK(held.norm_out == direct.norm_out);
  CHECK(held.tokens == c.seq);

  // A probe between any two units changes no loss: a measures after every
  // unit, b never.
  for (int s = 0; s < 3; ++s) {
    train::StepResult ra, rb;
    bool done = false;
    while (!done) {
      done = a.advance(&ra);
      a.heldout_layer_norms(&held);
    }
    rb = b.step();
    CHECK(ra.loss == rb.loss);
    CHECK(ra.grad_first == rb.grad_first);
  }
  CHECK(held.step == 3);
  CHECK(a.evaluate() == b.evaluate());
}

TEST_CASE("trainer layer_norms: attention entropy and token similarity at their extremes",
          "[train][probe]") {
  const train::TrainConfig c = probe_config("pre", "rmsnorm");
  train::Trainer trainer(c, training_text());
  std::vector<float> p(trainer.params(), trainer.params() + trainer.layout().total);
  // No positions, one byte repeated: every token enters with the same
  // vector, and keeps it through every layer (each row sees the same rows).
  std::fill(p.begin() + trainer.layout().wpe,
            p.begin() + trainer.layout().wpe + static_cast<std::size_t>(c.seq) * c.hidden, 0.0f);
  // Queries zero: every score is 0, every softmax row uniform.
  for (const auto& l : trainer.layout().layers) {
    std::fill(p.begin() + l.qkv, p.begin() + l.qkv + static_cast<std::size_t>(c.hidden) * c.hidden,
              0.0f);
  }
  trainer.set_params(p.data());
  const std::vector<uint8_t> same(c.seq, 'a');
  train::LayerNormProbe probe;
  trainer.layer_norms(&probe, same.data(), c.seq);
  REQUIRE(probe.attention_entropy.size() == 3u);
  REQUIRE(probe.token_similarity.size() == 4u);
  for (const float e : probe.attention_entropy) CHECK(e == Approx(1.0).margin(1e-5));
  for (const float s : probe.token_similarity) CHECK(s == Approx(1.0).margin(1e-5));
  // A single token has neither.
  trainer.layer_norms(&probe, same.data(), 1);
  for (const float e : probe.attention_entropy) CHECK(std::isnan(e));
  for (const float s : probe.token_similarity) CHECK(std::isnan(s));
}

TEST_CASE("trainer layer_norms: the prompt's length is checked", "[train][probe]") {
  CHECK(train::validate_layer_norms_prompt(1, 64).empty());
  CHECK(train::validate_layer_norms_prompt(64, 64).empty());
  CHECK(train::validate_layer_norms_prompt(0, 64) == "prompt must be 1..64 bytes of UTF-8, not 0");
  CHECK(train::validate_layer_norms_prompt(65, 64) ==
        "prompt must be 1..64 bytes of UTF-8, not 65");
}
