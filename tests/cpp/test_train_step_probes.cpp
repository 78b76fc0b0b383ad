// The probes every step reports (StepResult.max_logit, stream_norm): taken
// by the forward units of the step itself, held to the double reference's
// forward on the same batch and weights, for each placement and norm; and
// their worked extremes (a layer whose queries are zero has logits 0; the
// stream's first point is the embeddings' length). Their bit-identity
// across slicings and micro-batches is in test_train_trainer.cpp (Trace).
// Every build runs it (native, SIMD128 and scalar wasm) against the same
// reference and tolerance.
//
// D = hidden, L = layers, T = seq, B = batch
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

#include "train/trainer.h"
#include "train_fixtures.h"
#include "train_reference.h"

using namespace normlab;
using namespace normlab::test;

namespace {

// The step's probes of a trainer at spread weights against the reference's
// forward of the same batch: the largest differences, relative to the
// largest value of each probe.
struct ProbeErrors {
  double max_logit = 0.0, stream_norm = 0.0;
};

ProbeErrors step_probe_errors(const train::TrainOptions& o) {
  REQUIRE(train::validate_train_options(o).empty());
  const train::TrainConfig c = train::resolve_train_options(o);
  train::Trainer trainer(c, o.text);
  const std::vector<float> pf = spread_params(trainer.layout(), c, 11);
  trainer.set_params(pf.data());
  std::vector<uint8_t> inputs(c.batch * c.seq), targets(c.batch * c.seq);
  trainer.batch(0, inputs.data(), targets.data());
  const train::StepResult r = trainer.step();

  ReferenceLengths want;
  const std::vector<double> p(pf.begin(), pf.end());
  reference_loss(c, trainer.layout(), p, inputs.data(), targets.data(), c.batch, nullptr, &want);
  REQUIRE(r.max_logit.size() == static_cast<std::size_t>(c.layers));
  REQUIRE(r.stream_norm.size() == static_cast<std::size_t>(c.layers) + 1);
  REQUIRE(want.max_logit.size() == r.max_logit.size());
  ProbeErrors e;
  double logit_scale = 0.0, stream_scale = 0.0;
  for (std::size_t l = 0; l < r.max_logit.size(); ++l) {
    e.max_logit = std::max(e.max_logit, std::fabs(r.max_logit[l] - want.max_logit[l]));
    logit_scale = std::max(logit_scale, std::fabs(want.max_logit[l]));
  }
  for (std::size_t l = 0; l < r.stream_norm.size(); ++l) {
    e.stream_norm = std::max(e.stream_norm, std::fabs(r.stream_norm[l] - want.residual[l]));
    stream_scale = std::max(stream_scale, std::fabs(want.residual[l]));
  }
  e.max_logit /= logit_scale;
  e.stream_norm /= stream_scale;
  std::printf(
      "step probes %-4s %-9s: max logit %.4f .. %.4f (rel. error %.2e), stream %.4f -> %.4f "
      "(rel. error %.2e)\n",
      o.placement.c_str(), o.norm.c_str(), r.max_logit.front(), r.max_logit.back(), e.max_logit,
      r.stream_norm.front(), r.stream_norm.back(), e.stream_norm);
  return e;
}

}  // namespace

TEST_CASE("step probes: the largest logit and the stream's length equal the reference's",
          "[train][probe]") {
  for (const char* placement : {"pre", "post"}) {
    for (const char* norm : {"rmsnorm", "layernorm", "none"}) {
      INFO(placement << ", " << norm);
      const ProbeErrors e = step_probe_errors(small_options(placement, norm));
      CHECK(e.max_logit < 1e-5);
      CHECK(e.stream_norm < 1e-6);
    }
  }
}

TEST_CASE("step probes of the variants equal the reference's", "[train][probe][variants]") {
  struct Case {
    const char* placement;
    const char* norm;
    double qk_norm;
  };
  for (const Case& v : {Case{"pre", "rmsnorm", 1}, Case{"post", "layernorm", 1},
                        Case{"deepnorm", "rmsnorm", 0}, Case{"output", "rmsnorm", 0},
                        Case{"output", "layernorm", 1}, Case{"sandwich", "rmsnorm", 0}}) {
    train::TrainOptions o = small_options(v.placement, v.norm);
    o.qk_norm = v.qk_norm;
    INFO(v.placement << ", " << v.norm << ", qkNorm " << v.qk_norm);
    const ProbeErrors e = step_probe_errors(o);
    CHECK(e.max_logit < 1e-5);
    CHECK(e.stream_norm < 1e-6);
  }
}

TEST_CASE("step probes: zero queries give logits 0; the first point is the embeddings' length",
          "[train][probe]") {
  const train::TrainOptions o = small_options("pre");
  const train::TrainConfig c = train::resolve_train_options(o);
  train::Trainer trainer(c, o.text);
  std::vector<float> p(trainer.params(), trainer.params() + trainer.layout().total);
  // Layer 1's query rows of its qkv matrix: every q is 0, so is every logit.
  const std::size_t D = c.hidden;
  std::fill_n(p.begin() + trainer.layout().layers[1].qkv, D * D, 0.0f);
  trainer.set_params(p.data());
  std::vector<uint8_t> inputs(c.batch * c.seq), targets(c.batch * c.seq);
  trainer.batch(0, inputs.data(), targets.data());
  const train::StepResult r = trainer.step();
  CHECK(r.max_logit[1] == 0.0f);
  CHECK(r.max_logit[0] != 0.0f);
  // The stream entering layer 0: wte[byte] + wpe[t], row by row.
  double sum = 0.0;
  for (int row = 0; row < c.batch * c.seq; ++row) {
    double ss = 0.0;
    for (std::size_t i = 0; i < D; ++i) {
      const double v = static_cast<double>(p[trainer.layout().wte + inputs[row] * D + i]) +
                       p[trainer.layout().wpe + (row % c.seq) * D + i];
      ss += v * v;
    }
    sum += std::sqrt(ss);
  }
  const double want = sum / (c.batch * c.seq);
  CHECK(std::fabs(r.stream_norm[0] - want) < 1e-6 * want);
}
