// The synthetic residual-stream model (see model.h).
//
// L = layers, D = hidden size, H = heads, T = prompt tokens, V = vocabulary,
// P = probes per layer, S = statistics per row
#include "model/model.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>

#include "model/norm.h"
#include "model/tokenizer.h"
#include "model/vec.h"
#include "normlab/kernels.h"

namespace normlab::model {

static_assert(sizeof(RowStats) == kStats * sizeof(float),
              "probe stats are written as RowStats records");

namespace {

// Hands out consecutive slices of one arena. With a null base it only
// counts, which is how the arena's size for T tokens is found.
class Carver {
 public:
  explicit Carver(float* base) : base_(base) {}
  float* take(size_t n) {
    float* p = base_ ? base_ + used_ : nullptr;
    used_ += n;
    return p;
  }
  size_t used() const { return used_; }

 private:
  float* base_;
  size_t used_ = 0;
};

float rms_of(const float* x, int n) {
  return static_cast<float>(std::sqrt(sum_squares(x, n) / n));
}

}  // namespace

Model::Model(const ModelOptions& options)
    : error_(validate_model_options(options)) {
  if (!error_.empty()) return;
  config_ = resolve_model_options(options);
  params_ = ParameterSet(config_.layers, config_.hidden);
  grads_ = ParameterSet(config_.layers, config_.hidden);
  init_parameters(&params_, config_);
  const int half = config_.head_dim() / 2;
  rope_cos_.resize(static_cast<size_t>(kMaxPromptTokens) * half);
  rope_sin_.resize(static_cast<size_t>(kMaxPromptTokens) * half);
  rope_tables(rope_cos_.data(), rope_sin_.data(), kMaxPromptTokens,
              config_.head_dim());
  rope_ = RopeTables{rope_cos_.data(), rope_sin_.data()};
}

size_t Model::memory_floats() const {
  return params_.size() + grads_.size() + rope_cos_.size() +
         rope_sin_.size() + workspace_.size() + checkpoints_.size();
}

void Model::prepare(int T) {
  const size_t D = config_.hidden;
  const size_t H = config_.heads;
  const size_t td = T * D;
  const size_t htt = causal_size(T, static_cast<int>(H));
  auto carve = [&](Carver* k, Buffers* b) {
    LayerCache& c = b->cache;
    c.input_norm_in = nullptr;
    c.input_norm_sum = k->take(td);
    c.input_norm_normed = k->take(td);
    c.input_norm_out = k->take(td);
    c.input_norm_mean = k->take(T);
    c.input_norm_rstd = k->take(T);
    c.attention.u = k->take(td);
    c.attention.ub = k->take(td);
    c.attention.q = k->take(td);
    c.attention.k = k->take(td);
    c.attention.v = k->take(td);
    c.attention.logits = k->take(htt);
    c.attention.p = k->take(htt);
    c.attention.y = k->take(td);
    c.attention.yh = k->take(td);
    c.attention_out = k->take(td);
    c.post_attn_norm_in = k->take(td);
    c.post_attn_norm_normed = k->take(td);
    c.post_attn_norm_out = k->take(td);
    c.post_attn_norm_mean = k->take(T);
    c.post_attn_norm_rstd = k->take(T);
    c.mlp.z1 = k->take(td);
    c.mlp.m = k->take(td);
    c.mlp.r = k->take(td);
    c.mlp.z2 = k->take(td);
    c.mlp_out = k->take(td);
    LayerScratch& s = b->scratch;
    s.attention.dy = k->take(td);
    s.attention.dq = k->take(td);
    s.attention.dk = k->take(td);
    s.attention.dv = k->take(td);
    s.attention.du = k->take(td);
    s.attention.dp = k->take(htt);
    s.attention.dlogits = k->take(htt);
    s.attention.alpha = k->take(H);
    s.mlp = k->take(td);
    s.d_a = k->take(td);
    s.d_b = k->take(td);
    s.d_c = k->take(td);
    b->x_a = k->take(td);
    b->x_b = k->take(td);
    b->final_normed = k->take(td);
    b->final_out = k->take(td);
    b->final_mean = k->take(T);
    b->final_rstd = k->take(T);
    b->logits = k->take(T * kVocab);
    b->probs = k->take(T * kVocab);
    b->d_final_out = k->take(td);
    b->dx_a = k->take(td);
    b->dx_b = k->take(td);
  };
  Carver counter(nullptr);
  Buffers sizing{};
  carve(&counter, &sizing);
  if (workspace_.size() < counter.used()) workspace_.resize(counter.used());
  Carver carver(workspace_.data());
  carve(&carver, &buffers_);
  prepared_tokens_ = T;
}

void Model::embed(float* x, const std::vector<int>& tokens) const {
  const int D = config_.hidden;
  for (size_t t = 0; t < tokens.size(); t++) {
    std::memcpy(x + t * D, params_.embedding() + tokens[t] * D,
                D * sizeof(float));
  }
}

void Model::final_norm(const float* x_L, int T) {
  norm_forward(buffers_.final_out, buffers_.final_normed, buffers_.final_mean,
               buffers_.final_rstd, x_L, params_.final_gain(),
               params_.final_bias(), config_.norm, T, config_.hidden,
               config_.eps);
}

// logits_tv = lm_head_scale * <final_out_t, E_v>; probs = softmax per row.
void Model::lm_head(int rows) {
  const int D = config_.hidden;
  const float kappa = lm_head_scale(D);
  const float* E = params_.embedding();
  for (int t = 0; t < rows; t++) {
    const float* f_t = buffers_.final_out + t * D;
    float* logits_t = buffers_.logits + t * kVocab;
    for (int v = 0; v < kVocab; v++) logits_t[v] = kappa * dot(f_t, E + v * D, D);
  }
  softmax_forward(buffers_.probs, buffers_.logits, rows, kVocab, 1.0f);
}

// Mean over t = 0..T-2 of -log p(token_(t+1)), from the logits rows.
// log p = logit - logsumexp(logits), in double with the max subtracted, so
// the saturated, huge logits of an unnormalized model give a finite loss
// where log(probs) would hit log(0).
double Model::next_token_loss(const std::vector<int>& tokens) const {
  const int T = static_cast<int>(tokens.size());
  double total = 0.0;
  for (int t = 0; t + 1 < T; t++) {
    const float* logits_t = buffers_.logits + t * kVocab;
    const double m = *std::max_element(logits_t, logits_t + kVocab);
    double sum = 0.0;
    for (int v = 0; v < kVocab; v++) sum += std::exp(logits_t[v] - m);
    total += m + std::log(sum) - logits_t[tokens[t + 1]];
  }
  return total / (T - 1);
}

std::string Model::forward(const std::string& prompt_utf8, int top_k) {
  if (!error_.empty()) return error_;
  std::string message = validate_prompt(prompt_utf8);
  if (!message.empty()) return message;
  if (top_k < 1 || top_k > kVocab) return "top_k must be an integer in 1..256";

  const std::vector<int> tokens = tokenize(prompt_utf8);
  const int T = static_cast<int>(tokens.size());
  const int L = config_.layers;
  const int D = config_.hidden;
  const int H = config_.heads;
  const bool post = config_.placement == Placement::post &&
                    config_.norm != NormKind::none;
  prepare(T);

  ForwardResult& r = forward_;
  r.layers = L;
  r.tokens = T;
  r.heads = H;
  r.top_k = top_k;
  r.token_ids.assign(tokens.begin(), tokens.end());
  r.stats.resize(static_cast<size_t>(L) * kProbes * T * kStats);
  r.stats_mean.resize(static_cast<size_t>(L) * kProbes * kStats);
  r.attention_entropy.resize(static_cast<size_t>(L) * H * T);
  r.attention_max_prob.resize(static_cast<size_t>(L) * H * T);
  r.final_stats.resize(static_cast<size_t>(kFinalProbes) * T * kStats);
  r.final_stats_mean.resize(static_cast<size_t>(kFinalProbes) * kStats);
  r.norm_rescale.resize(post ? static_cast<size_t>(L) * 2 * T : 0);
  r.norm_rescale_product.resize(post ? static_cast<size_t>(L) * 2 * T : 0);
  r.top_tokens.resize(top_k);
  r.top_probs.resize(top_k);

  // Mean over tokens of each (probe, stat): stats (P, T, S) -> mean (P, S).
  auto token_means = [T](float* mean, const float* stats, int probes) {
    for (int p = 0; p < probes; p++) {
      for (int s = 0; s < kStats; s++) {
        double sum = 0.0;
        for (int t = 0; t < T; t++) sum += stats[(p * T + t) * kStats + s];
        mean[p * kStats + s] = static_cast<float>(sum / T);
      }
    }
  };

  float* x = buffers_.x_a;
  float* x_next = buffers_.x_b;
  embed(x, tokens);
  const LayerCache& c = buffers_.cache;
  for (int l = 0; l < L; l++) {
    const float* w = params_.layer(l);
    layer_forward(x_next, &buffers_.cache, x, w, rope_, config_, T);

    // Statistics of each probe. Probes that are the same vector share one
    // pass: layer l's residual.in is layer l-1's residual.out; pre-norm's
    // inputNorm.in is residual.in; post-norm's residual.out is
    // postAttentionNorm.out; without a norm, normed = out = in. RMSNorm's
    // normed row is its input row times one number, rstd, so its
    // statistics are the input's scaled by rstd (variance by rstd^2).
    float* stats_l = r.stats.data() + static_cast<size_t>(l) * kProbes * T * kStats;
    auto probe_stats = [&](int p) { return stats_l + p * T * kStats; };
    auto measure = [&](int p, const float* rows) {
      row_stats(reinterpret_cast<RowStats*>(probe_stats(p)), rows, T, D);
    };
    auto same_as = [&](int p, const float* stats) {
      std::memcpy(probe_stats(p), stats, T * kStats * sizeof(float));
    };
    auto scaled = [&](int p, int from, const float* rstd) {
      const RowStats* in = reinterpret_cast<const RowStats*>(probe_stats(from));
      RowStats* out = reinterpret_cast<RowStats*>(probe_stats(p));
      for (int t = 0; t < T; t++) {
        const float k = rstd[t];
        out[t] = RowStats{in[t].l2 * k,   in[t].mean * k, in[t].variance * k * k,
                          in[t].std * k,  in[t].rms * k,  in[t].max_abs * k};
      }
    };
    auto normed_stats = [&](int p, int from, const float* normed,
                            const float* rstd) {
      if (config_.norm == NormKind::rmsnorm) {
        scaled(p, from, rstd);
      } else {
        measure(p, normed);
      }
    };
    const bool normless = config_.norm == NormKind::none;
    if (l == 0) {
      measure(kResidualIn, x);
    } else {
      same_as(kResidualIn, stats_l - (kProbes - kResidualOut) * T * kStats);
    }
    if (config_.placement == Placement::pre) {
      same_as(kInputNormIn, probe_stats(kResidualIn));
    } else {
      measure(kInputNormIn, c.input_norm_in);
    }
    if (normless) {
      same_as(kInputNormNormed, probe_stats(kInputNormIn));
      same_as(kInputNormOut, probe_stats(kInputNormIn));
    } else {
      normed_stats(kInputNormNormed, kInputNormIn, c.input_norm_normed,
                   c.input_norm_rstd);
      measure(kInputNormOut, c.input_norm_out);
    }
    measure(kAttentionOut, c.attention_out);
    measure(kPostAttnNormIn, c.post_attn_norm_in);
    if (normless) {
      same_as(kPostAttnNormNormed, probe_stats(kPostAttnNormIn));
      same_as(kPostAttnNormOut, probe_stats(kPostAttnNormIn));
    } else {
      normed_stats(kPostAttnNormNormed, kPostAttnNormIn,
                   c.post_attn_norm_normed, c.post_attn_norm_rstd);
      measure(kPostAttnNormOut, c.post_attn_norm_out);
    }
    measure(kMlpOut, c.mlp_out);
    if (post) {
      same_as(kResidualOut, probe_stats(kPostAttnNormOut));
    } else {
      measure(kResidualOut, x_next);
    }
    token_means(r.stats_mean.data() + l * kProbes * kStats, stats_l, kProbes);
    for (int t = 0; t < T; t++) {
      const size_t o = (static_cast<size_t>(l) * T + t) * H;
      distribution_stats(r.attention_entropy.data() + o,
                         r.attention_max_prob.data() + o,
                         c.attention.p + causal_offset(t, H), H, t + 1);
    }

    if (post) {
      // Each norm's factor sqrt(D) rms(g) / ||in|| (LayerNorm: the centred
      // input, whose L2 is sqrt(D) * std).
      const Probe norm_inputs[2] = {kInputNormIn, kPostAttnNormIn};
      const LayerTensor gains[2] = {kInputNormGain, kPostAttnNormGain};
      for (int k = 0; k < 2; k++) {
        const float rms_g = rms_of(params_.tensor(l, gains[k]), D);
        const float* in_stats = stats_l + norm_inputs[k] * T * kStats;
        for (int t = 0; t < T; t++) {
          const RowStats& st =
              *reinterpret_cast<const RowStats*>(in_stats + t * kStats);
          const float size = config_.norm == NormKind::layernorm
                                 ? std::sqrt(static_cast<float>(D)) * st.std
                                 : st.l2;
          const float factor = std::sqrt(static_cast<float>(D)) * rms_g / size;
          const size_t i = (static_cast<size_t>(l) * 2 + k) * T + t;
          r.norm_rescale[i] = factor;
          const float before = (l == 0 && k == 0)
                                   ? 1.0f
                                   : r.norm_rescale_product[i - T];
          r.norm_rescale_product[i] = before * factor;
        }
      }
    }
    std::swap(x, x_next);
  }

  final_norm(x, T);
  const float* final_probes[kFinalProbes] = {x, buffers_.final_normed,
                                             buffers_.final_out};
  for (int p = 0; p < kFinalProbes; p++) {
    row_stats(reinterpret_cast<RowStats*>(r.final_stats.data() + p * T * kStats),
              final_probes[p], T, D);
  }
  token_means(r.final_stats_mean.data(), r.final_stats.data(), kFinalProbes);

  // Next-token distribution of the last position only.
  const int last = T - 1;
  const float kappa = lm_head_scale(D);
  const float* f_last = buffers_.final_out + last * D;
  float* logits = buffers_.logits;
  for (int v = 0; v < kVocab; v++) {
    logits[v] = kappa * dot(f_last, params_.embedding() + v * D, D);
  }
  softmax_forward(buffers_.probs, logits, 1, kVocab, 1.0f);
  std::array<int, kVocab> order;
  std::iota(order.begin(), order.end(), 0);
  const float* probs = buffers_.probs;
  std::partial_sort(order.begin(), order.begin() + top_k, order.end(),
                    [probs](int a, int b) {
                      return probs[a] > probs[b] ||
                             (probs[a] == probs[b] && a < b);
                    });
  for (int k = 0; k < top_k; k++) {
    r.top_tokens[k] = order[k];
    r.top_probs[k] = probs[order[k]];
  }
  r.next_token = order[0];
  return "";
}

double Model::loss(const std::string& prompt_utf8) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (!error_.empty() || !validate_prompt(prompt_utf8).empty()) return nan;
  const std::vector<int> tokens = tokenize(prompt_utf8);
  const int T = static_cast<int>(tokens.size());
  if (T < 2) return nan;
  prepare(T);
  float* x = buffers_.x_a;
  float* x_next = buffers_.x_b;
  embed(x, tokens);
  for (int l = 0; l < config_.layers; l++) {
    layer_forward(x_next, &buffers_.cache, x, params_.layer(l), rope_, config_, T);
    std::swap(x, x_next);
  }
  final_norm(x, T);
  lm_head(T - 1);
  return next_token_loss(tokens);
}

// Backward of the loss above. With p = softmax(logits_t) and target
// y = token_(t+1), d loss / d logits_t = (p - onehot(y)) / (T - 1). Then
//   logits_tv = kappa <f_t, E_v>:
//     d f_t = kappa sum_v dlogits_tv E_v;   dE_v += kappa sum_t dlogits_tv f_t
//   f = finalNorm(x_L): norm_backward; each layer: layer_backward (layer.cpp)
//   x_0[t] = E[token_t]:  dE[token_t] += dx_0[t]
// Only the layer inputs are kept during the forward (checkpoints); each
// layer's caches are recomputed from its input just before its backward,
// which costs one more forward but keeps memory at (L + 1) T D floats.
std::string Model::gradients(const std::string& prompt_utf8) {
  if (!error_.empty()) return error_;
  std::string message = validate_prompt(prompt_utf8);
  if (!message.empty()) return message;
  const std::vector<int> tokens = tokenize(prompt_utf8);
  const int T = static_cast<int>(tokens.size());
  if (T < 2) return "gradients need a prompt of at least 2 tokens";

  const int L = config_.layers;
  const int D = config_.hidden;
  const size_t td = static_cast<size_t>(T) * D;
  prepare(T);
  if (checkpoints_.size() < (L + 1) * td) checkpoints_.resize((L + 1) * td);
  float* ckpt = checkpoints_.data();  // x_l at ckpt + l * td
  grads_.set_zero();

  embed(ckpt, tokens);
  for (int l = 0; l < L; l++) {
    layer_forward(ckpt + (l + 1) * td, &buffers_.cache, ckpt + l * td,
                  params_.layer(l), rope_, config_, T);
  }
  const float* x_L = ckpt + L * td;
  final_norm(x_L, T);
  lm_head(T - 1);

  GradientResult& r = gradients_;
  r.layers = L;
  r.tokens = T;
  r.loss = static_cast<float>(next_token_loss(tokens));
  r.residual_grad_l2.resize(L + 1);
  r.residual_grad_l2_per_token.resize(static_cast<size_t>(L + 1) * T);
  r.attention_grad_l2.resize(L);
  r.mlp_grad_l2.resize(L);
  r.norm_grad_l2.resize(L);
  r.layer_grad_l2.resize(L);

  // dlogits, in place of probs.
  float* dlogits = buffers_.probs;
  const float inv_rows = 1.0f / (T - 1);
  for (int t = 0; t + 1 < T; t++) {
    dlogits[t * kVocab + tokens[t + 1]] -= 1.0f;
    scale(dlogits + t * kVocab, dlogits + t * kVocab, inv_rows, kVocab);
  }
  const float kappa = lm_head_scale(D);
  const float* E = params_.embedding();
  float* dE = grads_.embedding();
  std::memset(buffers_.d_final_out, 0, td * sizeof(float));
  for (int t = 0; t + 1 < T; t++) {
    const float* dlogits_t = dlogits + t * kVocab;
    float* df_t = buffers_.d_final_out + t * D;
    const float* f_t = buffers_.final_out + t * D;
    for (int v = 0; v < kVocab; v++) {
      const float g = kappa * dlogits_t[v];
      axpy(df_t, g, E + v * D, D);
      axpy(dE + v * D, g, f_t, D);
    }
  }

  float* dx = buffers_.dx_a;
  float* dx_prev = buffers_.dx_b;
  norm_backward(dx, grads_.final_gain(), grads_.final_bias(),
                buffers_.d_final_out, x_L, params_.final_gain(),
                buffers_.final_mean, buffers_.final_rstd, config_.norm, T, D);

  auto record_residual = [&](int index, const float* d) {
    double total = 0.0;
    for (int t = 0; t < T; t++) {
      const double ss = sum_squares(d + t * D, D);
      r.residual_grad_l2_per_token[static_cast<size_t>(index) * T + t] =
          static_cast<float>(std::sqrt(ss));
      total += ss;
    }
    r.residual_grad_l2[index] = static_cast<float>(std::sqrt(total));
  };
  auto group_l2 = [D](const float* dw, int begin, int end) {
    return sum_squares(dw + begin * D, (end - begin) * D);
  };

  record_residual(L, dx);
  for (int l = L - 1; l >= 0; l--) {
    const float* x_l = ckpt + l * td;
    // The forward above left layer L-1's caches in place; earlier layers
    // are recomputed from their checkpointed input.
    if (l != L - 1) {
      layer_forward(buffers_.x_a, &buffers_.cache, x_l, params_.layer(l),
                    rope_, config_, T);
    }
    float* dw = grads_.layer(l);
    layer_backward(dx_prev, dw, dx, buffers_.cache, x_l, params_.layer(l),
                   rope_, &buffers_.scratch, config_, T);
    std::swap(dx, dx_prev);
    record_residual(l, dx);
    const double attn = group_l2(dw, kAttentionTensorsBegin, kAttentionTensorsEnd);
    const double mlp = group_l2(dw, kMlpTensorsBegin, kMlpTensorsEnd);
    const double norm = group_l2(dw, kNormTensorsBegin, kNormTensorsEnd);
    r.attention_grad_l2[l] = static_cast<float>(std::sqrt(attn));
    r.mlp_grad_l2[l] = static_cast<float>(std::sqrt(mlp));
    r.norm_grad_l2[l] = static_cast<float>(std::sqrt(norm));
    r.layer_grad_l2[l] = static_cast<float>(std::sqrt(attn + mlp + norm));
  }

  for (int t = 0; t < T; t++) {
    axpy(dE + tokens[t] * D, 1.0f, dx + t * D, D);
  }
  r.embedding_grad_l2 =
      static_cast<float>(std::sqrt(sum_squares(dE, kVocab * D)));
  r.final_norm_grad_l2 = static_cast<float>(
      std::sqrt(sum_squares(grads_.final_gain(), 2 * D)));
  return "";
}

std::string Model::validate_gain_query(double layer,
                                       const std::string& which) const {
  if (!error_.empty()) return error_;
  if (which == "finalNorm") return "";
  if (which != "inputNorm" && which != "postAttentionNorm") {
    return "which must be 'inputNorm', 'postAttentionNorm' or 'finalNorm'";
  }
  if (!(std::isfinite(layer) && layer == std::floor(layer) && layer >= 0 &&
        layer < config_.layers)) {
    return "layer must be an integer in 0.." +
           std::to_string(config_.layers - 1);
  }
  return "";
}

const float* Model::gains(int layer, const std::string& which) const {
  if (which == "finalNorm") return params_.final_gain();
  return params_.tensor(
      layer, which == "inputNorm" ? kInputNormGain : kPostAttnNormGain);
}

}  // namespace normlab::model
