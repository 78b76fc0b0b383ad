// The trainer's state (train/state.h): a run saved after N steps and
// restored into a fresh trainer of the same options continues bit for bit
// as the run that was never interrupted (pre- and post-norm, saved inside
// the warmup and after it, with another micro-batch, part-way through a
// step sliced by advance(), after divergence); every refusal's message.
//
// D = hidden, L = layers, T = seq, B = batch, P = parameters
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "train/state.h"
#include "train/trainer.h"
#include "train_fixtures.h"

using namespace normlab;
using namespace normlab::test;

namespace {

// The fixtures' small model with 4 steps of warmup.
train::TrainOptions state_options(const char* placement, const char* norm = "rmsnorm") {
  return small_options(placement, norm, 4);
}

train::TrainConfig resolved(const train::TrainOptions& o) {
  REQUIRE(train::validate_train_options(o).empty());
  return train::resolve_train_options(o);
}

// Every figure of a step, as the doubles step() returned (compared by their
// bits: memcmp, so that even a NaN or a -0 must match).
std::vector<double> figures(const train::StepResult& r) {
  return {static_cast<double>(r.step),
          r.loss,
          r.grad_first,
          r.grad_last,
          r.update_first,
          r.update_last,
          r.lr,
          r.diverged ? 1.0 : 0.0};
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

// Two states byte for byte (a bool: Catch2 would print every byte of a
// failing vector comparison).
bool same_bytes(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) { return a == b; }

bool same_params(const train::Trainer& a, const train::Trainer& b) {
  return a.layout().total == b.layout().total &&
         std::memcmp(a.params(), b.params(), a.layout().total * sizeof(float)) == 0;
}

std::vector<uint8_t> saved(const train::Trainer& t) {
  std::vector<uint8_t> bytes;
  const train::Problem p = t.save_state(&bytes);
  INFO(p.message);
  REQUIRE(!p);
  return bytes;
}

void restore(train::Trainer* t, const std::vector<uint8_t>& bytes) {
  const train::Problem p = t->restore_state(bytes.data(), bytes.size());
  INFO(p.message);
  REQUIRE(!p);
}

// The figures of steps from .. to - 1 of a run; the trainer is at step from.
std::vector<double> run(train::Trainer* t, int from, int to) {
  std::vector<double> all;
  for (int s = from; s < to; ++s) {
    const std::vector<double> f = figures(t->step());
    all.insert(all.end(), f.begin(), f.end());
  }
  return all;
}

}  // namespace

TEST_CASE("trainer state: a run restored after N steps continues bit for bit", "[train][state]") {
  const int total = 8;
  const char* cases[][2] = {{"pre", "rmsnorm"}, {"post", "rmsnorm"}, {"pre", "layernorm"}};
  for (const auto& which : cases) {
    const train::TrainConfig c = resolved(state_options(which[0], which[1]));
    // The uninterrupted run, and its state after every step.
    train::Trainer whole(c, training_text());
    std::vector<std::vector<double>> steps(total);
    std::vector<std::vector<uint8_t>> states(total + 1);
    states[0] = saved(whole);
    for (int s = 0; s < total; ++s) {
      steps[s] = figures(whole.step());
      states[s + 1] = saved(whole);
    }
    std::vector<double> tail_whole;
    // N = 2 inside the 4 steps of warmup, N = 5 after it, N = 0 before any.
    for (int N : {2, 5, 0}) {
      INFO(which[0] << " " << which[1] << ", saved after " << N << " steps");
      train::Trainer first(c, training_text());
      run(&first, 0, N);
      const std::vector<uint8_t> bytes = saved(first);
      CHECK(bytes.size() == first.state_bytes());
      CHECK(bytes.size() == train::state_bytes_for(first.layout().total));
      CHECK(same_bytes(bytes, states[N]));  // the same state as the uninterrupted run's
      train::Trainer resumed(c, training_text());
      restore(&resumed, bytes);
      CHECK(resumed.steps_done() == N);
      CHECK(same_params(resumed, first));
      const std::vector<double> tail = run(&resumed, N, total);
      std::vector<double> expected;
      for (int s = N; s < total; ++s)
        expected.insert(expected.end(), steps[s].begin(), steps[s].end());
      CHECK(same_bits(tail, expected));
      CHECK(same_params(resumed, whole));
      // Adam's moments and bias corrections too: the final states are equal.
      CHECK(same_bytes(saved(resumed), states[total]));
      if (N == 2) tail_whole = tail;
    }
    // The step after the save inside the warmup still warms up: 3 / 4 of lr.
    CHECK(tail_whole[6] == c.lr * 0.75);
    CHECK(steps[5][6] == c.lr);
    std::printf("state %s %s: %zu bytes, restored after 0, 2, 5 of %d steps, bit-identical\n",
                which[0], which[1], states[0].size(), total);
  }
}

TEST_CASE("trainer state: another micro-batch, a step sliced by advance(), divergence",
          "[train][state]") {
  const train::TrainConfig c = resolved(state_options("post"));
  train::Trainer whole(c, training_text());
  const std::vector<double> expected = run(&whole, 0, 6);
  const std::vector<double> expected_tail(expected.begin() + 3 * 8, expected.end());

  // Saved by a trainer of micro-batch 1, restored by one of micro-batch 3:
  // no result depends on it, so the state carries over.
  {
    train::Trainer first(c, training_text());
    run(&first, 0, 3);
    train::TrainConfig cm = c;
    cm.micro_batch = 3;
    train::Trainer resumed(cm, training_text());
    restore(&resumed, saved(first));
    CHECK(same_bits(run(&resumed, 3, 6), expected_tail));
  }

  // advance(): part-way through a step the state is refused; at the step's
  // end it is saved; restoring into a trainer part-way through a step drops
  // that step's units.
  {
    train::Trainer first(c, training_text());
    train::StepResult r;
    std::vector<double> got;
    for (int s = 0; s < 3; ++s) {
      while (!first.advance(&r)) {
      }
      const std::vector<double> f = figures(r);
      got.insert(got.end(), f.begin(), f.end());
    }
    CHECK(same_bits(got, std::vector<double>(expected.begin(), expected.begin() + 3 * 8)));
    CHECK(!first.advance(&r));
    CHECK(!first.advance(&r));
    std::vector<uint8_t> bytes;
    const train::Problem mid = first.save_state(&bytes);
    CHECK(mid.code == train::ProblemCode::kMidStep);
    CHECK(mid.field == model::Field::kState);
    CHECK(mid.message == "a step is partly done (2 of " + std::to_string(first.units_per_step()) +
                             " units): save between steps");
    CHECK(bytes.empty());
    while (!first.advance(&r)) {
    }
    const std::vector<uint8_t> after4 = saved(first);

    // A trainer 5 units into its first step restores the state of step 3.
    train::Trainer resumed(c, training_text());
    for (int u = 0; u < 5; ++u) CHECK(!resumed.advance(&r));
    CHECK(resumed.units_done() == 5);
    train::Trainer at3(c, training_text());
    run(&at3, 0, 3);
    restore(&resumed, saved(at3));
    CHECK(resumed.units_done() == 0);
    got.clear();
    for (int s = 3; s < 6; ++s) {
      while (!resumed.advance(&r)) {
      }
      const std::vector<double> f = figures(r);
      got.insert(got.end(), f.begin(), f.end());
      if (s == 3) CHECK(same_bytes(saved(resumed), after4));
    }
    CHECK(same_bits(got, expected_tail));
    CHECK(same_params(resumed, whole));
  }

  // A diverged run stays diverged: every later step NaN, without computing.
  {
    train::Trainer first(c, training_text());
    run(&first, 0, 2);
    std::vector<float> p(first.params(), first.params() + first.layout().total);
    p[first.layout().wte] = NAN;
    first.set_params(p.data());
    CHECK(first.step().diverged);
    REQUIRE(first.diverged());
    train::Trainer resumed(c, training_text());
    restore(&resumed, saved(first));
    CHECK(resumed.diverged());
    CHECK(resumed.steps_done() == 3);
    CHECK(same_bits(run(&resumed, 3, 5), run(&first, 3, 5)));
  }
}

TEST_CASE("trainer state: every refusal names the problem and changes nothing", "[train][state]") {
  const train::TrainOptions o = state_options("pre");
  const train::TrainConfig c = resolved(o);
  train::Trainer source(c, training_text());
  run(&source, 0, 2);
  const std::vector<uint8_t> good = saved(source);

  train::Trainer t(c, training_text());
  run(&t, 0, 1);
  const std::vector<uint8_t> before = saved(t);
  const auto refused = [&](const std::vector<uint8_t>& bytes, train::ProblemCode code,
                           const std::string& message) {
    const train::Problem p = t.restore_state(bytes.data(), bytes.size());
    CHECK(p.code == code);
    CHECK(p.field == model::Field::kState);
    CHECK(p.message == message);
    CHECK(same_bytes(saved(t), before));
  };
  using Code = train::ProblemCode;
  const std::string size = std::to_string(good.size());

  refused({}, Code::kTooShort, "state must hold at least 124 bytes (its header), not 0");
  refused(std::vector<uint8_t>(good.begin(), good.begin() + 123), Code::kTooShort,
          "state must hold at least 124 bytes (its header), not 123");
  std::vector<uint8_t> bad = good;
  bad[0] = 'X';
  refused(bad, Code::kNotOneOf,
          "state is not a normlab trainer state (it does not begin with 'NLTRAIN')");
  bad = good;
  bad[train::kStateVersionOffset] = 1;
  refused(bad, Code::kNotOneOf, "state has format version 1, this trainer reads version 2");
  refused(
      std::vector<uint8_t>(good.begin(), good.end() - 4), Code::kTooShort,
      "state must be " + size + " bytes for this trainer, not " + std::to_string(good.size() - 4));
  std::vector<uint8_t> longer = good;
  longer.push_back(0);
  refused(
      longer, Code::kTooLong,
      "state must be " + size + " bytes for this trainer, not " + std::to_string(good.size() + 1));
  bad = good;
  bad[107] = 0x80;  // the top byte of the steps done (offset 100): beyond an int
  refused(bad, Code::kOutOfRange,
          "state is damaged: its steps, divergence or Adam corrections are out of range");

  // A state of another config or text: each field by its API name.
  struct Other {
    void (*change)(train::TrainOptions*);
    std::string message;
  };
  const Other others[] = {
      {[](train::TrainOptions* x) { x->layers = 2; },
       "state was saved by a trainer with layers 2, this one has 3"},
      {[](train::TrainOptions* x) { x->hidden = 32; },
       "state was saved by a trainer with hidden 32, this one has 16"},
      {[](train::TrainOptions* x) { x->heads = 4; },
       "state was saved by a trainer with heads 4, this one has 2"},
      {[](train::TrainOptions* x) { x->norm = "layernorm"; },
       "state was saved by a trainer with norm 'layernorm', this one has 'rmsnorm'"},
      {[](train::TrainOptions* x) { x->placement = "post"; },
       "state was saved by a trainer with placement 'post', this one has 'pre'"},
      {[](train::TrainOptions* x) { x->qk_norm = 1; },
       "state was saved by a trainer with qkNorm true, this one has false"},
      {[](train::TrainOptions* x) { x->eps = 1e-5; },
       "state was saved by a trainer with eps 1e-5, this one has 1e-6"},
      {[](train::TrainOptions* x) { x->init_std = 0.02; },
       "state was saved by a trainer with initStd 0.02, this one has 0.13856407"},
      {[](train::TrainOptions* x) { x->residual_init_scale = 0.5; },
       "state was saved by a trainer with residualInitScale 0.5, this one has 1"},
      {[](train::TrainOptions* x) { x->warmup = 0; },
       "state was saved by a trainer with warmup 0, this one has 4"},
      {[](train::TrainOptions* x) { x->lr = 3e-3; },
       "state was saved by a trainer with lr 0.003, this one has 0.01"},
      {[](train::TrainOptions* x) { x->seed = 7; },
       "state was saved by a trainer with seed 7, this one has 1"},
      {[](train::TrainOptions* x) { x->seq = 8; },
       "state was saved by a trainer with seq 8, this one has 16"},
      {[](train::TrainOptions* x) { x->batch = 2; },
       "state was saved by a trainer with batch 2, this one has 4"},
      {[](train::TrainOptions* x) { x->text = training_text().substr(0, 10000); },
       "state was saved by a trainer with a text of 10000 bytes, this one has " +
           std::to_string(training_text().size())},
      {[](train::TrainOptions* x) { x->text[0] = static_cast<char>(x->text[0] ^ 1); },
       "state was saved by a trainer with another text of the same length (" +
           std::to_string(training_text().size()) + " bytes)"},
  };
  for (const Other& other : others) {
    train::TrainOptions changed = o;
    other.change(&changed);
    const train::TrainConfig cc = resolved(changed);
    const train::Trainer x(cc, changed.text);
    refused(saved(x), Code::kOutOfRange, other.message);
  }
  // steps, the run's plan, is not read by step(): a longer run may resume.
  train::TrainOptions longer_run = o;
  longer_run.steps = 800;
  train::Trainer x(resolved(longer_run), training_text());
  restore(&x, good);
  CHECK(x.steps_done() == 2);
}
