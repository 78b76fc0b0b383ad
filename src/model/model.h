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
//
// Memory. A model holds its parameters and nothing else that grows. What a
// call needs beyond them lives in one scratch every model on the thread
// shares (a page holds several models but runs one call at a time), each
// buffer allocated once at its largest size, so that a long session's heap,
// which in a wasm build never shrinks, stays put:
//   - the workspace, for a prompt of kMaxPromptTokens tokens;
//   - the kept run: the last forward() of any model on the thread, its
//     tokens and the residual stream entering each layer it ran, with those
//     layers' probes; it belongs to the model that ran it (see forward());
//   - forward_result(), parameter_gradients() and the backward's
//     checkpoints, which a fixed budget bounds (see gradients()).
// The parameters are shared too, between the models of one seed and shape
// (see parameters()).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "model/layer.h"
#include "model/options.h"
#include "model/probes.h"
#include "model/problem.h"
#include "model/tokenizer.h"
#include "model/unset_floats.h"
#include "model/weights.h"
#include "normlab/kernels.h"

namespace normlab::model {

class Model {
 public:
  explicit Model(const ModelOptions& options);
  // Holds pointers into its own buffers: not copyable.
  Model(const Model&) = delete;
  Model& operator=(const Model&) = delete;
  // Forgets the kept run if it holds it.
  ~Model();

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
  // keep one instance and pass its depth here.
  //
  // The run is kept (one kept run per thread, see above): the prompt's
  // tokens and the residual stream entering every layer run, at a fixed
  // stride of kMaxPromptTokens rows per layer. The next forward() of this
  // model computes only what the kept run lacks:
  //   - the same prompt at another depth: the layers not run yet (going
  //     down: none, only the final norm and the head);
  //   - a prompt sharing its first P tokens with the kept one (a keystroke
  //     that appends, or edits near the end): rows P..T-1 of every layer
  //     the kept run covers, whose attention reads the earlier rows' keys
  //     and values, recomputed from the kept stream (causal attention: row
  //     t depends on tokens 0..t alone); deeper layers run whole.
  // Per-token probes are computed for the rows computed; per-layer means
  // over all rows. A model that does not hold the kept run starts from
  // scratch (and holds it afterwards). The results are the same, bit for
  // bit, as a fresh model's.
  std::string forward(const std::string& prompt_utf8, int top_k = 5, int layers = 0);
  // The result of the last forward() of any model on this thread (shared
  // scratch): read it before another model runs.
  const ForwardResult& forward_result() const;
  // The problem forward() would report for these arguments, if any.
  Problem check_forward(const std::string& prompt_utf8, int top_k = 5, int layers = 0) const;

  // Runs the kept run's prompt through up to `layers` more layers (never
  // past L), without a final norm or result: idle-time work that lets a
  // later forward() at that depth find its layers run. Returns how many
  // layers the kept run now covers; 0 (and runs nothing) when this model
  // does not hold the kept run. layers < 1 runs nothing.
  int extend(int layers);
  // How many layers of the kept run this model holds: 0 when another model
  // ran last (or none did), or when its parameters were taken for writing.
  int kept_layers() const;

  // Backward pass of the next-token loss through the first `layers` layers
  // (0: all L; the `layers`-deep model, as in forward()); fills
  // gradient_result() and parameter_gradients(). The prompt needs at least
  // 2 tokens. The kept run is left as it is.
  //
  // Each layer's caches are recomputed from its input just before its
  // backward (one more forward pass). The layers' inputs come from:
  //   - this model's kept run, when it holds the prompt's stream through
  //     those layers (after a forward() of the prompt, or of a longer one
  //     that starts with it, at that depth or deeper): no other pass runs;
  //   - else a forward pass into checkpoints, a buffer of a fixed budget
  //     (kCheckpointRows rows of D floats): all L + 1 inputs while they
  //     fit; otherwise only every S-th layer's input, the smallest S for
  //     which they and one segment's S - 1 other inputs fit, each segment's
  //     inputs recomputed from its checkpoint before its backward (one more
  //     forward pass again).
  // The results are the same every way, bit for bit.
  std::string gradients(const std::string& prompt_utf8, int layers = 0);
  const GradientResult& gradient_result() const { return gradients_; }
  // How many layer forward passes the last gradients() call ran (L with
  // the kept run's inputs, 2L - 1 with every input checkpointed, more with
  // segments): for tests and benchmarks.
  int gradient_layer_passes() const { return gradient_layer_passes_; }
  // The problem gradients() would report for these arguments, if any.
  Problem check_gradients(const std::string& prompt_utf8, int layers = 0) const;

  // The loss alone (the forward without probes, through all L layers), for
  // finite-difference checks. NaN for an invalid prompt or one shorter than
  // 2 tokens. Leaves the kept run as it is.
  double loss(const std::string& prompt_utf8);

  // A norm's gains: which = a layer norm's name, kLayerNormNames (layer in
  // 0..L-1), or kFinalNormName, "finalNorm" (layer ignored). No problem if valid;
  // validate_gain_query gives the message alone.
  Problem check_gain_query(double layer, const std::string& which) const;
  std::string validate_gain_query(double layer, const std::string& which) const;
  // Precondition: check_gain_query(layer, which) finds no problem.
  // Returns (D) floats owned by the model.
  const float* gains(int layer, const std::string& which) const;

  // All parameters, for tests and experiments. They are drawn from (seed,
  // layers, hidden, heads) alone (weights.h), so the models of one seed and
  // shape on a thread share one copy, whatever their norm, placement or eps:
  // a page's models for those settings hold one set of weights between them.
  const ParameterSet& parameters() const { return *params_; }
  // The same, for writing (changing them changes this model alone: it takes
  // a copy of its own first). Taking them forgets the kept run if this
  // model holds it: its stream was computed with the old values.
  ParameterSet& mutable_parameters();
  // The gradients of the last gradients() call of any model on this thread
  // (shared scratch), laid out as that model's parameters; layers past the
  // depth it ran are zero. Valid until the next gradients() of any model.
  const ParameterSet& parameter_gradients() const;

  // Floats this model holds by itself: its rotary tables, and its
  // parameters once it took them for writing (a wasm build's heap use is ~4
  // bytes times these counts).
  size_t memory_floats() const;
  // Floats of the parameter sets the models on this thread share: one per
  // seed and shape in use.
  static size_t shared_parameter_floats();
  // Floats of the scratch every model on this thread shares (see above).
  static size_t shared_scratch_floats();

  // The checkpoint budget of gradients(), in rows of D floats: 25 layer
  // inputs of a 64-token prompt (6.25 MiB at D = 1024), so the default
  // model (24 layers) keeps all its layer inputs for every prompt.
  static constexpr int kCheckpointRows = 25 * kMaxPromptTokens;
  // Test support: another budget (rows >= 1), or the default again (0).
  static void set_checkpoint_rows_for_tests(int rows);

  // Which layer inputs gradients() keeps for `layers` layers and `tokens`
  // tokens within `rows` rows: x_l for l = 0, every, 2 every, ... (kept of
  // them), then `slots` rows of T tokens in all (the checkpoints, then x_L,
  // whose slot a segment's other inputs take over in the backward).
  struct CheckpointPlan {
    int every;  // 1: every layer's input
    int kept;   // ceil(layers / every)
    int slots;  // kept + max(every - 1, 1)
  };
  static CheckpointPlan plan_checkpoints(int layers, int tokens, int rows);

 private:
  // Pointers into the shared workspace for a prompt of T tokens, set by
  // prepare() at the start of every call.
  struct Buffers {
    LayerCache cache;
    LayerScratch scratch;
    float* x_a;           // (T, D) residual stream, ping
    float* x_b;           // (T, D) residual stream, pong
    float* final_normed;  // (T, D)
    float* final_out;     // (T, D)
    float* final_mean;    // (T)
    float* final_rstd;    // (T)
    float* logits;        // (T, V)
    float* probs;         // (T, V)
    float* d_final_out;   // (T, D)
    float* dx_a;          // (T, D) residual gradient, ping
    float* dx_b;          // (T, D) residual gradient, pong
  };

  // The kept run (see forward()), laid out for its owner's shape: Tm =
  // kMaxPromptTokens rows per layer, so a prompt that grows keeps its
  // earlier rows in place.
  struct KeptRun {
    uint64_t owner = 0;                       // the id_ of the model that ran it; 0: none
    int layers = 0;                           // stream entries 0..layers hold x_0..x_layers
    std::vector<int> tokens;                  // (T)
    UnsetFloats stream;                       // (L + 1, Tm, D) x_l, row t
    std::vector<float> stats;                 // (L, P, Tm, S) probes
    std::vector<float> attention_entropy;     // (L, Tm, H)
    std::vector<float> attention_max_prob;    // (L, Tm, H)
    std::vector<float> norm_rescale;          // (L, N, Tm) post-norm only
    std::vector<float> norm_rescale_product;  // (L, N, Tm) post-norm only
  };

  // Everything one call needs beyond a model's parameters, shared by every
  // model on the thread (see "Memory" above). Each buffer is sized for the
  // largest model that used it, once.
  struct Scratch {
    UnsetFloats workspace;             // prepare()'s, for kMaxPromptTokens
    UnsetFloats checkpoints;           // (rows, D) gradients() only
    std::vector<float> rescale_stats;  // (N, Tm, S) gradients() post-norm only
    int checkpoint_rows = kCheckpointRows;
    ParameterSet gradients;  // parameter_gradients()
    ForwardResult forward;   // forward_result()
    KeptRun kept;
  };
  static Scratch& scratch();
  // The parameters of config's seed and shape: the set the models on this
  // thread already share, or a new one, drawn.
  static std::shared_ptr<ParameterSet> shared_parameters(const ModelConfig& config);

  void prepare(int T);
  void embed(float* x, const std::vector<int>& tokens, int first) const;
  void final_norm(const float* x_L, int T);
  // The kept run sized for this model; taken over (emptied) when another
  // model holds it.
  KeptRun& own_kept_run();
  void forget_kept_run();
  // x_l in the kept stream: (T, D) at a stride of Tm rows per layer.
  float* kept_stream(int l) const;
  // Brings the kept run to `tokens` through `L` layers, computing only
  // what it lacks (see forward()).
  void run_kept(const std::vector<int>& tokens, int L);
  // NaN over what the kept run does not hold once `kept` layers of it
  // serve the new prompt's first `held` rows (a NORMLAB_FILL_UNSET_NAN
  // build's check; see unset_floats.h).
  void fill_unkept_rows(int kept, int held);
  // The kept run's probes of layer l, rows first..T-1. x, x_next: (T, D)
  // layer l's input and output.
  void record_layer_probes(int l, const float* x, const float* x_next, int first, int T);
  void record_norm_rescale(int l, int first, int T);
  // Layer l's rescaling factors and running products for tokens
  // first..T-1, in (L, N, stride) arrays, from the two norms' input
  // statistics in[k] (rows 0..T-1 each).
  void norm_rescale(float* rescale, float* product, const RowStats* const in[kLayerNorms], int l,
                    int first, int T, int stride) const;
  // forward()'s result: the kept run's first L layers and T tokens, their
  // means, then the final norm's probes and the next token.
  void fill_forward_result(int L, int T, int top_k);
  void record_final_probes(const float* x_L, int T);
  void record_next_token(int T, int top_k);
  // logits and probs rows 0..rows-1 from final_out.
  void lm_head(int rows);
  double next_token_loss(const std::vector<int>& tokens) const;
  // gradients()'s steps, in the order it calls them. ckpt: the checkpoint
  // slots of a plan, T rows of D each (at least `slots` of them, sized for
  // the budget); dx: (T, D) a residual-stream gradient.
  bool records_norm_rescale() const;
  void reset_gradient_result(int L, int T);
  bool kept_run_holds(const std::vector<int>& tokens, int L) const;
  float* prepare_backward(int slots, int T);
  void copy_kept_norm_rescale(int L, int T);
  void forward_checkpointed(float* ckpt, const CheckpointPlan& plan, const std::vector<int>& tokens,
                            int L);
  void record_gradient_norm_rescale(int l, int T);
  void next_token_loss_backward(const std::vector<int>& tokens);
  void lm_head_backward(int T);
  void final_norm_backward(float* dx, const float* x_L, int T);
  void recompute_segment_inputs(float* ckpt, const CheckpointPlan& plan, int begin, int end, int T);
  void recompute_layer(int l, const float* x_l, int T);
  void record_residual_gradient_l2(int index, const float* dx, int T);
  void record_layer_gradient_l2(int l);
  void embedding_backward(const float* dx, const std::vector<int>& tokens);
  void record_embedding_and_final_norm_gradient_l2();

  Problem problem_;
  ModelConfig config_;
  // Names this model in the shared scratch (KeptRun::owner): never reused.
  uint64_t id_ = 0;
  int gradient_layer_passes_ = 0;
  // Shared with the models of the same seed and shape (shared_parameters)
  // until mutable_parameters() gives this model a copy of its own.
  std::shared_ptr<ParameterSet> params_;
  bool own_params_ = false;
  std::vector<float> rope_cos_;  // (kMaxPromptTokens, dh / 2)
  std::vector<float> rope_sin_;  // (kMaxPromptTokens, dh / 2)
  RopeTables rope_{};
  Buffers buffers_{};
  GradientResult gradients_;
};

}  // namespace normlab::model
