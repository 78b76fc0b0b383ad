// One norm layer of the model (see norm.h). T = tokens, D = hidden size.
#include "model/norm.h"

#include <cstring>

#include "model/vec.h"
#include "normlab/kernels.h"

namespace normlab::model {

void norm_forward(float* out, float* normed, float* mean, float* rstd, const float* inp,
                  const float* gain, const float* bias, NormKind kind, int T, int D, float eps) {
  const size_t n = static_cast<size_t>(T) * D;
  switch (kind) {
    case NormKind::rmsnorm:
      rmsnorm_forward(out, rstd, inp, gain, T, D, eps);
      return;
    // Row by row, so the gain pass finds the normed row still in L1.
    case NormKind::layernorm:
      for (int t = 0; t < T; t++) {
        const size_t o = static_cast<size_t>(t) * D;
        layernorm_forward(normed + o, mean + t, rstd + t, inp + o, nullptr, nullptr, 1, D, eps);
        mul(out + o, normed + o, gain, 1.0f, D);
        add(out + o, out + o, bias, D);
      }
      return;
    case NormKind::none:
      std::memcpy(out, inp, n * sizeof(float));
      return;
  }
}

// Backward: RMSNorm's and LayerNorm's vector-Jacobian products are the
// kernels' (their derivations are written there); the identity passes the
// gradient through unchanged.
void norm_backward(float* dinp, float* dgain, float* dbias, const float* dout, const float* inp,
                   const float* gain, const float* mean, const float* rstd, NormKind kind, int T,
                   int D) {
  switch (kind) {
    case NormKind::rmsnorm:
      rmsnorm_backward(dinp, dgain, dout, inp, gain, rstd, T, D);
      return;
    case NormKind::layernorm:
      layernorm_backward(dinp, dgain, dbias, dout, inp, gain, mean, rstd, T, D);
      return;
    case NormKind::none:
      std::memcpy(dinp, dout, static_cast<size_t>(T) * D * sizeof(float));
      return;
  }
}

}  // namespace normlab::model
