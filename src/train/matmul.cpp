// The entry points of matmul.h: the SIMD product instantiated for the
// trainer's architecture (normlab/arch.hpp: train_arch), its double
// reference, and the linear layer built on it.
//
// M, N, K = rows, columns, reduction length; R = rows, C = input features,
// OC = output features
#include "train/matmul.h"

// GCC 12 flags its own AVX-512 intrinsics (the deliberately undefined
// register of _mm512_undefined_ps, GCC bug 105593) as (maybe-)uninitialized
// wherever they are inlined; a known false positive, fixed in GCC 13.
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ == 12
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include "train/matmul.hpp"

#include <algorithm>
#include <cassert>
#include <cstddef>

namespace normlab::train {

using normlab::simd::train_arch;

const char* matmul_arch_name() { return train_arch::name(); }

void gemm(float* out, const float* a, const float* b, int M, int N, int K, int ld_out, int a_rs,
          int a_cs, int ldb, bool accumulate, Causal causal) {
  assert(M >= 0 && N >= 0 && K >= 0);
  simd::gemm<train_arch>(out, a, b, M, N, K, ld_out, a_rs, a_cs, ldb, accumulate, causal);
}

void gemm_ref(float* out, const float* a, const float* b, int M, int N, int K, int ld_out, int a_rs,
              int a_cs, int ldb, bool accumulate, Causal causal) {
  for (int i = 0; i < M; ++i) {
    const int n_end = causal == Causal::out_lower ? std::min(N, i + 1) : N;
    for (int j = 0; j < n_end; ++j) {
      float* o = out + static_cast<std::ptrdiff_t>(i) * ld_out + j;
      double acc = accumulate ? *o : 0.0;
      for (int k = 0; k < K; ++k) {
        acc +=
            static_cast<double>(
                a[static_cast<std::ptrdiff_t>(i) * a_rs + static_cast<std::ptrdiff_t>(k) * a_cs]) *
            b[static_cast<std::ptrdiff_t>(k) * ldb + j];
      }
      *o = static_cast<float>(acc);
    }
  }
}

void transpose(float* out, const float* inp, int rows, int cols, int ld_inp) {
  for (int r = 0; r < rows; ++r) {
    const float* x_r = inp + static_cast<std::ptrdiff_t>(r) * ld_inp;  // x_r: (cols)
    for (int c = 0; c < cols; ++c) out[static_cast<std::ptrdiff_t>(c) * rows + r] = x_r[c];
  }
}

void matmul_forward(float* out, const float* inp, const float* weight_t, int R, int C, int OC) {
  // out (R, OC) = inp (R, C) @ weight_t (C, OC)
  gemm(out, inp, weight_t, R, OC, C, OC, C, 1, OC, false, Causal::none);
}

// y = x W^T:  dx = dy W,  dW += dy^T x
void matmul_backward(float* dinp, float* dweight, const float* dout, const float* inp,
                     const float* weight, int R, int C, int OC, bool accumulate_dinp) {
  // dinp (R, C) = dout (R, OC) @ weight (OC, C)
  gemm(dinp, dout, weight, R, C, OC, C, OC, 1, C, accumulate_dinp, Causal::none);
  // dweight (OC, C) += dout^T (OC, R) @ inp (R, C): A(o, r) = dout[r * OC + o]
  gemm(dweight, dout, inp, OC, C, R, C, 1, OC, C, true, Causal::none);
}

}  // namespace normlab::train
