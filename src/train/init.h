// The trainer's initial parameters, a function of the seed alone.
//
// V = 256, D = hidden, F = 4 D, T = seq
//
// Every weight matrix and both embeddings are drawn from N(0, s^2) with
// s = config.init_std (by default init_std_for(D), options.h), but for the
// residual branches' output projections (attention's and the MLP's second
// matrix), drawn with s config.residual_init_scale (by default 1); norm
// gains (QK-norm's too) are 1 and biases 0, DyT's alphas 0.5. DeepNorm then multiplies the
// value rows of qkv, attn_out, fc and fc_out by its beta (options.h), on
// top of residual_init_scale. Each tensor draws from its own
// SplitMix64 stream, seeded by (seed, layer, tensor) through
// model::tensor_seed: layer l's
// weights are the same in a 6- and a 48-layer model, and the same in every
// build. "Normal" is rng.h's integer-only approximation (Irwin-Hall sum of
// four uniforms, variance 1, bounded by +-3.46): no libm in a draw, so
// native and wasm builds start from bit-identical weights.
#pragma once

#include "train/layout.h"
#include "train/options.h"

namespace normlab::train {

// params: (layout.total) written.
void init_params(float* params, const ParamLayout& layout, const TrainConfig& config);

}  // namespace normlab::train
