// Model::gradients(): the backward pass of the next-token loss, its layer
// inputs from the kept run or from checkpoints (see gradients() in model.h),
// and the gradient norms it reports.
//
// L = layers, D = hidden size, H = heads, T = prompt tokens, V = vocabulary,
// P = probes per layer, S = statistics per row
#include "model/model.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "model/norm.h"
#include "model/tokenizer.h"
#include "model/vec.h"
#include "normlab/kernels.h"

#include "model/model_internal.h"

namespace normlab::model {

Problem Model::check_gradients(const std::string& prompt_utf8, int layers) const {
  if (problem_) return problem_;
  if (Problem problem = check_prompt(prompt_utf8)) return problem;
  // One token per byte; the loss needs a next token.
  if (prompt_utf8.size() < 2) {
    return {ProblemCode::kTooShort, Field::kPrompt, "gradients need a prompt of at least 2 tokens"};
  }
  if (layers < 0 || layers > config_.layers) {
    return {ProblemCode::kOutOfRange, Field::kLayers,
            "layers must be an integer in 1.." + std::to_string(config_.layers)};
  }
  return {};
}

Model::CheckpointPlan Model::plan_checkpoints(int layers, int tokens, int rows) {
  const int L = layers;
  const int slots = std::max(rows / std::max(tokens, 1), 1);
  if (L + 1 <= slots) return {1, L, L + 1};
  // Every S-th input and one segment's other S - 1 (x_L's slot among
  // them): ceil(L / S) + S - 1 slots, the fewest near S = sqrt(L). The
  // smallest S that fits; none fits only a budget under about 2 sqrt(L)
  // slots, which then gets the fewest.
  CheckpointPlan fewest{L, 1, L};
  for (int every = 2; every <= L; every++) {
    const int kept = (L + every - 1) / every;
    const CheckpointPlan plan{every, kept, kept + every - 1};
    if (plan.slots <= slots) return plan;
    if (plan.slots < fewest.slots) fewest = plan;
  }
  return fewest;
}

// Backward of the loss above, step by step in the reverse order of the
// forward (each step's derivation is at its function):
//   loss -> dlogits -> LM head -> final norm -> layers L-1..0 -> embedding.
// Only layer inputs are kept during the forward, as `plan` says (see
// gradients() in model.h); each layer's caches are recomputed from its input
// just before its backward. Segments (plan.every layers) are walked from the
// last: their inputs after the first are recomputed from its checkpoint,
// into the slots after the checkpoints (x_L's among them, no longer needed
// once the final norm's backward ran).
std::string Model::gradients(const std::string& prompt_utf8, int layers) {
  if (Problem problem = check_gradients(prompt_utf8, layers)) return problem.message;
  const std::vector<int> tokens = tokenize(prompt_utf8);
  const int T = static_cast<int>(tokens.size());
  const int L = layers == 0 ? config_.layers : layers;
  const size_t td = static_cast<size_t>(T) * config_.hidden;
  prepare(T);
  reset_gradient_result(L, T);
  gradient_layer_passes_ = 0;
  // The layer inputs: the kept run's when it holds this prompt's stream
  // through L layers (no forward pass at all), else checkpoints.
  const bool from_kept = kept_run_holds(tokens, L);
  const CheckpointPlan plan =
      from_kept ? CheckpointPlan{1, L, L + 1} : plan_checkpoints(L, T, scratch().checkpoint_rows);
  float* ckpt = prepare_backward(from_kept ? 0 : plan.slots, T);
  auto slot = [&](int i) -> const float* {
    return from_kept ? kept_stream(i * plan.every) : ckpt + i * td;
  };
  if (from_kept) {
    if (records_norm_rescale()) copy_kept_norm_rescale(L, T);
  } else {
    forward_checkpointed(ckpt, plan, tokens, L);
  }
  const float* x_L = from_kept ? kept_stream(L) : slot(plan.kept);
  final_norm(x_L, T);
  lm_head(T - 1);
  gradients_.loss = static_cast<float>(next_token_loss(tokens));

  next_token_loss_backward(tokens);
  lm_head_backward(T);
  float* dx = buffers_.dx_a;
  float* dx_prev = buffers_.dx_b;
  final_norm_backward(dx, x_L, T);
  record_residual_gradient_l2(L, dx, T);
  ParameterSet& grads = scratch().gradients;
  for (int j = plan.kept - 1; j >= 0; j--) {
    const int begin = j * plan.every;
    const int end = std::min(begin + plan.every, L);
    recompute_segment_inputs(ckpt, plan, begin, end, T);
    for (int l = end - 1; l >= begin; l--) {
      const float* x_l = l == begin ? slot(j) : ckpt + (plan.kept + l - begin - 1) * td;
      // A checkpointed forward left layer L-1's caches in place when it
      // kept every input.
      if (from_kept || plan.every > 1 || l != L - 1) recompute_layer(l, x_l, T);
      layer_backward(dx_prev, grads.layer(l), dx, buffers_.cache, x_l, params_->layer(l), rope_,
                     &buffers_.scratch, config_, T);
      std::swap(dx, dx_prev);
      record_residual_gradient_l2(l, dx, T);
      record_layer_gradient_l2(l);
    }
  }
  embedding_backward(dx, tokens);
  record_embedding_and_final_norm_gradient_l2();
  return "";
}

// Whether this model's kept run holds x_0..x_L for `tokens`: it ran at
// least L layers on a prompt that starts with them (causal attention: rows
// 0..T-1 depend on those tokens alone).
bool Model::kept_run_holds(const std::vector<int>& tokens, int L) const {
  const KeptRun& k = scratch().kept;
  return kept_layers() >= L && k.tokens.size() >= tokens.size() &&
         std::equal(tokens.begin(), tokens.end(), k.tokens.begin());
}

// Post-norm's rescaling factors of the first L layers, rows 0..T-1, from
// the kept run (computed there as forward_checkpointed computes them), and
// their means.
void Model::copy_kept_norm_rescale(int L, int T) {
  const KeptRun& k = scratch().kept;
  GradientResult& r = gradients_;
  for (int n = 0; n < L * kLayerNorms; n++) {
    const size_t from = static_cast<size_t>(n) * Tm;
    const size_t to = static_cast<size_t>(n) * T;
    std::copy_n(k.norm_rescale.data() + from, T, r.norm_rescale.data() + to);
    std::copy_n(k.norm_rescale_product.data() + from, T, r.norm_rescale_product.data() + to);
    r.norm_rescale_mean[n] = mean_of(r.norm_rescale.data() + to, T);
    r.norm_rescale_product_mean[n] = mean_of(r.norm_rescale_product.data() + to, T);
  }
}

// The backward's buffers: the checkpoints (in the shared scratch, sized
// once for the budget), post-norm's norm-input statistics, and the shared
// parameter gradients, zeroed. Caches keep every token's row: the backward
// reads them all. Returns the checkpoint slots.
float* Model::prepare_backward(int slots, int T) {
  Scratch& s = scratch();
  const size_t D = config_.hidden;
  grow(&s.checkpoints,
       std::max(static_cast<size_t>(s.checkpoint_rows), static_cast<size_t>(slots) * T) * D);
  grow(&s.rescale_stats, static_cast<size_t>(kLayerNorms) * Tm * kStats);
  if (s.gradients.layers() != config_.layers || s.gradients.hidden() != config_.hidden) {
    s.gradients = ParameterSet(config_.layers, config_.hidden);
  }
  s.gradients.set_zero();
  fill_unset(s.checkpoints.data(), s.checkpoints.size());
  fill_unset(s.rescale_stats.data(), s.rescale_stats.size());
  buffers_.cache.attention.row_stride = config_.hidden;
  buffers_.cache.mlp.row_stride = config_.hidden;
  return s.checkpoints.data();
}

// Post-norm with a norm: the layers' norms rescale the residual stream, and
// both results report their factors.
bool Model::records_norm_rescale() const {
  return config_.placement == Placement::post && config_.norm != NormKind::none;
}

// gradient_result()'s arrays sized for L layers and T tokens (reserved for
// this model's depth and kMaxPromptTokens, so they do not reallocate as
// prompts grow).
void Model::reset_gradient_result(int layers, int T) {
  GradientResult& r = gradients_;
  const size_t L = layers;
  const size_t Lmax = config_.layers;
  const bool post = records_norm_rescale();
  const size_t rescale_size = post ? L * kLayerNorms * T : 0;
  r.layers = layers;
  r.tokens = T;
  r.residual_grad_l2.reserve(Lmax + 1);
  r.residual_grad_l2.resize(L + 1);
  r.residual_grad_l2_per_token.reserve((Lmax + 1) * Tm);
  r.residual_grad_l2_per_token.resize((L + 1) * T);
  for (std::vector<float>* v :
       {&r.attention_grad_l2, &r.mlp_grad_l2, &r.norm_grad_l2, &r.layer_grad_l2}) {
    v->reserve(Lmax);
    v->resize(L);
  }
  r.norm_rescale.reserve(post ? Lmax * kLayerNorms * Tm : 0);
  r.norm_rescale_product.reserve(post ? Lmax * kLayerNorms * Tm : 0);
  r.norm_rescale.resize(rescale_size);
  r.norm_rescale_product.resize(rescale_size);
  r.norm_rescale_mean.reserve(post ? Lmax * kLayerNorms : 0);
  r.norm_rescale_product_mean.reserve(post ? Lmax * kLayerNorms : 0);
  r.norm_rescale_mean.resize(post ? L * kLayerNorms : 0);
  r.norm_rescale_product_mean.resize(post ? L * kLayerNorms : 0);
}

// The forward pass of gradients(): the inputs `plan` keeps go to their
// slots (x_0, the embedding, at slot 0; x_l for l a multiple of plan.every
// at slot l / plan.every; x_L at slot plan.kept), the others to the
// workspace's x_a and x_b in turn; post-norm's rescaling factors recorded
// into gradient_result() as forward() records them.
void Model::forward_checkpointed(float* ckpt, const CheckpointPlan& plan,
                                 const std::vector<int>& tokens, int L) {
  const int T = static_cast<int>(tokens.size());
  const size_t td = static_cast<size_t>(T) * config_.hidden;
  float* x = ckpt;
  embed(x, tokens, 0);
  for (int l = 0; l < L; l++) {
    const int next = l + 1;
    float* x_next = next == L                ? ckpt + plan.kept * td
                    : next % plan.every == 0 ? ckpt + next / plan.every * td
                    : x == buffers_.x_a      ? buffers_.x_b
                                             : buffers_.x_a;
    layer_forward(x_next, &buffers_.cache, x, params_->layer(l), rope_, config_, 0, T);
    gradient_layer_passes_++;
    if (records_norm_rescale()) record_gradient_norm_rescale(l, T);
    x = x_next;
  }
}

// Layer l's norm-input statistics, measured from the caches layer_forward
// just filled, and its rescaling factors and their means from them.
void Model::record_gradient_norm_rescale(int l, int T) {
  GradientResult& r = gradients_;
  const int D = config_.hidden;
  RowStats* stats = reinterpret_cast<RowStats*>(scratch().rescale_stats.data());
  row_stats(stats, buffers_.cache.input_norm_in, T, D);
  row_stats(stats + T, buffers_.cache.post_attn_norm_in, T, D);
  const RowStats* in[kLayerNorms] = {stats, stats + T};
  norm_rescale(r.norm_rescale.data(), r.norm_rescale_product.data(), in, l, 0, T, T);
  for (int n = l * kLayerNorms; n < (l + 1) * kLayerNorms; n++) {
    r.norm_rescale_mean[n] = mean_of(r.norm_rescale.data() + n * T, T);
    r.norm_rescale_product_mean[n] = mean_of(r.norm_rescale_product.data() + n * T, T);
  }
}

// With p = softmax(logits_t) and target y = token_(t+1),
//   d loss / d logits_t = (p - onehot(y)) / (T - 1),
// written in place of probs, rows 0..T-2.
void Model::next_token_loss_backward(const std::vector<int>& tokens) {
  const int T = static_cast<int>(tokens.size());
  float* dlogits = buffers_.probs;
  const float inv_rows = 1.0f / (T - 1);
  for (int t = 0; t + 1 < T; t++) {
    dlogits[t * kVocab + tokens[t + 1]] -= 1.0f;
    scale(dlogits + t * kVocab, dlogits + t * kVocab, inv_rows, kVocab);
  }
}

// logits_tv = kappa <f_t, E_v>, E tied to the embedding:
//   d f_t = kappa sum_v dlogits_tv E_v;   dE_v += kappa sum_t dlogits_tv f_t
// for t = 0..T-2; the last token predicts nothing in the loss, so its row of
// d_final_out is 0.
void Model::lm_head_backward(int T) {
  const int D = config_.hidden;
  const float kappa = lm_head_scale(D);
  const float* dlogits = buffers_.probs;
  const float* E = params_->embedding();
  float* dE = scratch().gradients.embedding();
  std::memset(buffers_.d_final_out, 0, static_cast<size_t>(T) * D * sizeof(float));
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
}

// f = finalNorm(x_L): dx_L from d_final_out; the final gain's (and bias's)
// gradients accumulated. dx: (T, D)
void Model::final_norm_backward(float* dx, const float* x_L, int T) {
  norm_backward(dx, scratch().gradients.final_gain(), scratch().gradients.final_bias(),
                buffers_.d_final_out, x_L, params_->final_gain(), buffers_.final_mean,
                buffers_.final_rstd, config_.norm, T, config_.hidden);
}

// The inputs of segment [begin, end) after its first, x_(begin+1) ..
// x_(end-1), from its checkpoint x_begin, into the slots after the
// checkpoints. With every input kept (plan.every = 1) there are none.
void Model::recompute_segment_inputs(float* ckpt, const CheckpointPlan& plan, int begin, int end,
                                     int T) {
  const size_t td = static_cast<size_t>(T) * config_.hidden;
  const float* x = ckpt + static_cast<size_t>(begin / plan.every) * td;
  for (int l = begin; l + 1 < end; l++) {
    float* x_next = ckpt + (plan.kept + l - begin) * td;
    layer_forward(x_next, &buffers_.cache, x, params_->layer(l), rope_, config_, 0, T);
    gradient_layer_passes_++;
    x = x_next;
  }
}

// Layer l's caches from its checkpointed input x_l, for its backward.
void Model::recompute_layer(int l, const float* x_l, int T) {
  layer_forward(buffers_.x_a, &buffers_.cache, x_l, params_->layer(l), rope_, config_, 0, T);
  gradient_layer_passes_++;
}

// ||dloss/dx|| of the residual stream entering layer `index` (L: leaving
// the last layer), per token and over all tokens. dx: (T, D)
void Model::record_residual_gradient_l2(int index, const float* dx, int T) {
  GradientResult& r = gradients_;
  const int D = config_.hidden;
  double total = 0.0;
  for (int t = 0; t < T; t++) {
    const double ss = sum_squares(dx + t * D, D);
    r.residual_grad_l2_per_token[static_cast<size_t>(index) * T + t] =
        static_cast<float>(std::sqrt(ss));
    total += ss;
  }
  r.residual_grad_l2[index] = static_cast<float>(std::sqrt(total));
}

// L2 of layer l's parameter gradients, by group (weights.h) and in all.
void Model::record_layer_gradient_l2(int l) {
  GradientResult& r = gradients_;
  const int D = config_.hidden;
  const float* dw = scratch().gradients.layer(l);
  auto group_sum_squares = [&](int begin, int end) {
    return sum_squares(dw + begin * D, (end - begin) * D);
  };
  const double attn = group_sum_squares(kAttentionTensorsBegin, kAttentionTensorsEnd);
  const double mlp = group_sum_squares(kMlpTensorsBegin, kMlpTensorsEnd);
  const double norm = group_sum_squares(kNormTensorsBegin, kNormTensorsEnd);
  r.attention_grad_l2[l] = static_cast<float>(std::sqrt(attn));
  r.mlp_grad_l2[l] = static_cast<float>(std::sqrt(mlp));
  r.norm_grad_l2[l] = static_cast<float>(std::sqrt(norm));
  r.layer_grad_l2[l] = static_cast<float>(std::sqrt(attn + mlp + norm));
}

// x_0[t] = E[token_t]:  dE[token_t] += dx_0[t]. dx: (T, D)
void Model::embedding_backward(const float* dx, const std::vector<int>& tokens) {
  const int D = config_.hidden;
  float* dE = scratch().gradients.embedding();
  for (size_t t = 0; t < tokens.size(); t++) {
    axpy(dE + tokens[t] * D, 1.0f, dx + t * D, D);
  }
}

// L2 of the tied embedding's gradient (LM head and input side together),
// and of the final norm's gain (and bias).
void Model::record_embedding_and_final_norm_gradient_l2() {
  const int D = config_.hidden;
  gradients_.embedding_grad_l2 =
      static_cast<float>(std::sqrt(sum_squares(scratch().gradients.embedding(), kVocab * D)));
  gradients_.final_norm_grad_l2 =
      static_cast<float>(std::sqrt(sum_squares(scratch().gradients.final_gain(), 2 * D)));
}

}  // namespace normlab::model
