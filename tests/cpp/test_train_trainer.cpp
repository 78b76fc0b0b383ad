// The trainer as a whole: bit-identical results for a fixed seed, for every
// slicing of the steps and every micro-batch size; the first 20 steps of a
// small model against the double reference trained alongside (every build:
// native, SIMD128 and scalar wasm, each held to the same tolerance); the
// held-out loss against the reference; memory; divergence; generation.
//
// D = hidden, L = layers, T = seq, B = batch
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "train/trainer.h"
#include "train_fixtures.h"
#include "train_reference.h"

using namespace normlab;
using namespace normlab::test;

namespace {

// The fixtures' small model, resolved.
train::TrainConfig small_config(const char* placement, uint32_t seed = 1) {
  train::TrainOptions o = small_options(placement);
  o.seed = seed;
  REQUIRE(train::validate_train_options(o).empty());
  return train::resolve_train_options(o);
}

struct Trace {
  std::vector<double> loss, grad_first, grad_last;
  std::vector<float> max_logit, stream_norm;  // the steps' probes, one after another
  std::vector<float> params;
};

void record(Trace& t, const train::StepResult& r) {
  t.loss.push_back(r.loss);
  t.grad_first.push_back(r.grad_first);
  t.grad_last.push_back(r.grad_last);
  t.max_logit.insert(t.max_logit.end(), r.max_logit.begin(), r.max_logit.end());
  t.stream_norm.insert(t.stream_norm.end(), r.stream_norm.begin(), r.stream_norm.end());
}

void finish(Trace& t, const train::Trainer& trainer) {
  t.params.assign(trainer.params(), trainer.params() + trainer.layout().total);
}

bool same(const Trace& a, const Trace& b) {
  CHECK(a.loss == b.loss);
  CHECK(a.grad_first == b.grad_first);
  CHECK(a.grad_last == b.grad_last);
  CHECK(a.max_logit == b.max_logit);
  CHECK(a.stream_norm == b.stream_norm);
  CHECK(a.params == b.params);
  return a.loss == b.loss && a.grad_first == b.grad_first && a.grad_last == b.grad_last &&
         a.max_logit == b.max_logit && a.stream_norm == b.stream_norm && a.params == b.params;
}

}  // namespace

TEST_CASE("trainer: a fixed seed gives bit-identical runs, whatever the slicing and micro-batch",
          "[train]") {
  const int steps = 6;
  for (const char* placement : {"pre", "post"}) {
    const train::TrainConfig c = small_config(placement);
    // Whole steps, twice.
    Trace whole, again;
    {
      train::Trainer t(c, training_text());
      for (int s = 0; s < steps; ++s) record(whole, t.step());
      finish(whole, t);
      train::Trainer u(c, training_text());
      for (int s = 0; s < steps; ++s) record(again, u.step());
      finish(again, u);
    }
    CHECK(same(whole, again));
    // One unit at a time, with evaluate() and generate() between units.
    Trace units;
    {
      train::Trainer t(c, training_text());
      for (int s = 0; s < steps; ++s) {
        train::StepResult r;
        int n = 0;
        while (true) {
          ++n;
          if (t.advance(&r)) break;
          CHECK(t.units_done() == n);
          if (n == 5) {
            CHECK(std::isfinite(t.evaluate()));
            CHECK(t.generate("RMS", 3, 1.0, 9).size() == 3);
          }
        }
        CHECK(n == t.units_per_step());
        CHECK(t.units_done() == 0);
        record(units, r);
      }
      finish(units, t);
    }
    CHECK(same(whole, units));
    // Micro-batches of 3 sequences (4 = 3 + 1) and of the whole batch.
    for (int micro : {3, 4}) {
      train::TrainConfig cm = c;
      cm.micro_batch = micro;
      Trace m;
      train::Trainer t(cm, training_text());
      CHECK(t.units_per_step() == ((c.batch + micro - 1) / micro) * (2 * c.layers + 1) + 1);
      for (int s = 0; s < steps; ++s) record(m, t.step());
      finish(m, t);
      INFO(placement << ", micro-batch " << micro);
      CHECK(same(whole, m));
    }
    // Another seed, another run.
    Trace other;
    train::Trainer t(small_config(placement, 2), training_text());
    for (int s = 0; s < steps; ++s) record(other, t.step());
    CHECK(other.loss != whole.loss);
    std::printf(
        "determinism %s: %d steps bit-identical twice, unit by unit, micro-batch 1, 3, 4; loss "
        "%.6f -> %.6f\n",
        placement, steps, whole.loss.front(), whole.loss.back());
  }
}

TEST_CASE("trainer: 20 steps against the double reference trained alongside", "[train]") {
  // Same initial weights, same batches; the reference runs its own forward,
  // backward and Adam in double. The float run drifts from it by rounding
  // (float sums, the kernels' exp at 4.4e-7) amplified by training; the bound
  // below holds every build to the same 20-step trajectory.
  const int steps = 20;
  for (const char* placement : {"pre", "post"}) {
    for (const char* norm : {"rmsnorm", "layernorm"}) {
      train::TrainConfig c = small_config(placement);
      c.norm =
          std::string(norm) == "layernorm" ? train::NormKind::layernorm : train::NormKind::rmsnorm;
      c.eps = c.norm == train::NormKind::layernorm ? 1e-5f : 1e-6f;
      train::Trainer t(c, training_text());
      const train::ParamLayout& layout = t.layout();
      std::vector<double> p(t.params(), t.params() + layout.total), m(layout.total, 0.0),
          v(layout.total, 0.0), g;
      std::vector<uint8_t> in(c.batch * c.seq), tg(c.batch * c.seq);
      double worst = 0.0, first = 0.0, last = 0.0;
      for (int s = 0; s < steps; ++s) {
        t.batch(s, in.data(), tg.data());
        const double loss_ref = reference_loss(c, layout, p, in.data(), tg.data(), c.batch, &g);
        const double lr = c.lr * std::min(1.0, (s + 1.0) / c.warmup);
        reference_adam(p, m, v, g, lr, s + 1);
        const train::StepResult r = t.step();
        CHECK(r.lr == lr);
        worst = std::max(worst, std::fabs(r.loss - loss_ref));
        if (s == 0) first = loss_ref;
        last = loss_ref;
      }
      std::printf(
          "20 steps %s %s vs double reference: loss %.4f -> %.4f, max |loss - reference| %.2e\n",
          placement, norm, first, last, worst);
      INFO(placement << " " << norm);
      CHECK(last < first - 0.5);
      CHECK(worst < 1e-4);
    }
  }
}

TEST_CASE("trainer: held-out loss against the reference, memory, divergence", "[train]") {
  const train::TrainConfig c = small_config("pre");
  train::Trainer t(c, training_text());
  for (int s = 0; s < 3; ++s) t.step();
  // evaluate(): the mean over every held-out window of T predictions.
  const train::TextSplit split = train::split_text(training_text());
  const int windows = t.heldout_windows();
  CHECK(windows == (split.n_heldout - 1) / c.seq);
  std::vector<uint8_t> in(windows * c.seq), tg(windows * c.seq);
  for (int w = 0; w < windows; ++w)
    train::heldout_window(in.data() + w * c.seq, tg.data() + w * c.seq, split, w, c.seq);
  const std::vector<double> p(t.params(), t.params() + t.layout().total);
  const double ref = reference_loss(c, t.layout(), p, in.data(), tg.data(), windows, nullptr);
  const double got = t.evaluate();
  std::printf("held-out loss after 3 steps: %.7f, reference %.7f (%d windows)\n", got, ref,
              windows);
  CHECK(std::fabs(got - ref) < 1e-5);
  double by_window = 0.0;
  for (int w = 0; w < windows; ++w) by_window += t.heldout_window_loss(w);
  CHECK(by_window / (static_cast<double>(windows) * c.seq) == got);
  CHECK(t.unigram_entropy() == train::unigram_entropy(split.train, split.n_train));

  // Memory: what the trainer holds is what memory_needed() predicts.
  for (int micro : {1, 3}) {
    train::TrainConfig cm = c;
    cm.micro_batch = micro;
    const train::Trainer tm(cm, training_text());
    const train::MemoryReport a = tm.memory(), b = train::memory_needed(cm, training_text().size());
    CHECK(a.params == b.params);
    CHECK(a.adam == b.adam);
    CHECK(a.grads == b.grads);
    CHECK(a.activations == b.activations);
    CHECK(a.scratch == b.scratch);
    CHECK(a.total == b.total);
  }
  // The deepest demonstration model fits a phone's tab.
  train::TrainOptions deep;
  deep.layers = 48;
  deep.text = training_text();
  const train::TrainConfig dc = train::resolve_train_options(deep);
  const train::MemoryReport dm = train::memory_needed(dc, deep.text.size());
  std::printf(
      "memory at D 32, L 48, T 64, B 8: %.1f MiB (params %.1f, Adam %.1f, grads %.1f, activations "
      "%.1f, "
      "scratch %.1f)\n",
      dm.total / 1048576, dm.params / 1048576, dm.adam / 1048576, dm.grads / 1048576,
      dm.activations / 1048576, dm.scratch / 1048576);
  CHECK(dm.total < 32.0 * 1024 * 1024);

  // Divergence: weights of 1e20 overflow the attention scores; the step says
  // so, applies no update, and every later step reports NaN at once.
  train::TrainConfig cn = c;
  cn.norm = train::NormKind::none;
  train::Trainer bad(cn, training_text());
  std::vector<float> huge(bad.layout().total, 1e20f);
  bad.set_params(huge.data());
  const train::StepResult r0 = bad.step();
  CHECK(r0.diverged);
  CHECK(!std::isfinite(r0.loss));
  CHECK(r0.update_first == 0.0);
  CHECK(r0.update_last == 0.0);
  CHECK(std::vector<float>(bad.params(), bad.params() + bad.layout().total) == huge);
  const train::StepResult r1 = bad.step();
  CHECK(r1.step == 1);
  CHECK(r1.diverged);
  // A step not computed has no probes to report: NaN, in their shapes.
  REQUIRE(r1.max_logit.size() == static_cast<std::size_t>(cn.layers));
  REQUIRE(r1.stream_norm.size() == static_cast<std::size_t>(cn.layers) + 1);
  CHECK(
      std::all_of(r1.max_logit.begin(), r1.max_logit.end(), [](float v) { return std::isnan(v); }));
  CHECK(std::all_of(r1.stream_norm.begin(), r1.stream_norm.end(),
                    [](float v) { return std::isnan(v); }));
  CHECK(std::isnan(r1.loss));
  CHECK(bad.generate("x", 4, 1.0, 1).size() == 4);
  CHECK(bad.generate("x", 4, 0.0, 1).size() == 4);
}

TEST_CASE("trainer: each step's relative update of the first and last layer", "[train]") {
  for (const char* placement : {"pre", "post"}) {
    INFO(placement);
    const train::TrainConfig c = small_config(placement);
    train::Trainer t(c, training_text());
    const train::LayerParamOffsets& first = t.layout().layers.front();
    const train::LayerParamOffsets& last = t.layout().layers.back();
    // ||after - before|| / ||before|| over a layer's range, in double.
    auto relative = [](const std::vector<float>& before, const float* after,
                       const train::LayerParamOffsets& l) {
      double change = 0.0, size = 0.0;
      for (std::size_t i = l.begin; i < l.end; ++i) {
        change += (static_cast<double>(after[i]) - before[i]) * (after[i] - before[i]);
        size += static_cast<double>(before[i]) * before[i];
      }
      return std::sqrt(change / size);
    };
    for (int s = 0; s < 3; ++s) {
      const std::vector<float> before(t.params(), t.params() + t.layout().total);
      const train::StepResult r = t.step();
      CHECK(r.update_first == Approx(relative(before, t.params(), first)).epsilon(1e-6));
      CHECK(r.update_last == Approx(relative(before, t.params(), last)).epsilon(1e-6));
      // Adam's first steps move every weight by about lr: relative to
      // weights of size init_std, about lr / init_std.
      CHECK(r.update_first > 0.1 * r.lr / c.init_std);
      CHECK(r.update_first < 3.0 * r.lr / c.init_std);
    }
  }
}

TEST_CASE("trainer: generation", "[train]") {
  const train::TrainConfig c = small_config("pre");
  train::Trainer t(c, training_text());
  for (int s = 0; s < 20; ++s) t.step();
  const std::string greedy = t.generate("RMSNorm", 24, 0.0, 1);
  CHECK(greedy.size() == 24);
  CHECK(t.generate("RMSNorm", 24, 0.0, 2) == greedy);  // greedy ignores the seed
  CHECK(t.generate("RMSNorm", 10, 0.0, 1) == greedy.substr(0, 10));
  // The window: only the last T bytes of the context count.
  const std::string long_prompt = std::string(40, 'z') + "RMSNorm 把向量";
  const std::string tail = long_prompt.substr(long_prompt.size() - c.seq);
  CHECK(t.generate(long_prompt, 8, 0.0, 1) == t.generate(tail, 8, 0.0, 1));
  // Sampling: a function of the seed.
  const std::string a = t.generate("RMSNorm", 32, 1.0, 5);
  CHECK(t.generate("RMSNorm", 32, 1.0, 5) == a);
  CHECK(t.generate("RMSNorm", 32, 1.0, 6) != a);
  CHECK(t.generate("", 5, 1.0, 5).size() == 5);
  CHECK(t.generate("RMSNorm", 0, 1.0, 5).empty());
  CHECK(t.generate("RMSNorm", -3, 1.0, 5).empty());
  CHECK(t.generate("RMSNorm", 24, 1e-40, 5) == greedy);  // below FLT_MIN: greedy

  // The next-byte distribution: sums to 1, its most likely byte is greedy
  // sampling's, only the window counts, and "" reads as "\n".
  std::vector<float> p(256), q(256);
  t.next_byte_probabilities(p.data(), "RMSNorm");
  double total = 0.0;
  for (float v : p) total += v;
  CHECK(total == Approx(1.0).epsilon(1e-5));
  const auto top = std::max_element(p.begin(), p.end()) - p.begin();
  CHECK(static_cast<uint8_t>(greedy[0]) == top);
  t.next_byte_probabilities(p.data(), long_prompt);
  t.next_byte_probabilities(q.data(), tail);
  CHECK(p == q);
  t.next_byte_probabilities(p.data(), "");
  t.next_byte_probabilities(q.data(), "\n");
  CHECK(p == q);
}

TEST_CASE("trainer: sampling a byte at a time gives generate()'s bytes", "[train]") {
  const train::TrainConfig c = small_config("post");
  train::Trainer t(c, training_text());
  for (int s = 0; s < 20; ++s) t.step();
  const std::string long_prompt = std::string(40, 'z') + "RMSNorm 把向量";
  for (const std::string& prompt : {std::string("RMSNorm"), std::string(), long_prompt}) {
    for (double temperature : {1.0, 0.7, 0.0}) {
      INFO("prompt '" << prompt << "', temperature " << temperature);
      const std::string whole = t.generate(prompt, 30, temperature, 5);
      train::Trainer::Sampling s = t.begin_sampling(prompt, temperature, 5);
      CHECK(s.out.empty());
      for (int i = 1; i <= 30; ++i) {
        t.sample_next(&s);
        // Other forward passes on the same buffers between two bytes.
        if (i % 7 == 0) t.heldout_window_loss(0);
        if (i % 11 == 0) CHECK(t.generate("x", 3, 1.0, 9).size() == 3);
        CHECK(s.out == whole.substr(0, i));
      }
    }
  }
}

namespace {

// The D floats at offset in the trainer's parameters.
std::vector<float> param_row(const train::Trainer& trainer, std::size_t offset) {
  const int D = trainer.config().hidden;
  return std::vector<float>(trainer.params() + offset, trainer.params() + offset + D);
}

// Rows [(2 l + n) D, (2 l + n + 1) D) of a (L, 2, D) copy.
std::vector<float> norm_row(const std::vector<float>& values, int D, int l, int n) {
  const auto begin = values.begin() + static_cast<std::ptrdiff_t>((2 * l + n) * D);
  return std::vector<float>(begin, begin + D);
}

// Every row of gains equals the parameters at its layout offset.
void check_copies_params(const train::NormGains& g, const train::Trainer& trainer) {
  const int D = trainer.config().hidden;
  const train::ParamLayout& p = trainer.layout();
  for (int l = 0; l < trainer.config().layers; ++l) {
    const train::LayerParamOffsets& o = p.layers[l];
    if (o.norm1_gain != train::kAbsent) {
      CHECK(norm_row(g.gain, D, l, 0) == param_row(trainer, o.norm1_gain));
      CHECK(norm_row(g.gain, D, l, 1) == param_row(trainer, o.norm2_gain));
    }
    if (o.norm1_bias != train::kAbsent) {
      CHECK(norm_row(g.bias, D, l, 0) == param_row(trainer, o.norm1_bias));
      CHECK(norm_row(g.bias, D, l, 1) == param_row(trainer, o.norm2_bias));
    }
  }
  if (p.final_gain != train::kAbsent) CHECK(g.final_gain == param_row(trainer, p.final_gain));
  if (p.final_bias != train::kAbsent) CHECK(g.final_bias == param_row(trainer, p.final_bias));
}

}  // namespace

TEST_CASE("trainer: norm_gains copies the norms' gains and biases", "[train]") {
  for (const char* norm : {"rmsnorm", "layernorm", "none"}) {
    for (const char* placement : {"pre", "post"}) {
      INFO(norm << ", " << placement);
      train::TrainOptions o = tiny_options(placement, norm);
      o.lr = 1e-2;
      train::Trainer trainer(train::resolve_train_options(o), o.text);
      const int L = 2, D = 8;
      const bool has_norm = std::string(norm) != "none";
      const bool layer_norm = std::string(norm) == "layernorm";
      const bool has_final = has_norm && std::string(placement) == "pre";

      const train::NormGains start = trainer.norm_gains();
      CHECK(start.layers == L);
      CHECK(start.hidden == D);
      CHECK(start.step == 0);
      // At init every gain is exactly 1 and every bias exactly 0 (init.h).
      CHECK(start.gain == std::vector<float>(has_norm ? L * 2 * D : 0, 1.0f));
      CHECK(start.bias == std::vector<float>(layer_norm ? L * 2 * D : 0, 0.0f));
      CHECK(start.final_gain == std::vector<float>(has_final ? D : 0, 1.0f));
      CHECK(start.final_bias == std::vector<float>(has_final && layer_norm ? D : 0, 0.0f));
      check_copies_params(start, trainer);

      for (int s = 0; s < 3; ++s) trainer.step();
      const train::NormGains trained = trainer.norm_gains();
      CHECK(trained.step == 3);
      check_copies_params(trained, trainer);
      // Adam moves every parameter by about lr a step: after three, each
      // gain has left 1 (and each bias 0), none by more than 3 lr.
      for (float g : trained.gain) CHECK((g != 1.0f && std::fabs(g - 1.0f) <= 3.01e-2f));
      for (float b : trained.bias) CHECK((b != 0.0f && std::fabs(b) <= 3.01e-2f));
      for (float g : trained.final_gain) CHECK(g != 1.0f);
      for (float b : trained.final_bias) CHECK(b != 0.0f);

      // A copy: a later step leaves it as it was.
      const std::vector<float> kept = trained.gain;
      trainer.step();
      CHECK(trained.gain == kept);
      if (has_norm) CHECK(trainer.norm_gains().gain != kept);
    }
  }
}

TEST_CASE("trainer: norm_gains copies the variants' own parameters", "[train]") {
  // L = 2, D = 8, heads 2: a head's Dh = 4.
  const int L = 2, D = 8, Dh = 4;
  struct Case {
    const char* placement;
    const char* norm;
    bool qk;
  };
  for (const Case& k : {Case{"pre", "rmsnorm", true}, Case{"sandwich", "rmsnorm", false},
                        Case{"sandwich", "layernorm", true}, Case{"pre", "dyt", false},
                        Case{"sandwich", "dyt", false}, Case{"post", "dyt", false},
                        Case{"output", "rmsnorm", false}, Case{"deepnorm", "rmsnorm", false}}) {
    INFO(k.placement << ", " << k.norm << (k.qk ? ", qkNorm" : ""));
    train::TrainOptions o = tiny_options(k.placement, k.norm);
    o.qk_norm = k.qk ? 1 : 0;
    o.lr = 1e-2;
    train::Trainer trainer(train::resolve_train_options(o), o.text);
    const train::TrainConfig& c = trainer.config();
    const bool sandwich = std::string(k.placement) == "sandwich";
    const bool dyt = std::string(k.norm) == "dyt";
    const bool biased = c.norm_has_bias();

    const train::NormGains start = trainer.norm_gains();
    CHECK(start.head_size == Dh);
    // At init (init.h): QK-norm's and the second norms' gains 1, their
    // biases 0, every DyT alpha 0.5.
    CHECK(start.q_gain == std::vector<float>(k.qk ? L * Dh : 0, 1.0f));
    CHECK(start.k_gain == std::vector<float>(k.qk ? L * Dh : 0, 1.0f));
    CHECK(start.out_gain == std::vector<float>(sandwich ? L * 2 * D : 0, 1.0f));
    CHECK(start.out_bias == std::vector<float>(sandwich && biased ? L * 2 * D : 0, 0.0f));
    CHECK(start.alpha == std::vector<float>(dyt ? L * 2 : 0, 0.5f));
    CHECK(start.out_alpha == std::vector<float>(dyt && sandwich ? L * 2 : 0, 0.5f));
    CHECK(start.final_alpha == std::vector<float>(dyt && c.has_final_norm() ? 1 : 0, 0.5f));
    CHECK(start.final_bias.size() ==
          (biased && c.has_final_norm() ? static_cast<std::size_t>(D) : 0u));

    for (int s = 0; s < 3; ++s) trainer.step();
    const train::NormGains g = trainer.norm_gains();
    // Each copy is the parameters at its layout offset, and training moved
    // every one of them.
    const float* p = trainer.params();
    const auto at = [&](std::size_t offset, int n) {
      return std::vector<float>(p + offset, p + offset + n);
    };
    for (int l = 0; l < L; ++l) {
      const train::LayerParamOffsets& off = trainer.layout().layers[l];
      const auto slice = [&](const std::vector<float>& v, int n, int i) {
        return std::vector<float>(v.begin() + i * n, v.begin() + (i + 1) * n);
      };
      if (k.qk) {
        CHECK(slice(g.q_gain, Dh, l) == at(off.q_gain, Dh));
        CHECK(slice(g.k_gain, Dh, l) == at(off.k_gain, Dh));
      }
      if (sandwich) {
        CHECK(slice(g.out_gain, D, 2 * l) == at(off.norm1_out_gain, D));
        CHECK(slice(g.out_gain, D, 2 * l + 1) == at(off.norm2_out_gain, D));
      }
      if (sandwich && biased) CHECK(slice(g.out_bias, D, 2 * l + 1) == at(off.norm2_out_bias, D));
      if (dyt) {
        CHECK(g.alpha[2 * l] == p[off.norm1_alpha]);
        CHECK(g.alpha[2 * l + 1] == p[off.norm2_alpha]);
      }
      if (dyt && sandwich) CHECK(g.out_alpha[2 * l + 1] == p[off.norm2_out_alpha]);
    }
    if (!g.final_alpha.empty()) CHECK(g.final_alpha[0] == p[trainer.layout().final_alpha]);
    for (float v : g.q_gain) CHECK(v != 1.0f);
    for (float v : g.k_gain) CHECK(v != 1.0f);
    for (float v : g.out_gain) CHECK(v != 1.0f);
    for (float v : g.out_bias) CHECK(v != 0.0f);
    for (float v : g.alpha) CHECK((v != 0.5f && std::fabs(v - 0.5f) <= 3.01e-2f));
    for (float v : g.out_alpha) CHECK(v != 0.5f);
    for (float v : g.final_alpha) CHECK(v != 0.5f);
  }
}
