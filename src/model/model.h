// The synthetic residual-stream model behind the demo panel: a small,
// deterministic transformer whose forward pass reproduces the shapes the
// chapter shows for a real 24-layer, 1024-wide model, and whose backward pass
// measures how gradients flow through pre-norm and post-norm stacks.
//
// L = layers, D = hidden size, H = heads, T = prompt tokens, V = 256
//
//   tokens = UTF-8 bytes of the prompt                     (tokenizer.h)
//   x_0 = embedding rows of the tokens                     (T, D)
//   x_(l+1) = layer_l(x_l), l = 0..L-1                     (layer.h)
//   logits = lm_head_scale * finalNorm(x_L) E^T            (T, V), tied E
//   p = softmax(logits); next token = argmax of the last row
//
// Weights come from the seed alone (weights.h). Their scales were set so the
// default model (24 layers, D = 1024, RMSNorm, pre-norm) shows, on any prompt:
//   - the residual stream's mean L2/token climbing about tenfold from layer
//     0's input (below sqrt(D) = 32) to layer 23's output;
//   - every norm output at L2 = sqrt(D) before its gain, ~sqrt(D) after it;
//   - post-norm: the residual stream pinned near sqrt(D);
//   - no norm: a residual stream that grows far faster and attention that
//     saturates (near one-hot rows) in the deep layers, where the pre-norm
//     model's attention stays spread out.
// Nothing was tuned for the gradients; they are measured as they come.
//
// Errors never throw: invalid options leave the model empty with problem()
// set, and every call on it (or with an invalid argument) returns that
// problem's message; the check_* functions report the same problems with
// their code and field.
// Buffers are sized for the longest prompt seen so far and reused, so
// repeated calls do not allocate.
#pragma once

#include <string>
#include <vector>

#include "model/layer.h"
#include "model/options.h"
#include "model/probes.h"
#include "model/problem.h"
#include "model/weights.h"
#include "normlab/kernels.h"

namespace normlab::model {

class Model {
 public:
  explicit Model(const ModelOptions& options);
  // Holds pointers into its own buffers: not copyable.
  Model(const Model&) = delete;
  Model& operator=(const Model&) = delete;

  // What check_model_options found in the options; error() is its message
  // (empty when they were valid).
  const Problem& problem() const { return problem_; }
  const std::string& error() const { return problem_.message; }
  const ModelConfig& config() const { return config_; }

  // Runs the prompt through the first `layers` layers (0: all L) and the
  // final norm, and fills forward_result(). top_k in 1..256, layers in
  // 0..L. Returns "" on success, else the reason (nothing is computed).
  //
  // Layer l's weights depend on (seed, l) alone, so the first n layers of
  // this model are an n-layer model with the same seed: a depth control can
  // keep one instance and pass its depth here. The residual stream entering
  // each layer is kept for the last prompt, so running that prompt again at
  // another depth computes only the layers it has not run yet (going down:
  // none, only the final norm and the head). The results are the same, bit
  // for bit, as a fresh run's.
  std::string forward(const std::string& prompt_utf8, int top_k = 5,
                      int layers = 0);
  const ForwardResult& forward_result() const { return forward_; }
  // The problem forward() would report for these arguments, if any.
  Problem check_forward(const std::string& prompt_utf8, int top_k = 5,
                        int layers = 0) const;

  // Backward pass of the next-token loss; fills gradient_result() and
  // parameter_gradients(). The prompt needs at least 2 tokens.
  std::string gradients(const std::string& prompt_utf8);
  const GradientResult& gradient_result() const { return gradients_; }
  // The problem gradients() would report for this prompt, if any.
  Problem check_gradients(const std::string& prompt_utf8) const;

  // The loss alone (the forward without probes), for finite-difference
  // checks. NaN for an invalid prompt or one shorter than 2 tokens.
  double loss(const std::string& prompt_utf8);

  // A norm's gains: which = "inputNorm" or "postAttentionNorm" (layer in
  // 0..L-1) or "finalNorm" (layer ignored). No problem if valid;
  // validate_gain_query gives the message alone.
  Problem check_gain_query(double layer, const std::string& which) const;
  std::string validate_gain_query(double layer, const std::string& which) const;
  // Precondition: check_gain_query(layer, which) finds no problem.
  // Returns (D) floats owned by the model.
  const float* gains(int layer, const std::string& which) const;

  // All parameters, for tests and experiments (changing them changes the
  // model); and the gradients of the last gradients() call, same layout.
  // Taking the parameters for writing forgets the forward runs kept for
  // reuse (see forward()).
  ParameterSet& parameters() {
    run_layers_ = 0;
    return params_;
  }
  const ParameterSet& parameter_gradients() const { return grads_; }

  // Floats this model holds: parameters, their gradients (once gradients()
  // ran), the rotary tables and the kept forward run (a wasm build's heap
  // use is ~4 bytes times this).
  size_t memory_floats() const;
  // Floats of the scratch buffers every model on this thread shares (see
  // Scratch below).
  static size_t shared_scratch_floats();

 private:
  // Pointers into the shared workspace for a prompt of T tokens, set by
  // prepare() at the start of every call.
  struct Buffers {
    LayerCache cache;
    LayerScratch scratch;
    float* x_a;            // (T, D) residual stream, ping
    float* x_b;            // (T, D) residual stream, pong
    float* final_normed;   // (T, D)
    float* final_out;      // (T, D)
    float* final_mean;     // (T)
    float* final_rstd;     // (T)
    float* logits;         // (T, V)
    float* probs;          // (T, V)
    float* d_final_out;    // (T, D)
    float* dx_a;           // (T, D) residual gradient, ping
    float* dx_b;           // (T, D) residual gradient, pong
  };

  // Buffers used only within one call (forward, gradients, loss), shared
  // by every model on the thread: a page holds several models but runs one
  // call at a time, and one copy instead of one per model saves ~8 MB
  // (workspace) and up to ~13 MB (checkpoints) per model at 64 tokens.
  struct Scratch {
    std::vector<float> workspace;      // grown to the longest prompt seen
    std::vector<float> checkpoints;    // (L + 1, T, D), gradients() only
    std::vector<float> rescale_stats;  // (2, T, S), gradients() post-norm only
  };
  static Scratch& scratch();

  void prepare(int T);
  void embed(float* x, const std::vector<int>& tokens) const;
  void final_norm(const float* x_L, int T);
  // forward()'s results, filled step by step. x, x_next: (T, D) layer l's
  // input and output; x_L: (T, D) the last layer's output.
  void record_layer_probes(int l, const float* x, const float* x_next, int T);
  void record_norm_rescale(int l, int T);
  void norm_rescale(float* rescale, float* product, float* mean,
                    float* product_mean, const RowStats* const in[2], int l,
                    int T) const;
  void record_final_probes(const float* x_L, int T);
  void record_next_token(int T, int top_k);
  // logits and probs rows 0..rows-1 from final_out.
  void lm_head(int rows);
  double next_token_loss(const std::vector<int>& tokens) const;
  // gradients()'s steps, in the order it calls them. ckpt: (L + 1, T, D)
  // the checkpoints, layer l's input at l; dx: (T, D) a residual-stream
  // gradient.
  float* prepare_backward(int T);
  bool records_norm_rescale() const;
  void reset_gradient_result(int T);
  void forward_checkpointed(float* ckpt, const std::vector<int>& tokens);
  void record_gradient_norm_rescale(int l, int T);
  void next_token_loss_backward(const std::vector<int>& tokens);
  void lm_head_backward(int T);
  void final_norm_backward(float* dx, const float* x_L, int T);
  void recompute_layer(int l, const float* x_l, int T);
  void record_residual_gradient_l2(int index, const float* dx, int T);
  void record_layer_gradient_l2(int l);
  void embedding_backward(const float* dx, const std::vector<int>& tokens);
  void record_embedding_and_final_norm_gradient_l2();

  Problem problem_;
  ModelConfig config_;
  ParameterSet params_;
  ParameterSet grads_;
  std::vector<float> rope_cos_;     // (kMaxPromptTokens, dh / 2)
  std::vector<float> rope_sin_;     // (kMaxPromptTokens, dh / 2)
  RopeTables rope_{};
  // forward()'s kept run: its prompt's tokens, and the residual stream
  // entering layers 0..run_layers_ ((run_layers_ + 1, T, D)); forward_
  // holds those layers' probes.
  std::vector<int> run_tokens_;
  std::vector<float> run_stream_;
  int run_layers_ = 0;
  Buffers buffers_{};
  ForwardResult forward_;
  GradientResult gradients_;
};

}  // namespace normlab::model
