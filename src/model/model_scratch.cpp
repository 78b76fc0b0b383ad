// Model's shared scratch (see "Memory" in model.h) and the workspace
// carved from it for each call.
//
// D = hidden size, H = heads, T = prompt tokens, V = vocabulary
#include "model/model.h"

#include <cstddef>

#include "model/model_internal.h"

namespace normlab::model {

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

}  // namespace

Model::Scratch& Model::scratch() {
  thread_local Scratch shared;
  return shared;
}

size_t Model::shared_scratch_floats() {
  const Scratch& s = scratch();
  const KeptRun& k = s.kept;
  const ForwardResult& f = s.forward;
  return s.workspace.size() + s.checkpoints.size() + s.rescale_stats.size() + s.gradients.size() +
         k.stream.size() + k.stats.size() + k.attention_entropy.size() +
         k.attention_max_prob.size() + k.norm_rescale.size() + k.norm_rescale_product.size() +
         f.stats.capacity() + f.stats_mean.capacity() + f.attention_entropy.capacity() +
         f.attention_max_prob.capacity() + f.final_stats.capacity() + f.norm_rescale.capacity() +
         f.norm_rescale_product.capacity();
}

void Model::set_checkpoint_rows_for_tests(int rows) {
  scratch().checkpoint_rows = rows >= 1 ? rows : kCheckpointRows;
}

const ForwardResult& Model::forward_result() const { return scratch().forward; }

const ParameterSet& Model::parameter_gradients() const { return scratch().gradients; }

// The workspace is carved for T tokens out of one buffer sized, once, for
// kMaxPromptTokens: the buffers of a shorter prompt sit at the front.
void Model::prepare(int T) {
  const size_t D = config_.hidden;
  const size_t H = config_.heads;
  // carve(k, b, tokens): the buffers for that many tokens, in order.
  auto carve = [&](Carver* k, Buffers* b, int tokens) {
    const size_t T = tokens;
    const size_t td = T * D;
    const size_t htt = causal_size(tokens, static_cast<int>(H));
    LayerCache& c = b->cache;
    c.input_norm_in = nullptr;
    c.input_norm_sum = k->take(td);
    c.input_norm_normed = k->take(td);
    c.input_norm_out = k->take(td);
    c.input_norm_mean = k->take(T);
    c.input_norm_rstd = k->take(T);
    c.attention.u = k->take(td);
    c.attention.q = k->take(td);
    c.attention.k = k->take(td);
    c.attention.v = k->take(td);
    c.attention.logits = k->take(htt);
    c.attention.p = k->take(htt);
    c.attention.y = k->take(td);
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
    s.attention.du = k->take(D);
    s.attention.dp = k->take(htt);
    s.attention.dlogits = k->take(htt);
    s.attention.alpha = k->take(4 * H);
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
  carve(&counter, &sizing, Tm);
  UnsetFloats& workspace = scratch().workspace;
  grow(&workspace, counter.used());
  fill_unset(workspace.data(), counter.used());
  Carver carver(workspace.data());
  carve(&carver, &buffers_, T);
}

}  // namespace normlab::model
