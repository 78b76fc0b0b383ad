// libFuzzer target for the synthetic model's configuration and prompt path
// (model/options.h, model/model.h, model/tokenizer.h): options as
// JavaScript may pass them (any double: NaN, +-inf, 1e300, 0.5; any string),
// a top_k and two prompts of any bytes, run on one Model, so the second
// reuses (or grows) the buffers the first sized.
//   - Invalid options: Model::error() is validate_model_options()'s message
//     and every call returns it (loss: NaN).
//   - Valid options: the config is resolve_model_options()'s; forward() and
//     gradients() fail exactly when validate_prompt() (or top_k in 1..256,
//     or gradients' 2 tokens) says so, and otherwise report what probes.h
//     documents: token ids = the prompt's bytes, finite statistics, every
//     "normed" row with L2 <= sqrt(D) (= sqrt(D) up to eps), attention
//     entropy in [0, log(t + 1)], top-k probabilities in [0, 1] and
//     non-increasing, next token = the top one, a finite loss >= 0 that
//     loss() reproduces.
// Models are built only up to 2 layers of 128 features: a forward pass of
// the default 24 x 1024 model takes seconds under the sanitizers, and every
// size runs the same code; larger valid configs get the validation checks.
//
// Input layout: one byte per option choosing a listed value or, for the
// last choice, reading the raw value that follows (a double: 8 bytes; a
// string: a length byte and up to 15 bytes); two bytes of top_k; one byte
// splitting the rest of the input into the two prompts. Missing bytes
// read as 0.
#include "model/model.h"
#include "model/options.h"
#include "model/tokenizer.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>

using namespace normlab::model;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr int kMaxFuzzLayers = 2;
constexpr int kMaxFuzzHidden = 128;

struct Reader {
  const std::uint8_t* data;
  std::size_t size;
  std::size_t pos = 0;
  std::uint8_t byte() { return pos < size ? data[pos++] : 0; }
  double raw_double() {
    std::uint64_t u = 0;
    for (int k = 0; k < 8; ++k) u |= static_cast<std::uint64_t>(byte()) << (8 * k);
    double d;
    std::memcpy(&d, &u, sizeof d);
    return d;
  }
  std::string raw_string() {
    const std::size_t n = byte() % 16;
    std::string s;
    for (std::size_t k = 0; k < n; ++k) s.push_back(static_cast<char>(byte()));
    return s;
  }
  std::string rest() {
    const std::size_t start = pos < size ? pos : size;
    pos = size;
    return std::string(reinterpret_cast<const char*>(data + start), size - start);
  }
};

template <class T, std::size_t N, class Raw>
T choose(Reader& in, const T (&choices)[N], Raw raw) {
  const std::size_t k = in.byte() % (N + 1);
  return k < N ? choices[k] : raw();
}

[[noreturn]] void fail(const char* what, const std::string& detail = "") {
  std::fprintf(stderr, "model: %s %s\n", what, detail.c_str());
  std::abort();
}

void require(bool ok, const char* what, const std::string& detail = "") {
  if (!ok) fail(what, detail);
}

bool all_finite(const std::vector<float>& v) {
  for (const float f : v) {
    if (!std::isfinite(f)) return false;
  }
  return true;
}

// The documented shape of a successful forward (probes.h).
void check_forward(const Model& m, const std::string& prompt, int top_k) {
  const ForwardResult& r = m.forward_result();
  const ModelConfig& c = m.config();
  const int L = c.layers, T = static_cast<int>(prompt.size()), H = c.heads;
  require(r.layers == L && r.tokens == T && r.heads == H && r.top_k == top_k,
          "forward: wrong sizes");
  for (int t = 0; t < T; ++t) {
    require(r.token_ids[t] == static_cast<unsigned char>(prompt[t]),
            "forward: token id is not the prompt's byte");
  }
  require(r.stats.size() == static_cast<std::size_t>(L) * kProbes * T * kStats,
          "forward: stats size");
  require(all_finite(r.stats) && all_finite(r.stats_mean) && all_finite(r.final_stats),
          "forward: stats not finite");
  // "normed" rows: L2 = sqrt(D * s / (s + eps)) <= sqrt(D), s the row's
  // mean square (RMSNorm) or variance (LayerNorm).
  const double max_l2 = std::sqrt(static_cast<double>(c.hidden)) * (1.0 + 1e-5);
  if (c.norm != NormKind::none) {
    for (int l = 0; l < L; ++l) {
      for (const int probe : {kInputNormNormed, kPostAttnNormNormed}) {
        for (int t = 0; t < T; ++t) {
          const float l2 =
              r.stats[((static_cast<std::size_t>(l) * kProbes + probe) * T + t) * kStats];
          require(l2 <= max_l2, "forward: a normed row is longer than sqrt(D)", std::to_string(l2));
        }
      }
    }
    for (int t = 0; t < T; ++t) {
      require(r.final_stats[(static_cast<std::size_t>(1) * T + t) * kStats] <= max_l2,
              "forward: finalNorm.normed longer than sqrt(D)");
    }
  }
  for (int l = 0; l < L; ++l) {
    for (int t = 0; t < T; ++t) {
      for (int h = 0; h < H; ++h) {
        const std::size_t k = (static_cast<std::size_t>(l) * T + t) * H + h;
        const float entropy = r.attention_entropy[k], max_prob = r.attention_max_prob[k];
        require(entropy >= 0.0f && entropy <= std::log(t + 1.0) + 1e-4,
                "forward: attention entropy out of range", std::to_string(entropy));
        require(max_prob >= 1.0 / (t + 1) - 1e-6 && max_prob <= 1.0f + 1e-6f,
                "forward: attention max probability out of range", std::to_string(max_prob));
      }
    }
  }
  require(static_cast<int>(r.top_tokens.size()) == top_k &&
              static_cast<int>(r.top_probs.size()) == top_k,
          "forward: top-k size");
  for (int k = 0; k < top_k; ++k) {
    require(r.top_tokens[k] >= 0 && r.top_tokens[k] < 256,
            "forward: top token out of the vocabulary");
    require(r.top_probs[k] >= 0.0f && r.top_probs[k] <= 1.0f,
            "forward: top probability out of [0, 1]");
    require(k == 0 || r.top_probs[k] <= r.top_probs[k - 1],
            "forward: top probabilities not sorted");
  }
  require(r.next_token == r.top_tokens[0], "forward: next token is not the top one");
}

void check_valid_model(Model& m, const ModelOptions& o, int top_k, const std::string& prompt) {
  require(m.error().empty(), "valid options but an error", m.error());
  const ModelConfig want = resolve_model_options(o);
  const ModelConfig& got = m.config();
  require(got.layers == want.layers && got.hidden == want.hidden && got.heads == want.heads &&
              got.norm == want.norm && got.placement == want.placement && got.seed == want.seed &&
              (got.eps == want.eps),
          "config differs from resolve_model_options");

  const std::string prompt_error = validate_prompt(prompt);
  const std::string f = m.forward(prompt, top_k);
  if (!prompt_error.empty()) {
    require(f == prompt_error, "forward: not the prompt's error", f);
  } else if (top_k < 1 || top_k > 256) {
    require(!f.empty(), "forward: accepted top_k out of 1..256");
  } else {
    require(f.empty(), "forward failed on a valid prompt", f);
    check_forward(m, prompt, top_k);
  }

  const std::string g = m.gradients(prompt);
  const double loss = m.loss(prompt);
  if (!prompt_error.empty() || prompt.size() < 2) {
    require(!g.empty(), "gradients: accepted a prompt it cannot use");
    require(std::isnan(loss), "loss: a number for a prompt it cannot use");
    return;
  }
  require(g.empty(), "gradients failed on a valid prompt", g);
  const GradientResult& r = m.gradient_result();
  require(std::isfinite(r.loss) && r.loss >= 0.0f, "gradients: loss not finite and >= 0",
          std::to_string(r.loss));
  require(std::fabs(loss - r.loss) <= 1e-5 * std::fabs(loss) + 1e-6,
          "loss() differs from gradients()' loss");
  require(all_finite(r.residual_grad_l2) && all_finite(r.residual_grad_l2_per_token),
          "gradients: not finite");
  require(
      all_finite(r.attention_grad_l2) && all_finite(r.mlp_grad_l2) && all_finite(r.norm_grad_l2),
      "gradients: parameter gradient norms not finite");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Reader in{data, size};
  const auto raw_double = [&] { return in.raw_double(); };
  const auto raw_string = [&] { return in.raw_string(); };
  static const double kLayers[] = {1, 2, 0, 24, 65, 1.5, -1};
  static const double kHidden[] = {64, 128, 96, 1024, 2048, 32};
  static const double kHeads[] = {1, 4, 16, 3, 32, 64};
  static const char* const kNorms[] = {"rmsnorm", "layernorm", "none", "RMSNorm", ""};
  static const char* const kPlacements[] = {"pre", "post", "Pre"};
  static const double kEps[] = {kNaN, 0.0, 1e-6, 1.0, 1.0000001, -0.0, -1e-9};
  static const double kSeeds[] = {0, 1, 4294967295.0, 4294967296.0, 0.5};

  ModelOptions o;
  o.layers = choose(in, kLayers, raw_double);
  o.hidden = choose(in, kHidden, raw_double);
  o.heads = choose(in, kHeads, raw_double);
  o.norm =
      choose<std::string>(in, {kNorms[0], kNorms[1], kNorms[2], kNorms[3], kNorms[4]}, raw_string);
  o.placement =
      choose<std::string>(in, {kPlacements[0], kPlacements[1], kPlacements[2]}, raw_string);
  o.eps = choose(in, kEps, raw_double);
  o.seed = choose(in, kSeeds, raw_double);
  const int top_k_low = in.byte();
  const int top_k = (top_k_low | in.byte() << 8) % 300 - 20;
  const std::size_t split = in.byte();
  const std::string prompts = in.rest();
  const std::string first = prompts.substr(0, std::min(split, prompts.size()));
  const std::string second = prompts.substr(first.size());

  const std::string error = validate_model_options(o);
  if (!error.empty()) {
    Model m(o);
    require(m.error() == error, "Model::error() is not validate_model_options()'s message",
            m.error());
    require(m.forward(first, top_k) == error, "forward on invalid options: not the options' error");
    require(m.gradients(first) == error, "gradients on invalid options: not the options' error");
    require(std::isnan(m.loss(first)), "loss on invalid options: not NaN");
    return 0;
  }
  if (o.layers > kMaxFuzzLayers || o.hidden > kMaxFuzzHidden) return 0;
  Model m(o);
  check_valid_model(m, o, top_k, first);
  check_valid_model(m, o, top_k, second);
  return 0;
}
