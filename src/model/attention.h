// Causal multi-head softmax attention with structured projections.
//
// T = tokens, D = hidden size, H = heads, dh = D / H (head dim)
// Hd = the D x D Walsh-Hadamard matrix, Hb = block-diagonal with H blocks of
// the dh x dh one (each head's slice is transformed on its own).
//
//   u = Hd (mix * x) / sqrt(D)         one shared O(D log D) rotation
//   q = R(query * u)                   per-feature scalings: three cheap
//   k = R(key * Hb(u) / sqrt(dh))      projections of one rotation, the key
//   v = value * u                      seen in a second, per-head basis
//   p_h = softmax(q_h k_h^T / sqrt(dh) + causal mask)   per head h: (T, T)
//   y_h = p_h v_h
//   out = attn_out * Hd(y) / sqrt(D)    mixes the heads back together
//
// R is the rotary position embedding: in each head, token t's coordinate
// pair (j, j + dh/2) turns by the angle t * 10000^(-2j/dh), so a logit
// depends on the two tokens and on their distance. Without it, a prompt that
// repeats one character would give every key the same value and attention
// could never single one out.
//
// The logits q_h k_h^T / sqrt(dh) grow with the square of the input's size:
// with a normalized input their spread is set by the query/key scales; with
// an unnormalized, growing input they grow without bound and every softmax
// row saturates towards one-hot.
//
// Cost per token: 2 D log2 D + D log2 dh additions for the transforms, about
// 8 D multiplies for the scalings, and T dh multiply-adds per head for the
// logits and again for y. Each token's chain of transforms runs on its own
// row while it is in L1, and causality lets token t's attention run as soon
// as its key exists.
#pragma once

namespace normlab::model {

// Rotary tables: angle(t, j) = t * 10000^(-2j/dh) for t = 0..positions-1,
// j = 0..dh/2-1. cos_a, sin_a: (positions, dh/2)
void rope_tables(float* cos_a, float* sin_a, int positions, int dh);

struct RopeTables {
  const float* cos_a;  // (positions, dh/2)
  const float* sin_a;  // (positions, dh/2)
};

// Attention rows are stored packed: query t sees keys 0..t only, so its
// block holds H rows of t + 1 entries, (H, t + 1), starting at
// causal_offset(t, H); all T blocks take causal_size(T, H) floats. The
// softmax and its statistics then run on exactly the visible entries.
inline int causal_offset(int t, int H) { return H * t * (t + 1) / 2; }
inline int causal_size(int T, int H) { return causal_offset(T, H); }

// What the forward keeps for the backward and the probes.
struct AttentionCache {
  float* u;       // (T, D) Hd(mix * x) / sqrt(D)
  float* ub;      // (T, D) Hb(u) / sqrt(dh)
  float* q;       // (T, D) rotated
  float* k;       // (T, D) rotated
  float* v;       // (T, D)
  float* logits;  // packed (T, H, t + 1): scaled q.k of query t, key s <= t
  float* p;       // packed (T, H, t + 1): softmax rows
  float* y;       // (T, D) per-head weighted values, heads side by side
  float* yh;      // (T, D) Hd(y) / sqrt(D)
};

// Scratch the backward needs besides the cache.
struct AttentionScratch {
  float* dy;       // (T, D)
  float* dq;       // (T, D)
  float* dk;       // (T, D)
  float* dv;       // (T, D)
  float* du;       // (T, D)
  float* dp;       // packed (T, H, t + 1)
  float* dlogits;  // packed (T, H, t + 1)
  float* alpha;    // (H) one pair's per-head coefficients
};

// out: (T, D); cache: filled; inp: (T, D) the sub-block's input;
// w: (kLayerTensors, D) the layer's parameters (weights.h order);
// rope: tables for at least T positions.
void attention_forward(float* out, AttentionCache* cache, const float* inp,
                       const float* w, const RopeTables& rope, int T, int D,
                       int H);

// dinp: (T, D) written; dw: (kLayerTensors, D) the attention rows
// accumulated (+=); dout: (T, D); cache, inp, w: as in the forward.
void attention_backward(float* dinp, float* dw, const float* dout,
                        const AttentionCache& cache, const float* inp,
                        const float* w, const RopeTables& rope,
                        AttentionScratch* scratch, int T, int D, int H);

}  // namespace normlab::model
