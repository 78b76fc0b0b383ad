// What the model reports: the forward pass's probes and the backward pass's
// gradient norms, as flat float arrays with the layouts documented here (the
// one place they are defined; the JS wrapper shapes its objects from them).
//
// L = layers, P = kProbes (10), T = prompt tokens, S = kStats (6),
// H = heads, K = top-k, V = vocabulary (256)
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

#include <cstdint>
#include <vector>

namespace normlab::model {

constexpr int kProbes = 10;
constexpr int kStats = 6;
constexpr int kFinalProbes = 3;

enum Probe : int {
  kResidualIn,
  kInputNormIn,
  kInputNormNormed,
  kInputNormOut,
  kAttentionOut,
  kPostAttnNormIn,
  kPostAttnNormNormed,
  kPostAttnNormOut,
  kMlpOut,
  kResidualOut,
};

inline const char* const kProbeNames[kProbes] = {
    "residual.in",          "inputNorm.in",
    "inputNorm.normed",     "inputNorm.out",
    "attention.out",        "postAttentionNorm.in",
    "postAttentionNorm.normed", "postAttentionNorm.out",
    "mlp.out",              "residual.out",
};

// Final norm probes: its input (the last layer's residual.out), its output
// before the gain and after it (what the LM head reads).
inline const char* const kFinalProbeNames[kFinalProbes] = {
    "finalNorm.in", "finalNorm.normed", "finalNorm.out"};

inline const char* const kStatNames[kStats] = {"l2",  "mean", "variance",
                                               "std", "rms",  "maxAbs"};

struct ForwardResult {
  int layers = 0;  // L
  int tokens = 0;  // T
  int heads = 0;   // H
  int top_k = 0;   // K
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
  std::vector<float> final_stats;       // (kFinalProbes, T, S)
  std::vector<float> final_stats_mean;  // (kFinalProbes, S)
  // Post-norm only (empty for pre-norm or norm "none"): each norm's
  // rescaling of the residual stream, per token,
  //   RMSNorm:   sqrt(D) * rms(g) / ||x + F(x)||
  //   LayerNorm: sqrt(D) * rms(g) / ||x + F(x) - mean(x + F(x))||
  // norm index 0 = inputNorm (after attention), 1 = postAttentionNorm
  // (after the MLP), and the running product of all factors up to and
  // including that norm, from layer 0's first norm on (2L factors in all).
  std::vector<float> norm_rescale;          // (L, 2, T)
  std::vector<float> norm_rescale_product;  // (L, 2, T)
  // Both averaged over tokens (empty when the above are).
  std::vector<float> norm_rescale_mean;          // (L, 2)
  std::vector<float> norm_rescale_product_mean;  // (L, 2)
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
  std::vector<float> norm_rescale;               // (L, 2, T)
  std::vector<float> norm_rescale_product;       // (L, 2, T)
  std::vector<float> norm_rescale_mean;          // (L, 2)
  std::vector<float> norm_rescale_product_mean;  // (L, 2)
};

}  // namespace normlab::model
