// The synthetic model's forward pass: determinism, the result layout, and
// every shape the teaching page relies on, asserted on real output for
// several prompts (English, Chinese, mixed, repetitive).
//
// L = layers, P = probes, T = tokens, S = statistics, H = heads, D = hidden
#include <catch2/catch.hpp>

#include "model/model.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

using namespace normlab::model;

namespace {

// Prompts of 16+ tokens (attention statistics need rows to spread over).
const char* const kLongPrompts[] = {
    "The quick brown fox jumps over the lazy dog.",
    // "Layer normalization makes deep networks trainable." in Chinese.
    ("\xe5\xb1\x82\xe5\xbd\x92\xe4\xb8\x80\xe5\x8c\x96\xe8\xae\xa9\xe6\xb7\xb1"
     "\xe5\xb1\x82\xe7\xbd\x91\xe7\xbb\x9c\xe5\x8f\xaf\xe4\xbb\xa5\xe8\xae\xad"
     "\xe7\xbb\x83\xe3\x80\x82"),
    // Mixed: "Pre-norm 预归一化 keeps the highway clean".
    ("Pre-norm \xe9\xa2\x84\xe5\xbd\x92\xe4\xb8\x80\xe5\x8c\x96 keeps the "
     "highway clean"),
    "aaaaaaaaaaaaaaaa",
    "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_-",
};

// Every prompt, including the shortest ones.
const char* const kAllPrompts[] = {
    "The quick brown fox jumps over the lazy dog.",
    ("\xe5\xb1\x82\xe5\xbd\x92\xe4\xb8\x80\xe5\x8c\x96\xe8\xae\xa9\xe6\xb7\xb1"
     "\xe5\xb1\x82\xe7\xbd\x91\xe7\xbb\x9c\xe5\x8f\xaf\xe4\xbb\xa5\xe8\xae\xad"
     "\xe7\xbb\x83\xe3\x80\x82"),
    "aaaaaaaaaaaaaaaa",
    "RMSNorm",
    "x",
    "\xe4\xbd\xa0\xe5\xa5\xbd",  // 你好
};

ModelOptions options(const char* norm, const char* placement) {
  ModelOptions o;
  o.norm = norm;
  o.placement = placement;
  return o;
}

// Views of a ForwardResult's flat arrays.
struct View {
  const ForwardResult& r;
  float stat(int l, int probe, int t, int s) const {
    return r.stats[((static_cast<size_t>(l) * kProbes + probe) * r.tokens + t) * kStats + s];
  }
  float mean(int l, int probe, int s) const {
    return r.stats_mean[(static_cast<size_t>(l) * kProbes + probe) * kStats + s];
  }
  // Mean over tokens and heads of the attention rows' max probability.
  double max_prob(int l) const {
    double sum = 0.0;
    const int n = r.tokens * r.heads;
    for (int i = 0; i < n; i++) sum += r.attention_max_prob[l * n + i];
    return sum / n;
  }
  double max_prob_last4() const {
    double sum = 0.0;
    for (int l = r.layers - 4; l < r.layers; l++) sum += max_prob(l);
    return sum / 4;
  }
  double residual_ratio() const {
    return mean(r.layers - 1, kResidualOut, 0) / mean(0, kResidualIn, 0);
  }
};

constexpr int kL2 = 0, kMean = 1, kVariance = 2, kStd = 3, kRms = 4, kMaxAbs = 5;

}  // namespace

TEST_CASE("same seed, same numbers; other seeds differ", "[model][forward]") {
  Model a(ModelOptions{});
  Model b(ModelOptions{});
  ModelOptions other;
  other.seed = 2;
  Model c(other);
  const ParameterSet& pa = a.parameters();
  const ParameterSet& pb = b.parameters();
  REQUIRE(pa.size() == pb.size());
  CHECK(std::equal(pa.data(), pa.data() + pa.size(), pb.data()));
  CHECK_FALSE(std::equal(pa.data(), pa.data() + pa.size(), c.parameters().data()));

  const std::string prompt = kLongPrompts[1];
  // forward_result() is the last forward() of any model: copied before the
  // next one runs.
  REQUIRE(a.forward(prompt).empty());
  const ForwardResult from_a = a.forward_result();
  REQUIRE(b.forward(prompt).empty());
  const ForwardResult& from_b = b.forward_result();
  CHECK(from_a.stats == from_b.stats);
  CHECK(from_a.attention_entropy == from_b.attention_entropy);
  CHECK(from_a.top_probs == from_b.top_probs);
  // And the same model twice, with another prompt in between.
  REQUIRE(a.forward(kLongPrompts[0]).empty());
  REQUIRE(a.forward(prompt).empty());
  CHECK(a.forward_result().stats == from_a.stats);

  REQUIRE(a.gradients(prompt).empty());
  const std::vector<float> a_grads(a.parameter_gradients().data(),
                                   a.parameter_gradients().data() + a.parameter_gradients().size());
  REQUIRE(b.gradients(prompt).empty());
  CHECK(a.gradient_result().layer_grad_l2 == b.gradient_result().layer_grad_l2);
  CHECK(a.gradient_result().loss == b.gradient_result().loss);
  CHECK(std::equal(a_grads.begin(), a_grads.end(), b.parameter_gradients().data()));
}

TEST_CASE("layer l's weights do not depend on depth, norm or placement", "[model][forward]") {
  ModelOptions shallow;
  shallow.layers = 6;
  ModelOptions post = options("layernorm", "post");
  Model a(shallow), b(ModelOptions{}), c(post);
  const int D = 1024;
  for (int l = 0; l < 6; l++) {
    const float* wa = a.parameters().layer(l);
    CHECK(std::equal(wa, wa + kLayerTensors * D, b.parameters().layer(l)));
    CHECK(std::equal(wa, wa + kLayerTensors * D, c.parameters().layer(l)));
  }
  const float* ea = a.parameters().embedding();
  CHECK(std::equal(ea, ea + kVocab * D, b.parameters().embedding()));
}

TEST_CASE("a layer drawn on its first read holds the numbers of a set drawn whole",
          "[model][forward]") {
  ModelConfig config = resolve_model_options(ModelOptions{});
  const int D = config.hidden;
  ParameterSet whole(config.layers, D), late(config.layers, D);
  init_parameters(&whole, config);
  init_parameters(&late, config);
  REQUIRE(late.drawn_layers() == 0);
  const float* all = whole.data();  // draws every layer, in order
  CHECK(whole.drawn_layers() == config.layers);
  // A deep layer first: the layers before it are drawn with it.
  const int l = config.layers - 3;
  const float* w = late.layer(l);
  CHECK(late.drawn_layers() == l + 1);
  CHECK(std::equal(w, w + kLayerTensors * D, all + static_cast<size_t>(l) * kLayerTensors * D));
  CHECK(std::equal(late.data(), late.data() + late.size(), all));
  // A copy taken before its layers are drawn draws the same numbers.
  ParameterSet fresh(config.layers, D);
  init_parameters(&fresh, config);
  const ParameterSet copy = fresh;
  CHECK(std::equal(copy.data(), copy.data() + copy.size(), all));
}

// Every array of a forward result, for whole-result comparisons.
void check_same_run(const ForwardResult& a, const ForwardResult& b) {
  CHECK(a.layers == b.layers);
  CHECK(a.tokens == b.tokens);
  CHECK(a.stats == b.stats);
  CHECK(a.stats_mean == b.stats_mean);
  CHECK(a.attention_entropy == b.attention_entropy);
  CHECK(a.attention_max_prob == b.attention_max_prob);
  CHECK(a.attention_entropy_mean == b.attention_entropy_mean);
  CHECK(a.attention_max_prob_mean == b.attention_max_prob_mean);
  CHECK(a.final_stats == b.final_stats);
  CHECK(a.final_stats_mean == b.final_stats_mean);
  CHECK(a.norm_rescale == b.norm_rescale);
  CHECK(a.norm_rescale_product == b.norm_rescale_product);
  CHECK(a.norm_rescale_mean == b.norm_rescale_mean);
  CHECK(a.norm_rescale_product_mean == b.norm_rescale_product_mean);
  CHECK(a.top_tokens == b.top_tokens);
  CHECK(a.top_probs == b.top_probs);
  CHECK(a.next_token == b.next_token);
}

TEST_CASE(
    "forward at a depth: the first n layers are the n-layer model, "
    "reused across depths",
    "[model][forward]") {
  for (const char* placement : {"pre", "post"}) {
    INFO(placement);
    ModelOptions deep_options = options("rmsnorm", placement);
    deep_options.layers = 30;
    Model deep(deep_options);
    const std::string prompt = kLongPrompts[0];
    // Down, up past the last run, down again, all the way, the first layer
    // alone: each equals a fresh model of that depth. The fresh models run
    // first: the kept run is one per thread, and a model that did not run
    // last starts over.
    const int depths[] = {24, 23, 27, 8, 30, 1, 24};
    std::vector<ForwardResult> expected;
    for (int n : depths) {
      ModelOptions fresh_options = deep_options;
      fresh_options.layers = n;
      Model fresh(fresh_options);
      REQUIRE(fresh.forward(prompt).empty());
      expected.push_back(fresh.forward_result());
    }
    // The kept run covers the deepest run so far.
    const int kept[] = {24, 24, 27, 27, 30, 30, 30};
    for (int i = 0; i < 7; i++) {
      INFO("layers " << depths[i]);
      REQUIRE(deep.forward(prompt, 5, depths[i]).empty());
      check_same_run(deep.forward_result(), expected[i]);
      CHECK(deep.kept_layers() == kept[i]);
    }
    // Another prompt starts over; so do new parameters.
    ModelOptions twelve = deep_options;
    twelve.layers = 12;
    Model fresh12(twelve);
    REQUIRE(fresh12.forward(kLongPrompts[1]).empty());
    const ForwardResult expected12 = fresh12.forward_result();
    REQUIRE(deep.forward(kLongPrompts[1], 5, 30).empty());
    REQUIRE(deep.forward(kLongPrompts[1], 5, 12).empty());
    check_same_run(deep.forward_result(), expected12);
    CHECK(deep.kept_layers() == 30);
    deep.mutable_parameters().final_gain()[0] *= 2.0f;
    CHECK(deep.kept_layers() == 0);
    deep.mutable_parameters().layer(0)[kAttnValue * 1024 + 3] *= 2.0f;
    REQUIRE(deep.forward(kLongPrompts[1], 5, 12).empty());
    CHECK(deep.forward_result().stats != expected12.stats);
  }
  Model model(ModelOptions{});
  CHECK(model.forward("abc", 5, 25) == "layers must be an integer in 1..24");
  CHECK(model.forward("abc", 5, -1) == "layers must be an integer in 1..24");
  REQUIRE(model.forward("abc", 5, 0).empty());
  CHECK(model.forward_result().layers == 24);
}

TEST_CASE("statistics agree with golden values from any build", "[model][forward]") {
  // Computed natively (x86) and checked here in every build: native, wasm
  // SIMD128 and emulated wasm must agree within 1e-4 of each statistic's
  // scale (summation order and exp differ between them). They also pin the
  // seed-to-weights mapping: a change to the initialization shows up here.
  Model model(ModelOptions{});
  REQUIRE(model.forward(kLongPrompts[2]).empty());
  const View v{model.forward_result()};
  REQUIRE(v.r.tokens == 45);
  const double tol = 1e-4;
  CHECK(v.mean(0, kResidualOut, kL2) == Approx(21.8821354).epsilon(tol));
  CHECK(v.mean(11, kResidualOut, kL2) == Approx(71.6064224).epsilon(tol));
  CHECK(v.mean(23, kResidualOut, kL2) == Approx(101.307266).epsilon(tol));
  CHECK(v.mean(23, kResidualOut, kMaxAbs) == Approx(10.9674559).epsilon(tol));
  // A mean's scale is the row's RMS (~3.2 at layer 23).
  CHECK(v.mean(23, kResidualOut, kMean) == Approx(-0.0354220197).margin(tol * 3.2));
  CHECK(v.mean(0, kAttentionOut, kL2) == Approx(3.68643498).epsilon(tol));
  CHECK(v.mean(23, kMlpOut, kL2) == Approx(19.6534615).epsilon(tol));
  CHECK(v.r.final_stats_mean[2 * kStats + kL2] == Approx(32.189518).epsilon(tol));
  CHECK(v.r.next_token == 110);
  CHECK(v.r.top_probs[0] == Approx(0.227853745).margin(tol));
  REQUIRE(model.gradients(kLongPrompts[2]).empty());
  const GradientResult& g = model.gradient_result();
  CHECK(g.loss == Approx(7.85554504).epsilon(tol));
  CHECK(g.layer_grad_l2[0] == Approx(0.93966794).epsilon(tol));
  CHECK(g.layer_grad_l2[23] == Approx(0.182024583).epsilon(tol));
  CHECK(g.residual_grad_l2[0] == Approx(1.24956775).epsilon(tol));
}

TEST_CASE("result layout: sizes, token means, shared probes, top-k", "[model][forward]") {
  for (const char* placement : {"pre", "post"}) {
    Model model(options("rmsnorm", placement));
    const std::string prompt = kLongPrompts[0];
    REQUIRE(model.forward(prompt, 7).empty());
    const ForwardResult& r = model.forward_result();
    const View v{r};
    const int L = 24, T = static_cast<int>(prompt.size()), H = 16;
    INFO("placement " << placement);
    REQUIRE(r.layers == L);
    REQUIRE(r.tokens == T);
    REQUIRE(r.heads == H);
    REQUIRE(r.top_k == 7);
    CHECK(r.token_ids.size() == static_cast<size_t>(T));
    CHECK(r.token_ids[0] == 'T');
    CHECK(r.stats.size() == static_cast<size_t>(L) * kProbes * T * kStats);
    CHECK(r.stats_mean.size() == static_cast<size_t>(L) * kProbes * kStats);
    CHECK(r.attention_entropy.size() == static_cast<size_t>(L) * T * H);
    CHECK(r.attention_max_prob.size() == static_cast<size_t>(L) * T * H);
    CHECK(r.final_stats.size() == static_cast<size_t>(kFinalProbes) * T * kStats);
    const bool post = std::string(placement) == "post";
    CHECK(r.norm_rescale.size() == (post ? static_cast<size_t>(L) * 2 * T : 0u));
    CHECK(r.norm_rescale_mean.size() == (post ? static_cast<size_t>(L) * 2 : 0u));
    CHECK(r.norm_rescale_product_mean.size() == r.norm_rescale_mean.size());

    for (int l = 0; l < L; l++) {
      for (int p = 0; p < kProbes; p++) {
        for (int s = 0; s < kStats; s++) {
          double sum = 0.0;
          for (int t = 0; t < T; t++) sum += v.stat(l, p, t, s);
          CHECK(v.mean(l, p, s) == Approx(sum / T).epsilon(1e-5).margin(1e-7));
        }
      }
      for (int t = 0; t < T; t++) {
        if (l > 0) {
          CHECK(v.stat(l, kResidualIn, t, kL2) == v.stat(l - 1, kResidualOut, t, kL2));
        }
        if (!post) {
          CHECK(v.stat(l, kInputNormIn, t, kL2) == v.stat(l, kResidualIn, t, kL2));
        } else {
          CHECK(v.stat(l, kResidualOut, t, kL2) == v.stat(l, kPostAttnNormOut, t, kL2));
        }
        // The statistics are consistent with each other.
        const float l2 = v.stat(l, kResidualOut, t, kL2);
        const float rms = v.stat(l, kResidualOut, t, kRms);
        const float var = v.stat(l, kResidualOut, t, kVariance);
        const float mean = v.stat(l, kResidualOut, t, kMean);
        CHECK(rms == Approx(l2 / std::sqrt(1024.0)).epsilon(1e-5));
        CHECK(v.stat(l, kResidualOut, t, kStd) == Approx(std::sqrt(var)).epsilon(1e-5));
        CHECK(rms * rms == Approx(var + mean * mean).epsilon(1e-4));
        CHECK(v.stat(l, kResidualOut, t, kMaxAbs) <= l2);
      }
    }
    // The final norm reads the last layer's output.
    for (int t = 0; t < T; t++) {
      CHECK(r.final_stats[t * kStats + kL2] == v.stat(L - 1, kResidualOut, t, kL2));
      CHECK(r.final_stats[(T + t) * kStats + kL2] == Approx(std::sqrt(1024.0)).epsilon(1e-3));
    }
    // Top-k: sorted, a distribution's head, greedy = first.
    CHECK(r.next_token == r.top_tokens[0]);
    double total = 0.0;
    for (int k = 0; k < 7; k++) {
      CHECK(r.top_tokens[k] >= 0);
      CHECK(r.top_tokens[k] < 256);
      if (k > 0) CHECK(r.top_probs[k] <= r.top_probs[k - 1]);
      total += r.top_probs[k];
    }
    CHECK(total <= 1.0 + 1e-5);
    CHECK(r.top_probs[6] > 0.0f);
    // Every attention row is a distribution over 1..t+1 keys: entropy in
    // [0, log(t+1)], max probability in [1/(t+1), 1].
    for (int l = 0; l < L; l++) {
      for (int t = 0; t < T; t++) {
        for (int h = 0; h < H; h++) {
          const size_t i = (static_cast<size_t>(l) * T + t) * H + h;
          CHECK(r.attention_entropy[i] >= -1e-6f);
          CHECK(r.attention_entropy[i] <= std::log(t + 1.0) + 1e-4);
          CHECK(r.attention_max_prob[i] >= 1.0 / (t + 1) - 1e-6);
          CHECK(r.attention_max_prob[i] <= 1.0f + 1e-6f);
        }
      }
    }
    // Per-layer means over tokens and heads.
    REQUIRE(r.attention_entropy_mean.size() == static_cast<size_t>(L));
    REQUIRE(r.attention_max_prob_mean.size() == static_cast<size_t>(L));
    for (int l = 0; l < L; l++) {
      CHECK(r.attention_max_prob_mean[l] == Approx(v.max_prob(l)).epsilon(1e-6));
      double entropy = 0.0;
      for (int i = 0; i < T * H; i++) entropy += r.attention_entropy[l * T * H + i];
      CHECK(r.attention_entropy_mean[l] == Approx(entropy / (T * H)).epsilon(1e-6));
    }
    // The first token attends to itself only.
    CHECK(r.attention_max_prob[0] == Approx(1.0f));
    CHECK(r.attention_entropy[0] == Approx(0.0f).margin(1e-6));
  }
}

TEST_CASE("gains: most near 1, a few far, range ~0.3..2, per layer and norm", "[model][forward]") {
  Model model(ModelOptions{});
  const int D = 1024;
  std::vector<const float*> all;
  for (int l = 0; l < 24; l++) {
    all.push_back(model.gains(l, "inputNorm"));
    all.push_back(model.gains(l, "postAttentionNorm"));
  }
  all.push_back(model.gains(0, "finalNorm"));
  CHECK(model.gains(3, "inputNorm") == model.parameters().tensor(3, kInputNormGain));
  CHECK(model.gains(0, "finalNorm") == model.parameters().final_gain());
  CHECK(all[0] != all[1]);
  for (const float* g : all) {
    int near = 0, far = 0, above = 0, below = 0;
    double sum_sq = 0.0;
    for (int i = 0; i < D; i++) {
      CHECK(g[i] >= 0.3f);
      CHECK(g[i] <= 2.0f);
      near += std::fabs(g[i] - 1.0f) < 0.15f;
      far += g[i] < 0.6f || g[i] > 1.5f;
      above += g[i] > 1.0f;
      below += g[i] < 1.0f;
      sum_sq += static_cast<double>(g[i]) * g[i];
    }
    CHECK(near > 0.8 * D);
    CHECK(far > 0.01 * D);
    CHECK(far < 0.1 * D);
    CHECK(above > 0.3 * D);
    CHECK(below > 0.3 * D);
    const double rms = std::sqrt(sum_sq / D);
    CHECK(rms > 0.95);
    CHECK(rms < 1.1);
  }
  // The first 48 gains, the page's widget sample, include both kinds.
  const float* g0 = model.gains(0, "inputNorm");
  const auto [lo, hi] = std::minmax_element(g0, g0 + 48);
  INFO("first 48 gains: min " << *lo << " max " << *hi);
  CHECK(*lo < 1.0f);
  CHECK(*hi > 1.0f);
}

TEST_CASE(
    "pre-norm: the residual climbs ~10x from below sqrt(D); every norm "
    "output sits at sqrt(D)",
    "[model][forward]") {
  Model model(ModelOptions{});
  const double sqrt_d = 32.0;
  for (const char* prompt : kAllPrompts) {
    REQUIRE(model.forward(prompt).empty());
    const View v{model.forward_result()};
    const int L = v.r.layers, T = v.r.tokens;
    INFO("prompt '" << prompt << "' (" << T << " tokens), residual ratio " << v.residual_ratio()
                    << ", start " << v.mean(0, kResidualIn, kL2) << ", end "
                    << v.mean(L - 1, kResidualOut, kL2));
    CHECK(v.mean(0, kResidualIn, kL2) < sqrt_d);
    CHECK(v.residual_ratio() >= 6.0);
    CHECK(v.residual_ratio() <= 15.0);
    for (int l = 1; l < L; l++) {
      CHECK(v.mean(l, kResidualOut, kL2) > v.mean(l - 1, kResidualOut, kL2));
    }
    for (int l = 0; l < L; l++) {
      for (int t = 0; t < T; t++) {
        for (int p : {kInputNormNormed, kPostAttnNormNormed}) {
          CHECK(v.stat(l, p, t, kL2) == Approx(sqrt_d).epsilon(1e-3));
          CHECK(v.stat(l, p, t, kRms) == Approx(1.0).epsilon(1e-3));
        }
        for (int p : {kInputNormOut, kPostAttnNormOut}) {
          CHECK(v.stat(l, p, t, kL2) >= 0.8 * sqrt_d);
          CHECK(v.stat(l, p, t, kL2) <= 1.25 * sqrt_d);
        }
      }
    }
  }
}

TEST_CASE("pre-norm attention stays spread out; without a norm it saturates", "[model][forward]") {
  Model pre(ModelOptions{});
  Model none(options("none", "pre"));
  for (const char* prompt : kLongPrompts) {
    REQUIRE(pre.forward(prompt).empty());
    const ForwardResult pre_result = pre.forward_result();
    REQUIRE(none.forward(prompt).empty());
    const View vp{pre_result}, vn{none.forward_result()};
    INFO("prompt '" << prompt << "': mean max attention probability, last 4 "
                    << "layers: pre-norm " << vp.max_prob_last4() << ", no norm "
                    << vn.max_prob_last4() << "; residual ratio pre " << vp.residual_ratio()
                    << ", none " << vn.residual_ratio());
    CHECK(vp.max_prob_last4() < 0.6);
    CHECK(vn.max_prob_last4() > 0.9);
    for (int l = 20; l < 24; l++) {
      CHECK(vp.max_prob(l) < 0.6);
      CHECK(vn.max_prob(l) > 0.9);
    }
    // Saturation comes with depth: the first layers are not saturated.
    CHECK(vn.max_prob(0) < 0.6);
    // The unnormalized residual grows much faster.
    CHECK(vn.residual_ratio() > 5.0 * vp.residual_ratio());
    // Without a norm, a norm's probes are its input.
    for (int l = 0; l < 24; l++) {
      CHECK(vn.mean(l, kInputNormOut, kL2) == vn.mean(l, kInputNormIn, kL2));
      CHECK(vn.mean(l, kPostAttnNormNormed, kL2) == vn.mean(l, kPostAttnNormIn, kL2));
    }
  }
}

TEST_CASE(
    "post-norm: the residual stays pinned near sqrt(D); the norms' "
    "rescaling factors multiply",
    "[model][forward]") {
  Model model(options("rmsnorm", "post"));
  const double sqrt_d = 32.0;
  for (const char* prompt : kAllPrompts) {
    REQUIRE(model.forward(prompt).empty());
    const ForwardResult& r = model.forward_result();
    const View v{r};
    const int L = r.layers, T = r.tokens;
    INFO("prompt '" << prompt << "'");
    for (int l = 0; l < L; l++) {
      CHECK(v.mean(l, kResidualOut, kL2) > 0.9 * sqrt_d);
      CHECK(v.mean(l, kResidualOut, kL2) < 1.1 * sqrt_d);
    }
    REQUIRE(r.norm_rescale.size() == static_cast<size_t>(L) * 2 * T);
    double product_t0 = 1.0;
    for (int l = 0; l < L; l++) {
      for (int k = 0; k < 2; k++) {
        const LayerTensor gain = k == 0 ? kInputNormGain : kPostAttnNormGain;
        const int probe = k == 0 ? kInputNormIn : kPostAttnNormIn;
        const float* g = model.parameters().tensor(l, gain);
        double ss = 0.0;
        for (int i = 0; i < 1024; i++) ss += static_cast<double>(g[i]) * g[i];
        const double rms_g = std::sqrt(ss / 1024);
        for (int t = 0; t < T; t++) {
          const size_t i = (static_cast<size_t>(l) * 2 + k) * T + t;
          const double expected = sqrt_d * rms_g / v.stat(l, probe, t, kL2);
          CHECK(r.norm_rescale[i] == Approx(expected).epsilon(1e-5));
          // The factor undoes the sub-block's growth: a bit below 1, except
          // at the first norm, which scales the small embedding up.
          if (l > 0 || k > 0) {
            CHECK(r.norm_rescale[i] > 0.5f);
            CHECK(r.norm_rescale[i] < 1.05f);
          } else {
            CHECK(r.norm_rescale[i] > 2.0f);
          }
          // Rescaling x + F(x) by it lands on the norm's output size.
          CHECK(r.norm_rescale[i] * v.stat(l, probe, t, kL2) ==
                Approx(sqrt_d * rms_g).epsilon(1e-3));
        }
        double rescale_sum = 0.0, product_sum = 0.0;
        for (int t = 0; t < T; t++) {
          rescale_sum += r.norm_rescale[(static_cast<size_t>(l) * 2 + k) * T + t];
          product_sum += r.norm_rescale_product[(static_cast<size_t>(l) * 2 + k) * T + t];
        }
        CHECK(r.norm_rescale_mean[l * 2 + k] == Approx(rescale_sum / T).epsilon(1e-6));
        CHECK(r.norm_rescale_product_mean[l * 2 + k] == Approx(product_sum / T).epsilon(1e-6));
        product_t0 *= r.norm_rescale[(static_cast<size_t>(l) * 2 + k) * T];
        CHECK(r.norm_rescale_product[(static_cast<size_t>(l) * 2 + k) * T] ==
              Approx(product_t0).epsilon(1e-5));
      }
    }
    // 47 factors below 1 after the first multiply to a small number.
    CHECK(product_t0 < 0.1);
  }
}

TEST_CASE("LayerNorm variant: normed rows have mean 0 and L2 sqrt(D)", "[model][forward]") {
  for (const char* placement : {"pre", "post"}) {
    Model model(options("layernorm", placement));
    REQUIRE(model.forward(kLongPrompts[1]).empty());
    const View v{model.forward_result()};
    INFO("placement " << placement << ", residual ratio " << v.residual_ratio());
    for (int l = 0; l < 24; l++) {
      for (int t = 0; t < v.r.tokens; t++) {
        for (int p : {kInputNormNormed, kPostAttnNormNormed}) {
          CHECK(v.stat(l, p, t, kL2) == Approx(32.0).epsilon(1e-3));
          CHECK(v.stat(l, p, t, kMean) == Approx(0.0).margin(1e-4));
          CHECK(v.stat(l, p, t, kStd) == Approx(1.0).epsilon(1e-3));
        }
      }
    }
    if (std::string(placement) == "pre") {
      CHECK(v.residual_ratio() >= 6.0);
      CHECK(v.residual_ratio() <= 15.0);
    }
  }
}

TEST_CASE("other widths: norm outputs at sqrt(D) for D = 64..512", "[model][forward]") {
  for (int hidden : {64, 128, 256, 512}) {
    ModelOptions o;
    o.hidden = hidden;
    o.layers = 4;
    o.heads = hidden >= 256 ? 16 : 4;
    Model model(o);
    REQUIRE(model.error().empty());
    REQUIRE(model.forward(kLongPrompts[0]).empty());
    const View v{model.forward_result()};
    INFO("hidden " << hidden);
    for (int l = 0; l < 4; l++) {
      CHECK(v.mean(l, kInputNormNormed, kL2) == Approx(std::sqrt(hidden)).epsilon(1e-3));
    }
    CHECK(v.mean(0, kResidualIn, kL2) < std::sqrt(hidden));
  }
}

TEST_CASE("buffers are reused: no growth after warm-up", "[model][forward]") {
  Model model(ModelOptions{});
  REQUIRE(model.forward(kLongPrompts[0]).empty());
  REQUIRE(model.gradients(kLongPrompts[0]).empty());
  const size_t floats = model.memory_floats();
  const size_t shared = Model::shared_scratch_floats();
  for (int i = 0; i < 20; i++) {
    REQUIRE(model.forward(kAllPrompts[i % 6]).empty());
  }
  REQUIRE(model.gradients("shorter prompt").empty());
  CHECK(model.memory_floats() == floats);
  CHECK(Model::shared_scratch_floats() == shared);
  // A second model shares the scratch: it adds its own floats only.
  Model other(ModelOptions{});
  REQUIRE(other.gradients(kLongPrompts[0]).empty());
  CHECK(Model::shared_scratch_floats() == shared);
  // The default model with a 44-token prompt, gradients included, and the
  // scratch, sized for 64 tokens: ~26 MB.
  const size_t total = floats + Model::shared_parameter_floats() + shared;
  INFO("memory: " << total * 4 / 1e6 << " MB");
  CHECK(total * 4 < 32u * 1024 * 1024);
}

TEST_CASE(
    "models of one seed and shape share their parameters; one taken "
    "for writing gets its own",
    "[model][forward][memory]") {
  ModelOptions o;
  o.layers = 6;
  o.hidden = 128;
  o.heads = 4;
  ModelOptions post = o;
  post.placement = "post";
  post.norm = "layernorm";
  post.eps = 1e-3;
  ModelOptions other_seed = o;
  other_seed.seed = 7;
  const size_t floats = static_cast<size_t>(6 * kLayerTensors + kVocab + 2) * 128;
  const size_t before = Model::shared_parameter_floats();
  {
    Model a(o), b(post), c(other_seed);
    CHECK(&a.parameters() == &b.parameters());
    CHECK(&a.parameters() != &c.parameters());
    CHECK(Model::shared_parameter_floats() == before + 2 * floats);
    const std::string prompt = "shared weights";
    REQUIRE(b.forward(prompt).empty());
    const ForwardResult expected = b.forward_result();
    // a's copy: a changes, b does not.
    a.mutable_parameters().final_gain()[0] *= 2.0f;
    CHECK(&a.parameters() != &b.parameters());
    CHECK(a.parameters().final_gain()[0] == 2.0f * b.parameters().final_gain()[0]);
    CHECK(a.memory_floats() > floats);
    CHECK(b.memory_floats() < floats);
    REQUIRE(b.forward(prompt).empty());
    CHECK(b.forward_result().stats == expected.stats);
    // A new model of the shape shares b's untouched set.
    Model d(o);
    CHECK(&d.parameters() == &b.parameters());
  }
  // Gone with their models.
  CHECK(Model::shared_parameter_floats() == before);
}

TEST_CASE(
    "the page's models at their largest: three 64-layer models, their "
    "parameters and the shared scratch in 46 MB",
    "[model][forward][memory]") {
  // The demo panel holds at most three 64-layer models (the forward views',
  // the other placement of the gradient pair, one spare) and runs them to
  // every depth, with prompts up to 64 tokens.
  ModelOptions deep;
  deep.layers = 64;
  ModelOptions post = deep;
  post.placement = "post";
  ModelOptions layernorm = deep;
  layernorm.norm = "layernorm";
  Model a(deep), b(post), c(layernorm);
  const std::string longest(64, 'x');
  for (Model* m : {&a, &b, &c}) {
    REQUIRE(m->forward(longest).empty());
    REQUIRE(m->gradients(longest, 48).empty());
    REQUIRE(m->gradients(longest).empty());
  }
  const size_t shared = Model::shared_scratch_floats();
  for (Model* m : {&c, &a, &b}) {
    for (const char* prompt : kAllPrompts) {
      REQUIRE(m->forward(prompt, 5, 13).empty());
      REQUIRE(m->extend(64) == 64);
      REQUIRE(m->gradients(prompt[1] ? prompt : "xy", 6).empty());
    }
  }
  CHECK(Model::shared_scratch_floats() == shared);
  const size_t models = a.memory_floats() + b.memory_floats() + c.memory_floats();
  const size_t parameters = Model::shared_parameter_floats();
  const size_t floats = models + parameters + shared;
  INFO("three models " << models * 4 / 1e6 << " MB, their parameters " << parameters * 4 / 1e6
                       << " MB, shared scratch " << shared * 4 / 1e6 << " MB");
  CHECK(floats * 4 < 46u * 1000 * 1000);
}

// The forward runs a depth control and a prompt field ask for, one after
// another on one model, each against a fresh model of that depth. Fresh
// models run first (they would take the kept run over).
struct Step {
  std::string prompt;
  int layers;      // forward at this depth; 0: extend instead
  int extend = 0;  // layers to extend by
  int kept;        // the kept run's depth afterwards
};

void check_steps(const ModelOptions& options, const std::vector<Step>& steps) {
  std::vector<ForwardResult> expected;
  for (const Step& step : steps) {
    if (step.layers == 0) {
      expected.emplace_back();
      continue;
    }
    ModelOptions fresh_options = options;
    fresh_options.layers = step.layers;
    Model fresh(fresh_options);
    REQUIRE(fresh.forward(step.prompt).empty());
    expected.push_back(fresh.forward_result());
  }
  Model model(options);
  for (size_t i = 0; i < steps.size(); i++) {
    const Step& step = steps[i];
    INFO("step " << i << ": '" << step.prompt << "', layers " << step.layers);
    if (step.layers == 0) {
      CHECK(model.extend(step.extend) == step.kept);
      continue;
    }
    REQUIRE(model.forward(step.prompt, 5, step.layers).empty());
    check_same_run(model.forward_result(), expected[i]);
    CHECK(model.kept_layers() == step.kept);
  }
}

TEST_CASE(
    "forward reuses the prompt's unchanged prefix: appends, edits, "
    "deletions, new prompts, with depth changes and extensions, each "
    "equal to a fresh run",
    "[model][forward][reuse]") {
  // "你好" in UTF-8: three tokens each.
  const std::string hello = "\xe4\xbd\xa0\xe5\xa5\xbd";
  const std::string full(64, 'q');
  const std::vector<Step> steps = {
      {"The residual", 6, 0, 6},
      {"The residual stream", 6, 0, 6},      // append
      {"The residual stream.", 8, 0, 8},     // append, two layers deeper
      {"The residual stream.", 0, 3, 11},    // extend by 3
      {"The residual stream.", 0, 5, 12},    // extend past L: stops at L
      {"The residual stream.", 0, 1, 12},    // nothing left to run
      {"The residual stream.", 4, 0, 12},    // down: no layer runs
      {"The residual stream.!", 4, 0, 4},    // append with fewer layers
      {"The residual stream.!", 12, 0, 12},  // layers 4..11 whole
      {"The rEsidual stream.!", 12, 0, 12},  // edit in the middle
      {"The rEsidual", 9, 0, 12},            // delete the end: nothing runs
      {"The rEsidual", 12, 0, 12},
      {"The", 2, 0, 12},  // delete more, then append again
      {"Thermal", 12, 0, 12},
      {"Another prompt", 5, 0, 5},  // a new prompt: from scratch
      {"Another prompt " + hello, 12, 0, 12},
      {"Another prompt " + hello.substr(0, 4), 12, 0, 12},  // half a character
      {full, 12, 0, 12},                                    // the longest prompt
      {full.substr(0, 63) + "r", 7, 0, 7},                  // its last token changed
      {full.substr(0, 40), 12, 0, 12},
      {"x", 1, 0, 1},  // a new first token
      {"x", 0, 20, 12},
  };
  const ModelOptions base = [] {
    ModelOptions o;
    o.layers = 12;
    o.hidden = 128;
    o.heads = 4;
    return o;
  }();
  for (const char* norm : {"rmsnorm", "layernorm", "none"}) {
    for (const char* placement : {"pre", "post"}) {
      INFO(norm << " " << placement);
      ModelOptions o = base;
      o.norm = norm;
      o.placement = placement;
      check_steps(o, steps);
    }
  }
  // The chapter's width and heads, pre-norm: a 30-token prompt typed on.
  ModelOptions wide;
  wide.layers = 8;
  check_steps(wide, {{"Each layer adds to the stream", 8, 0, 8},
                     {"Each layer adds to the stream.", 8, 0, 8},
                     {"Each layer adds to the stream", 3, 0, 8},
                     {"Each layer adds to the stream!", 8, 0, 8}});
}

TEST_CASE(
    "the kept run belongs to the model that ran last; gradients and "
    "loss leave it alone",
    "[model][forward][reuse]") {
  ModelOptions o;
  o.layers = 10;
  o.hidden = 128;
  o.heads = 4;
  ModelOptions p = o;
  p.placement = "post";
  Model a(o), b(p);
  const std::string prompt = "Each layer adds to the stream.";
  CHECK(a.extend(4) == 0);  // nothing kept yet
  REQUIRE(a.forward(prompt, 5, 6).empty());
  CHECK(a.kept_layers() == 6);
  CHECK(b.kept_layers() == 0);
  CHECK(b.extend(4) == 0);  // not b's: nothing runs
  CHECK(a.kept_layers() == 6);
  // Backward passes and the loss use the workspace, not the kept run.
  REQUIRE(a.gradients(prompt).empty());
  REQUIRE(b.gradients(prompt, 3).empty());
  CHECK(std::isfinite(b.loss(prompt)));
  CHECK(a.kept_layers() == 6);
  CHECK(a.extend(2) == 8);
  // b takes it over; a then starts from scratch.
  REQUIRE(b.forward(prompt).empty());
  CHECK(a.kept_layers() == 0);
  CHECK(b.kept_layers() == 10);
  REQUIRE(a.forward(prompt + "!", 5, 7).empty());
  const ForwardResult from_a = a.forward_result();
  Model fresh([&] {
    ModelOptions seven = o;
    seven.layers = 7;
    return seven;
  }());
  REQUIRE(fresh.forward(prompt + "!").empty());
  check_same_run(from_a, fresh.forward_result());
  // A deleted model's run is nobody's.
  {
    Model c(o);
    REQUIRE(c.forward(prompt).empty());
  }
  CHECK(a.kept_layers() == 0);
  CHECK(b.kept_layers() == 0);
}

TEST_CASE(
    "gradients() reports the forward pass's post-norm rescalings, "
    "exactly; pre-norm and no norm report none",
    "[model][forward][gradients]") {
  for (const char* norm : {"rmsnorm", "layernorm", "none"}) {
    for (const char* placement : {"pre", "post"}) {
      INFO(norm << " " << placement);
      Model model(options(norm, placement));
      const std::string prompt = kLongPrompts[0];
      REQUIRE(model.gradients(prompt).empty());
      const GradientResult g = model.gradient_result();
      REQUIRE(model.forward(prompt).empty());
      const ForwardResult& f = model.forward_result();
      CHECK(g.norm_rescale == f.norm_rescale);
      CHECK(g.norm_rescale_product == f.norm_rescale_product);
      CHECK(g.norm_rescale_mean == f.norm_rescale_mean);
      CHECK(g.norm_rescale_product_mean == f.norm_rescale_product_mean);
      const bool post = std::string(placement) == "post" && std::string(norm) != "none";
      CHECK(g.norm_rescale_mean.size() == (post ? 2u * f.layers : 0u));
    }
  }
}
