// What Model's forward pass records (probes.h): each layer's probes and
// post-norm's rescaling into the kept run, then forward_result() from it,
// the final norm's probes and the next token.
//
// L = layers, D = hidden size, H = heads, T = prompt tokens, V = vocabulary,
// P = probes per layer, S = statistics per row
#include "model/model.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>

#include "model/vec.h"
#include "normlab/kernels.h"

#include "model/model_internal.h"

namespace normlab::model {

namespace {

// Each layer norm's input probe, in the order of kLayerNormNames.
constexpr Probe kLayerNormInputs[kLayerNorms] = {kInputNormIn, kPostAttnNormIn};

float rms_of(const float* x, int n) { return static_cast<float>(std::sqrt(sum_squares(x, n) / n)); }

// Statistics of rows x_t * k_t from those of x_t: every statistic scales by
// k_t, the variance by k_t^2. out, in: (T); k: (T)
void scaled_stats(RowStats* out, const RowStats* in, const float* k, int T) {
  for (int t = 0; t < T; t++) {
    const float s = k[t];
    out[t] = RowStats{in[t].l2 * s,  in[t].mean * s, in[t].variance * s * s,
                      in[t].std * s, in[t].rms * s,  in[t].max_abs * s};
  }
}

// Mean over tokens of each (probe, stat): stats (P, T, S) -> mean (P, S),
// summed in double.
void token_means(float* mean, const float* stats, int probes, int T) {
  for (int p = 0; p < probes; p++) {
    for (int s = 0; s < kStats; s++) {
      double sum = 0.0;
      for (int t = 0; t < T; t++) sum += stats[(p * T + t) * kStats + s];
      mean[p * kStats + s] = static_cast<float>(sum / T);
    }
  }
}

// Entropy (nats) and largest probability of each of `rows` attention rows
// of n keys, from the logits z and their softmax p. As p_i = exp(z_i - z_max)
// / S, log p_i = (z_i - z_max) + log p_max with p_max = 1 / S, so
//   -sum p_i log p_i = -log p_max - sum p_i (z_i - z_max)
// (sum p_i = 1): one log per row instead of one per key. A row this does
// not suit (a NaN, or logits that overflowed to inf) takes the kernel's
// -sum p log p.
void attention_row_stats(float* entropy, float* max_prob, const float* logits, const float* p,
                         int rows, int n) {
  for (int h = 0; h < rows; h++) {
    const float* z = logits + static_cast<size_t>(h) * n;
    const float* p_h = p + static_cast<size_t>(h) * n;
    float z_max = z[0];
    float p_max = p_h[0];
    for (int i = 1; i < n; i++) {
      z_max = std::max(z_max, z[i]);
      p_max = std::max(p_max, p_h[i]);
    }
    float dot = 0.0f;
    for (int i = 0; i < n; i++) dot += p_h[i] * (z[i] - z_max);
    const float e = -std::log(p_max) - dot;
    if (std::isfinite(e) && std::isfinite(z_max) && p_max > 0.0f) {
      entropy[h] = std::max(e, 0.0f);
      max_prob[h] = p_max;
    } else {
      distribution_stats(entropy + h, max_prob + h, p_h, 1, n);
    }
  }
}

}  // namespace

static_assert(sizeof(RowStats) == kStats * sizeof(float),
              "probe stats are written as RowStats records");

// Mean of n values, summed in double.
float mean_of(const float* v, int n) {
  double sum = 0.0;
  for (int i = 0; i < n; i++) sum += v[i];
  return static_cast<float>(sum / n);
}

// Statistics of each probe of layer l (see probes.h), rows first..T-1, into
// the kept run. Probes that are the same vector share one pass: layer l's
// residual.in is layer l-1's residual.out; pre-norm's inputNorm.in is
// residual.in; post-norm's residual.out is postAttentionNorm.out; without a
// norm, normed = out = in. RMSNorm's normed row is its input row times one
// number, rstd, so its statistics are the input's scaled (scaled_stats).
void Model::record_layer_probes(int l, const float* x, const float* x_next, int first, int T) {
  KeptRun& k = scratch().kept;
  const int D = config_.hidden;
  const int H = config_.heads;
  const int rows = T - first;
  const size_t o = static_cast<size_t>(first) * D;
  const LayerCache& c = buffers_.cache;
  const bool normless = config_.norm == NormKind::none;
  const bool post = config_.placement == Placement::post;
  // probe(l, p): rows 0..Tm-1 of layer l's probe p.
  auto probe = [&](int layer, int p) {
    return reinterpret_cast<RowStats*>(k.stats.data() +
                                       (static_cast<size_t>(layer) * kProbes + p) * Tm * kStats);
  };
  auto measure = [&](int p, const float* all_rows) {
    row_stats(probe(l, p) + first, all_rows + o, rows, D);
  };
  auto same_as = [&](int p, const RowStats* from) {
    std::copy(from + first, from + T, probe(l, p) + first);
  };
  auto normed = [&](int p, int from, const float* all_rows, const float* rstd) {
    if (config_.norm == NormKind::rmsnorm) {
      scaled_stats(probe(l, p) + first, probe(l, from) + first, rstd + first, rows);
    } else {
      measure(p, all_rows);
    }
  };

  if (l == 0) {
    measure(kResidualIn, x);
  } else {
    same_as(kResidualIn, probe(l - 1, kResidualOut));
  }
  if (post) {
    measure(kInputNormIn, c.input_norm_in);
  } else {
    same_as(kInputNormIn, probe(l, kResidualIn));
  }
  if (normless) {
    same_as(kInputNormNormed, probe(l, kInputNormIn));
    same_as(kInputNormOut, probe(l, kInputNormIn));
  } else {
    normed(kInputNormNormed, kInputNormIn, c.input_norm_normed, c.input_norm_rstd);
    measure(kInputNormOut, c.input_norm_out);
  }
  measure(kAttentionOut, c.attention_out);
  measure(kPostAttnNormIn, c.post_attn_norm_in);
  if (normless) {
    same_as(kPostAttnNormNormed, probe(l, kPostAttnNormIn));
    same_as(kPostAttnNormOut, probe(l, kPostAttnNormIn));
  } else {
    normed(kPostAttnNormNormed, kPostAttnNormIn, c.post_attn_norm_normed, c.post_attn_norm_rstd);
    measure(kPostAttnNormOut, c.post_attn_norm_out);
  }
  measure(kMlpOut, c.mlp_out);
  if (post && !normless) {
    same_as(kResidualOut, probe(l, kPostAttnNormOut));
  } else {
    measure(kResidualOut, x_next);
  }

  float* entropy_l = k.attention_entropy.data() + static_cast<size_t>(l) * Tm * H;
  float* max_prob_l = k.attention_max_prob.data() + static_cast<size_t>(l) * Tm * H;
  for (int t = first; t < T; t++) {
    attention_row_stats(entropy_l + t * H, max_prob_l + t * H,
                        c.attention.logits + causal_offset(t, H),
                        c.attention.p + causal_offset(t, H), H, t + 1);
  }
}

// Post-norm: each of layer l's norms rescales x + F(x) by
// sqrt(D) rms(g) / ||x + F(x)|| (LayerNorm: of the centred x + F(x), whose
// L2 is sqrt(D) std), read off its input's statistics; the running product
// starts at layer 0's first norm. Rows first..T-1, into the kept run.
void Model::record_norm_rescale(int l, int first, int T) {
  KeptRun& k = scratch().kept;
  const RowStats* in[kLayerNorms];
  for (int n = 0; n < kLayerNorms; n++) {
    in[n] = reinterpret_cast<const RowStats*>(
        k.stats.data() + (static_cast<size_t>(l) * kProbes + kLayerNormInputs[n]) * Tm * kStats);
  }
  norm_rescale(k.norm_rescale.data(), k.norm_rescale_product.data(), in, l, first, T, Tm);
}

void Model::norm_rescale(float* rescale, float* product, const RowStats* const in[kLayerNorms],
                         int l, int first, int T, int stride) const {
  const int D = config_.hidden;
  const float sqrt_d = std::sqrt(static_cast<float>(D));
  for (int n = 0; n < kLayerNorms; n++) {
    const float rms_g = rms_of(params_->tensor(l, kLayerNormGains[n]), D);
    for (int t = first; t < T; t++) {
      const float size = config_.norm == NormKind::layernorm ? sqrt_d * in[n][t].std : in[n][t].l2;
      const size_t i = (static_cast<size_t>(l) * kLayerNorms + n) * stride + t;
      rescale[i] = sqrt_d * rms_g / size;
      const float before = (l == 0 && n == 0) ? 1.0f : product[i - stride];
      product[i] = before * rescale[i];
    }
  }
}

// The kept run's first L layers and T tokens in the result's layouts, and
// each layer's means over the tokens. The result's arrays are reserved for
// this model's L and kMaxPromptTokens at once, so they do not reallocate
// as prompts grow.
void Model::fill_forward_result(int L, int T, int top_k) {
  const KeptRun& k = scratch().kept;
  ForwardResult& r = scratch().forward;
  const int H = config_.heads;
  const bool post = records_norm_rescale();
  const size_t Lmax = config_.layers;
  r.layers = L;
  r.tokens = T;
  r.heads = H;
  r.top_k = top_k;
  r.hidden = config_.hidden;
  r.token_ids.assign(k.tokens.begin(), k.tokens.end());

  r.stats.reserve(Lmax * kProbes * Tm * kStats);
  r.stats.resize(static_cast<size_t>(L) * kProbes * T * kStats);
  r.stats_mean.resize(static_cast<size_t>(L) * kProbes * kStats);
  for (int l = 0; l < L; l++) {
    float* stats_l = r.stats.data() + static_cast<size_t>(l) * kProbes * T * kStats;
    for (int p = 0; p < kProbes; p++) {
      const float* from = k.stats.data() + (static_cast<size_t>(l) * kProbes + p) * Tm * kStats;
      std::copy(from, from + T * kStats, stats_l + p * T * kStats);
    }
    token_means(r.stats_mean.data() + l * kProbes * kStats, stats_l, kProbes, T);
  }

  r.attention_entropy.reserve(Lmax * Tm * H);
  r.attention_max_prob.reserve(Lmax * Tm * H);
  r.attention_entropy.resize(static_cast<size_t>(L) * T * H);
  r.attention_max_prob.resize(static_cast<size_t>(L) * T * H);
  r.attention_entropy_mean.resize(L);
  r.attention_max_prob_mean.resize(L);
  for (int l = 0; l < L; l++) {
    const size_t from = static_cast<size_t>(l) * Tm * H;
    const size_t to = static_cast<size_t>(l) * T * H;
    std::copy(k.attention_entropy.begin() + from, k.attention_entropy.begin() + from + T * H,
              r.attention_entropy.begin() + to);
    std::copy(k.attention_max_prob.begin() + from, k.attention_max_prob.begin() + from + T * H,
              r.attention_max_prob.begin() + to);
    r.attention_entropy_mean[l] = mean_of(r.attention_entropy.data() + to, T * H);
    r.attention_max_prob_mean[l] = mean_of(r.attention_max_prob.data() + to, T * H);
  }

  const size_t rescale_size = post ? static_cast<size_t>(L) * kLayerNorms * T : 0;
  r.norm_rescale.reserve(post ? Lmax * kLayerNorms * Tm : 0);
  r.norm_rescale_product.reserve(post ? Lmax * kLayerNorms * Tm : 0);
  r.norm_rescale.resize(rescale_size);
  r.norm_rescale_product.resize(rescale_size);
  r.norm_rescale_mean.resize(post ? static_cast<size_t>(L) * kLayerNorms : 0);
  r.norm_rescale_product_mean.resize(post ? static_cast<size_t>(L) * kLayerNorms : 0);
  for (int i = 0; post && i < L * kLayerNorms; i++) {
    const size_t from = static_cast<size_t>(i) * Tm;
    const size_t to = static_cast<size_t>(i) * T;
    std::copy(k.norm_rescale.begin() + from, k.norm_rescale.begin() + from + T,
              r.norm_rescale.begin() + to);
    std::copy(k.norm_rescale_product.begin() + from, k.norm_rescale_product.begin() + from + T,
              r.norm_rescale_product.begin() + to);
    r.norm_rescale_mean[i] = mean_of(r.norm_rescale.data() + to, T);
    r.norm_rescale_product_mean[i] = mean_of(r.norm_rescale_product.data() + to, T);
  }

  r.final_stats.reserve(static_cast<size_t>(kFinalProbes) * Tm * kStats);
  r.final_stats.resize(static_cast<size_t>(kFinalProbes) * T * kStats);
  r.final_stats_mean.resize(static_cast<size_t>(kFinalProbes) * kStats);
  r.top_tokens.resize(top_k);
  r.top_probs.resize(top_k);
}

// The final norm's probes, shared or derived as the layers' are.
void Model::record_final_probes(const float* x_L, int T) {
  ForwardResult& r = scratch().forward;
  const int D = config_.hidden;
  RowStats* in = reinterpret_cast<RowStats*>(r.final_stats.data());
  RowStats* normed = in + T;
  RowStats* out = in + 2 * T;
  row_stats(in, x_L, T, D);
  switch (config_.norm) {
    case NormKind::rmsnorm:
      scaled_stats(normed, in, buffers_.final_rstd, T);
      row_stats(out, buffers_.final_out, T, D);
      break;
    case NormKind::layernorm:
      row_stats(normed, buffers_.final_normed, T, D);
      row_stats(out, buffers_.final_out, T, D);
      break;
    case NormKind::none:
      std::copy(in, in + T, normed);
      std::copy(in, in + T, out);
      break;
  }
  token_means(r.final_stats_mean.data(), r.final_stats.data(), kFinalProbes, T);
}

// The next-token distribution after the last prompt token, its top k.
void Model::record_next_token(int T, int top_k) {
  ForwardResult& r = scratch().forward;
  const int D = config_.hidden;
  const float kappa = lm_head_scale(D);
  const float* f_last = buffers_.final_out + static_cast<size_t>(T - 1) * D;
  float* logits = buffers_.logits;
  for (int v = 0; v < kVocab; v++) {
    logits[v] = kappa * dot(f_last, params_->embedding() + v * D, D);
  }
  softmax_forward(buffers_.probs, logits, 1, kVocab, 1.0f);
  std::array<int, kVocab> order;
  std::iota(order.begin(), order.end(), 0);
  const float* probs = buffers_.probs;
  std::partial_sort(order.begin(), order.begin() + top_k, order.end(), [probs](int a, int b) {
    return probs[a] > probs[b] || (probs[a] == probs[b] && a < b);
  });
  for (int k = 0; k < top_k; k++) {
    r.top_tokens[k] = order[k];
    r.top_probs[k] = probs[order[k]];
  }
  r.next_token = order[0];
}

}  // namespace normlab::model
