// One norm layer of the model, whichever kind the config selects: RMSNorm,
// LayerNorm, or none (identity). Built on the normlab kernels.
//
// T = tokens, D = hidden size
//
// The page plots the output before the gain ("normed") as well as after it:
// for RMSNorm and LayerNorm every normed row has L2 = sqrt(D) (up to eps),
// whatever the input's size. RMSNorm's normed row is its input times rstd,
// so its statistics follow from the input's and the forward does not
// write it; LayerNorm's is written.
#pragma once

#include "model/options.h"

namespace normlab::model {

// out = N(inp) with gain (and bias for LayerNorm); for NormKind::none a copy
// of inp. normed = the LayerNorm output before gain and bias (written for
// LayerNorm only; may be nullptr otherwise).
// out, normed: (T, D); mean, rstd: (T) caches for the backward (mean is
// written by LayerNorm only); inp: (T, D); gain, bias: (D).
void norm_forward(float* out, float* normed, float* mean, float* rstd, const float* inp,
                  const float* gain, const float* bias, NormKind kind, int T, int D, float eps);

// dinp: (T, D) written; dgain, dbias: (D) accumulated (LayerNorm writes
// dbias, RMSNorm leaves it alone, none touches neither); dout: (T, D);
// inp, gain, mean, rstd: as given to / written by norm_forward.
void norm_backward(float* dinp, float* dgain, float* dbias, const float* dout, const float* inp,
                   const float* gain, const float* mean, const float* rstd, NormKind kind, int T,
                   int D);

}  // namespace normlab::model
