// Causal multi-head softmax attention with structured projections.
//
// T = tokens, D = hidden size, H = heads, dh = D / H (head dim)
// Hd = the D x D Walsh-Hadamard matrix; R_t = token t's rotary rotation.
//
//   u = Hd(mix * x) / sqrt(D)          one shared O(D log D) rotation
//   q_t = R_t(query * u_t)             per-feature scalings of the rotated
//   k_t = R_t(key * u_t)               input: three cheap projections
//   v = value * u
//   p_h = softmax(q_h k_h^T / sqrt(dh) + causal mask)   per head h
//   y_h = p_h v_h
//   out = attn_out * y                 diagonal output scaling
//
// As a matrix, each projection is diag * Hd * diag: a randomized Hadamard
// transform with learnable scalings. The output projection is diagonal only:
// every head writes its own slice of features, and the next sub-block's
// transform mixes them with everything else, so a second O(D log D) pass
// here would buy nothing the model needs.
//
// R rotates, in each head, token t's coordinate pair (j, j + dh/2) by the
// angle t * 10000^(-2j/dh) (rotary position embedding), so a logit depends on
// the two tokens and on their distance. Without it, a prompt that repeats one
// character would give every key the same value and attention could never
// single one out.
//
// The logits q_h k_h^T / sqrt(dh) grow with the square of the input's size:
// with a normalized input their spread is set by the query/key scales; with
// an unnormalized, growing input they grow without bound and every softmax
// row saturates towards one-hot.
//
// Cost per token: D log2 D additions for the transform, about 5 D
// multiplies for the scalings and rotations, and T dh multiply-adds per head
// for the logits and again for y. Each token's chain runs on its own row
// while it is in L1, and causality lets token t's attention run as soon as
// its key exists.
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

// What the forward keeps for the backward and the probes. u, q and y are
// per-token intermediates: with row_stride = D every token keeps its row
// (the backward needs them); with row_stride = 0 (a forward that will not
// be differentiated) all tokens reuse row 0, which stays in L1.
struct AttentionCache {
  int row_stride;  // D or 0, for u, q and y
  float* u;        // (T, D) Hd(mix * x) / sqrt(D)
  float* q;        // (T, D) rotated
  float* k;        // (T, D) rotated
  float* v;        // (T, D)
  float* logits;   // packed (T, H, t + 1): scaled q.k of query t, key s <= t
  float* p;        // packed (T, H, t + 1): softmax rows
  float* y;        // (T, D) per-head weighted values, heads side by side
};

// Scratch the backward needs besides the cache.
struct AttentionScratch {
  float* dy;       // (T, D)
  float* dq;       // (T, D)
  float* dk;       // (T, D)
  float* dv;       // (T, D)
  float* du;       // (D) one token's du
  float* dp;       // packed (T, H, t + 1)
  float* dlogits;  // packed (T, H, t + 1)
  float* alpha;    // (4, H) four pairs' per-head coefficients
};

// out: (T, D); sum: (T, D) = residual + out, the residual addition that
// always follows the sub-block, done in the same pass; cache: filled;
// inp: (T, D) the sub-block's input; residual: (T, D); w: (kLayerTensors, D)
// the layer's parameters (weights.h order); rope: tables for >= T positions.
//
// Only rows first..T-1 are computed (0 <= first <= T): rows before them get
// their keys and values alone, which the later rows attend to; their other
// outputs (out, sum, logits, p, y) are not written. Causality makes the
// computed rows the same, bit for bit, as in a run of all T rows: row t
// reads no row after it. A key and value cost a small part of a whole
// row (its transform and two scalings; no query, attention or output), so
// a prompt that grows by one token costs one row and the earlier rows' keys
// and values. first = 0 (every row) when the cache keeps per-token rows
// (row_stride = D, for the backward).
void attention_forward(float* out, float* sum, AttentionCache* cache, const float* inp,
                       const float* residual, const float* w, const RopeTables& rope, int first,
                       int T, int D, int H);

// dinp: (T, D) written; dw: (kLayerTensors, D) the attention rows
// accumulated (+=); dout: (T, D); cache, inp, w: as in the forward.
void attention_backward(float* dinp, float* dw, const float* dout, const AttentionCache& cache,
                        const float* inp, const float* w, const RopeTables& rope,
                        AttentionScratch* scratch, int T, int D, int H);

}  // namespace normlab::model
