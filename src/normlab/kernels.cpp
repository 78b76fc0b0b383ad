// The entry points of kernels.h: the templated kernels instantiated for the
// one xsimd architecture this library is compiled for (arch.hpp).
#include "normlab/kernels.h"

// GCC 12 flags its own AVX-512 intrinsics (the deliberately undefined
// register of _mm512_undefined_ps, GCC bug 105593) as (maybe-)uninitialized
// wherever they are inlined; a known false positive, fixed in GCC 13.
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ == 12
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include "normlab/arch.hpp"
#include "normlab/layernorm.hpp"
#include "normlab/rmsnorm.hpp"
#include "normlab/softmax.hpp"
#include "normlab/stats.hpp"

namespace normlab {

using simd::kernel_arch;

const char* kernel_arch_name() { return kernel_arch::name(); }

void rmsnorm_forward(float* out, float* rstd, const float* inp, const float* gain, int T, int D,
                     float eps) {
  simd::rmsnorm_forward<kernel_arch>(out, rstd, inp, gain, T, D, eps);
}

void rmsnorm_backward(float* dinp, float* dgain, const float* dout, const float* inp,
                      const float* gain, const float* rstd, int T, int D) {
  simd::rmsnorm_backward<kernel_arch>(dinp, dgain, dout, inp, gain, rstd, T, D);
}

void layernorm_forward(float* out, float* mean, float* rstd, const float* inp, const float* gain,
                       const float* bias, int T, int D, float eps) {
  simd::layernorm_forward<kernel_arch>(out, mean, rstd, inp, gain, bias, T, D, eps);
}

void layernorm_backward(float* dinp, float* dgain, float* dbias, const float* dout,
                        const float* inp, const float* gain, const float* mean, const float* rstd,
                        int T, int D) {
  simd::layernorm_backward<kernel_arch>(dinp, dgain, dbias, dout, inp, gain, mean, rstd, T, D);
}

void softmax_forward(float* out, const float* inp, int T, int D, float temperature) {
  simd::softmax_forward<kernel_arch>(out, inp, T, D, temperature);
}

void softmax_backward(float* dinp, const float* dout, const float* out, int T, int D,
                      float temperature) {
  simd::softmax_backward<kernel_arch>(dinp, dout, out, T, D, temperature);
}

void row_stats(RowStats* out, const float* inp, int T, int D) {
  simd::row_stats<kernel_arch>(out, inp, T, D);
}

void distribution_stats(float* entropy, float* max_prob, const float* p, int T, int D) {
  simd::distribution_stats<kernel_arch>(entropy, max_prob, p, T, D);
}

void copy_rows(float* out, const float* inp, int T, int D) {
  simd::copy_rows<kernel_arch>(out, inp, T, D);
}

}  // namespace normlab
