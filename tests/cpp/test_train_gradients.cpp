// The trainer's backward: the double reference's gradient against central
// finite differences of its own forward, and the float trainer's gradient
// (SIMD kernels, this build's architecture) against the reference's, for
// every placement and norm kind on the tiny model (D 8, L 2, 2 heads, T 6,
// batch 2) with parameters spread away from the initialization.
//
// Errors are reported relative to the largest entry of the gradient they
// are compared with (its L-infinity norm): a per-entry relative error is
// meaningless for entries that are zero up to rounding.
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

double max_abs(const std::vector<double>& v) {
  double m = 0.0;
  for (double x : v) m = std::max(m, std::fabs(x));
  return m;
}

// Every parameter except the rows of wte no input byte selects, of which
// eight are kept (they get gradient through the tied head only).
std::vector<std::size_t> checked_indices(const train::ParamLayout& layout,
                                         const train::TrainConfig& c,
                                         const std::vector<uint8_t>& inputs) {
  std::vector<bool> used(256, false);
  for (uint8_t b : inputs) used[b] = true;
  for (int extra = 0, b = 0; extra < 8 && b < 256; b += 37) {
    if (!used[b]) {
      used[b] = true;
      ++extra;
    }
  }
  std::vector<std::size_t> idx;
  for (std::size_t i = 0; i < layout.total; ++i) {
    if (i >= layout.wte && i < layout.wte + 256u * c.hidden && !used[(i - layout.wte) / c.hidden])
      continue;
    idx.push_back(i);
  }
  return idx;
}

// The reference's gradient against finite differences of its forward, and
// the float trainer's against the reference's, at spread parameters; each
// error relative to the largest entry it is compared with.
void check_gradients(const train::TrainOptions& o, const std::string& what) {
  REQUIRE(train::validate_train_options(o).empty());
  const train::TrainConfig c = train::resolve_train_options(o);
  train::Trainer trainer(c, o.text);
  const train::ParamLayout& layout = trainer.layout();
  const std::vector<float> pf = spread_params(layout, c, 7);
  trainer.set_params(pf.data());
  const int B = c.batch, T = c.seq;
  std::vector<uint8_t> inputs(B * T), targets(B * T);
  trainer.batch(0, inputs.data(), targets.data());

  const double loss_f = trainer.loss_and_gradients(inputs.data(), targets.data(), B);
  const std::vector<double> grad_f(trainer.grads(), trainer.grads() + layout.total);

  std::vector<double> p(pf.begin(), pf.end()), grad_ref;
  const double loss_ref = reference_loss(c, layout, p, inputs.data(), targets.data(), B, &grad_ref);

  // h = 1e-5: truncation ~h^2 |L'''| ~ 1e-10, rounding ~1e-16 |L| / h ~ 1e-10, against
  // gradients of ~1e-2.
  const double h = 1e-5;
  double worst_fd = 0.0, worst_float = 0.0, fd_scale = 0.0;
  const auto idx = checked_indices(layout, c, inputs);
  std::vector<double> fd(idx.size());
  for (std::size_t n = 0; n < idx.size(); ++n) {
    const std::size_t i = idx[n];
    const double saved = p[i];
    p[i] = saved + h;
    const double up = reference_loss(c, layout, p, inputs.data(), targets.data(), B, nullptr);
    p[i] = saved - h;
    const double down = reference_loss(c, layout, p, inputs.data(), targets.data(), B, nullptr);
    p[i] = saved;
    fd[n] = (up - down) / (2 * h);
    fd_scale = std::max(fd_scale, std::fabs(fd[n]));
  }
  for (std::size_t n = 0; n < idx.size(); ++n)
    worst_fd = std::max(worst_fd, std::fabs(grad_ref[idx[n]] - fd[n]));
  worst_fd /= fd_scale;
  const double ref_scale = max_abs(grad_ref);
  for (std::size_t i = 0; i < layout.total; ++i) {
    worst_float = std::max(worst_float, std::fabs(grad_f[i] - grad_ref[i]));
  }
  worst_float /= ref_scale;
  std::printf(
      "gradients %-26s: %zu params, %zu by finite differences; loss float %.7f ref %.7f; "
      "max error ref vs FD %.2e, float vs ref %.2e (of max |grad| %.3g)\n",
      what.c_str(), layout.total, idx.size(), loss_f, loss_ref, worst_fd, worst_float, ref_scale);
  INFO(what);
  CHECK(worst_fd < 1e-7);
  CHECK(worst_float < 2e-5);
  CHECK(std::fabs(loss_f - loss_ref) < 1e-5 * loss_ref);
}

// The smallest over the layers of the L2 norm of one of a layer's tensors'
// gradient (n floats), at the spread parameters: that the comparisons above
// cover a parameter group, it must have a gradient.
double smallest_layer_gradient(const train::TrainOptions& o,
                               std::size_t train::LayerParamOffsets::*tensor, int n) {
  const train::TrainConfig c = train::resolve_train_options(o);
  train::Trainer trainer(c, o.text);
  const std::vector<float> pf = spread_params(trainer.layout(), c, 7);
  trainer.set_params(pf.data());
  std::vector<uint8_t> inputs(c.batch * c.seq), targets(c.batch * c.seq);
  trainer.batch(0, inputs.data(), targets.data());
  trainer.loss_and_gradients(inputs.data(), targets.data(), c.batch);
  double smallest = INFINITY;
  for (const auto& l : trainer.layout().layers) {
    const float* g = trainer.grads() + l.*tensor;
    double ss = 0.0;
    for (int i = 0; i < n; ++i) ss += static_cast<double>(g[i]) * g[i];
    smallest = std::min(smallest, std::sqrt(ss));
  }
  return smallest;
}

}  // namespace

TEST_CASE("trainer backward: reference vs finite differences, float vs reference",
          "[train][gradients]") {
  for (const char* placement : {"pre", "post"}) {
    for (const char* norm : {"rmsnorm", "layernorm", "none"}) {
      check_gradients(tiny_options(placement, norm), std::string(placement) + " " + norm);
    }
  }
}

TEST_CASE("trainer backward with DeepNorm: RMSNorm and LayerNorm, with and without QK-norm",
          "[train][gradients]") {
  for (const char* norm : {"rmsnorm", "layernorm"}) {
    for (double qk : {0.0, 1.0}) {
      train::TrainOptions o = tiny_options("deepnorm", norm);
      o.qk_norm = qk;
      check_gradients(o, std::string("deepnorm ") + norm + (qk != 0 ? " qkNorm" : ""));
    }
  }
}

TEST_CASE("trainer backward with the norms on the branches: output and sandwich placements",
          "[train][gradients]") {
  for (const char* placement : {"output", "sandwich"}) {
    for (const char* norm : {"rmsnorm", "layernorm"}) {
      check_gradients(tiny_options(placement, norm), std::string(placement) + " " + norm);
    }
  }
  train::TrainOptions o = tiny_options("sandwich", "layernorm");
  o.qk_norm = 1;
  check_gradients(o, "sandwich layernorm qkNorm");
  // The sandwich's second norms have gradients (gain and bias) in every layer.
  for (auto tensor :
       {&train::LayerParamOffsets::norm1_out_gain, &train::LayerParamOffsets::norm1_out_bias,
        &train::LayerParamOffsets::norm2_out_gain, &train::LayerParamOffsets::norm2_out_bias}) {
    CHECK(smallest_layer_gradient(o, tensor, 8) > 1e-4);
  }
}

TEST_CASE("trainer backward with DyT in place of every norm: pre, post, output and sandwich",
          "[train][gradients]") {
  for (const char* placement : {"pre", "post", "output", "sandwich"}) {
    check_gradients(tiny_options(placement, "dyt"), std::string(placement) + " dyt");
  }
  // Each norm's alpha has a gradient in every layer.
  for (auto tensor :
       {&train::LayerParamOffsets::norm1_alpha, &train::LayerParamOffsets::norm2_alpha,
        &train::LayerParamOffsets::norm1_out_alpha, &train::LayerParamOffsets::norm2_out_alpha}) {
    CHECK(smallest_layer_gradient(tiny_options("sandwich", "dyt"), tensor, 1) > 1e-5);
  }
}

TEST_CASE("trainer backward with QK-norm: every placement and norm, the q and k gains included",
          "[train][gradients]") {
  for (const char* placement : {"pre", "post"}) {
    for (const char* norm : {"rmsnorm", "layernorm", "none"}) {
      train::TrainOptions o = tiny_options(placement, norm);
      o.qk_norm = 1;
      check_gradients(o, std::string("qkNorm ") + placement + " " + norm);
      // dh = 4 gains each for q and k, with a gradient in every layer.
      CHECK(smallest_layer_gradient(o, &train::LayerParamOffsets::q_gain, 4) > 1e-4);
      CHECK(smallest_layer_gradient(o, &train::LayerParamOffsets::k_gain, 4) > 1e-4);
    }
  }
}
