// Causal multi-head self-attention of the trainer, on the qkv rows of S
// sequences of T tokens.
//
// S = sequences, T = tokens per sequence, D = hidden size, H = heads,
// dh = D / H (head size)
//
// Per sequence and head h, with q, k, v the head's slices of the qkv rows:
//   A = q k^T                  (T, T) raw scores
//   P = softmax(A / sqrt(dh))  row i over keys 0..i only (causal)
//   y = P v                    (T, dh), written to the head's slice of out
// The scale 1 / sqrt(dh) is the softmax kernel's temperature sqrt(dh), so
// the kernel's backward applies it too. Each product runs on the trainer's
// gemm with the causal bounds that skip the zero half of P (see matmul.h).
#pragma once

namespace normlab::train {

// out: (S T, D); att: (S, H, T, T) the softmax rows P, zero above the
// diagonal, kept for the backward; qkv: (S T, 3D) rows [q | k | v];
// key_t: (dh, T) scratch. max_logit: (1) or nullptr: raised to the largest
// A / sqrt(dh) of the causal pairs (a NaN score leaves it NaN).
void attention_forward(float* out, float* att, const float* qkv, float* key_t, int S, int T, int D,
                       int H, float* max_logit);

// Backward, per sequence and head:
//   dP = dy v^T,  dv = P^T dy,  dA = softmax backward of dP (with its 1 / sqrt(dh)),
//   dq = dA k,    dk = dA^T q
// dqkv: (S T, 3D) written; dout: (S T, D); att, qkv: as in the forward;
// value_t: (dh, T), dp, da: (T, T) scratch.
void attention_backward(float* dqkv, const float* dout, const float* att, const float* qkv,
                        float* value_t, float* dp, float* da, int S, int T, int D, int H);

}  // namespace normlab::train
