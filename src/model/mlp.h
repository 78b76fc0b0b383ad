// The MLP sub-block: two structured projections around a SiLU.
//
// T = tokens, D = hidden size (the MLP is D wide: no expansion)
// Hd = the D x D Walsh-Hadamard matrix
//
//   z1 = Hd(in_mix * x) / sqrt(D)
//   m  = in_scale * z1
//   r  = silu(m) = m * sigmoid(m)
//   z2 = Hd(out_mix * r) / sqrt(D)
//   out = out_scale * z2
//
// Each projection is a randomized Hadamard transform (random signs, an
// orthogonal O(D log D) rotation) followed by a learnable diagonal scaling.
// SiLU (the activation of the gated MLPs in Llama and Qwen) is smooth, so
// finite differences can check the backward, and for large inputs it turns
// into ReLU, which is positively homogeneous: without a norm in front, the
// MLP's contribution grows in proportion to a growing residual stream.
//
// Cost per token: 2 D log2 D additions, about 6 D multiplies and D exps.
#pragma once

namespace normlab::model {

// All four are per-token intermediates: with row_stride = D every token
// keeps its rows (the backward needs them); with row_stride = 0 (a forward
// that will not be differentiated) all tokens reuse row 0, which stays in L1.
struct MlpCache {
  int row_stride;  // D or 0
  float* z1;       // (T, D)
  float* m;        // (T, D) pre-activation
  float* r;        // (T, D) silu(m)
  float* z2;       // (T, D)
};

// out: (T, D); sum: (T, D) = residual + out, the residual addition that
// always follows the sub-block, in the same pass; cache: filled; inp: (T, D);
// residual: (T, D); w: (kLayerTensors, D) the layer's parameters.
void mlp_forward(float* out, float* sum, MlpCache* cache, const float* inp, const float* residual,
                 const float* w, int T, int D);

// dinp: (T, D) written; dw: (kLayerTensors, D) the MLP rows accumulated;
// dout: (T, D); scratch: (T, D); cache, inp, w: as in the forward.
void mlp_backward(float* dinp, float* dw, const float* dout, const MlpCache& cache,
                  const float* inp, const float* w, float* scratch, int T, int D);

}  // namespace normlab::model
