// Vector primitives of the synthetic model (see vec.h): each SIMD op is one
// expression over vec_map / vec_map2 / vec_sum_of / vec_sum4_of
// (normlab/vec.hpp), the primitives the kernels are built from, which run
// it on whole batches and on the scalar tail alike; its scalar reference
// follows it. Only the Walsh-Hadamard transform, a butterfly rather than an
// element-wise map, has SIMD loops of its own.
//
// n = vector length, W = SIMD width in floats (batch::size), seg = segment
// length (a head: dh), half = seg / 2
#include "model/vec.h"

// GCC 12 flags its own AVX-512 intrinsics (the deliberately undefined
// register of _mm512_undefined_ps, GCC bug 105593) as (maybe-)uninitialized
// wherever they are inlined; a known false positive, fixed in GCC 13.
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ == 12
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include <array>
#include <cmath>
#include <cstdint>
#include <utility>

#include <xsimd/xsimd.hpp>

#include "normlab/arch.hpp"
#include "normlab/fast_exp.hpp"
#include "normlab/vec.hpp"

namespace normlab::model {

namespace {

using Arch = simd::kernel_arch;
using simd::vec_map;
using simd::vec_map2;
using simd::vec_sum4_of;
using simd::vec_sum_of;

// Lane permutation i -> i xor L: pairs each lane with its butterfly partner
// at distance L inside one register.
template <unsigned L>
struct XorLane {
  static constexpr uint32_t get(uint32_t i, uint32_t) { return i ^ L; }
};

// Butterfly stages of length L, 2L, ... < W inside one register. For a lane
// i with bit L clear the result is x_i + x_(i^L); with it set, x_(i^L) - x_i.
// Both are x * sign + partner with sign = -1 on the lanes that have bit L set.
// signs[k]: the sign batch of stage L = 2^k.
template <class Arch, unsigned L>
xsimd::batch<float, Arch> butterflies_in_register(xsimd::batch<float, Arch> x,
                                                  const xsimd::batch<float, Arch>* signs) {
  using batch = xsimd::batch<float, Arch>;
  if constexpr (L < batch::size) {
    batch partner = xsimd::swizzle(x, xsimd::make_batch_constant<uint32_t, Arch, XorLane<L>>());
    x = xsimd::fma(x, *signs, partner);
    return butterflies_in_register<Arch, 2 * L>(x, signs + 1);
  } else {
    return x;
  }
}

// The sign batches of the in-register stages, built once per architecture:
// stage L = 2^k has -1 on the lanes with bit L set.
template <class Arch>
struct StageSigns {
  using batch = xsimd::batch<float, Arch>;
  static constexpr int W = static_cast<int>(batch::size);
  batch signs[8];
  StageSigns() {
    int k = 0;
    for (int L = 1; L < W; L *= 2) {
      alignas(64) float s[W];
      for (int i = 0; i < W; i++) s[i] = (i & L) ? -1.0f : 1.0f;
      signs[k++] = batch::load_aligned(s);
    }
  }
};

// One block of length m >= W: out = H(diag * inp) * scale. The first pass
// loads the input, applies diag and scale, runs the stages shorter than W
// in registers and (for m >= 4W) the next two stages across four adjacent
// registers, and stores; the remaining stages run in place three at a time
// (radix 8), then two, then one, so a 1024-point transform on 4-lane SIMD
// takes three passes over memory instead of ten. Every output is the same
// sum, in the same order, as the stage-by-stage reference: the results are
// bit-identical to fwht_ref.
template <class Arch>
void project_block(float* out, const float* inp, const float* diag, float scale, int m) {
  using batch = xsimd::batch<float, Arch>;
  constexpr int W = static_cast<int>(batch::size);
  static const StageSigns<Arch> stage_signs;
  const batch* signs = stage_signs.signs;
  const batch sc(scale);
  auto load_in = [&](int i) {
    batch v = batch::load_unaligned(inp + i);
    if (diag) v *= batch::load_unaligned(diag + i);
    v *= sc;
    return butterflies_in_register<Arch, 1>(v, signs);
  };

  int len;  // the shortest stage not yet done
  if (m >= 4 * W) {
    for (int j = 0; j < m; j += 4 * W) {
      const batch a0 = load_in(j), a1 = load_in(j + W);
      const batch a2 = load_in(j + 2 * W), a3 = load_in(j + 3 * W);
      const batch b0 = a0 + a1, b1 = a0 - a1, b2 = a2 + a3, b3 = a2 - a3;
      (b0 + b2).store_unaligned(out + j);
      (b1 + b3).store_unaligned(out + j + W);
      (b0 - b2).store_unaligned(out + j + 2 * W);
      (b1 - b3).store_unaligned(out + j + 3 * W);
    }
    len = 4 * W;
  } else {
    for (int j = 0; j < m; j += W) load_in(j).store_unaligned(out + j);
    len = W;
  }
  // Radix 8: eight loads, 24 add/sub, eight stores per W-wide column.
  for (; 8 * len <= m; len *= 8) {
    for (int i = 0; i < m; i += 8 * len) {
      for (int j = i; j < i + len; j += W) {
        batch a[8];
        for (int k = 0; k < 8; k++) a[k] = batch::load_unaligned(out + j + k * len);
        for (int half = 1; half < 8; half *= 2) {
          for (int k = 0; k < 8; k += 2 * half) {
            for (int q = k; q < k + half; q++) {
              const batch x = a[q], y = a[q + half];
              a[q] = x + y;
              a[q + half] = x - y;
            }
          }
        }
        for (int k = 0; k < 8; k++) a[k].store_unaligned(out + j + k * len);
      }
    }
  }
  if (4 * len <= m) {
    for (int j = 0; j < len; j += W) {
      const batch a0 = batch::load_unaligned(out + j);
      const batch a1 = batch::load_unaligned(out + j + len);
      const batch a2 = batch::load_unaligned(out + j + 2 * len);
      const batch a3 = batch::load_unaligned(out + j + 3 * len);
      const batch b0 = a0 + a1, b1 = a0 - a1, b2 = a2 + a3, b3 = a2 - a3;
      (b0 + b2).store_unaligned(out + j);
      (b1 + b3).store_unaligned(out + j + len);
      (b0 - b2).store_unaligned(out + j + 2 * len);
      (b1 - b3).store_unaligned(out + j + 3 * len);
    }
    len *= 4;
  }
  if (2 * len <= m) {
    for (int j = 0; j < len; j += W) {
      const batch a = batch::load_unaligned(out + j);
      const batch b = batch::load_unaligned(out + j + len);
      (a + b).store_unaligned(out + j);
      (a - b).store_unaligned(out + j + len);
    }
  }
}

// Blocks shorter than W take the scalar reference.
template <class Arch>
void project_simd(float* out, const float* inp, const float* diag, float scale, int n, int block) {
  constexpr int W = static_cast<int>(xsimd::batch<float, Arch>::size);
  if (block < W) {
    hadamard_project_ref(out, inp, diag, scale, n, block);
    return;
  }
  for (int b = 0; b < n; b += block) {
    project_block<Arch>(out + b, inp + b, diag ? diag + b : nullptr, scale, block);
  }
}

// e^-x, as SiLU needs it, on a batch or a float: 2^(-x log2 e) by
// simd::exp2_clamped (fast_exp.hpp). Relative error: exp2's 5.2e-7, plus
// |x| 2^-24 ln 2 (~4e-8 |x|) from rounding -x log2 e to float. Past its
// clamp, e^-x is 0 for x > ~87.7 and 2^127 ~ 1.7e38 for x < -88, which keeps
// SiLU right there: x / (1 + e^-x) is x for x >> 0 and a tiny x / 2^127 for
// x << 0, never NaN for a finite x.
constexpr float kLog2e = 1.44269504f;

template <class V>
XSIMD_INLINE V exp_neg(V x) {
  return simd::exp2_clamped(x * -kLog2e);
}

}  // namespace

void fwht(float* x, int n, int block) { project_simd<Arch>(x, x, nullptr, 1.0f, n, block); }

void fwht_ref(float* x, int n, int block) {
  for (int b = 0; b < n; b += block) {
    float* x_b = x + b;
    for (int len = 1; len < block; len *= 2) {
      for (int i = 0; i < block; i += 2 * len) {
        for (int j = i; j < i + len; j++) {
          const float u = x_b[j], v = x_b[j + len];
          x_b[j] = u + v;
          x_b[j + len] = u - v;
        }
      }
    }
  }
}

void hadamard_project(float* out, const float* inp, const float* diag, float scale, int n,
                      int block) {
  project_simd<Arch>(out, inp, diag, scale, n, block);
}

void hadamard_project_ref(float* out, const float* inp, const float* diag, float scale, int n,
                          int block) {
  for (int i = 0; i < n; i++) out[i] = inp[i] * (diag ? diag[i] : 1.0f) * scale;
  fwht_ref(out, n, block);
}

void mul(float* out, const float* a, const float* b, float scale, int n) {
  vec_map<Arch>(out, n, [=](auto load, int i) { return load(a + i) * load(b + i) * scale; });
}

void mul_ref(float* out, const float* a, const float* b, float scale, int n) {
  for (int i = 0; i < n; i++) out[i] = a[i] * b[i] * scale;
}

void scale(float* out, const float* inp, float s, int n) {
  vec_map<Arch>(out, n, [=](auto load, int i) { return load(inp + i) * s; });
}

void scale_ref(float* out, const float* inp, float s, int n) {
  for (int i = 0; i < n; i++) out[i] = inp[i] * s;
}

void mul_add(float* out, float* sum, const float* a, const float* b, const float* c, int n) {
  vec_map2<Arch>(out, sum, n, [=](auto load, int i) {
    const auto o = load(a + i) * load(b + i);
    return std::pair{o, load(c + i) + o};
  });
}

void mul_add_ref(float* out, float* sum, const float* a, const float* b, const float* c, int n) {
  for (int i = 0; i < n; i++) {
    out[i] = a[i] * b[i];
    sum[i] = c[i] + out[i];
  }
}

void mul_acc(float* acc, const float* a, const float* b, int n) {
  vec_map<Arch>(acc, n,
                [=](auto load, int i) { return load(a + i) * load(b + i) + load(acc + i); });
}

void mul_acc_ref(float* acc, const float* a, const float* b, int n) {
  for (int i = 0; i < n; i++) acc[i] += a[i] * b[i];
}

void axpy(float* y, float alpha, const float* x, int n) {
  vec_map<Arch>(y, n, [=](auto load, int i) { return alpha * load(x + i) + load(y + i); });
}

void axpy_ref(float* y, float alpha, const float* x, int n) {
  for (int i = 0; i < n; i++) y[i] += alpha * x[i];
}

void add(float* out, const float* a, const float* b, int n) {
  vec_map<Arch>(out, n, [=](auto load, int i) { return load(a + i) + load(b + i); });
}

void add_ref(float* out, const float* a, const float* b, int n) {
  for (int i = 0; i < n; i++) out[i] = a[i] + b[i];
}

float dot(const float* a, const float* b, int n) {
  return static_cast<float>(
      vec_sum_of<Arch>(n, [=](auto load, int i) { return load(a + i) * load(b + i); }));
}

float dot_ref(const float* a, const float* b, int n) {
  double sum = 0.0;
  for (int i = 0; i < n; i++) sum += static_cast<double>(a[i]) * b[i];
  return static_cast<float>(sum);
}

void segment_dots(float* out, const float* a, const float* b, int n, int seg) {
  for (int j = 0, o = 0; o < n; j++, o += seg) {
    out[j] = dot(a + o, b + o, seg);
  }
}

void segment_dots_ref(float* out, const float* a, const float* b, int n, int seg) {
  for (int j = 0, o = 0; o < n; j++, o += seg) out[j] = dot_ref(a + o, b + o, seg);
}

void segment_dots4(float* out, const float* a, const float* const b[4], int n, int seg) {
  const int n_seg = n / seg;
  for (int j = 0, o = 0; o < n; j++, o += seg) {
    const float* a_j = a + o;
    const float* b0 = b[0] + o;
    const float* b1 = b[1] + o;
    const float* b2 = b[2] + o;
    const float* b3 = b[3] + o;
    const std::array<double, 4> sums = vec_sum4_of<Arch>(seg, [=](auto load, int i) {
      const auto x = load(a_j + i);
      return std::array{x * load(b0 + i), x * load(b1 + i), x * load(b2 + i), x * load(b3 + i)};
    });
    for (int k = 0; k < 4; k++) out[k * n_seg + j] = static_cast<float>(sums[k]);
  }
}

void segment_dots4_ref(float* out, const float* a, const float* const b[4], int n, int seg) {
  for (int k = 0; k < 4; k++) segment_dots_ref(out + k * (n / seg), a, b[k], n, seg);
}

void segment_axpy(float* y, const float* alpha, const float* x, int n, int seg) {
  for (int j = 0, o = 0; o < n; j++, o += seg) axpy(y + o, alpha[j], x + o, seg);
}

void segment_axpy_ref(float* y, const float* alpha, const float* x, int n, int seg) {
  for (int j = 0, o = 0; o < n; j++, o += seg) {
    for (int i = o; i < o + seg; i++) y[i] += alpha[j] * x[i];
  }
}

// The four terms are added one after another, in the order of four
// segment_axpy calls.
void segment_axpy4(float* y, const float* alpha, const float* const x[4], int n, int seg) {
  const int n_seg = n / seg;
  for (int j = 0, o = 0; o < n; j++, o += seg) {
    float* y_j = y + o;
    const float* x0 = x[0] + o;
    const float* x1 = x[1] + o;
    const float* x2 = x[2] + o;
    const float* x3 = x[3] + o;
    const float a0 = alpha[j], a1 = alpha[n_seg + j];
    const float a2 = alpha[2 * n_seg + j], a3 = alpha[3 * n_seg + j];
    vec_map<Arch>(y_j, seg, [=](auto load, int i) {
      auto acc = a0 * load(x0 + i) + load(y_j + i);
      acc = a1 * load(x1 + i) + acc;
      acc = a2 * load(x2 + i) + acc;
      return a3 * load(x3 + i) + acc;
    });
  }
}

void segment_axpy4_ref(float* y, const float* alpha, const float* const x[4], int n, int seg) {
  for (int k = 0; k < 4; k++) segment_axpy_ref(y, alpha + k * (n / seg), x[k], n, seg);
}

double sum_squares(const float* x, int n) { return simd::vec_sum_squares<Arch>(x, n); }

double sum_squares_ref(const float* x, int n) {
  double sum = 0.0;
  for (int i = 0; i < n; i++) sum += static_cast<double>(x[i]) * x[i];
  return sum;
}

void mul_rotate_segments(float* out, const float* a, const float* b, const float* cos_a,
                         const float* sin_a, int n, int seg) {
  const int half = seg / 2;
  for (int o = 0; o < n; o += seg) {
    const int h = o + half;
    vec_map2<Arch>(out + o, out + h, half, [=](auto load, int i) {
      const auto lo = load(a + o + i) * load(b + o + i);
      const auto hi = load(a + h + i) * load(b + h + i);
      const auto c = load(cos_a + i);
      const auto s = load(sin_a + i);
      return std::pair{lo * c - hi * s, lo * s + hi * c};
    });
  }
}

void mul_rotate_segments_ref(float* out, const float* a, const float* b, const float* cos_a,
                             const float* sin_a, int n, int seg) {
  const int half = seg / 2;
  for (int o = 0; o < n; o += seg) {
    for (int i = 0; i < half; i++) {
      const float lo = a[o + i] * b[o + i];
      const float hi = a[o + half + i] * b[o + half + i];
      out[o + i] = lo * cos_a[i] - hi * sin_a[i];
      out[o + half + i] = lo * sin_a[i] + hi * cos_a[i];
    }
  }
}

void rotate_pairs(float* lo, float* hi, const float* cos_a, const float* sin_a, float direction,
                  int n) {
  vec_map2<Arch>(lo, hi, n, [=](auto load, int i) {
    const auto a = load(lo + i);
    const auto b = load(hi + i);
    const auto c = load(cos_a + i);
    const auto s = load(sin_a + i) * direction;
    return std::pair{a * c - b * s, a * s + b * c};
  });
}

void rotate_pairs_ref(float* lo, float* hi, const float* cos_a, const float* sin_a, float direction,
                      int n) {
  for (int i = 0; i < n; i++) {
    const float a = lo[i], b = hi[i], c = cos_a[i], s = sin_a[i] * direction;
    lo[i] = a * c - b * s;
    hi[i] = a * s + b * c;
  }
}

void silu_forward(float* out, const float* inp, int n) {
  vec_map<Arch>(out, n, [=](auto load, int i) {
    const auto x = load(inp + i);
    return x / (1.0f + exp_neg(x));
  });
}

void silu_forward_ref(float* out, const float* inp, int n) {
  for (int i = 0; i < n; i++) {
    out[i] = static_cast<float>(inp[i] / (1.0 + std::exp(-double{inp[i]})));
  }
}

void mul_silu_forward(float* m, float* out, const float* a, const float* b, int n) {
  vec_map2<Arch>(m, out, n, [=](auto load, int i) {
    const auto x = load(a + i) * load(b + i);
    return std::pair{x, x / (1.0f + exp_neg(x))};
  });
}

void mul_silu_forward_ref(float* m, float* out, const float* a, const float* b, int n) {
  mul_ref(m, a, b, 1.0f, n);
  silu_forward_ref(out, m, n);
}

void silu_backward(float* dinp, const float* dout, const float* inp, int n) {
  vec_map<Arch>(dinp, n, [=](auto load, int i) {
    const auto x = load(inp + i);
    const auto s = 1.0f / (1.0f + exp_neg(x));
    return load(dout + i) * (s * (x * (1.0f - s) + 1.0f));
  });
}

void silu_backward_ref(float* dinp, const float* dout, const float* inp, int n) {
  for (int i = 0; i < n; i++) {
    const double s = 1.0 / (1.0 + std::exp(-double{inp[i]}));
    dinp[i] = static_cast<float>(dout[i] * s * (1.0 + inp[i] * (1.0 - s)));
  }
}

}  // namespace normlab::model
