// A tiny byte-level decoder-only transformer, trained from scratch with Adam:
// the model the page trains live to show that pre-norm keeps deep stacks
// trainable where post-norm without warmup stalls.
//
// V = 256 (bytes), D = hidden, H = heads, dh = D / H, F = 4 D, L = layers,
// T = seq, B = batch, S = sequences per micro-batch, R = S T rows
//
// Model. x = wte[byte] + wpe[position]; L layers; logits = x wte^T (tied
// embeddings); no biases in linear layers; MLP D -> F -> D with GELU (tanh
// approximation); causal attention with H heads. Placements:
//   pre       x += Attn(N1(x)); x += MLP(N2(x)); a final norm before the head
//   post      x = N1(x + Attn(x)); x = N2(x + MLP(x)); no final norm: the
//             stream leaves the last layer already normalized
//   deepnorm  x = N1(alpha x + Attn(x)); x = N2(alpha x + MLP(x)), alpha =
//             (2 L)^(1/4), and beta at init (options.h); no final norm
//   output    x += N1(Attn(x)); x += N2(MLP(x)) (the norms on the branches'
//             outputs, as OLMo 2); a final norm before the head, since the
//             stream is a sum of the embedding and normalized branches whose
//             length grows with depth
//   sandwich  x += N1o(Attn(N1(x))); x += N2o(MLP(N2(x))) (a norm before
//             and after each sublayer, as Gemma 2); a final norm, as pre
// QK-norm (qkNorm) RMS-normalizes each head's queries and keys, each with a
// learned gain per head feature, before q.k / sqrt(dh).
//   none (norm 'none', any placement): x += Attn(x); x += MLP(x)
// N is RMSNorm (gain) or LayerNorm (gain and bias), by the kernels of
// normlab/kernels.h, or DyT, gain tanh(alpha x) + bias with a learned scalar
// alpha per norm (train/elementwise.h). Adam (beta 0.9, 0.999, eps 1e-8), no clipping, no
// weight decay; the learning rate rises linearly over `warmup` steps, then
// stays. Initialization: init.h.
//
// A step = B sequences sampled from the training split (text.h); its loss is
// the mean cross-entropy over the B T predictions. The work of a step is cut
// into units, each small enough for a page's frame: per micro-batch of S
// sequences, one unit per layer forward (the first also embeds), one for the
// head (final norm, logits, loss and their backward), one per layer
// backward (the last also the embeddings' backward); then one unit for
// Adam's update. advance() runs one unit; the sequence of operations is the
// same however a step is sliced or how many sequences a micro-batch holds
// (every gradient is summed row by row in order, matmul.h), so the losses
// and weights are bit-identical for every slicing and micro-batch size.
//
// Divergence. When a step's loss or gradient norm is NaN or Inf, no update
// is applied, the step reports diverged = true with the values it found, and
// every later step reports loss NaN and diverged = true at once, without
// computing. Nothing throws; errors of options are messages (options.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/rng.h"
#include "model/unset_floats.h"
#include "train/layout.h"
#include "train/options.h"
#include "train/state.h"
#include "train/text.h"

namespace normlab::train {

struct StepResult {
  int step;           // index of the step, from 0
  double loss;        // mean cross-entropy over the batch (nats)
  double grad_first;  // L2 norm of layer 0's parameter gradients (all of them)
  double grad_last;   // L2 norm of layer L - 1's
  // How far this step's update moved layer 0's parameters, relative to
  // where they were: ||theta' - theta|| / ||theta|| over the whole layer
  // (0 when no update was applied). Under Adam every parameter moves by
  // about lr whatever its gradient, until the gradient falls far below
  // Adam's running average of its own size; so a ratio of the gradients
  // alone does not say whether a layer moves, this does.
  double update_first;
  double update_last;  // the same for layer L - 1
  double lr;           // the learning rate of this step's update
  bool diverged;       // the loss or a gradient is not finite (now or before)
  // Probes of this step's forward over the whole batch, taken by the
  // forward units as they go (no pass of their own):
  // max_logit[l]: layer l's largest attention logit, q.k / sqrt(dh) as the
  // softmax receives it (after QK-norm when it is on), over the sequences,
  // heads and causal pairs (key <= query);
  // stream_norm[l]: the mean over the B T rows of the row's L2 norm of the
  // stream entering layer l, and at l = L leaving the last layer (as
  // LayerNormProbe.residual). NaN for a step not computed (diverged before).
  std::vector<float> max_logit;    // (L)
  std::vector<float> stream_norm;  // (L + 1)
};

// The lengths one forward pass of T tokens gives the residual stream and the
// norms, layer by layer, each as the mean over the T rows of the row's L2
// norm ("L2/tok"). N1 is a layer's attention-side norm, N2 its MLP-side one:
//   pre   N1: x -> N1(x), before attention; N2: mid -> N2(mid), before the MLP
//   post  N1: x + Attn(x) -> mid; N2: mid + MLP(mid) -> the layer's output,
//         which is the stream the next layer receives (deepnorm: the same,
//         with alpha x and alpha mid in the sums)
//   output    N1: Attn(x) -> its term of mid; N2: MLP(mid) -> its term of y
//   sandwich  N1 and N2 as pre's (the second norms, N1o and N2o, are not
//             measured)
// An RMSNorm output row has L2 = sqrt(D) rms(g) sqrt(ms / (ms + eps)), ms its
// input's mean square: sqrt(D) for gain 1 once ms >> eps. The norms are
// indexed and named as the model's (model/probes.h: NORMLAB_LAYER_NORMS,
// N = kLayerNorms; N1 = kInputNorm, N2 = kPostAttentionNorm).
struct LayerNormProbe {
  int32_t layers = 0;           // L
  int32_t tokens = 0;           // T
  int32_t step = 0;             // the trainer's steps completed when measured
  std::vector<float> residual;  // (L + 1) the stream entering each layer, then leaving the last
  std::vector<float> norm_in;   // (L, N) N1's and N2's inputs; empty with norm 'none'
  std::vector<float> norm_out;  // (L, N) their outputs, after the gain (and LayerNorm's bias)
  // How spread each layer's attention is: the entropy of each softmax row
  // t >= 1 over its t + 1 keys, divided by log(t + 1) (1 = uniform, 0 = all
  // on one key), averaged over the heads and rows. NaN for T = 1.
  std::vector<float> attention_entropy;  // (L)
  // How alike the tokens' vectors are at each point of the stream: the mean
  // over token pairs of their cosine similarity (1 = every token the same
  // vector). NaN for T = 1.
  std::vector<float> token_similarity;  // (L + 1)
};

// Copies of the norms' learned parameters (layout.h), the same floats the
// forward reads: each layer's N1 and N2 (as in LayerNormProbe), then the
// final norm. RMSNorm has a gain per feature; LayerNorm a gain and a bias;
// norm 'none' neither; DyT a gamma and a beta per feature (kept as gain and
// bias) and one alpha. Gains start at 1, biases at 0 and DyT's alphas at 0.5
// (init.h). The variants' own: QK-norm's query and key gains (one per head
// feature, shared by the heads) and the sandwich's second norms, on each
// branch's output.
struct NormGains {
  int32_t layers = 0;              // L
  int32_t hidden = 0;              // D
  int32_t head_size = 0;           // Dh = D / heads
  int32_t step = 0;                // the trainer's steps completed when copied
  std::vector<float> gain;         // (L, 2, D) N1's then N2's; empty with norm 'none'
  std::vector<float> bias;         // (L, 2, D) LayerNorm and DyT only, else empty
  std::vector<float> final_gain;   // (D) with a final norm only (has_final_norm), else empty
  std::vector<float> final_bias;   // (D) LayerNorm or DyT with a final norm only, else empty
  std::vector<float> q_gain;       // (L, Dh) QK-norm only, else empty
  std::vector<float> k_gain;       // (L, Dh) QK-norm only, else empty
  std::vector<float> out_gain;     // (L, 2, D) sandwich only: N1o's then N2o's, else empty
  std::vector<float> out_bias;     // (L, 2, D) sandwich with LayerNorm or DyT only, else empty
  std::vector<float> alpha;        // (L, 2) DyT only: N1's and N2's alpha, else empty
  std::vector<float> out_alpha;    // (L, 2) DyT in a sandwich only: N1o's and N2o's, else empty
  std::vector<float> final_alpha;  // (1) DyT with a final norm only, else empty
};

// Pointers into one layer's forward cache (R rows).
struct LayerActs {
  float* norm1;       // (R, D) pre: N1(x); post: x + Attn(x), N1's input
  float* norm1_mean;  // (R) LayerNorm only
  float* norm1_rstd;  // (R)
  float* qkv;         // (R, 3D)
  float* att;         // (S, H, T, T) softmax rows, zero above the diagonal
  float* attn_y;      // (R, D) heads' outputs before the output projection
  float* mid;         // (R, D) pre / none: x + Attn(.); post: N1(x + Attn(x))
  float* norm2;       // (R, D) pre: N2(mid); post: mid + MLP(mid), N2's input
  float* norm2_mean;  // (R)
  float* norm2_rstd;  // (R)
  float* fc;          // (R, F) before GELU
  float* gelu;        // (R, F)
  float* qk_in;       // (R, 2D) QK-norm only: the queries and keys before it
  float* qk_rstd;     // (R, 2H) QK-norm only: each head's q, then k, 1 / rms
  // output and sandwich only: each branch's output, the input of the norm
  // on it (output: N1, N2; sandwich: N1o, N2o), and (sandwich) the
  // statistics of N1o and N2o.
  float* branch1;       // (R, D) attention's output projection
  float* branch1_mean;  // (R)
  float* branch1_rstd;  // (R)
  float* branch2;       // (R, D) the MLP's output projection
  float* branch2_mean;  // (R)
  float* branch2_rstd;  // (R)
};

// The parameters, their transposed copies and the activations are written
// before they are read: not zeroed at construction (model/unset_floats.h).
using model::fill_unset;
using model::UnsetFloats;

class Trainer {
 public:
  // Preconditions: config is a resolved configuration (resolve_train_options
  // of valid options; micro_batch >= 1 may be changed), and text holds at
  // least min_text_bytes(config.seq) bytes.
  Trainer(const TrainConfig& config, std::string text);

  const TrainConfig& config() const { return config_; }
  // Of the training split, in nats: the loss of a byte-frequency model.
  double unigram_entropy() const { return unigram_entropy_; }
  int steps_done() const { return step_; }
  bool diverged() const { return diverged_; }

  // Runs the next unit of the current step. Returns true when that unit
  // completed the step, and then fills *result.
  bool advance(StepResult* result);
  int units_per_step() const;
  // Units of the current step already run (0 between steps).
  int units_done() const { return units_done_; }
  // Runs the rest of the current step (a whole step between steps).
  StepResult step();

  // Mean loss over the held-out windows (text.h), forward only, on buffers
  // of its own: it may run between any two units of a step.
  double evaluate();
  int heldout_windows() const;
  // The sum of window w's T losses, for a page that evaluates a window at a
  // time: evaluate() = (sum over w in order of heldout_window_loss(w)) /
  // (windows T), so the same additions give the same bits.
  double heldout_window_loss(int w);

  // n bytes sampled after prompt: each from the model's prediction after the
  // last T bytes (prompt and output so far; an empty prompt starts from
  // "\n", the text's line break); temperature 0 takes the most likely byte
  // (the lowest on a tie; so do temperatures below FLT_MIN), else
  // softmax(logits / temperature) sampled by a SplitMix64 stream of seed.
  // Forward only, on evaluate()'s buffers. n <= 0 gives "". Preconditions:
  // validate_generate_options (temperature finite, >= 0).
  std::string generate(const std::string& prompt, int n, double temperature, uint32_t seed);

  // generate() a byte at a time, for a page that samples in slices: one
  // sampling's state (the bytes so far and the sampler's stream). After n
  // calls of sample_next, s.out is generate(prompt, n, temperature, seed)'s
  // bytes; training in between changes the model the next byte comes from.
  struct Sampling {
    std::string context;    // the prompt (or "\n") and the bytes so far
    std::string out;        // the bytes so far
    model::SplitMix64 rng;  // the sampler's stream
    float temperature;
    bool greedy;  // temperature below FLT_MIN: the most likely byte
  };
  Sampling begin_sampling(const std::string& prompt, double temperature, uint32_t seed) const;
  void sample_next(Sampling* s);

  // The model's next-byte distribution after prompt (its last T bytes; an
  // empty prompt is "\n", as for sampling): softmax of the last row's
  // logits, forward only, on evaluate()'s buffers. out: (256)
  void next_byte_probabilities(float* out, const std::string& prompt);

  // One forward pass of tokens (1 <= T <= config.seq) measured layer by layer
  // (LayerNormProbe), on evaluate()'s buffers: it may run between any two
  // units of a step and changes no result of the training. tokens: (T)
  void layer_norms(LayerNormProbe* probe, const uint8_t* tokens, int T);
  // The same on the held-out split's first window (T = config.seq bytes).
  void heldout_layer_norms(LayerNormProbe* probe);

  // The norms' gains (and LayerNorm's biases) as they are now: a copy, so
  // it stays valid whatever the trainer does next. Between any two units.
  NormGains norm_gains() const;

  // The bytes this trainer holds (memory_needed(config, text bytes)).
  MemoryReport memory() const;

  // The training state, for a run that must survive its page (a checkpoint):
  // every parameter, Adam's two moments and bias corrections, the steps
  // done and whether the run diverged. A trainer made with the same config
  // and text that restores it continues bit for bit as this one would: the
  // batches are a function of (seed, step) (text.h), the warmup of the
  // step, and the transposed weights are recomputed from the parameters.
  // The text is not saved, only its length and hash, which must match, as
  // must every field of the config that step() reads (all but steps, the
  // run's plan, and micro_batch, which no result depends on). The format:
  // state.h. Between steps only: a step partly done (units_done() > 0) is
  // {kMidStep, kState, "a step is partly done (3 of 50 units): save between
  // steps"}, as its activations and partial gradients are not saved. The gradients are not saved either: between steps they are zero
  // (unless loss_and_gradients() left some, which a restored trainer does
  // not have).
  Problem save_state(std::vector<uint8_t>* out) const;
  // The size of save_state()'s bytes for this trainer.
  std::size_t state_bytes() const;
  // Restores a save_state() snapshot, or changes nothing and returns why
  // not (the first problem: too short, not a trainer state, another format
  // version, another config, e.g. "state was saved by a trainer with layers
  // 6, this one has 24", another text, the wrong length). Any time: a step
  // partly done is dropped, the trainer is between steps after it.
  Problem restore_state(const uint8_t* bytes, std::size_t n);

  // For tests and tools: the parameters and gradients (layout() offsets).
  const ParamLayout& layout() const { return layout_; }
  const float* params() const { return params_.data(); }
  const float* grads() const { return grads_.data(); }
  // Replaces the parameters (layout().total floats) and refreshes their
  // transposed copies.
  void set_params(const float* params);
  // Zeroes the gradients and accumulates those of the mean loss over n_seq
  // sequences, in micro-batches as a step does; returns that loss. No update.
  // inputs, targets: (n_seq, T). Between steps only (units_done() == 0).
  double loss_and_gradients(const uint8_t* inputs, const uint8_t* targets, int n_seq);
  // Step s's batch. inputs, targets: (B, T).
  void batch(int s, uint8_t* inputs, uint8_t* targets) const;

 private:
  enum class Phase { forward, head, backward, update };

  int micro_batches(int n_seq) const;
  int micro_batch_sequences(int mb, int n_seq) const;
  void refresh_transposed();
  void embed(float* out, const uint8_t* tokens, int S, int T) const;
  // max_logit: (1) raised to layer l's largest attention logit, or nullptr.
  void layer_forward(int l, const LayerActs& a, float* y, const float* x, float* proj, float* key_t,
                     int S, int T, float* max_logit);
  void layer_backward(int l, const LayerActs& a, float* dstream, const float* x, int S);
  // A layer's two sublayers, each the same in every placement: what they
  // add to (or, post-norm, sum with) the stream, and their backward.
  void attention_sublayer_forward(int l, const LayerActs& a, float* proj, const float* in,
                                  float* key_t, int S, int T, float* max_logit);
  void mlp_sublayer_forward(int l, const LayerActs& a, float* proj, const float* in, int R);
  void attention_sublayer_backward(int l, const LayerActs& a, float* din, const float* dout,
                                   const float* in, int S);
  void mlp_sublayer_backward(int l, const LayerActs& a, float* din, const float* dout,
                             const float* in, int R);
  void qk_norm_forward(const LayerActs& a, const float* gq, const float* gk, int R);
  void qk_norm_backward(const LayerActs& a, float* dqkv, float* dgq, float* dgk, const float* gq,
                        const float* gk, float* scratch, int R);
  const float* final_features(const float* x, float* out, float* mean, float* rstd, int R) const;
  void head_forward_backward(const uint8_t* targets, int S, float scale);
  void embed_backward(const uint8_t* tokens, int S);
  void run_unit(const uint8_t* inputs, const uint8_t* targets, int n_seq, float scale);
  // Sets the step's probes (StepResult) to their empty start.
  void reset_step_probes();
  StepResult update();
  // Embedding and every layer of one sequence of T <= config.seq tokens on
  // the inference buffers, measured into *probe unless it is null; returns
  // the last layer's output: (T, D).
  const float* forward_stream(const uint8_t* tokens, int T, LayerNormProbe* probe);
  // Forward of one sequence of T <= config.seq tokens on the inference
  // buffers; returns the logits of rows first_row .. T - 1: (T - first_row, V).
  const float* forward_logits(const uint8_t* tokens, int T, int first_row);

  TrainConfig config_;
  std::string text_;
  TextSplit split_;
  double unigram_entropy_;
  ParamLayout layout_;

  UnsetFloats params_;                // (P)
  UnsetFloats transposed_;            // (transposed_floats)
  std::vector<float> grads_;          // (P)
  std::vector<float> adam_m_;         // (P)
  std::vector<float> adam_v_;         // (P)
  UnsetFloats activations_;           // layers, stream, head of one micro-batch
  std::vector<float> scratch_;        // backward buffers, inference buffers
  std::vector<uint8_t> inputs_;       // (B, T) the current step's batch
  std::vector<uint8_t> targets_;      // (B, T)
  std::vector<float> update_before_;  // (2, layer size) layers 0 and L - 1 before an update

  std::vector<LayerActs> acts_;  // (L) per layer, R = micro_batch T rows
  float* stream_;                // (L + 1, R, D) the stream before each layer, and after the last
  float* final_norm_;            // (R, D)
  float* final_mean_;            // (R)
  float* final_rstd_;            // (R)
  float* logits_;                // (R, V) logits, then their gradient
  float* probs_;                 // (R, V)
  // Backward scratch.
  float* dstream_;     // (R, D)
  float* dwte_input_;  // (V, D) the input side of wte's gradient, per step
  float* dmid_;        // (R, D)
  float* dtmp_;        // (R, D)
  float* dattn_y_;     // (R, D)
  float* proj_;        // (R, D) a projection's output before the residual addition
  float* dqkv_;        // (R, 3D)
  float* dfc_;         // (R, F)
  float* dgelu_;       // (R, F)
  float* head_t_;      // (dh, T) a head's keys or values, transposed
  float* dp_;          // (T, T)
  float* da_;          // (T, T)
  // Inference (one sequence): one layer's cache reused by every layer.
  LayerActs infer_acts_;
  float* infer_stream_[2];   // (T, D) each
  float* infer_proj_;        // (T, D)
  float* infer_final_;       // (T, D)
  float* infer_final_mean_;  // (T)
  float* infer_final_rstd_;  // (T)
  float* infer_logits_;      // (T, V)
  float* infer_probs_;       // (T, V)
  float* infer_key_t_;       // (dh, T)

  // The step in progress.
  std::vector<float> max_logit_;       // (L) the largest attention logit so far
  std::vector<double> stream_l2_sum_;  // (L + 1) sums of the rows' L2 norms so far
  int step_ = 0;
  Phase phase_ = Phase::forward;
  int mb_ = 0;
  int layer_ = 0;
  int units_done_ = 0;
  double loss_sum_ = 0.0;
  bool diverged_ = false;
  double beta1_power_ = 1.0;
  double beta2_power_ = 1.0;
};

}  // namespace normlab::train
