// What the model reports: the forward pass's probes and the backward pass's
// gradient norms, as flat arrays with the layouts documented here. The
// probe, final-probe and statistic lists below are the one place their names
// are written; results.h says how each array reaches JavaScript.
//
// L = layers, P = kProbes (10), T = prompt tokens, S = kStats (6),
// H = heads, K = top-k, V = vocabulary (256), F = kFinalProbes (3),
// N = a layer's two norms
//
// Probes of layer l, in order, for both placements (N1 = the attention
// sub-block's norm, the chapter's "input norm"; N2 = the MLP sub-block's,
// "post-attention norm"; A = attention, F = MLP):
//
//   index name                       pre-norm           post-norm
//   0     residual.in                x                  x
//   1     inputNorm.in               x                  x + A(x)
//   2     inputNorm.normed           N1(x), no gain     N1(x + A(x)), no gain
//   3     inputNorm.out              N1(x)              h = N1(x + A(x))
//   4     attention.out              A(N1(x))           A(x)
//   5     postAttentionNorm.in       h = x + A(N1(x))   h + F(h)
//   6     postAttentionNorm.normed   N2(h), no gain     N2(h + F(h)), no gain
//   7     postAttentionNorm.out      N2(h)              N2(h + F(h)) = x'
//   8     mlp.out                    F(N2(h))           F(h)
//   9     residual.out               x' = h + F(N2(h))  x'
//
// "normed" is the norm's output before its gain (and LayerNorm's bias):
// L2 = sqrt(D) for every token. "out" is after the gain: L2 ~ sqrt(D) * rms(g).
// With norm "none" the norms are identities: in = normed = out (and the two
// placements compute the same stream; only where the norm probes sit moves).
//
// Statistics of each row (token vector), in order: l2, mean, variance, std,
// rms, maxAbs (see normlab::RowStats: variance = mean((x - mean)^2),
// rms = sqrt(mean(x^2)) without eps), measured by normlab::row_stats. Two
// kinds are not measured again: probes that are the same vector share their
// numbers (residual.in of layer l = residual.out of layer l-1, and those the
// table above shows equal), and RMSNorm's "normed" row, being its input
// times the one number rstd = 1 / sqrt(mean(x^2) + eps), has the input's
// statistics times rstd (the variance times rstd^2).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "normlab/kernels.h"

namespace normlab::model {

// X(enumerator, name): a layer's probes, in the order of the table above.
// A new probe is one line here and its measurement in
// Model::record_layer_probes.
#define NORMLAB_LAYER_PROBES(X)                      \
  X(kResidualIn, "residual.in")                      \
  X(kInputNormIn, "inputNorm.in")                    \
  X(kInputNormNormed, "inputNorm.normed")            \
  X(kInputNormOut, "inputNorm.out")                  \
  X(kAttentionOut, "attention.out")                  \
  X(kPostAttnNormIn, "postAttentionNorm.in")         \
  X(kPostAttnNormNormed, "postAttentionNorm.normed") \
  X(kPostAttnNormOut, "postAttentionNorm.out")       \
  X(kMlpOut, "mlp.out")                              \
  X(kResidualOut, "residual.out")

// The final norm's probes: its input (the last layer's residual.out), its
// output before the gain and after it (what the LM head reads).
#define NORMLAB_FINAL_PROBES(X)           \
  X(kFinalNormIn, "finalNorm.in")         \
  X(kFinalNormNormed, "finalNorm.normed") \
  X(kFinalNormOut, "finalNorm.out")

// X(enumerator, name): a layer's two norms, N1 (the attention sub-block's)
// then N2 (the MLP sub-block's), as the model's (L, N, T) rescale arrays and
// the trainer's LayerNormProbe (L, N) index them.
#define NORMLAB_LAYER_NORMS(X) \
  X(kInputNorm, "inputNorm")   \
  X(kPostAttentionNorm, "postAttentionNorm")

// X(RowStats member, name): the statistics of a row, in RowStats' order
// (the static_assert below holds the two together).
#define NORMLAB_ROW_STATS(X) \
  X(l2, "l2")                \
  X(mean, "mean")            \
  X(variance, "variance")    \
  X(std, "std")              \
  X(rms, "rms")              \
  X(max_abs, "maxAbs")

#define NORMLAB_ENUMERATOR(name, text) name,
#define NORMLAB_NAME(name, text) text,
#define NORMLAB_COUNT(name, text) +1

enum Probe : int { NORMLAB_LAYER_PROBES(NORMLAB_ENUMERATOR) };
enum FinalProbe : int { NORMLAB_FINAL_PROBES(NORMLAB_ENUMERATOR) };
enum LayerNormIndex : int { NORMLAB_LAYER_NORMS(NORMLAB_ENUMERATOR) };

constexpr int kProbes = 0 NORMLAB_LAYER_PROBES(NORMLAB_COUNT);
constexpr int kFinalProbes = 0 NORMLAB_FINAL_PROBES(NORMLAB_COUNT);
constexpr int kStats = 0 NORMLAB_ROW_STATS(NORMLAB_COUNT);
constexpr int kLayerNorms = 0 NORMLAB_LAYER_NORMS(NORMLAB_COUNT);

inline constexpr const char* kProbeNames[kProbes] = {NORMLAB_LAYER_PROBES(NORMLAB_NAME)};
inline constexpr const char* kFinalProbeNames[kFinalProbes] = {NORMLAB_FINAL_PROBES(NORMLAB_NAME)};
inline constexpr const char* kStatNames[kStats] = {NORMLAB_ROW_STATS(NORMLAB_NAME)};
inline constexpr const char* kLayerNormNames[kLayerNorms] = {NORMLAB_LAYER_NORMS(NORMLAB_NAME)};
// The final norm, named beside the layers' norms (Model::gains).
inline constexpr const char* kFinalNormName = "finalNorm";

// The statistics are read as RowStats records: S packed floats, in order.
#define NORMLAB_STAT_OFFSET(member, text) offsetof(RowStats, member),
inline constexpr std::size_t kStatOffsets[kStats] = {NORMLAB_ROW_STATS(NORMLAB_STAT_OFFSET)};
#undef NORMLAB_STAT_OFFSET
constexpr bool stats_are_packed_in_order() {
  for (int s = 0; s < kStats; s++) {
    if (kStatOffsets[s] != s * sizeof(float)) return false;
  }
  return sizeof(RowStats) == kStats * sizeof(float);
}
static_assert(stats_are_packed_in_order(),
              "RowStats holds the statistics of NORMLAB_ROW_STATS, in order, as packed floats");

#undef NORMLAB_ENUMERATOR
#undef NORMLAB_NAME
#undef NORMLAB_COUNT

struct ForwardResult {
  int layers = 0;                  // L
  int tokens = 0;                  // T
  int heads = 0;                   // H
  int top_k = 0;                   // K
  int hidden = 0;                  // D
  std::vector<int32_t> token_ids;  // (T) UTF-8 bytes of the prompt
  std::vector<float> stats;        // (L, P, T, S)
  std::vector<float> stats_mean;   // (L, P, S) each stat averaged over tokens
  // Attention per layer, query token and head: entropy of the softmax row
  // in nats (0 = one-hot; log(t + 1) = uniform over the t + 1 visible
  // tokens) and its largest probability.
  std::vector<float> attention_entropy;   // (L, T, H)
  std::vector<float> attention_max_prob;  // (L, T, H)
  // Both averaged over the layer's tokens and heads.
  std::vector<float> attention_entropy_mean;   // (L)
  std::vector<float> attention_max_prob_mean;  // (L)
  std::vector<float> final_stats;              // (F, T, S)
  std::vector<float> final_stats_mean;         // (F, S)
  // Post-norm only (empty for pre-norm or norm "none"): each norm's
  // rescaling of the residual stream, per token,
  //   RMSNorm:   sqrt(D) * rms(g) / ||x + F(x)||
  //   LayerNorm: sqrt(D) * rms(g) / ||x + F(x) - mean(x + F(x))||
  // norm index n = 0 inputNorm (after attention), 1 = postAttentionNorm
  // (after the MLP), and the running product of all factors up to and
  // including that norm, from layer 0's first norm on (2L factors in all).
  std::vector<float> norm_rescale;          // (L, N, T)
  std::vector<float> norm_rescale_product;  // (L, N, T)
  // Both averaged over tokens (empty when the above are).
  std::vector<float> norm_rescale_mean;          // (L, N)
  std::vector<float> norm_rescale_product_mean;  // (L, N)
  // Next-token distribution after the last prompt token: the K most likely
  // tokens (ties: lower id first) and their probabilities; next_token is
  // the greedy choice, top_tokens[0].
  std::vector<int32_t> top_tokens;  // (K)
  std::vector<float> top_probs;     // (K)
  int32_t next_token = -1;
};

// Gradients of the next-token cross-entropy loss
//   loss = mean over t = 0..T-2 of -log p(token_(t+1) | tokens_0..t)
// (every next token the prompt itself provides; needs T >= 2), taken
// through the LM head, final norm, every layer and the embedding.
struct GradientResult {
  int layers = 0;  // L
  int tokens = 0;  // T
  float loss = 0.0f;
  // ||dloss/dx_l|| over all tokens and features, for the residual stream
  // entering layer l (index l) and leaving the last layer (index L, the
  // final norm's input).
  std::vector<float> residual_grad_l2;            // (L + 1)
  std::vector<float> residual_grad_l2_per_token;  // (L + 1, T)
  // L2 of each layer's parameter gradients by group (weights.h):
  std::vector<float> attention_grad_l2;  // (L) mix, query, key, value, out
  std::vector<float> mlp_grad_l2;        // (L) in/out mixes and scales
  std::vector<float> norm_grad_l2;       // (L) both gains (+ LayerNorm biases)
  std::vector<float> layer_grad_l2;      // (L) all of the layer's parameters
  float embedding_grad_l2 = 0.0f;        // tied embedding / LM head (V, D)
  float final_norm_grad_l2 = 0.0f;       // final gain (+ bias)
  // Post-norm only (empty for pre-norm or norm "none"): the norms'
  // rescaling factors of the same pass, exactly ForwardResult's fields of
  // the same names, read off the forward run the backward starts from.
  std::vector<float> norm_rescale;               // (L, N, T)
  std::vector<float> norm_rescale_product;       // (L, N, T)
  std::vector<float> norm_rescale_mean;          // (L, N)
  std::vector<float> norm_rescale_product_mean;  // (L, N)
};

}  // namespace normlab::model
