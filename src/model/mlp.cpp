// The MLP sub-block (see mlp.h). T = tokens, D = hidden size.
#include "model/mlp.h"

#include <cmath>

#include "model/vec.h"
#include "model/weights.h"

namespace normlab::model {

// Token by token, so each row's chain of passes stays in L1.
void mlp_forward(float* out, float* sum, MlpCache* c, const float* inp, const float* residual,
                 const float* w, int T, int D) {
  const float inv_sqrt_d = 1.0f / std::sqrt(static_cast<float>(D));
  const float* in_mix = w + kMlpInMix * D;
  const float* in_scale = w + kMlpInScale * D;
  const float* out_mix = w + kMlpOutMix * D;
  const float* out_scale = w + kMlpOutScale * D;

  for (int t = 0; t < T; t++) {
    const int o = t * D;
    const int r = t * c->row_stride;
    hadamard_project(c->z1 + r, inp + o, in_mix, inv_sqrt_d, D, D);
    mul_silu_forward(c->m + r, c->r + r, c->z1 + r, in_scale, D);
    hadamard_project(c->z2 + r, c->r + r, out_mix, inv_sqrt_d, D, D);
    mul_add(out + o, sum + o, c->z2 + r, out_scale, residual + o, D);
  }
}

// Backward (Hd is symmetric, so each transform's transpose is itself):
//   out = out_scale * z2:        d out_scale += dout * z2;  dz2 = dout * out_scale
//   z2 = Hd(out_mix * r)/sqrt(D): e2 = Hd(dz2) / sqrt(D)
//                                 d out_mix += e2 * r;       dr = e2 * out_mix
//   r = silu(m):                  dm = dr * silu'(m)
//   m = in_scale * z1:            d in_scale += dm * z1;     dz1 = dm * in_scale
//   z1 = Hd(in_mix * x)/sqrt(D):  e1 = Hd(dz1) / sqrt(D)
//                                 d in_mix += e1 * x;        dx = e1 * in_mix
// Sums over tokens t are implied for the parameter gradients.
void mlp_backward(float* dinp, float* dw, const float* dout, const MlpCache& c, const float* inp,
                  const float* w, float* scratch, int T, int D) {
  const float inv_sqrt_d = 1.0f / std::sqrt(static_cast<float>(D));
  const float* in_mix = w + kMlpInMix * D;
  const float* in_scale = w + kMlpInScale * D;
  const float* out_mix = w + kMlpOutMix * D;
  const float* out_scale = w + kMlpOutScale * D;

  for (int t = 0; t < T; t++) {
    const int o = t * D;
    float* e = scratch + o;  // holds e2, dr, dm, then e1, in place
    mul_acc(dw + kMlpOutScale * D, dout + o, c.z2 + o, D);
    hadamard_project(e, dout + o, out_scale, inv_sqrt_d, D, D);
    mul_acc(dw + kMlpOutMix * D, e, c.r + o, D);
    mul(e, e, out_mix, 1.0f, D);
    silu_backward(e, e, c.m + o, D);
    mul_acc(dw + kMlpInScale * D, e, c.z1 + o, D);
    hadamard_project(e, e, in_scale, inv_sqrt_d, D, D);
    mul_acc(dw + kMlpInMix * D, e, inp + o, D);
    mul(dinp + o, e, in_mix, 1.0f, D);
  }
}

}  // namespace normlab::model
