// Model::forward() and the kept run it brings up to date (see forward() in
// model.h), extend(), and the probe-less loss().
//
// L = layers, D = hidden size, H = heads, T = prompt tokens, V = vocabulary,
// P = probes per layer, S = statistics per row
#include "model/model.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "model/norm.h"
#include "model/tokenizer.h"
#include "model/vec.h"
#include "normlab/kernels.h"

#include "model/model_internal.h"

namespace normlab::model {

int Model::kept_layers() const {
  const KeptRun& k = scratch().kept;
  return k.owner == id_ ? k.layers : 0;
}

void Model::forget_kept_run() {
  KeptRun& k = scratch().kept;
  if (k.owner != id_) return;
  k.owner = 0;
  k.layers = 0;
  k.tokens.clear();
}

// x rows first..T-1 = the embedding rows of those tokens. x: (T, D)
void Model::embed(float* x, const std::vector<int>& tokens, int first) const {
  const int D = config_.hidden;
  for (size_t t = first; t < tokens.size(); t++) {
    std::memcpy(x + t * D, params_->embedding() + tokens[t] * D, D * sizeof(float));
  }
}

void Model::final_norm(const float* x_L, int T) {
  norm_forward(buffers_.final_out, buffers_.final_normed, buffers_.final_mean, buffers_.final_rstd,
               x_L, params_->final_gain(), params_->final_bias(), config_.norm, T, config_.hidden,
               config_.eps);
}

// logits_tv = lm_head_scale * <final_out_t, E_v>; probs = softmax per row.
void Model::lm_head(int rows) {
  const int D = config_.hidden;
  const float kappa = lm_head_scale(D);
  const float* E = params_->embedding();
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

Problem Model::check_forward(const std::string& prompt_utf8, int top_k, int layers) const {
  if (problem_) return problem_;
  if (Problem problem = check_prompt(prompt_utf8)) return problem;
  if (top_k < 1 || top_k > kVocab) {
    return {ProblemCode::kOutOfRange, Field::kTopK, "top_k must be an integer in 1..256"};
  }
  if (layers < 0 || layers > config_.layers) {
    return {ProblemCode::kOutOfRange, Field::kLayers,
            "layers must be an integer in 1.." + std::to_string(config_.layers)};
  }
  return {};
}

std::string Model::forward(const std::string& prompt_utf8, int top_k, int layers) {
  if (Problem problem = check_forward(prompt_utf8, top_k, layers)) {
    return problem.message;
  }
  const std::vector<int> tokens = tokenize(prompt_utf8);
  const int T = static_cast<int>(tokens.size());
  const int L = layers == 0 ? config_.layers : layers;
  prepare(T);
  run_kept(tokens, L);
  const float* x_L = kept_stream(L);
  final_norm(x_L, T);
  fill_forward_result(L, T, top_k);
  record_final_probes(x_L, T);
  record_next_token(T, top_k);
  return "";
}

int Model::extend(int layers) {
  if (problem_ || kept_layers() == 0) return 0;
  KeptRun& k = scratch().kept;
  if (layers >= 1 && k.layers < config_.layers) {
    const int L = k.layers + std::min(layers, config_.layers - k.layers);
    const std::vector<int> tokens = k.tokens;
    prepare(static_cast<int>(tokens.size()));
    run_kept(tokens, L);
  }
  return k.layers;
}

Model::KeptRun& Model::own_kept_run() {
  KeptRun& k = scratch().kept;
  const size_t L = config_.layers;
  const size_t D = config_.hidden;
  const size_t H = config_.heads;
  grow(&k.stream, (L + 1) * Tm * D);
  grow(&k.stats, L * kProbes * Tm * kStats);
  grow(&k.attention_entropy, L * Tm * H);
  grow(&k.attention_max_prob, L * Tm * H);
  grow(&k.norm_rescale, L * kLayerNorms * Tm);
  grow(&k.norm_rescale_product, L * kLayerNorms * Tm);
  if (k.owner != id_) {
    k.owner = id_;
    k.layers = 0;
    k.tokens.clear();
  }
  return k;
}

float* Model::kept_stream(int l) const {
  return scratch().kept.stream.data() + static_cast<size_t>(l) * Tm * config_.hidden;
}

// Which rows each layer computes: with P the tokens the new prompt shares
// with the kept one (from the start) and K the layers kept,
//   layers 0..min(K, L)-1: rows P..T-1 (none when the prompt is the kept
//     one, or its first T tokens: rows 0..T-1 of every kept layer hold);
//   layers min(K, L)..L-1: every row (x_K's rows are all there: the kept
//     ones and those layer K-1 just computed).
// The run then covers L layers, or, when none of its rows changed, the
// deeper of L and K.
void Model::run_kept(const std::vector<int>& tokens, int L) {
  KeptRun& k = own_kept_run();
  const int T = static_cast<int>(tokens.size());
  const int kept = k.layers;
  int prefix = 0;
  if (kept > 0) {
    const int shared = std::min(T, static_cast<int>(k.tokens.size()));
    while (prefix < shared && k.tokens[prefix] == tokens[prefix]) prefix++;
  }
  if constexpr (kFillUnsetNan) fill_unkept_rows(kept, prefix);
  const bool post = records_norm_rescale();
  // Nothing is differentiated: per-token intermediates reuse one row.
  buffers_.cache.attention.row_stride = 0;
  buffers_.cache.mlp.row_stride = 0;
  embed(kept_stream(0), tokens, prefix);
  const int reused = std::min(kept, L);
  for (int l = 0; l < L; l++) {
    const int first = l < reused ? prefix : 0;
    if (first == T) continue;
    const float* x = kept_stream(l);
    float* x_next = kept_stream(l + 1);
    layer_forward(x_next, &buffers_.cache, x, params_->layer(l), rope_, config_, first, T);
    record_layer_probes(l, x, x_next, first, T);
    if (post) record_norm_rescale(l, first, T);
  }
  k.layers = prefix == T ? std::max(kept, L) : L;
  k.tokens = tokens;
}

// What the kept run no longer holds, NaN (fill_unset): every row from
// `held` on of stream entries 0..kept and layers 0..kept-1, and all of the
// rest. run_kept() writes whatever of it the new run reads.
void Model::fill_unkept_rows(int kept, int held) {
  KeptRun& k = scratch().kept;
  const size_t D = config_.hidden;
  const size_t H = config_.heads;
  for (int l = 0; l <= config_.layers; l++) {
    const size_t first = l <= kept ? held : 0;
    fill_unset(kept_stream(l) + first * D, (Tm - first) * D);
  }
  for (int l = 0; l < config_.layers; l++) {
    const size_t first = l < kept ? held : 0;
    const size_t rows = Tm - first;
    for (int p = 0; p < kProbes; p++) {
      fill_unset(k.stats.data() + ((static_cast<size_t>(l) * kProbes + p) * Tm + first) * kStats,
                 rows * kStats);
    }
    fill_unset(k.attention_entropy.data() + (l * Tm + first) * H, rows * H);
    fill_unset(k.attention_max_prob.data() + (l * Tm + first) * H, rows * H);
    for (int n = 0; n < kLayerNorms; n++) {
      const size_t at = (static_cast<size_t>(l) * kLayerNorms + n) * Tm + first;
      fill_unset(k.norm_rescale.data() + at, rows);
      fill_unset(k.norm_rescale_product.data() + at, rows);
    }
  }
}

double Model::loss(const std::string& prompt_utf8) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (problem_ || check_prompt(prompt_utf8)) return nan;
  const std::vector<int> tokens = tokenize(prompt_utf8);
  const int T = static_cast<int>(tokens.size());
  if (T < 2) return nan;
  prepare(T);
  buffers_.cache.attention.row_stride = 0;
  buffers_.cache.mlp.row_stride = 0;
  float* x = buffers_.x_a;
  float* x_next = buffers_.x_b;
  embed(x, tokens, 0);
  for (int l = 0; l < config_.layers; l++) {
    layer_forward(x_next, &buffers_.cache, x, params_->layer(l), rope_, config_, 0, T);
    std::swap(x, x_next);
  }
  final_norm(x, T);
  lm_head(T - 1);
  return next_token_loss(tokens);
}

}  // namespace normlab::model
