// The double-precision reference model (see train_reference.h): plain loops,
// the math of train/trainer.h written out, a cache per layer, the backward
// in reverse.
//
// V = 256, D = hidden, H = heads, dh = D / H, F = 4 D, L = layers, T = seq,
// N = sequences, R = N T rows
#include "train_reference.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace normlab::test {

namespace {

using train::kAbsent;
using train::NormKind;
using train::Placement;
using Vec = std::vector<double>;
constexpr int V = train::TrainConfig::kVocab;

const double* at(const Vec& p, std::size_t offset) {
  return offset == kAbsent ? nullptr : p.data() + offset;
}
double* at(Vec& p, std::size_t offset) { return offset == kAbsent ? nullptr : p.data() + offset; }

// out, mean, rstd: (R, D), (R), (R); x: (R, D); gain, bias: (D) or nullptr;
// alpha: (1) DyT's (y = gain tanh(alpha x) + bias), else nullptr
void norm_forward(NormKind kind, Vec& out, Vec& mean, Vec& rstd, const Vec& x, const double* gain,
                  const double* bias, const double* alpha, int R, int D, double eps) {
  out.assign(static_cast<std::size_t>(R) * D, 0.0);
  mean.assign(R, 0.0);
  rstd.assign(R, 0.0);
  for (int r = 0; r < R; ++r) {
    const double* x_r = &x[static_cast<std::size_t>(r) * D];
    if (kind == NormKind::dyt) {
      for (int i = 0; i < D; ++i)
        out[static_cast<std::size_t>(r) * D + i] = gain[i] * std::tanh(*alpha * x_r[i]) + bias[i];
      continue;
    }
    double mu = 0.0;
    if (kind == NormKind::layernorm) {
      for (int i = 0; i < D; ++i) mu += x_r[i] / D;
    }
    double ms = 0.0;
    for (int i = 0; i < D; ++i) ms += (x_r[i] - mu) * (x_r[i] - mu) / D;
    const double rs = 1.0 / std::sqrt(ms + eps);
    mean[r] = mu;
    rstd[r] = rs;
    for (int i = 0; i < D; ++i) {
      out[static_cast<std::size_t>(r) * D + i] =
          (x_r[i] - mu) * rs * (gain ? gain[i] : 1.0) + (bias ? bias[i] : 0.0);
    }
  }
}

// xhat = (x - mean) r, u = g dy:
//   RMSNorm    dx = r (u - xhat mean(u xhat))
//   LayerNorm  dx = r (u - mean(u) - xhat mean(u xhat))
// dgain += dy xhat, dbias += dy. DyT, t = tanh(alpha x):
//   dx = u alpha (1 - t^2), dgain += dy t, dbias += dy, dalpha += u x (1 - t^2)
// dx: (R, D) written
void norm_backward(NormKind kind, Vec& dx, double* dgain, double* dbias, double* dalpha,
                   const Vec& dy, const Vec& x, const double* gain, const double* alpha,
                   const Vec& mean, const Vec& rstd, int R, int D) {
  dx.assign(static_cast<std::size_t>(R) * D, 0.0);
  for (int r = 0; r < R; ++r) {
    const std::size_t o = static_cast<std::size_t>(r) * D;
    if (kind == NormKind::dyt) {
      for (int i = 0; i < D; ++i) {
        const double t = std::tanh(*alpha * x[o + i]);
        const double u = gain[i] * dy[o + i];
        dx[o + i] = u * *alpha * (1.0 - t * t);
        dgain[i] += dy[o + i] * t;
        dbias[i] += dy[o + i];
        *dalpha += u * x[o + i] * (1.0 - t * t);
      }
      continue;
    }
    double mean_u = 0.0, mean_u_xhat = 0.0;
    for (int i = 0; i < D; ++i) {
      const double xhat = (x[o + i] - mean[r]) * rstd[r];
      const double u = (gain ? gain[i] : 1.0) * dy[o + i];
      mean_u += u / D;
      mean_u_xhat += u * xhat / D;
    }
    if (kind != NormKind::layernorm) mean_u = 0.0;
    for (int i = 0; i < D; ++i) {
      const double xhat = (x[o + i] - mean[r]) * rstd[r];
      const double u = (gain ? gain[i] : 1.0) * dy[o + i];
      dx[o + i] = rstd[r] * (u - mean_u - xhat * mean_u_xhat);
      if (dgain) dgain[i] += dy[o + i] * xhat;
      if (dbias) dbias[i] += dy[o + i];
    }
  }
}

// y = x W^T.  y: (R, OC); x: (R, C); w: (OC, C)
void linear_forward(Vec& y, const Vec& x, const double* w, int R, int C, int OC) {
  y.assign(static_cast<std::size_t>(R) * OC, 0.0);
  for (int r = 0; r < R; ++r) {
    for (int o = 0; o < OC; ++o) {
      double s = 0.0;
      for (int c = 0; c < C; ++c)
        s += x[static_cast<std::size_t>(r) * C + c] * w[static_cast<std::size_t>(o) * C + c];
      y[static_cast<std::size_t>(r) * OC + o] = s;
    }
  }
}

// dx = dy W (written), dW += dy^T x
void linear_backward(Vec& dx, double* dw, const Vec& dy, const Vec& x, const double* w, int R,
                     int C, int OC) {
  dx.assign(static_cast<std::size_t>(R) * C, 0.0);
  for (int r = 0; r < R; ++r) {
    for (int o = 0; o < OC; ++o) {
      const double g = dy[static_cast<std::size_t>(r) * OC + o];
      for (int c = 0; c < C; ++c) {
        dx[static_cast<std::size_t>(r) * C + c] += g * w[static_cast<std::size_t>(o) * C + c];
        dw[static_cast<std::size_t>(o) * C + c] += g * x[static_cast<std::size_t>(r) * C + c];
      }
    }
  }
}

// y_i = sum_{j <= i} P_ij v_j, P_i = softmax_j (q_i . k_j / sqrt(dh)).
// y: (R, D); p: (N, H, T, T); qkv: (R, 3D); max_logit: the largest
// q_i . k_j / sqrt(dh), j <= i
void attention_forward(Vec& y, Vec& p, double& max_logit, const Vec& qkv, int N, int T, int D,
                       int H) {
  max_logit = -INFINITY;
  const int dh = D / H;
  const double scale = 1.0 / std::sqrt(static_cast<double>(dh));
  y.assign(static_cast<std::size_t>(N) * T * D, 0.0);
  p.assign(static_cast<std::size_t>(N) * H * T * T, 0.0);
  auto q_ = [&](int n, int t, int h, int c) {
    return qkv[(static_cast<std::size_t>(n) * T + t) * 3 * D + h * dh + c];
  };
  auto k_ = [&](int n, int t, int h, int c) {
    return qkv[(static_cast<std::size_t>(n) * T + t) * 3 * D + D + h * dh + c];
  };
  auto v_ = [&](int n, int t, int h, int c) {
    return qkv[(static_cast<std::size_t>(n) * T + t) * 3 * D + 2 * D + h * dh + c];
  };
  for (int n = 0; n < N; ++n) {
    for (int h = 0; h < H; ++h) {
      for (int i = 0; i < T; ++i) {
        double* p_i = &p[((static_cast<std::size_t>(n) * H + h) * T + i) * T];
        double m = -INFINITY;
        for (int j = 0; j <= i; ++j) {
          double a = 0.0;
          for (int c = 0; c < dh; ++c) a += q_(n, i, h, c) * k_(n, j, h, c);
          p_i[j] = a * scale;
          m = std::max(m, p_i[j]);
          max_logit = std::max(max_logit, p_i[j]);
        }
        double sum = 0.0;
        for (int j = 0; j <= i; ++j) sum += (p_i[j] = std::exp(p_i[j] - m));
        for (int j = 0; j <= i; ++j) p_i[j] /= sum;
        for (int c = 0; c < dh; ++c) {
          double s = 0.0;
          for (int j = 0; j <= i; ++j) s += p_i[j] * v_(n, j, h, c);
          y[(static_cast<std::size_t>(n) * T + i) * D + h * dh + c] = s;
        }
      }
    }
  }
}

// dP_ij = dy_i . v_j, dv_j += P_ij dy_i, dA_ij = P_ij (dP_ij - sum_k P_ik dP_ik) / sqrt(dh),
// dq_i += dA_ij k_j, dk_j += dA_ij q_i.  dqkv: (R, 3D) written
void attention_backward(Vec& dqkv, const Vec& dy, const Vec& p, const Vec& qkv, int N, int T, int D,
                        int H) {
  const int dh = D / H;
  const double scale = 1.0 / std::sqrt(static_cast<double>(dh));
  dqkv.assign(static_cast<std::size_t>(N) * T * 3 * D, 0.0);
  auto idx = [&](int n, int t, int part, int h, int c) {
    return (static_cast<std::size_t>(n) * T + t) * 3 * D + part * D + h * dh + c;
  };
  std::vector<double> dp(T);
  for (int n = 0; n < N; ++n) {
    for (int h = 0; h < H; ++h) {
      for (int i = 0; i < T; ++i) {
        const double* p_i = &p[((static_cast<std::size_t>(n) * H + h) * T + i) * T];
        const double* dy_i = &dy[(static_cast<std::size_t>(n) * T + i) * D + h * dh];
        double dot = 0.0;
        for (int j = 0; j <= i; ++j) {
          double s = 0.0;
          for (int c = 0; c < dh; ++c) {
            s += dy_i[c] * qkv[idx(n, j, 2, h, c)];
            dqkv[idx(n, j, 2, h, c)] += p_i[j] * dy_i[c];
          }
          dp[j] = s;
          dot += p_i[j] * s;
        }
        for (int j = 0; j <= i; ++j) {
          const double da = p_i[j] * (dp[j] - dot) * scale;
          for (int c = 0; c < dh; ++c) {
            dqkv[idx(n, i, 0, h, c)] += da * qkv[idx(n, j, 1, h, c)];
            dqkv[idx(n, j, 1, h, c)] += da * qkv[idx(n, i, 0, h, c)];
          }
        }
      }
    }
  }
}

// QK-norm: each row's H query vectors (dh each) RMS-normalized with gain gq,
// its H key vectors with gk, in place in qkv; qk_in keeps them before it
// and rstd their 1 / rms (q's H, then k's H per row).
// qkv: (R, 3D); qk_in: (R, 2D); rstd: (R, 2H); gq, gk: (dh)
void qk_norm_forward(Vec& qkv, Vec& qk_in, Vec& rstd, const double* gq, const double* gk, int R,
                     int D, int H, double eps) {
  const int dh = D / H;
  qk_in.assign(static_cast<std::size_t>(R) * 2 * D, 0.0);
  rstd.assign(static_cast<std::size_t>(R) * 2 * H, 0.0);
  for (int r = 0; r < R; ++r) {
    for (int part = 0; part < 2; ++part) {
      const double* gain = part == 0 ? gq : gk;
      for (int h = 0; h < H; ++h) {
        double* v = &qkv[static_cast<std::size_t>(r) * 3 * D + part * D + h * dh];
        double* in = &qk_in[static_cast<std::size_t>(r) * 2 * D + part * D + h * dh];
        double ms = 0.0;
        for (int c = 0; c < dh; ++c) ms += v[c] * v[c] / dh;
        const double rs = 1.0 / std::sqrt(ms + eps);
        rstd[static_cast<std::size_t>(r) * 2 * H + part * H + h] = rs;
        for (int c = 0; c < dh; ++c) {
          in[c] = v[c];
          v[c] = in[c] * rs * gain[c];
        }
      }
    }
  }
}

// Its backward, in place in dqkv's q and k parts: per vector, with
// xhat = x r and u = g dy, dx = r (u - xhat mean(u xhat)); dg += dy xhat.
void qk_norm_backward(Vec& dqkv, double* dgq, double* dgk, const Vec& qk_in, const Vec& rstd,
                      const double* gq, const double* gk, int R, int D, int H) {
  const int dh = D / H;
  for (int r = 0; r < R; ++r) {
    for (int part = 0; part < 2; ++part) {
      const double* gain = part == 0 ? gq : gk;
      double* dgain = part == 0 ? dgq : dgk;
      for (int h = 0; h < H; ++h) {
        double* d = &dqkv[static_cast<std::size_t>(r) * 3 * D + part * D + h * dh];
        const double* in = &qk_in[static_cast<std::size_t>(r) * 2 * D + part * D + h * dh];
        const double rs = rstd[static_cast<std::size_t>(r) * 2 * H + part * H + h];
        double mean_u_xhat = 0.0;
        for (int c = 0; c < dh; ++c) mean_u_xhat += gain[c] * d[c] * in[c] * rs / dh;
        for (int c = 0; c < dh; ++c) {
          const double xhat = in[c] * rs;
          dgain[c] += d[c] * xhat;
          d[c] = rs * (gain[c] * d[c] - xhat * mean_u_xhat);
        }
      }
    }
  }
}

constexpr double kSqrt2OverPi = 0.7978845608028654;

void gelu_forward(Vec& y, const Vec& x) {
  y.resize(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double h = x[i];
    y[i] = 0.5 * h * (1.0 + std::tanh(kSqrt2OverPi * (h + 0.044715 * h * h * h)));
  }
}

void gelu_backward(Vec& dx, const Vec& dy, const Vec& x) {
  dx.resize(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double h = x[i];
    const double t = std::tanh(kSqrt2OverPi * (h + 0.044715 * h * h * h));
    const double du = kSqrt2OverPi * (1.0 + 3.0 * 0.044715 * h * h);
    dx[i] = dy[i] * (0.5 * (1.0 + t) + 0.5 * h * (1.0 - t * t) * du);
  }
}

Vec sum(const Vec& a, const Vec& b) {
  Vec s(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) s[i] = a[i] + b[i];
  return s;
}

// alpha a + b: a residual sum with the stream weighted (DeepNorm).
Vec scaled_sum(double alpha, const Vec& a, const Vec& b) {
  Vec s(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) s[i] = alpha * a[i] + b[i];
  return s;
}

struct LayerCache {
  Vec x, norm1, norm1_mean, norm1_rstd, qkv, att, attn_y, mid, norm2, norm2_mean, norm2_rstd, fc,
      gelu, y, qk_in, qk_rstd;
  // output: the branches' outputs, N1's and N2's inputs; sandwich: N1o's
  // and N2o's inputs and statistics.
  Vec b1, b1_mean, b1_rstd, b2, b2_mean, b2_rstd;
  double max_logit;
};

// The mean over the rows of x (R, D) of each row's L2 norm.
double mean_row_l2(const Vec& x, int D) {
  const std::size_t R = x.size() / D;
  double total = 0.0;
  for (std::size_t r = 0; r < R; ++r) {
    double ss = 0.0;
    for (int i = 0; i < D; ++i) ss += x[r * D + i] * x[r * D + i];
    total += std::sqrt(ss);
  }
  return total / static_cast<double>(R);
}

// Sequence 0's attention rows t >= 1: entropy / log(t + 1), averaged over
// heads and rows. p: (N, H, T, T)
double mean_attention_entropy(const Vec& p, int H, int T) {
  double total = 0.0;
  for (int h = 0; h < H; ++h) {
    for (int t = 1; t < T; ++t) {
      double e = 0.0;
      for (int j = 0; j <= t; ++j) {
        const double w = p[(static_cast<std::size_t>(h) * T + t) * T + j];
        if (w > 0.0) e -= w * std::log(w);
      }
      total += e / std::log(t + 1.0);
    }
  }
  return total / (static_cast<double>(H) * (T - 1));
}

// Sequence 0's rows of x (T, D): the mean cosine similarity over pairs.
double mean_row_cosine(const Vec& x, int T, int D) {
  double total = 0.0;
  for (int i = 0; i < T; ++i) {
    for (int j = i + 1; j < T; ++j) {
      double dot = 0.0, ii = 0.0, jj = 0.0;
      for (int k = 0; k < D; ++k) {
        const double a = x[static_cast<std::size_t>(i) * D + k];
        const double b = x[static_cast<std::size_t>(j) * D + k];
        dot += a * b;
        ii += a * a;
        jj += b * b;
      }
      total += dot / std::sqrt(ii * jj);
    }
  }
  return total / (0.5 * T * (T - 1.0));
}

// Each norm's input and output, by placement (train::LayerNormProbe):
//   pre, sandwich     N1: x -> norm1, N2: mid -> norm2
//   post, deepnorm    N1: norm1 -> mid, N2: norm2 -> y
//   output            N1: b1 -> norm1, N2: b2 -> norm2
void record_lengths(ReferenceLengths* out, const std::vector<LayerCache>& cache,
                    Placement placement, bool has_norm, int T, int D, int H) {
  const bool pre = placement == Placement::pre || placement == Placement::sandwich;
  const bool branches = placement == Placement::output;
  out->residual.clear();
  out->norm_in.clear();
  out->norm_out.clear();
  out->attention_entropy.clear();
  out->token_similarity.clear();
  out->max_logit.clear();
  for (const LayerCache& a : cache) {
    out->residual.push_back(mean_row_l2(a.x, D));
    out->max_logit.push_back(a.max_logit);
    out->token_similarity.push_back(mean_row_cosine(a.x, T, D));
    out->attention_entropy.push_back(mean_attention_entropy(a.att, H, T));
    if (!has_norm) continue;
    out->norm_in.push_back(mean_row_l2(pre ? a.x : branches ? a.b1 : a.norm1, D));
    out->norm_out.push_back(mean_row_l2(pre || branches ? a.norm1 : a.mid, D));
    out->norm_in.push_back(mean_row_l2(pre ? a.mid : branches ? a.b2 : a.norm2, D));
    out->norm_out.push_back(mean_row_l2(pre || branches ? a.norm2 : a.y, D));
  }
  out->residual.push_back(mean_row_l2(cache.back().y, D));
  out->token_similarity.push_back(mean_row_cosine(cache.back().y, T, D));
}

}  // namespace

double reference_loss(const train::TrainConfig& c, const train::ParamLayout& layout, const Vec& p,
                      const uint8_t* inputs, const uint8_t* targets, int N, Vec* grads,
                      ReferenceLengths* lengths) {
  const int T = c.seq, D = c.hidden, H = c.heads, F = c.mlp_width(), R = N * T;
  const NormKind kind = c.norm;
  const bool has_norm = c.has_norm();
  // Sandwich is pre-norm with a second norm on each branch's output.
  const bool sandwich = c.placement == Placement::sandwich;
  const bool pre = c.placement == Placement::pre || sandwich;
  const bool output = c.placement == Placement::output;
  const bool qk = c.qk_norm != 0;
  // post: 1; DeepNorm: (2 L)^(1/4), in double here.
  const double alpha = c.is_deepnorm() ? std::pow(2.0 * c.layers, 0.25) : 1.0;
  const double eps = c.eps;

  // Embedding.
  Vec x(static_cast<std::size_t>(R) * D);
  for (int n = 0; n < N; ++n) {
    for (int t = 0; t < T; ++t) {
      const int r = n * T + t;
      for (int i = 0; i < D; ++i) {
        x[static_cast<std::size_t>(r) * D + i] =
            p[layout.wte + static_cast<std::size_t>(inputs[r]) * D + i] +
            p[layout.wpe + static_cast<std::size_t>(t) * D + i];
      }
    }
  }
  // Layers.
  std::vector<LayerCache> cache(c.layers);
  for (int l = 0; l < c.layers; ++l) {
    const train::LayerParamOffsets& o = layout.layers[l];
    LayerCache& a = cache[l];
    a.x = x;
    Vec proj;
    if (!has_norm) {
      linear_forward(a.qkv, a.x, &p[o.qkv], R, D, 3 * D);
      if (qk) qk_norm_forward(a.qkv, a.qk_in, a.qk_rstd, &p[o.q_gain], &p[o.k_gain], R, D, H, eps);
      attention_forward(a.attn_y, a.att, a.max_logit, a.qkv, N, T, D, H);
      linear_forward(proj, a.attn_y, &p[o.attn_out], R, D, D);
      a.mid = sum(a.x, proj);
      linear_forward(a.fc, a.mid, &p[o.fc], R, D, F);
      gelu_forward(a.gelu, a.fc);
      linear_forward(proj, a.gelu, &p[o.fc_out], R, F, D);
      a.y = sum(a.mid, proj);
    } else if (pre) {
      norm_forward(kind, a.norm1, a.norm1_mean, a.norm1_rstd, a.x, at(p, o.norm1_gain),
                   at(p, o.norm1_bias), at(p, o.norm1_alpha), R, D, eps);
      linear_forward(a.qkv, a.norm1, &p[o.qkv], R, D, 3 * D);
      if (qk) qk_norm_forward(a.qkv, a.qk_in, a.qk_rstd, &p[o.q_gain], &p[o.k_gain], R, D, H, eps);
      attention_forward(a.attn_y, a.att, a.max_logit, a.qkv, N, T, D, H);
      linear_forward(proj, a.attn_y, &p[o.attn_out], R, D, D);
      if (sandwich) {
        a.b1 = proj;
        norm_forward(kind, proj, a.b1_mean, a.b1_rstd, a.b1, at(p, o.norm1_out_gain),
                     at(p, o.norm1_out_bias), at(p, o.norm1_out_alpha), R, D, eps);
      }
      a.mid = sum(a.x, proj);
      norm_forward(kind, a.norm2, a.norm2_mean, a.norm2_rstd, a.mid, at(p, o.norm2_gain),
                   at(p, o.norm2_bias), at(p, o.norm2_alpha), R, D, eps);
      linear_forward(a.fc, a.norm2, &p[o.fc], R, D, F);
      gelu_forward(a.gelu, a.fc);
      linear_forward(proj, a.gelu, &p[o.fc_out], R, F, D);
      if (sandwich) {
        a.b2 = proj;
        norm_forward(kind, proj, a.b2_mean, a.b2_rstd, a.b2, at(p, o.norm2_out_gain),
                     at(p, o.norm2_out_bias), at(p, o.norm2_out_alpha), R, D, eps);
      }
      a.y = sum(a.mid, proj);
    } else if (output) {
      linear_forward(a.qkv, a.x, &p[o.qkv], R, D, 3 * D);
      if (qk) qk_norm_forward(a.qkv, a.qk_in, a.qk_rstd, &p[o.q_gain], &p[o.k_gain], R, D, H, eps);
      attention_forward(a.attn_y, a.att, a.max_logit, a.qkv, N, T, D, H);
      linear_forward(a.b1, a.attn_y, &p[o.attn_out], R, D, D);
      norm_forward(kind, a.norm1, a.norm1_mean, a.norm1_rstd, a.b1, at(p, o.norm1_gain),
                   at(p, o.norm1_bias), at(p, o.norm1_alpha), R, D, eps);
      a.mid = sum(a.x, a.norm1);
      linear_forward(a.fc, a.mid, &p[o.fc], R, D, F);
      gelu_forward(a.gelu, a.fc);
      linear_forward(a.b2, a.gelu, &p[o.fc_out], R, F, D);
      norm_forward(kind, a.norm2, a.norm2_mean, a.norm2_rstd, a.b2, at(p, o.norm2_gain),
                   at(p, o.norm2_bias), at(p, o.norm2_alpha), R, D, eps);
      a.y = sum(a.mid, a.norm2);
    } else {
      linear_forward(a.qkv, a.x, &p[o.qkv], R, D, 3 * D);
      if (qk) qk_norm_forward(a.qkv, a.qk_in, a.qk_rstd, &p[o.q_gain], &p[o.k_gain], R, D, H, eps);
      attention_forward(a.attn_y, a.att, a.max_logit, a.qkv, N, T, D, H);
      linear_forward(proj, a.attn_y, &p[o.attn_out], R, D, D);
      a.norm1 = scaled_sum(alpha, a.x, proj);
      norm_forward(kind, a.mid, a.norm1_mean, a.norm1_rstd, a.norm1, at(p, o.norm1_gain),
                   at(p, o.norm1_bias), at(p, o.norm1_alpha), R, D, eps);
      linear_forward(a.fc, a.mid, &p[o.fc], R, D, F);
      gelu_forward(a.gelu, a.fc);
      linear_forward(proj, a.gelu, &p[o.fc_out], R, F, D);
      a.norm2 = scaled_sum(alpha, a.mid, proj);
      norm_forward(kind, a.y, a.norm2_mean, a.norm2_rstd, a.norm2, at(p, o.norm2_gain),
                   at(p, o.norm2_bias), at(p, o.norm2_alpha), R, D, eps);
    }
    x = a.y;
  }
  if (lengths) record_lengths(lengths, cache, c.placement, has_norm, T, D, H);
  // Head: final norm (pre-norm), tied logits, log-softmax.
  Vec xf = x, final_mean, final_rstd;
  if (c.has_final_norm()) {
    norm_forward(kind, xf, final_mean, final_rstd, x, at(p, layout.final_gain),
                 at(p, layout.final_bias), at(p, layout.final_alpha), R, D, eps);
  }
  Vec logits;
  linear_forward(logits, xf, &p[layout.wte], R, D, V);
  double loss = 0.0;
  Vec probs(logits.size());
  for (int r = 0; r < R; ++r) {
    const double* z = &logits[static_cast<std::size_t>(r) * V];
    double m = -INFINITY;
    for (int j = 0; j < V; ++j) m = std::max(m, z[j]);
    double s = 0.0;
    for (int j = 0; j < V; ++j) s += std::exp(z[j] - m);
    loss += m + std::log(s) - z[targets[r]];
    for (int j = 0; j < V; ++j) probs[static_cast<std::size_t>(r) * V + j] = std::exp(z[j] - m) / s;
  }
  loss /= R;
  if (!grads) return loss;

  // Backward.
  Vec& g = *grads;
  g.assign(p.size(), 0.0);
  Vec dlogits = probs;
  for (int r = 0; r < R; ++r) dlogits[static_cast<std::size_t>(r) * V + targets[r]] -= 1.0;
  for (double& d : dlogits) d /= R;
  Vec dxf, dx;
  linear_backward(dxf, &g[layout.wte], dlogits, xf, &p[layout.wte], R, D, V);
  if (c.has_final_norm()) {
    norm_backward(kind, dx, at(g, layout.final_gain), at(g, layout.final_bias),
                  at(g, layout.final_alpha), dxf, x, at(p, layout.final_gain),
                  at(p, layout.final_alpha), final_mean, final_rstd, R, D);
  } else {
    dx = dxf;
  }
  for (int l = c.layers - 1; l >= 0; --l) {
    const train::LayerParamOffsets& o = layout.layers[l];
    const LayerCache& a = cache[l];
    const Vec dy = dx;
    Vec dgelu, dfc, dmid, dtmp, dattn_y, dqkv;
    if (!has_norm) {
      linear_backward(dgelu, &g[o.fc_out], dy, a.gelu, &p[o.fc_out], R, F, D);
      gelu_backward(dfc, dgelu, a.fc);
      linear_backward(dmid, &g[o.fc], dfc, a.mid, &p[o.fc], R, D, F);
      dmid = sum(dmid, dy);
      linear_backward(dattn_y, &g[o.attn_out], dmid, a.attn_y, &p[o.attn_out], R, D, D);
      attention_backward(dqkv, dattn_y, a.att, a.qkv, N, T, D, H);
      if (qk) {
        qk_norm_backward(dqkv, &g[o.q_gain], &g[o.k_gain], a.qk_in, a.qk_rstd, &p[o.q_gain],
                         &p[o.k_gain], R, D, H);
      }
      linear_backward(dx, &g[o.qkv], dqkv, a.x, &p[o.qkv], R, D, 3 * D);
      dx = sum(dx, dmid);
    } else if (pre) {
      Vec db2 = dy;
      if (sandwich) {
        norm_backward(kind, db2, at(g, o.norm2_out_gain), at(g, o.norm2_out_bias),
                      at(g, o.norm2_out_alpha), dy, a.b2, at(p, o.norm2_out_gain),
                      at(p, o.norm2_out_alpha), a.b2_mean, a.b2_rstd, R, D);
      }
      linear_backward(dgelu, &g[o.fc_out], db2, a.gelu, &p[o.fc_out], R, F, D);
      gelu_backward(dfc, dgelu, a.fc);
      linear_backward(dtmp, &g[o.fc], dfc, a.norm2, &p[o.fc], R, D, F);
      norm_backward(kind, dmid, at(g, o.norm2_gain), at(g, o.norm2_bias), at(g, o.norm2_alpha),
                    dtmp, a.mid, at(p, o.norm2_gain), at(p, o.norm2_alpha), a.norm2_mean,
                    a.norm2_rstd, R, D);
      dmid = sum(dmid, dy);
      Vec db1 = dmid;
      if (sandwich) {
        norm_backward(kind, db1, at(g, o.norm1_out_gain), at(g, o.norm1_out_bias),
                      at(g, o.norm1_out_alpha), dmid, a.b1, at(p, o.norm1_out_gain),
                      at(p, o.norm1_out_alpha), a.b1_mean, a.b1_rstd, R, D);
      }
      linear_backward(dattn_y, &g[o.attn_out], db1, a.attn_y, &p[o.attn_out], R, D, D);
      attention_backward(dqkv, dattn_y, a.att, a.qkv, N, T, D, H);
      if (qk) {
        qk_norm_backward(dqkv, &g[o.q_gain], &g[o.k_gain], a.qk_in, a.qk_rstd, &p[o.q_gain],
                         &p[o.k_gain], R, D, H);
      }
      linear_backward(dtmp, &g[o.qkv], dqkv, a.norm1, &p[o.qkv], R, D, 3 * D);
      norm_backward(kind, dx, at(g, o.norm1_gain), at(g, o.norm1_bias), at(g, o.norm1_alpha), dtmp,
                    a.x, at(p, o.norm1_gain), at(p, o.norm1_alpha), a.norm1_mean, a.norm1_rstd, R,
                    D);
      dx = sum(dx, dmid);
    } else if (output) {
      Vec db2, db1;
      norm_backward(kind, db2, at(g, o.norm2_gain), at(g, o.norm2_bias), at(g, o.norm2_alpha), dy,
                    a.b2, at(p, o.norm2_gain), at(p, o.norm2_alpha), a.norm2_mean, a.norm2_rstd, R,
                    D);
      linear_backward(dgelu, &g[o.fc_out], db2, a.gelu, &p[o.fc_out], R, F, D);
      gelu_backward(dfc, dgelu, a.fc);
      linear_backward(dmid, &g[o.fc], dfc, a.mid, &p[o.fc], R, D, F);
      dmid = sum(dmid, dy);
      norm_backward(kind, db1, at(g, o.norm1_gain), at(g, o.norm1_bias), at(g, o.norm1_alpha), dmid,
                    a.b1, at(p, o.norm1_gain), at(p, o.norm1_alpha), a.norm1_mean, a.norm1_rstd, R,
                    D);
      linear_backward(dattn_y, &g[o.attn_out], db1, a.attn_y, &p[o.attn_out], R, D, D);
      attention_backward(dqkv, dattn_y, a.att, a.qkv, N, T, D, H);
      if (qk) {
        qk_norm_backward(dqkv, &g[o.q_gain], &g[o.k_gain], a.qk_in, a.qk_rstd, &p[o.q_gain],
                         &p[o.k_gain], R, D, H);
      }
      linear_backward(dx, &g[o.qkv], dqkv, a.x, &p[o.qkv], R, D, 3 * D);
      dx = sum(dx, dmid);
    } else {
      Vec ds2, ds1;
      norm_backward(kind, ds2, at(g, o.norm2_gain), at(g, o.norm2_bias), at(g, o.norm2_alpha), dy,
                    a.norm2, at(p, o.norm2_gain), at(p, o.norm2_alpha), a.norm2_mean, a.norm2_rstd,
                    R, D);
      linear_backward(dgelu, &g[o.fc_out], ds2, a.gelu, &p[o.fc_out], R, F, D);
      gelu_backward(dfc, dgelu, a.fc);
      linear_backward(dmid, &g[o.fc], dfc, a.mid, &p[o.fc], R, D, F);
      dmid = scaled_sum(alpha, ds2, dmid);
      norm_backward(kind, ds1, at(g, o.norm1_gain), at(g, o.norm1_bias), at(g, o.norm1_alpha), dmid,
                    a.norm1, at(p, o.norm1_gain), at(p, o.norm1_alpha), a.norm1_mean, a.norm1_rstd,
                    R, D);
      linear_backward(dattn_y, &g[o.attn_out], ds1, a.attn_y, &p[o.attn_out], R, D, D);
      attention_backward(dqkv, dattn_y, a.att, a.qkv, N, T, D, H);
      if (qk) {
        qk_norm_backward(dqkv, &g[o.q_gain], &g[o.k_gain], a.qk_in, a.qk_rstd, &p[o.q_gain],
                         &p[o.k_gain], R, D, H);
      }
      linear_backward(dx, &g[o.qkv], dqkv, a.x, &p[o.qkv], R, D, 3 * D);
      dx = scaled_sum(alpha, ds1, dx);
    }
  }
  for (int n = 0; n < N; ++n) {
    for (int t = 0; t < T; ++t) {
      const int r = n * T + t;
      for (int i = 0; i < D; ++i) {
        g[layout.wte + static_cast<std::size_t>(inputs[r]) * D + i] +=
            dx[static_cast<std::size_t>(r) * D + i];
        g[layout.wpe + static_cast<std::size_t>(t) * D + i] +=
            dx[static_cast<std::size_t>(r) * D + i];
      }
    }
  }
  return loss;
}

void reference_adam(Vec& params, Vec& m, Vec& v, const Vec& grads, double lr, int step) {
  const double b1 = 0.9, b2 = 0.999, eps = 1e-8;
  const double c1 = 1.0 - std::pow(b1, step), c2 = 1.0 - std::pow(b2, step);
  for (std::size_t i = 0; i < params.size(); ++i) {
    m[i] = b1 * m[i] + (1.0 - b1) * grads[i];
    v[i] = b2 * v[i] + (1.0 - b2) * grads[i] * grads[i];
    params[i] -= lr * (m[i] / c1) / (std::sqrt(v[i] / c2) + eps);
  }
}

}  // namespace normlab::test
