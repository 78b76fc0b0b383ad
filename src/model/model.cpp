// The synthetic residual-stream model (see model.h).
//
// L = layers, D = hidden size, H = heads, T = prompt tokens, V = vocabulary,
// P = probes per layer, S = statistics per row
#include "model/model.h"

#include <algorithm>
#include <array>
#include <atomic>
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

constexpr int Tm = kMaxPromptTokens;

// Grows v to n elements when it holds fewer; never shrinks it. The shared
// scratch's buffers are sized this way for the largest model that uses them,
// so a page whose models all have one shape allocates each once.
template <class V, class A>
void grow(std::vector<V, A>* v, size_t n) {
  if (v->size() < n) v->resize(n);
}

// Model ids, for the shared scratch's owner: unique for the process.
std::atomic<uint64_t> g_next_model_id{1};

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

// Each layer norm's input probe and gain, in the order of kLayerNormNames.
constexpr Probe kLayerNormInputs[kLayerNorms] = {kInputNormIn, kPostAttnNormIn};
constexpr LayerTensor kLayerNormGains[kLayerNorms] = {kInputNormGain, kPostAttnNormGain};

// The index in kLayerNormNames of `which`, or -1.
int layer_norm_index(const std::string& which) {
  for (int n = 0; n < kLayerNorms; n++) {
    if (which == kLayerNormNames[n]) return n;
  }
  return -1;
}

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

// Mean of n values, summed in double.
float mean_of(const float* v, int n) {
  double sum = 0.0;
  for (int i = 0; i < n; i++) sum += v[i];
  return static_cast<float>(sum / n);
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

Model::Model(const ModelOptions& options)
    : problem_(check_model_options(options)),
      id_(g_next_model_id.fetch_add(1, std::memory_order_relaxed)),
      params_(std::make_shared<ParameterSet>()) {
  if (problem_) return;
  config_ = resolve_model_options(options);
  params_ = shared_parameters(config_);
  const int half = config_.head_dim() / 2;
  rope_cos_.resize(static_cast<size_t>(Tm) * half);
  rope_sin_.resize(static_cast<size_t>(Tm) * half);
  rope_tables(rope_cos_.data(), rope_sin_.data(), Tm, config_.head_dim());
  rope_ = RopeTables{rope_cos_.data(), rope_sin_.data()};
}

Model::~Model() { forget_kept_run(); }

size_t Model::memory_floats() const {
  return (own_params_ ? params_->size() : 0) + rope_cos_.size() + rope_sin_.size();
}

namespace {

// The parameter sets models share, by what they are drawn from; an entry
// whose models are all gone is dropped when the registry is next read.
struct SharedParameters {
  uint32_t seed;
  int layers, hidden, heads;
  std::weak_ptr<ParameterSet> set;
};

std::vector<SharedParameters>& parameter_registry() {
  thread_local std::vector<SharedParameters> registry;
  auto& r = registry;
  r.erase(
      std::remove_if(r.begin(), r.end(), [](const SharedParameters& e) { return e.set.expired(); }),
      r.end());
  return r;
}

}  // namespace

std::shared_ptr<ParameterSet> Model::shared_parameters(const ModelConfig& c) {
  std::vector<SharedParameters>& registry = parameter_registry();
  for (const SharedParameters& e : registry) {
    if (e.seed == c.seed && e.layers == c.layers && e.hidden == c.hidden && e.heads == c.heads) {
      if (std::shared_ptr<ParameterSet> set = e.set.lock()) return set;
    }
  }
  auto set = std::make_shared<ParameterSet>(c.layers, c.hidden);
  init_parameters(set.get(), c);
  registry.push_back({c.seed, c.layers, c.hidden, c.heads, set});
  return set;
}

size_t Model::shared_parameter_floats() {
  size_t floats = 0;
  for (const SharedParameters& e : parameter_registry()) {
    if (std::shared_ptr<ParameterSet> set = e.set.lock()) floats += set->size();
  }
  return floats;
}

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

ParameterSet& Model::mutable_parameters() {
  forget_kept_run();
  if (!own_params_) {
    params_ = std::make_shared<ParameterSet>(*params_);
    own_params_ = true;
  }
  return *params_;
}

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

Problem Model::check_gain_query(double layer, const std::string& which) const {
  if (problem_) return problem_;
  if (which == kFinalNormName) return {};
  if (layer_norm_index(which) < 0) {
    std::string names;
    for (const char* name : kLayerNormNames)
      names += (names.empty() ? "'" : ", '") + std::string(name) + "'";
    return {ProblemCode::kNotOneOf, Field::kWhich,
            "which must be " + names + " or '" + kFinalNormName + "'"};
  }
  if (!(std::isfinite(layer) && layer == std::floor(layer) && layer >= 0 &&
        layer < config_.layers)) {
    return {ProblemCode::kOutOfRange, Field::kLayer,
            "layer must be an integer in 0.." + std::to_string(config_.layers - 1)};
  }
  return {};
}

std::string Model::validate_gain_query(double layer, const std::string& which) const {
  return check_gain_query(layer, which).message;
}

const float* Model::gains(int layer, const std::string& which) const {
  if (which == kFinalNormName) return params_->final_gain();
  return params_->tensor(layer, kLayerNormGains[layer_norm_index(which)]);
}

}  // namespace normlab::model
