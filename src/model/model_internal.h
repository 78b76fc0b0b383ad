// What the parts of Model share (model.cpp, model_scratch.cpp,
// model_forward.cpp, model_probes.cpp, model_backward.cpp): private to them.
//
// L = layers, D = hidden size, T = prompt tokens
#pragma once

#include <cstddef>
#include <vector>

#include "model/model.h"

namespace normlab::model {

// Rows per layer of the kept run and the workspace's largest prompt.
constexpr int Tm = kMaxPromptTokens;

// Grows v to n elements when it holds fewer; never shrinks it. The shared
// scratch's buffers are sized this way for the largest model that uses them,
// so a page whose models all have one shape allocates each once.
template <class V, class A>
inline void grow(std::vector<V, A>* v, size_t n) {
  if (v->size() < n) v->resize(n);
}

// Each layer norm's gain tensor, in the order of kLayerNormNames.
inline constexpr LayerTensor kLayerNormGains[kLayerNorms] = {kInputNormGain, kPostAttnNormGain};

// Mean of n values, summed in double.
float mean_of(const float* v, int n);

}  // namespace normlab::model
