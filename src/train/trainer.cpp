// The trainer (see trainer.h): forward with a cache per layer, backward as a
// sequence of named calls, Adam, and the units a step is cut into.
//
// V = 256, D = hidden, H = heads, dh = D / H, F = 4 D, L = layers, T = seq,
// B = batch, S = sequences of a micro-batch, R = S T rows
#include "train/trainer.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <utility>

#include "model/probes.h"
#include "model/rng.h"
#include "normlab/kernels.h"
#include "train/attention.h"
#include "train/elementwise.h"
#include "train/init.h"
#include "train/matmul.h"
#include "model/vec.h"

namespace normlab::train {

// The residual additions and gradient sums: the model's add (model/vec.h).
using model::add;

namespace {

constexpr int V = TrainConfig::kVocab;
constexpr float kBeta1 = 0.9f;
constexpr float kBeta2 = 0.999f;
constexpr float kAdamEps = 1e-8f;

// out: (R, D); mean, rstd: (R) (mean unused by RMSNorm, both by DyT);
// inp: (R, D); gain, bias: (D) or nullptr; alpha: (1) DyT's, else nullptr
void norm_forward(NormKind kind, float* out, float* mean, float* rstd, const float* inp,
                  const float* gain, const float* bias, const float* alpha, int R, int D,
                  float eps) {
  if (kind == NormKind::dyt) {
    dyt_forward(out, inp, *alpha, gain, bias, R, D);
  } else if (kind == NormKind::layernorm) {
    layernorm_forward(out, mean, rstd, inp, gain, bias, R, D, eps);
  } else {
    rmsnorm_forward(out, rstd, inp, gain, R, D, eps);
  }
}

// dinp: (R, D) written; dgain, dbias: (D) accumulated or nullptr; dalpha:
// (1) accumulated, DyT only
void norm_backward(NormKind kind, float* dinp, float* dgain, float* dbias, float* dalpha,
                   const float* dout, const float* inp, const float* gain, const float* alpha,
                   const float* mean, const float* rstd, int R, int D) {
  if (kind == NormKind::dyt) {
    dyt_backward(dinp, dgain, dbias, dalpha, dout, inp, *alpha, gain, R, D);
  } else if (kind == NormKind::layernorm) {
    layernorm_backward(dinp, dgain, dbias, dout, inp, gain, mean, rstd, R, D);
  } else {
    rmsnorm_backward(dinp, dgain, dout, inp, gain, rstd, R, D);
  }
}

// out = alpha x + b, the residual sum: add's (one IEEE addition per element)
// for alpha 1, else b + alpha x by the model's axpy.  out, x, b: (n)
void residual_sum(float* out, float alpha, const float* x, const float* b, std::size_t n) {
  if (alpha == 1.0f) {
    add(out, x, b, n);
    return;
  }
  std::copy(b, b + n, out);
  model::axpy(out, alpha, x, static_cast<int>(n));
}

// acc += alpha x, the residual sum's backward: add's for alpha 1.  acc, x: (n)
void add_scaled(float* acc, float alpha, const float* x, std::size_t n) {
  if (alpha == 1.0f) {
    add(acc, acc, x, n);
  } else {
    model::axpy(acc, alpha, x, static_cast<int>(n));
  }
}

// -log p(target) of one row, in double. p is the softmax kernel's; where it
// is below FLT_MIN (the target's logit ~87 below the row's max, or the
// kernel's exp flushed it) the row's log-sum-exp is taken in double instead.
// logits_r, probs_r: (V)
double row_loss(const float* logits_r, const float* probs_r, int target) {
  const float p = probs_r[target];
  if (p >= FLT_MIN) return -std::log(static_cast<double>(p));
  double m = -INFINITY;
  for (int j = 0; j < V; ++j) m = std::max(m, static_cast<double>(logits_r[j]));
  double sum = 0.0;
  for (int j = 0; j < V; ++j) sum += std::exp(logits_r[j] - m);
  return m + std::log(sum) - logits_r[target];
}

// Adds each of R rows' L2 norm to *sum, in double, row by row in order (so
// a sum over micro-batches has the same bits whatever their size); each
// row's sum of squares by sum_squares. x: (R, D)
void add_row_l2(double* sum, const float* x, int R, int D) {
  for (int r = 0; r < R; ++r)
    *sum += std::sqrt(sum_squares(x + static_cast<std::size_t>(r) * D, D));
}

// The mean over T rows of each row's L2 norm. x: (T, D)
double mean_row_l2(const float* x, int T, int D) {
  double sum = 0.0;
  add_row_l2(&sum, x, T, D);
  return sum / T;
}

// ||after - before|| / ||before||, each norm's squares summed in double
// (sum_squares); before is overwritten with the difference. 0 when before
// is all zeros. before, after: (n)
double relative_change(float* before, const float* after, std::size_t n) {
  const double size = sum_squares(before, n);
  for (std::size_t i = 0; i < n; ++i) before[i] = after[i] - before[i];
  return size > 0.0 ? std::sqrt(sum_squares(before, n) / size) : 0.0;
}

// The mean over the rows t >= 1 of a layer's H softmax matrices of each
// row's entropy divided by log(t + 1) (the entropy of t + 1 equal weights).
// NaN for T = 1. att: (H, T, T), row t holding t + 1 weights
double mean_attention_entropy(const float* att, int H, int T) {
  if (T < 2) return NAN;
  double sum = 0.0;
  for (int h = 0; h < H; ++h) {
    for (int t = 1; t < T; ++t) {
      const float* row = att + (static_cast<std::size_t>(h) * T + t) * T;
      double e = 0.0;
      for (int j = 0; j <= t; ++j) {
        if (row[j] > 0.0f) e -= row[j] * std::log(static_cast<double>(row[j]));
      }
      sum += e / std::log(t + 1.0);
    }
  }
  return sum / (static_cast<double>(H) * (T - 1));
}

// The mean over the T (T - 1) / 2 pairs of rows of their cosine
// similarity; a zero row counts as similarity 0. NaN for T = 1. x: (T, D)
double mean_row_cosine(const float* x, int T, int D) {
  if (T < 2) return NAN;
  std::vector<double> length(T);
  for (int t = 0; t < T; ++t)
    length[t] = std::sqrt(sum_squares(x + static_cast<std::size_t>(t) * D, D));
  double sum = 0.0;
  for (int i = 0; i < T; ++i) {
    for (int j = i + 1; j < T; ++j) {
      const double lengths = length[i] * length[j];
      if (lengths > 0.0) {
        sum += model::dot(x + static_cast<std::size_t>(i) * D, x + static_cast<std::size_t>(j) * D,
                          D) /
               lengths;
      }
    }
  }
  return sum / (0.5 * T * (T - 1.0));
}

}  // namespace

Trainer::Trainer(const TrainConfig& config, std::string text)
    : config_(config), text_(std::move(text)) {
  split_ = split_text(text_);
  unigram_entropy_ = train::unigram_entropy(split_.train, split_.n_train);
  layout_ = param_layout(config_);
  const std::size_t P = layout_.total;
  params_.resize(P);  // init_params() writes every one
  grads_.assign(P, 0.0f);
  adam_m_.assign(P, 0.0f);
  adam_v_.assign(P, 0.0f);
  transposed_.resize(transposed_floats(config_));  // refresh_transposed() writes them
  init_params(params_.data(), layout_, config_);
  refresh_transposed();

  const std::size_t S = config_.micro_batch, T = config_.seq, R = S * T, D = config_.hidden,
                    F = config_.mlp_width(), H = config_.heads, dh = config_.head_dim();
  const LayerParamOffsets& first_layer = layout_.layers.front();
  update_before_.resize(2 * (first_layer.end - first_layer.begin));
  inputs_.assign(static_cast<std::size_t>(config_.batch) * T, 0);
  targets_.assign(static_cast<std::size_t>(config_.batch) * T, 0);

  // Written by each forward before anything reads them.
  activations_.resize(layer_activation_floats(config_) * config_.layers + stream_floats(config_) +
                      head_floats(config_));
  float* at = activations_.data();
  auto take = [&at](std::size_t n) {
    float* p = at;
    at += n;
    return p;
  };
  const bool qk_norm = config_.qk_norm != 0;
  const bool branches = config_.caches_branches();
  auto take_layer = [&take, D, F, H, T, qk_norm, branches](std::size_t rows, std::size_t seqs) {
    LayerActs a;
    a.norm1 = take(rows * D);
    a.norm1_mean = take(rows);
    a.norm1_rstd = take(rows);
    a.qkv = take(rows * 3 * D);
    a.att = take(seqs * H * T * T);
    a.attn_y = take(rows * D);
    a.mid = take(rows * D);
    a.norm2 = take(rows * D);
    a.norm2_mean = take(rows);
    a.norm2_rstd = take(rows);
    a.fc = take(rows * F);
    a.gelu = take(rows * F);
    a.qk_in = qk_norm ? take(rows * 2 * D) : nullptr;
    a.qk_rstd = qk_norm ? take(rows * 2 * H) : nullptr;
    a.branch1 = branches ? take(rows * D) : nullptr;
    a.branch1_mean = branches ? take(rows) : nullptr;
    a.branch1_rstd = branches ? take(rows) : nullptr;
    a.branch2 = branches ? take(rows * D) : nullptr;
    a.branch2_mean = branches ? take(rows) : nullptr;
    a.branch2_rstd = branches ? take(rows) : nullptr;
    return a;
  };
  acts_.resize(config_.layers);
  for (auto& a : acts_) a = take_layer(R, S);
  stream_ = take((config_.layers + 1) * R * D);
  final_norm_ = take(R * D);
  final_mean_ = take(R);
  final_rstd_ = take(R);
  logits_ = take(R * V);
  probs_ = take(R * V);

  scratch_.assign(backward_floats(config_) + inference_floats(config_), 0.0f);
  at = scratch_.data();
  dstream_ = take(R * D);
  dwte_input_ = take(static_cast<std::size_t>(V) * D);
  dmid_ = take(R * D);
  dtmp_ = take(R * D);
  dattn_y_ = take(R * D);
  proj_ = take(R * D);
  dqkv_ = take(R * 3 * D);
  dfc_ = take(R * F);
  dgelu_ = take(R * F);
  head_t_ = take(dh * T);
  dp_ = take(T * T);
  da_ = take(T * T);
  infer_acts_ = take_layer(T, 1);
  infer_stream_[0] = take(T * D);
  infer_stream_[1] = take(T * D);
  infer_proj_ = take(T * D);
  infer_final_ = take(T * D);
  infer_final_mean_ = take(T);
  infer_final_rstd_ = take(T);
  infer_logits_ = take(T * V);
  infer_probs_ = take(T * V);
  infer_key_t_ = take(dh * T);
}

NormGains Trainer::norm_gains() const {
  const int D = config_.hidden;
  NormGains g;
  g.layers = config_.layers;
  const int dh = D / config_.heads;
  g.hidden = D;
  g.head_size = dh;
  g.step = step_;
  // Appends the n floats at offset; an absent tensor adds nothing.
  const auto append = [&](std::vector<float>* out, std::size_t offset, int n) {
    const float* v = tensor_at(params_.data(), offset);
    if (v != nullptr) out->insert(out->end(), v, v + n);
  };
  for (const LayerParamOffsets& o : layout_.layers) {
    append(&g.gain, o.norm1_gain, D);
    append(&g.gain, o.norm2_gain, D);
    append(&g.bias, o.norm1_bias, D);
    append(&g.bias, o.norm2_bias, D);
    append(&g.q_gain, o.q_gain, dh);
    append(&g.k_gain, o.k_gain, dh);
    append(&g.out_gain, o.norm1_out_gain, D);
    append(&g.out_gain, o.norm2_out_gain, D);
    append(&g.out_bias, o.norm1_out_bias, D);
    append(&g.out_bias, o.norm2_out_bias, D);
    append(&g.alpha, o.norm1_alpha, 1);
    append(&g.alpha, o.norm2_alpha, 1);
    append(&g.out_alpha, o.norm1_out_alpha, 1);
    append(&g.out_alpha, o.norm2_out_alpha, 1);
  }
  append(&g.final_gain, layout_.final_gain, D);
  append(&g.final_bias, layout_.final_bias, D);
  append(&g.final_alpha, layout_.final_alpha, 1);
  return g;
}

MemoryReport Trainer::memory() const {
  const double f = sizeof(float);
  MemoryReport m;
  m.params = f * static_cast<double>(params_.size() + transposed_.size());
  m.adam = f * static_cast<double>(adam_m_.size() + adam_v_.size());
  m.grads = f * static_cast<double>(grads_.size());
  m.activations = f * static_cast<double>(activations_.size());
  m.scratch = f * static_cast<double>(scratch_.size()) +
              static_cast<double>(inputs_.size() + targets_.size());
  m.text = static_cast<double>(text_.size());
  m.total = m.params + m.adam + m.grads + m.activations + m.scratch + m.text;
  return m;
}

void Trainer::set_params(const float* params) {
  std::copy(params, params + layout_.total, params_.begin());
  refresh_transposed();
}

void Trainer::batch(int s, uint8_t* inputs, uint8_t* targets) const {
  sample_batch(inputs, targets, split_, config_.seed, s, config_.batch, config_.seq);
}

int Trainer::heldout_windows() const { return train::heldout_windows(split_, config_.seq); }

int Trainer::micro_batches(int n_seq) const {
  return (n_seq + config_.micro_batch - 1) / config_.micro_batch;
}

int Trainer::micro_batch_sequences(int mb, int n_seq) const {
  return std::min(config_.micro_batch, n_seq - mb * config_.micro_batch);
}

int Trainer::units_per_step() const {
  return micro_batches(config_.batch) * (2 * config_.layers + 1) + 1;
}

// W^T of every weight matrix: the forward's gemm streams rows of W^T.
void Trainer::refresh_transposed() {
  const int D = config_.hidden, F = config_.mlp_width();
  for (int l = 0; l < config_.layers; ++l) {
    const LayerParamOffsets& o = layout_.layers[l];
    const TransposedOffsets t = transposed_offsets(config_, l);
    transpose(transposed_.data() + t.qkv, params_.data() + o.qkv, 3 * D, D, D);
    transpose(transposed_.data() + t.attn_out, params_.data() + o.attn_out, D, D, D);
    transpose(transposed_.data() + t.fc, params_.data() + o.fc, F, D, D);
    transpose(transposed_.data() + t.fc_out, params_.data() + o.fc_out, D, F, F);
  }
  transpose(transposed_.data() + transposed_wte_offset(config_), params_.data() + layout_.wte, V, D,
            D);
}

// out[s, t] = wte[token] + wpe[t].  out: (S T, D); tokens: (S T)
void Trainer::embed(float* out, const uint8_t* tokens, int S, int T) const {
  const int D = config_.hidden;
  const float* wte = params_.data() + layout_.wte;
  const float* wpe = params_.data() + layout_.wpe;
  for (int s = 0; s < S; ++s) {
    for (int t = 0; t < T; ++t) {
      const std::size_t row = static_cast<std::size_t>(s) * T + t;
      add(out + row * D, wte + static_cast<std::size_t>(tokens[row]) * D,
          wpe + static_cast<std::size_t>(t) * D, D);
    }
  }
}

// dwte_input[token] += dx, dwpe[t] += dx, row by row in order.  dx: (S T, D)
// The input side of the tied embedding sums apart from the head's side
// (dwte_input_, added to the gradient once per step): interleaved, the two
// sums would be added in an order that depends on the micro-batch size.
void Trainer::embed_backward(const uint8_t* tokens, int S) {
  const int D = config_.hidden, T = config_.seq;
  float* dwte = dwte_input_;
  float* dwpe = grads_.data() + layout_.wpe;
  for (int s = 0; s < S; ++s) {
    for (int t = 0; t < T; ++t) {
      const std::size_t row = static_cast<std::size_t>(s) * T + t;
      const float* dx = dstream_ + row * D;
      float* dwte_row = dwte + static_cast<std::size_t>(tokens[row]) * D;
      float* dwpe_row = dwpe + static_cast<std::size_t>(t) * D;
      add(dwte_row, dwte_row, dx, D);
      add(dwpe_row, dwpe_row, dx, D);
    }
  }
}

// proj = attn_out(attention(qkv(in))) for S sequences of T tokens, caching
// a.qkv, a.att, a.attn_y (and QK-norm's inputs and statistics).
// proj, in: (S T, D); key_t: (dh, T) scratch
void Trainer::attention_sublayer_forward(int l, const LayerActs& a, float* proj, const float* in,
                                         float* key_t, int S, int T, float* max_logit) {
  const int D = config_.hidden, H = config_.heads, R = S * T;
  const LayerParamOffsets& o = layout_.layers[l];
  const TransposedOffsets t = transposed_offsets(config_, l);
  const float* wt = transposed_.data();
  matmul_forward(a.qkv, in, wt + t.qkv, R, D, 3 * D);
  if (config_.qk_norm) qk_norm_forward(a, params_.data() + o.q_gain, params_.data() + o.k_gain, R);
  attention_forward(a.attn_y, a.att, a.qkv, key_t, S, T, D, H, max_logit);
  matmul_forward(proj, a.attn_y, wt + t.attn_out, R, D, D);
}

// QK-norm: each row's H query vectors (dh each) RMS-normalized with the
// gain gq, its H key vectors with gk, in place in a.qkv; the vectors before
// it are kept in a.qk_in for the backward. The heads of a row's q are H
// contiguous rows of dh for the norm kernel. gq, gk: (dh)
void Trainer::qk_norm_forward(const LayerActs& a, const float* gq, const float* gk, int R) {
  const int D = config_.hidden, H = config_.heads, dh = config_.head_dim();
  for (int r = 0; r < R; ++r) {
    float* q = a.qkv + static_cast<std::size_t>(r) * 3 * D;  // q then k: (2D)
    float* in = a.qk_in + static_cast<std::size_t>(r) * 2 * D;
    float* rstd = a.qk_rstd + static_cast<std::size_t>(r) * 2 * H;
    std::copy(q, q + 2 * D, in);
    rmsnorm_forward(q, rstd, in, gq, H, dh, config_.eps);
    rmsnorm_forward(q + D, rstd + H, in + D, gk, H, dh, config_.eps);
  }
}

// QK-norm's backward, in place in dqkv's q and k parts (on entry dL/d of
// the normalized vectors, on return of those before it); the gains'
// gradients accumulated row by row in order. dqkv: (R, 3D);
// scratch: (D); dgq, dgk: (dh)
void Trainer::qk_norm_backward(const LayerActs& a, float* dqkv, float* dgq, float* dgk,
                               const float* gq, const float* gk, float* scratch, int R) {
  const int D = config_.hidden, H = config_.heads, dh = config_.head_dim();
  for (int r = 0; r < R; ++r) {
    float* dq = dqkv + static_cast<std::size_t>(r) * 3 * D;
    const float* in = a.qk_in + static_cast<std::size_t>(r) * 2 * D;
    const float* rstd = a.qk_rstd + static_cast<std::size_t>(r) * 2 * H;
    std::copy(dq, dq + D, scratch);
    rmsnorm_backward(dq, dgq, scratch, in, gq, rstd, H, dh);
    std::copy(dq + D, dq + 2 * D, scratch);
    rmsnorm_backward(dq + D, dgk, scratch, in + D, gk, rstd + H, H, dh);
  }
}

// proj = fc_out(gelu(fc(in))), caching a.fc and a.gelu.  proj, in: (S T, D)
void Trainer::mlp_sublayer_forward(int l, const LayerActs& a, float* proj, const float* in, int R) {
  const int D = config_.hidden, F = config_.mlp_width();
  const TransposedOffsets t = transposed_offsets(config_, l);
  const float* wt = transposed_.data();
  matmul_forward(a.fc, in, wt + t.fc, R, D, F);
  gelu_forward(a.gelu, a.fc, R * F);
  matmul_forward(proj, a.gelu, wt + t.fc_out, R, F, D);
}

// The attention sublayer's backward: din (written) from dout = dL/dproj;
// its weights' gradients accumulated.  din, dout, in: (R, D)
void Trainer::attention_sublayer_backward(int l, const LayerActs& a, float* din, const float* dout,
                                          const float* in, int S) {
  const int D = config_.hidden, H = config_.heads, T = config_.seq, R = S * T;
  const LayerParamOffsets& o = layout_.layers[l];
  const float* p = params_.data();
  float* g = grads_.data();
  matmul_backward(dattn_y_, g + o.attn_out, dout, a.attn_y, p + o.attn_out, R, D, D, false);
  attention_backward(dqkv_, dattn_y_, a.att, a.qkv, head_t_, dp_, da_, S, T, D, H);
  // dattn_y_ is free again: QK-norm's scratch row.
  if (config_.qk_norm) {
    qk_norm_backward(a, dqkv_, g + o.q_gain, g + o.k_gain, p + o.q_gain, p + o.k_gain, dattn_y_, R);
  }
  matmul_backward(din, g + o.qkv, dqkv_, in, p + o.qkv, R, D, 3 * D, false);
}

// The MLP sublayer's backward: din (written) from dout = dL/dproj.
// din, dout, in: (R, D)
void Trainer::mlp_sublayer_backward(int l, const LayerActs& a, float* din, const float* dout,
                                    const float* in, int R) {
  const int D = config_.hidden, F = config_.mlp_width();
  const LayerParamOffsets& o = layout_.layers[l];
  const float* p = params_.data();
  float* g = grads_.data();
  matmul_backward(dgelu_, g + o.fc_out, dout, a.gelu, p + o.fc_out, R, F, D, false);
  gelu_backward(dfc_, dgelu_, a.fc, R * F);
  matmul_backward(din, g + o.fc, dfc_, in, p + o.fc, R, D, F, false);
}

// y = layer l (x) for S sequences of T tokens, filling a.
// y, x: (S T, D); proj: (S T, D) scratch; key_t: (dh, T) scratch
void Trainer::layer_forward(int l, const LayerActs& a, float* y, const float* x, float* proj,
                            float* key_t, int S, int T, float* max_logit) {
  const int D = config_.hidden, R = S * T;
  const std::size_t RD = static_cast<std::size_t>(R) * D;
  const NormKind kind = config_.norm;
  const float eps = config_.eps;
  const LayerParamOffsets& o = layout_.layers[l];
  const float* p = params_.data();
  const float* g1 = tensor_at(p, o.norm1_gain);
  const float* b1 = tensor_at(p, o.norm1_bias);
  const float* g2 = tensor_at(p, o.norm2_gain);
  const float* b2 = tensor_at(p, o.norm2_bias);
  const float* al1 = tensor_at(p, o.norm1_alpha);
  const float* al2 = tensor_at(p, o.norm2_alpha);

  if (config_.norm == NormKind::none) {
    attention_sublayer_forward(l, a, proj, x, key_t, S, T, max_logit);
    add(a.mid, x, proj, RD);
    mlp_sublayer_forward(l, a, proj, a.mid, R);
    add(y, a.mid, proj, RD);
  } else if (config_.placement == Placement::pre) {
    norm_forward(kind, a.norm1, a.norm1_mean, a.norm1_rstd, x, g1, b1, al1, R, D, eps);
    attention_sublayer_forward(l, a, proj, a.norm1, key_t, S, T, max_logit);
    add(a.mid, x, proj, RD);
    norm_forward(kind, a.norm2, a.norm2_mean, a.norm2_rstd, a.mid, g2, b2, al2, R, D, eps);
    mlp_sublayer_forward(l, a, proj, a.norm2, R);
    add(y, a.mid, proj, RD);
  } else if (config_.placement == Placement::output) {
    attention_sublayer_forward(l, a, a.branch1, x, key_t, S, T, max_logit);
    norm_forward(kind, a.norm1, a.norm1_mean, a.norm1_rstd, a.branch1, g1, b1, al1, R, D, eps);
    add(a.mid, x, a.norm1, RD);
    mlp_sublayer_forward(l, a, a.branch2, a.mid, R);
    norm_forward(kind, a.norm2, a.norm2_mean, a.norm2_rstd, a.branch2, g2, b2, al2, R, D, eps);
    add(y, a.mid, a.norm2, RD);
  } else if (config_.placement == Placement::sandwich) {
    const float* g1o = tensor_at(p, o.norm1_out_gain);
    const float* b1o = tensor_at(p, o.norm1_out_bias);
    const float* g2o = tensor_at(p, o.norm2_out_gain);
    const float* b2o = tensor_at(p, o.norm2_out_bias);
    const float* al1o = tensor_at(p, o.norm1_out_alpha);
    const float* al2o = tensor_at(p, o.norm2_out_alpha);
    norm_forward(kind, a.norm1, a.norm1_mean, a.norm1_rstd, x, g1, b1, al1, R, D, eps);
    attention_sublayer_forward(l, a, a.branch1, a.norm1, key_t, S, T, max_logit);
    norm_forward(kind, proj, a.branch1_mean, a.branch1_rstd, a.branch1, g1o, b1o, al1o, R, D, eps);
    add(a.mid, x, proj, RD);
    norm_forward(kind, a.norm2, a.norm2_mean, a.norm2_rstd, a.mid, g2, b2, al2, R, D, eps);
    mlp_sublayer_forward(l, a, a.branch2, a.norm2, R);
    norm_forward(kind, proj, a.branch2_mean, a.branch2_rstd, a.branch2, g2o, b2o, al2o, R, D, eps);
    add(y, a.mid, proj, RD);
  } else {
    // post, and DeepNorm with the stream weighted by alpha.
    const float alpha = config_.residual_alpha();
    attention_sublayer_forward(l, a, proj, x, key_t, S, T, max_logit);
    residual_sum(a.norm1, alpha, x, proj, RD);
    norm_forward(kind, a.mid, a.norm1_mean, a.norm1_rstd, a.norm1, g1, b1, al1, R, D, eps);
    mlp_sublayer_forward(l, a, proj, a.mid, R);
    residual_sum(a.norm2, alpha, a.mid, proj, RD);
    norm_forward(kind, y, a.norm2_mean, a.norm2_rstd, a.norm2, g2, b2, al2, R, D, eps);
  }
}

// Layer l's backward for the micro-batch: dstream holds dL/dy on entry and
// dL/dx on return (dy is last read before dx is first written); the layer's
// parameter gradients are accumulated. x: (R, D) the layer's input.
void Trainer::layer_backward(int l, const LayerActs& a, float* dstream, const float* x, int S) {
  const int D = config_.hidden, T = config_.seq;
  const int R = S * T;
  const std::size_t RD = static_cast<std::size_t>(R) * D;
  const NormKind kind = config_.norm;
  const LayerParamOffsets& o = layout_.layers[l];
  const float* p = params_.data();
  float* g = grads_.data();
  const float* g1 = tensor_at(p, o.norm1_gain);
  const float* g2 = tensor_at(p, o.norm2_gain);
  float* dg1 = tensor_at(g, o.norm1_gain);
  float* db1 = tensor_at(g, o.norm1_bias);
  float* dg2 = tensor_at(g, o.norm2_gain);
  float* db2 = tensor_at(g, o.norm2_bias);
  const float* al1 = tensor_at(p, o.norm1_alpha);
  const float* al2 = tensor_at(p, o.norm2_alpha);
  float* dal1 = tensor_at(g, o.norm1_alpha);
  float* dal2 = tensor_at(g, o.norm2_alpha);
  float* dy = dstream;
  float* dx = dstream;

  if (config_.norm == NormKind::none) {
    // y = mid + fc_out(gelu(fc(mid))), mid = x + attn_out(attn(qkv(x)))
    mlp_sublayer_backward(l, a, dmid_, dy, a.mid, R);
    add(dmid_, dmid_, dy, RD);
    attention_sublayer_backward(l, a, dx, dmid_, x, S);
    add(dx, dx, dmid_, RD);
  } else if (config_.placement == Placement::pre) {
    // y = mid + fc_out(gelu(fc(N2(mid)))), mid = x + attn_out(attn(qkv(N1(x))))
    mlp_sublayer_backward(l, a, dtmp_, dy, a.norm2, R);
    norm_backward(kind, dmid_, dg2, db2, dal2, dtmp_, a.mid, g2, al2, a.norm2_mean, a.norm2_rstd, R,
                  D);
    add(dmid_, dmid_, dy, RD);
    attention_sublayer_backward(l, a, dtmp_, dmid_, a.norm1, S);
    norm_backward(kind, dx, dg1, db1, dal1, dtmp_, x, g1, al1, a.norm1_mean, a.norm1_rstd, R, D);
    add(dx, dx, dmid_, RD);
  } else if (config_.placement == Placement::output) {
    // y = mid + N2(b2), b2 = fc_out(gelu(fc(mid))); mid = x + N1(b1),
    // b1 = attn_out(attn(qkv(x))). dtmp holds db2, then db1.
    norm_backward(kind, dtmp_, dg2, db2, dal2, dy, a.branch2, g2, al2, a.norm2_mean, a.norm2_rstd,
                  R, D);
    mlp_sublayer_backward(l, a, dmid_, dtmp_, a.mid, R);
    add(dmid_, dmid_, dy, RD);
    norm_backward(kind, dtmp_, dg1, db1, dal1, dmid_, a.branch1, g1, al1, a.norm1_mean,
                  a.norm1_rstd, R, D);
    attention_sublayer_backward(l, a, dx, dtmp_, x, S);
    add(dx, dx, dmid_, RD);
  } else if (config_.placement == Placement::sandwich) {
    // y = mid + N2o(b2), b2 = fc_out(gelu(fc(N2(mid)))); mid = x + N1o(b1),
    // b1 = attn_out(attn(qkv(N1(x)))). dtmp holds db2, dattn_y dN2's
    // output (attention's backward has not begun), dtmp db1, dx dN1's
    // output once dy is read, then dtmp dN1's input.
    const float* g1o = tensor_at(p, o.norm1_out_gain);
    const float* g2o = tensor_at(p, o.norm2_out_gain);
    const float* al1o = tensor_at(p, o.norm1_out_alpha);
    const float* al2o = tensor_at(p, o.norm2_out_alpha);
    norm_backward(kind, dtmp_, tensor_at(g, o.norm2_out_gain), tensor_at(g, o.norm2_out_bias),
                  tensor_at(g, o.norm2_out_alpha), dy, a.branch2, g2o, al2o, a.branch2_mean,
                  a.branch2_rstd, R, D);
    mlp_sublayer_backward(l, a, dattn_y_, dtmp_, a.norm2, R);
    norm_backward(kind, dmid_, dg2, db2, dal2, dattn_y_, a.mid, g2, al2, a.norm2_mean, a.norm2_rstd,
                  R, D);
    add(dmid_, dmid_, dy, RD);
    norm_backward(kind, dtmp_, tensor_at(g, o.norm1_out_gain), tensor_at(g, o.norm1_out_bias),
                  tensor_at(g, o.norm1_out_alpha), dmid_, a.branch1, g1o, al1o, a.branch1_mean,
                  a.branch1_rstd, R, D);
    attention_sublayer_backward(l, a, dx, dtmp_, a.norm1, S);
    norm_backward(kind, dtmp_, dg1, db1, dal1, dx, x, g1, al1, a.norm1_mean, a.norm1_rstd, R, D);
    add(dx, dtmp_, dmid_, RD);
  } else {
    // y = N2(s2), s2 = alpha mid + fc_out(gelu(fc(mid))); mid = N1(s1),
    // s1 = alpha x + attn_out(attn(qkv(x))) (alpha 1 but for DeepNorm).
    // dtmp holds ds2, then ds1.
    const float alpha = config_.residual_alpha();
    norm_backward(kind, dtmp_, dg2, db2, dal2, dy, a.norm2, g2, al2, a.norm2_mean, a.norm2_rstd, R,
                  D);
    mlp_sublayer_backward(l, a, dmid_, dtmp_, a.mid, R);
    add_scaled(dmid_, alpha, dtmp_, RD);
    norm_backward(kind, dtmp_, dg1, db1, dal1, dmid_, a.norm1, g1, al1, a.norm1_mean, a.norm1_rstd,
                  R, D);
    attention_sublayer_backward(l, a, dx, dtmp_, x, S);
    add_scaled(dx, alpha, dtmp_, RD);
  }
}

// The head's input: the final norm's output (pre-norm) or the stream itself.
// out: (R, D); mean, rstd: (R); x: (R, D)
const float* Trainer::final_features(const float* x, float* out, float* mean, float* rstd,
                                     int R) const {
  if (!config_.has_final_norm()) return x;
  const float* p = params_.data();
  norm_forward(config_.norm, out, mean, rstd, x, tensor_at(p, layout_.final_gain),
               tensor_at(p, layout_.final_bias), tensor_at(p, layout_.final_alpha), R,
               config_.hidden, config_.eps);
  return out;
}

// Final norm, logits, softmax, loss, and their backward down to dstream:
//   logits = xf wte^T, p = softmax(logits), loss_r = -log p[target_r]
//   dlogits = (p - onehot(target)) * scale   (scale = 1 / predictions)
//   dxf = dlogits wte, dwte += dlogits^T xf, dx = final norm backward (dxf)
// Adds the rows' losses to loss_sum_, row by row (the same additions in the
// same order for every micro-batch size).  targets: (S T)
void Trainer::head_forward_backward(const uint8_t* targets, int S, float scale) {
  const int D = config_.hidden, R = S * config_.seq;
  const float* x =
      stream_ + static_cast<std::size_t>(config_.layers) * config_.micro_batch * config_.seq * D;
  const float* xf = final_features(x, final_norm_, final_mean_, final_rstd_, R);
  matmul_forward(logits_, xf, transposed_.data() + transposed_wte_offset(config_), R, D, V);
  softmax_forward(probs_, logits_, R, V, 1.0f);
  for (int r = 0; r < R; ++r) {
    const std::size_t row = static_cast<std::size_t>(r) * V;
    loss_sum_ += row_loss(logits_ + row, probs_ + row, targets[r]);
  }
  float* dlogits = logits_;
  model::scale(dlogits, probs_, scale, static_cast<std::size_t>(R) * V);
  for (int r = 0; r < R; ++r) dlogits[static_cast<std::size_t>(r) * V + targets[r]] -= scale;
  float* dxf = config_.has_final_norm() ? dtmp_ : dstream_;
  matmul_backward(dxf, grads_.data() + layout_.wte, dlogits, xf, params_.data() + layout_.wte, R, D,
                  V, false);
  if (config_.has_final_norm()) {
    float* g = grads_.data();
    const float* p = params_.data();
    norm_backward(config_.norm, dstream_, tensor_at(g, layout_.final_gain),
                  tensor_at(g, layout_.final_bias), tensor_at(g, layout_.final_alpha), dxf, x,
                  tensor_at(p, layout_.final_gain), tensor_at(p, layout_.final_alpha), final_mean_,
                  final_rstd_, R, D);
  }
}

// One unit of forward/backward work on the micro-batch mb_ of n_seq
// sequences (inputs, targets: (n_seq, T)); scale = 1 / (n_seq T).
void Trainer::run_unit(const uint8_t* inputs, const uint8_t* targets, int n_seq, float scale) {
  const int T = config_.seq, D = config_.hidden;
  const int S = micro_batch_sequences(mb_, n_seq);
  const std::size_t RD = static_cast<std::size_t>(config_.micro_batch) * T * D;  // a stream slot
  const std::size_t first = static_cast<std::size_t>(mb_) * config_.micro_batch * T;
  switch (phase_) {
    case Phase::forward:
      if (layer_ == 0) embed(stream_, inputs + first, S, T);
      layer_forward(layer_, acts_[layer_], stream_ + (layer_ + 1) * RD, stream_ + layer_ * RD,
                    proj_, head_t_, S, T, &max_logit_[layer_]);
      add_row_l2(&stream_l2_sum_[layer_], stream_ + layer_ * RD, S * T, D);
      if (++layer_ == config_.layers) {
        add_row_l2(&stream_l2_sum_[layer_], stream_ + layer_ * RD, S * T, D);
        phase_ = Phase::head;
      }
      break;
    case Phase::head:
      head_forward_backward(targets + first, S, scale);
      phase_ = Phase::backward;
      layer_ = config_.layers - 1;
      break;
    case Phase::backward:
      layer_backward(layer_, acts_[layer_], dstream_, stream_ + layer_ * RD, S);
      if (layer_ > 0) {
        --layer_;
        break;
      }
      embed_backward(inputs + first, S);
      layer_ = 0;
      phase_ = ++mb_ == micro_batches(n_seq) ? Phase::update : Phase::forward;
      break;
    case Phase::update:
      break;
  }
}

bool Trainer::advance(StepResult* result) {
  const int B = config_.batch, T = config_.seq;
  if (diverged_) {
    // No more computing once the weights are no longer finite.
    *result = {step_++,
               NAN,
               NAN,
               NAN,
               0.0,
               0.0,
               0.0,
               true,
               std::vector<float>(config_.layers, NAN),
               std::vector<float>(config_.layers + 1, NAN)};
    return true;
  }
  if (units_done_ == 0) {
    batch(step_, inputs_.data(), targets_.data());
    loss_sum_ = 0.0;
    reset_step_probes();
    fill_unset(activations_.data(), activations_.size());
  }
  ++units_done_;
  if (phase_ != Phase::update) {
    run_unit(inputs_.data(), targets_.data(), B, 1.0f / static_cast<float>(B * T));
    return false;
  }
  *result = update();
  return true;
}

void Trainer::reset_step_probes() {
  max_logit_.assign(config_.layers, -INFINITY);
  stream_l2_sum_.assign(config_.layers + 1, 0.0);
}

StepResult Trainer::step() {
  StepResult result;
  while (!advance(&result)) {
  }
  return result;
}

// Adam on the step's gradients, unless the loss or a gradient is not finite;
// then the gradients are zeroed for the next step.
StepResult Trainer::update() {
  add(grads_.data() + layout_.wte, grads_.data() + layout_.wte, dwte_input_,
      static_cast<std::size_t>(V) * config_.hidden);
  StepResult r;
  r.step = step_;
  r.loss = loss_sum_ / (static_cast<double>(config_.batch) * config_.seq);
  const LayerParamOffsets& first = layout_.layers.front();
  const LayerParamOffsets& last = layout_.layers.back();
  r.grad_first = std::sqrt(sum_squares(grads_.data() + first.begin, first.end - first.begin));
  r.grad_last = std::sqrt(sum_squares(grads_.data() + last.begin, last.end - last.begin));
  r.max_logit = max_logit_;
  r.stream_norm.resize(stream_l2_sum_.size());
  for (std::size_t i = 0; i < stream_l2_sum_.size(); ++i) {
    r.stream_norm[i] =
        static_cast<float>(stream_l2_sum_[i] / (static_cast<double>(config_.batch) * config_.seq));
  }
  const double warm = config_.warmup > 0 ? std::min(1.0, (step_ + 1.0) / config_.warmup) : 1.0;
  r.lr = config_.lr * warm;
  const bool finite =
      std::isfinite(r.loss) && std::isfinite(sum_squares(grads_.data(), grads_.size()));
  r.update_first = r.update_last = 0.0;
  if (finite) {
    // Layers 0 and L - 1 as they were, for the size of their update.
    const std::size_t n = first.end - first.begin;
    float* before_first = update_before_.data();
    float* before_last = before_first + n;
    std::copy(params_.data() + first.begin, params_.data() + first.end, before_first);
    std::copy(params_.data() + last.begin, params_.data() + last.end, before_last);
    beta1_power_ *= kBeta1;
    beta2_power_ *= kBeta2;
    adam_update(params_.data(), adam_m_.data(), adam_v_.data(), grads_.data(), params_.size(),
                static_cast<float>(r.lr), kBeta1, kBeta2, kAdamEps,
                static_cast<float>(1.0 - beta1_power_), static_cast<float>(1.0 - beta2_power_));
    refresh_transposed();
    r.update_first = relative_change(before_first, params_.data() + first.begin, n);
    r.update_last = relative_change(before_last, params_.data() + last.begin, n);
  } else {
    diverged_ = true;
  }
  r.diverged = diverged_;
  std::fill(grads_.begin(), grads_.end(), 0.0f);
  std::fill(dwte_input_, dwte_input_ + static_cast<std::size_t>(V) * config_.hidden, 0.0f);
  ++step_;
  phase_ = Phase::forward;
  mb_ = 0;
  layer_ = 0;
  units_done_ = 0;
  return r;
}

double Trainer::loss_and_gradients(const uint8_t* inputs, const uint8_t* targets, int n_seq) {
  std::fill(grads_.begin(), grads_.end(), 0.0f);
  std::fill(dwte_input_, dwte_input_ + static_cast<std::size_t>(V) * config_.hidden, 0.0f);
  loss_sum_ = 0.0;
  reset_step_probes();
  fill_unset(activations_.data(), activations_.size());
  const float scale = 1.0f / static_cast<float>(n_seq * config_.seq);
  phase_ = Phase::forward;
  mb_ = 0;
  layer_ = 0;
  while (phase_ != Phase::update) run_unit(inputs, targets, n_seq, scale);
  add(grads_.data() + layout_.wte, grads_.data() + layout_.wte, dwte_input_,
      static_cast<std::size_t>(V) * config_.hidden);
  std::fill(dwte_input_, dwte_input_ + static_cast<std::size_t>(V) * config_.hidden, 0.0f);
  phase_ = Phase::forward;
  mb_ = 0;
  return loss_sum_ / (static_cast<double>(n_seq) * config_.seq);
}

const float* Trainer::forward_stream(const uint8_t* tokens, int T, LayerNormProbe* probe) {
  const int D = config_.hidden, L = config_.layers;
  const bool has_norm = config_.norm != NormKind::none;
  // Where each norm's input and output sit (layer_forward): N1 and N2 read
  // the stream as pre-norm's do in a sandwich, the branches' outputs in
  // 'output'; post-norm's read the residual sums (DeepNorm's too).
  const bool pre = config_.placement == Placement::pre || config_.placement == Placement::sandwich;
  const bool branch_norms = config_.placement == Placement::output;
  if (probe) {
    probe->layers = L;
    probe->tokens = T;
    probe->step = step_;
    probe->residual.assign(L + 1, 0.0f);
    probe->norm_in.assign(has_norm ? model::kLayerNorms * L : 0, 0.0f);
    probe->norm_out.assign(has_norm ? model::kLayerNorms * L : 0, 0.0f);
    probe->attention_entropy.assign(L, 0.0f);
    probe->token_similarity.assign(L + 1, 0.0f);
  }
  // The inference buffers, the end of scratch_ from infer_acts_ on: NaN in
  // a NORMLAB_FILL_UNSET_NAN build (unset_floats.h), as each pass writes
  // what it reads.
  fill_unset(infer_acts_.norm1, scratch_.data() + scratch_.size() - infer_acts_.norm1);
  const LayerActs& a = infer_acts_;
  auto l2 = [T, D](const float* rows) { return static_cast<float>(mean_row_l2(rows, T, D)); };
  float* x = infer_stream_[0];
  float* y = infer_stream_[1];
  embed(x, tokens, 1, T);
  for (int l = 0; l < L; ++l) {
    layer_forward(l, a, y, x, infer_proj_, infer_key_t_, 1, T, nullptr);
    // Where each norm's input and output sit in the cache: layer_forward.
    if (probe) {
      probe->residual[l] = l2(x);
      probe->token_similarity[l] = static_cast<float>(mean_row_cosine(x, T, D));
      probe->attention_entropy[l] =
          static_cast<float>(mean_attention_entropy(a.att, config_.heads, T));
      if (has_norm) {
        float* in = probe->norm_in.data() + model::kLayerNorms * l;
        float* out = probe->norm_out.data() + model::kLayerNorms * l;
        if (pre) {
          in[model::kInputNorm] = probe->residual[l];
          out[model::kInputNorm] = l2(a.norm1);
          in[model::kPostAttentionNorm] = l2(a.mid);
          out[model::kPostAttentionNorm] = l2(a.norm2);
        } else if (branch_norms) {
          in[model::kInputNorm] = l2(a.branch1);
          out[model::kInputNorm] = l2(a.norm1);
          in[model::kPostAttentionNorm] = l2(a.branch2);
          out[model::kPostAttentionNorm] = l2(a.norm2);
        } else {
          in[model::kInputNorm] = l2(a.norm1);
          out[model::kInputNorm] = l2(a.mid);
          in[model::kPostAttentionNorm] = l2(a.norm2);
          out[model::kPostAttentionNorm] = l2(y);
        }
      }
    }
    std::swap(x, y);
  }
  if (probe) {
    probe->residual[L] = l2(x);
    probe->token_similarity[L] = static_cast<float>(mean_row_cosine(x, T, D));
  }
  return x;
}

void Trainer::layer_norms(LayerNormProbe* probe, const uint8_t* tokens, int T) {
  forward_stream(tokens, T, probe);
}

const float* Trainer::forward_logits(const uint8_t* tokens, int T, int first_row) {
  const int D = config_.hidden;
  const float* x = forward_stream(tokens, T, nullptr);
  const int rows = T - first_row;
  const std::size_t skip = static_cast<std::size_t>(first_row) * D;
  const float* xf =
      final_features(x + skip, infer_final_, infer_final_mean_, infer_final_rstd_, rows);
  matmul_forward(infer_logits_, xf, transposed_.data() + transposed_wte_offset(config_), rows, D,
                 V);
  return infer_logits_;
}

void Trainer::heldout_layer_norms(LayerNormProbe* probe) {
  const int T = config_.seq;
  std::vector<uint8_t> inputs(T), targets(T);
  heldout_window(inputs.data(), targets.data(), split_, 0, T);
  layer_norms(probe, inputs.data(), T);
}

double Trainer::heldout_window_loss(int w) {
  const int T = config_.seq;
  std::vector<uint8_t> inputs(T), targets(T);
  heldout_window(inputs.data(), targets.data(), split_, w, T);
  const float* logits = forward_logits(inputs.data(), T, 0);
  softmax_forward(infer_probs_, logits, T, V, 1.0f);
  double loss_sum = 0.0;
  for (int t = 0; t < T; ++t) {
    const std::size_t row = static_cast<std::size_t>(t) * V;
    loss_sum += row_loss(logits + row, infer_probs_ + row, targets[t]);
  }
  return loss_sum;
}

double Trainer::evaluate() {
  const int windows = heldout_windows();
  double loss_sum = 0.0;
  for (int w = 0; w < windows; ++w) loss_sum += heldout_window_loss(w);
  return windows > 0 ? loss_sum / (static_cast<double>(windows) * config_.seq) : NAN;
}

std::string Trainer::generate(const std::string& prompt, int n, double temperature, uint32_t seed) {
  Sampling s = begin_sampling(prompt, temperature, seed);
  if (n <= 0) return s.out;
  s.out.reserve(n);
  for (int i = 0; i < n; ++i) sample_next(&s);
  return s.out;
}

Trainer::Sampling Trainer::begin_sampling(const std::string& prompt, double temperature,
                                          uint32_t seed) const {
  // Temperatures too small for a float softmax (below ~1e-38) are greedy.
  const float temp = static_cast<float>(temperature);
  return Sampling{prompt.empty() ? std::string("\n") : prompt, std::string(),
                  model::SplitMix64(model::tensor_seed(seed, 0, 0x67656E)),  // "gen"
                  temp, !(temp >= FLT_MIN)};
}

void Trainer::next_byte_probabilities(float* out, const std::string& prompt) {
  const std::string& context = prompt.empty() ? std::string("\n") : prompt;
  const int T = std::min<int>(config_.seq, static_cast<int>(context.size()));
  const auto* window = reinterpret_cast<const uint8_t*>(context.data() + context.size() - T);
  const float* logits = forward_logits(window, T, T - 1);  // (1, V)
  softmax_forward(out, logits, 1, V, 1.0f);
}

void Trainer::sample_next(Sampling* s) {
  const int T = std::min<int>(config_.seq, static_cast<int>(s->context.size()));
  const auto* window = reinterpret_cast<const uint8_t*>(s->context.data() + s->context.size() - T);
  const float* logits = forward_logits(window, T, T - 1);  // (1, V)
  int next = 0;
  if (s->greedy) {
    for (int j = 1; j < V; ++j) {
      if (logits[j] > logits[next]) next = j;
    }
  } else {
    softmax_forward(infer_probs_, logits, 1, V, s->temperature);
    // Inverse CDF; rounding may leave u above the last partial sum, and a
    // NaN row (a diverged model) never passes it: both take the last byte.
    const double u = s->rng.uniform();
    double cumulative = 0.0;
    next = V - 1;
    for (int j = 0; j < V; ++j) {
      cumulative += infer_probs_[j];
      if (u < cumulative) {
        next = j;
        break;
      }
    }
  }
  const char byte = static_cast<char>(next);
  s->out.push_back(byte);
  s->context.push_back(byte);
}

}  // namespace normlab::train
