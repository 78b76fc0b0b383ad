// Vector primitives of the synthetic model (see vec.h): SIMD implementations
// templated on the xsimd architecture, and their scalar references.
//
// n = vector length, W = SIMD width in floats (batch::size)
#include "model/vec.h"

// GCC 12 flags its own AVX-512 intrinsics (the deliberately undefined
// register of _mm512_undefined_ps, GCC bug 105593) as (maybe-)uninitialized
// wherever they are inlined; a known false positive, fixed in GCC 13.
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ == 12
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include <algorithm>
#include <cmath>
#include <cstdint>

#include <xsimd/xsimd.hpp>

namespace normlab::model {

namespace {

// The architecture of this build: the scalar wasm build enables xsimd's
// emulated 128-bit architecture, every other build the best one compiled for.
#if XSIMD_WITH_EMULATED
using BuildArch = xsimd::emulated<128>;
#else
using BuildArch = xsimd::default_arch;
#endif

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
xsimd::batch<float, Arch> butterflies_in_register(
    xsimd::batch<float, Arch> x, const xsimd::batch<float, Arch>* signs) {
  using batch = xsimd::batch<float, Arch>;
  if constexpr (L < batch::size) {
    batch partner = xsimd::swizzle(
        x, xsimd::make_batch_constant<uint32_t, Arch, XorLane<L>>());
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
void project_block(float* out, const float* inp, const float* diag,
                   float scale, int m) {
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
void project_simd(float* out, const float* inp, const float* diag, float scale,
                  int n, int block) {
  constexpr int W = static_cast<int>(xsimd::batch<float, Arch>::size);
  if (block < W) {
    hadamard_project_ref(out, inp, diag, scale, n, block);
    return;
  }
  for (int b = 0; b < n; b += block) {
    project_block<Arch>(out + b, inp + b, diag ? diag + b : nullptr, scale,
                        block);
  }
}

template <class Arch>
void mul_simd(float* out, const float* a, const float* b, float scale, int n) {
  using batch = xsimd::batch<float, Arch>;
  constexpr int W = static_cast<int>(batch::size);
  const int n_vec = n - n % W;
  const batch s(scale);
  for (int i = 0; i < n_vec; i += W) {
    (batch::load_unaligned(a + i) * batch::load_unaligned(b + i) * s)
        .store_unaligned(out + i);
  }
  for (int i = n_vec; i < n; i++) out[i] = a[i] * b[i] * scale;
}

template <class Arch>
void mul_add_simd(float* out, float* sum, const float* a, const float* b,
                  const float* c, int n) {
  using batch = xsimd::batch<float, Arch>;
  constexpr int W = static_cast<int>(batch::size);
  const int n_vec = n - n % W;
  for (int i = 0; i < n_vec; i += W) {
    const batch o = batch::load_unaligned(a + i) * batch::load_unaligned(b + i);
    o.store_unaligned(out + i);
    (batch::load_unaligned(c + i) + o).store_unaligned(sum + i);
  }
  for (int i = n_vec; i < n; i++) {
    out[i] = a[i] * b[i];
    sum[i] = c[i] + out[i];
  }
}

template <class Arch>
void scale_simd(float* out, const float* inp, float s, int n) {
  using batch = xsimd::batch<float, Arch>;
  constexpr int W = static_cast<int>(batch::size);
  const int n_vec = n - n % W;
  const batch b(s);
  for (int i = 0; i < n_vec; i += W) {
    (batch::load_unaligned(inp + i) * b).store_unaligned(out + i);
  }
  for (int i = n_vec; i < n; i++) out[i] = inp[i] * s;
}

template <class Arch>
void mul_acc_simd(float* acc, const float* a, const float* b, int n) {
  using batch = xsimd::batch<float, Arch>;
  constexpr int W = static_cast<int>(batch::size);
  const int n_vec = n - n % W;
  for (int i = 0; i < n_vec; i += W) {
    xsimd::fma(batch::load_unaligned(a + i), batch::load_unaligned(b + i),
               batch::load_unaligned(acc + i))
        .store_unaligned(acc + i);
  }
  for (int i = n_vec; i < n; i++) acc[i] += a[i] * b[i];
}

template <class Arch>
void axpy_simd(float* y, float alpha, const float* x, int n) {
  using batch = xsimd::batch<float, Arch>;
  constexpr int W = static_cast<int>(batch::size);
  const int n_vec = n - n % W;
  const batch a(alpha);
  for (int i = 0; i < n_vec; i += W) {
    xsimd::fma(a, batch::load_unaligned(x + i), batch::load_unaligned(y + i))
        .store_unaligned(y + i);
  }
  for (int i = n_vec; i < n; i++) y[i] += alpha * x[i];
}

template <class Arch>
void add_simd(float* out, const float* a, const float* b, int n) {
  using batch = xsimd::batch<float, Arch>;
  constexpr int W = static_cast<int>(batch::size);
  const int n_vec = n - n % W;
  for (int i = 0; i < n_vec; i += W) {
    (batch::load_unaligned(a + i) + batch::load_unaligned(b + i))
        .store_unaligned(out + i);
  }
  for (int i = n_vec; i < n; i++) out[i] = a[i] + b[i];
}

template <class Arch>
float dot_simd(const float* a, const float* b, int n) {
  using batch = xsimd::batch<float, Arch>;
  constexpr int W = static_cast<int>(batch::size);
  const int n_vec4 = n - n % (4 * W);
  const int n_vec = n - n % W;
  batch s0(0.0f), s1(0.0f), s2(0.0f), s3(0.0f);
  int i = 0;
  for (; i < n_vec4; i += 4 * W) {
    s0 = xsimd::fma(batch::load_unaligned(a + i), batch::load_unaligned(b + i), s0);
    s1 = xsimd::fma(batch::load_unaligned(a + i + W), batch::load_unaligned(b + i + W), s1);
    s2 = xsimd::fma(batch::load_unaligned(a + i + 2 * W), batch::load_unaligned(b + i + 2 * W), s2);
    s3 = xsimd::fma(batch::load_unaligned(a + i + 3 * W), batch::load_unaligned(b + i + 3 * W), s3);
  }
  for (; i < n_vec; i += W) {
    s0 = xsimd::fma(batch::load_unaligned(a + i), batch::load_unaligned(b + i), s0);
  }
  float sum = xsimd::reduce_add((s0 + s1) + (s2 + s3));
  for (; i < n; i++) sum += a[i] * b[i];
  return sum;
}

// Segments shorter than two SIMD widths take the scalar reference.
template <class Arch>
void segment_dots_simd(float* out, const float* a, const float* b, int n,
                       int seg) {
  using batch = xsimd::batch<float, Arch>;
  constexpr int W = static_cast<int>(batch::size);
  if (seg < 2 * W || seg % (2 * W) != 0) {
    segment_dots_ref(out, a, b, n, seg);
    return;
  }
  for (int j = 0, o = 0; o < n; j++, o += seg) {
    batch s0(0.0f), s1(0.0f);
    for (int i = o; i < o + seg; i += 2 * W) {
      s0 = xsimd::fma(batch::load_unaligned(a + i), batch::load_unaligned(b + i), s0);
      s1 = xsimd::fma(batch::load_unaligned(a + i + W), batch::load_unaligned(b + i + W), s1);
    }
    out[j] = xsimd::reduce_add(s0 + s1);
  }
}

// Segments shorter than one SIMD width (heads of 4 features on wider
// machines) take the scalar reference, here and in segment_axpy4.
template <class Arch>
void segment_dots4_simd(float* out, const float* a, const float* const b[4],
                        int n, int seg) {
  using batch = xsimd::batch<float, Arch>;
  constexpr int W = static_cast<int>(batch::size);
  const int n_seg = n / seg;
  if (seg < W || seg % W != 0) {
    segment_dots4_ref(out, a, b, n, seg);
    return;
  }
  for (int j = 0, o = 0; o < n; j++, o += seg) {
    batch s0(0.0f), s1(0.0f), s2(0.0f), s3(0.0f);
    for (int i = o; i < o + seg; i += W) {
      const batch x = batch::load_unaligned(a + i);
      s0 = xsimd::fma(x, batch::load_unaligned(b[0] + i), s0);
      s1 = xsimd::fma(x, batch::load_unaligned(b[1] + i), s1);
      s2 = xsimd::fma(x, batch::load_unaligned(b[2] + i), s2);
      s3 = xsimd::fma(x, batch::load_unaligned(b[3] + i), s3);
    }
    out[j] = xsimd::reduce_add(s0);
    out[n_seg + j] = xsimd::reduce_add(s1);
    out[2 * n_seg + j] = xsimd::reduce_add(s2);
    out[3 * n_seg + j] = xsimd::reduce_add(s3);
  }
}

template <class Arch>
void segment_axpy4_simd(float* y, const float* alpha, const float* const x[4],
                        int n, int seg) {
  using batch = xsimd::batch<float, Arch>;
  constexpr int W = static_cast<int>(batch::size);
  const int n_seg = n / seg;
  if (seg < W || seg % W != 0) {
    segment_axpy4_ref(y, alpha, x, n, seg);
    return;
  }
  for (int j = 0, o = 0; o < n; j++, o += seg) {
    const batch a0(alpha[j]), a1(alpha[n_seg + j]);
    const batch a2(alpha[2 * n_seg + j]), a3(alpha[3 * n_seg + j]);
    for (int i = o; i < o + seg; i += W) {
      batch acc = batch::load_unaligned(y + i);
      acc = xsimd::fma(a0, batch::load_unaligned(x[0] + i), acc);
      acc = xsimd::fma(a1, batch::load_unaligned(x[1] + i), acc);
      acc = xsimd::fma(a2, batch::load_unaligned(x[2] + i), acc);
      acc = xsimd::fma(a3, batch::load_unaligned(x[3] + i), acc);
      acc.store_unaligned(y + i);
    }
  }
}

template <class Arch>
void segment_axpy_simd(float* y, const float* alpha, const float* x, int n,
                       int seg) {
  using batch = xsimd::batch<float, Arch>;
  constexpr int W = static_cast<int>(batch::size);
  if (seg < W || seg % W != 0) {
    segment_axpy_ref(y, alpha, x, n, seg);
    return;
  }
  for (int j = 0, o = 0; o < n; j++, o += seg) {
    const batch a(alpha[j]);
    for (int i = o; i < o + seg; i += W) {
      xsimd::fma(a, batch::load_unaligned(x + i), batch::load_unaligned(y + i))
          .store_unaligned(y + i);
    }
  }
}

template <class Arch>
void rotate_pairs_simd(float* lo, float* hi, const float* cos_a,
                       const float* sin_a, float direction, int n) {
  using batch = xsimd::batch<float, Arch>;
  constexpr int W = static_cast<int>(batch::size);
  const int n_vec = n - n % W;
  const batch dir(direction);
  for (int i = 0; i < n_vec; i += W) {
    const batch a = batch::load_unaligned(lo + i);
    const batch b = batch::load_unaligned(hi + i);
    const batch c = batch::load_unaligned(cos_a + i);
    const batch s = batch::load_unaligned(sin_a + i) * dir;
    xsimd::fms(a, c, b * s).store_unaligned(lo + i);
    xsimd::fma(a, s, b * c).store_unaligned(hi + i);
  }
  for (int i = n_vec; i < n; i++) {
    const float a = lo[i], b = hi[i], c = cos_a[i], s = sin_a[i] * direction;
    lo[i] = a * c - b * s;
    hi[i] = a * s + b * c;
  }
}

// exp(x) = 2^(x log2 e) = 2^k 2^f with k = round(x log2 e), |f| <= 1/2;
// 2^f = e^(f ln 2) by its Taylor polynomial to degree 6 (error
// (ln2 / 2)^7 / 7! ~ 1.2e-7), 2^k by writing k + 127 into the exponent bits.
// The rounding is the magic-number trick: for |y| < 2^22, t = y + 1.5 * 2^23
// rounds y to the nearest integer k in float arithmetic, t - 1.5 * 2^23 = k
// exactly, and t's bit pattern is 0x4B400000 + k, so k's exponent field is
// (bits(t) - 0x4B400000 + 127) << 23. Two adds and two integer ops instead
// of a rounding and a float-to-int conversion, both slow in SIMD128.
// y is clamped to [-126, 126], so 2^k is a normal float and exp(x) is
// finite: below x ~ -87 the result is ~2^-126 rather than e^x (both ~0).
constexpr float kExpPoly[7] = {1.0f,          0.693147181f,  0.240226507f,
                               0.0555041087f, 0.00961812911f, 0.00133335581f,
                               0.000154035304f};
constexpr float kRoundMagic = 12582912.0f;  // 1.5 * 2^23
constexpr int32_t kRoundMagicBits = 0x4B400000;

// The constants live in registers set up once per call, outside the loops.
template <class Arch>
struct ExpFast {
  using batch = xsimd::batch<float, Arch>;
  using ibatch = xsimd::batch<int32_t, Arch>;
  batch log2e{1.44269504f}, lo{-126.0f}, hi{126.0f}, magic{kRoundMagic};
  batch c[7] = {batch(kExpPoly[0]), batch(kExpPoly[1]), batch(kExpPoly[2]),
                batch(kExpPoly[3]), batch(kExpPoly[4]), batch(kExpPoly[5]),
                batch(kExpPoly[6])};
  ibatch exponent_offset{kRoundMagicBits - 127};

  batch operator()(batch x) const {
    const batch y = xsimd::clip(x * log2e, lo, hi);
    const batch t = y + magic;
    const batch f = y - (t - magic);
    batch p = c[6];
    for (int i = 5; i >= 0; i--) p = xsimd::fma(p, f, c[i]);
    const ibatch bits =
        (xsimd::bitwise_cast<int32_t>(t) - exponent_offset) << 23;
    return p * xsimd::bitwise_cast<float>(bits);
  }
};

float exp_fast_scalar(float x) {
  const float y = std::fmin(std::fmax(x * 1.44269504f, -126.0f), 126.0f);
  const float k = (y + kRoundMagic) - kRoundMagic;
  const float f = y - k;
  float p = kExpPoly[6];
  for (int i = 5; i >= 0; i--) p = p * f + kExpPoly[i];
  return std::ldexp(p, static_cast<int>(k));
}

template <class Arch>
void silu_forward_simd(float* out, const float* inp, int n) {
  using batch = xsimd::batch<float, Arch>;
  constexpr int W = static_cast<int>(batch::size);
  const int n_vec = n - n % W;
  const batch one(1.0f);
  const ExpFast<Arch> exp_fast;
  for (int i = 0; i < n_vec; i += W) {
    const batch x = batch::load_unaligned(inp + i);
    (x / (one + exp_fast(-x))).store_unaligned(out + i);
  }
  for (int i = n_vec; i < n; i++) out[i] = inp[i] / (1.0f + exp_fast_scalar(-inp[i]));
}

template <class Arch>
void mul_silu_forward_simd(float* m, float* out, const float* a,
                           const float* b, int n) {
  using batch = xsimd::batch<float, Arch>;
  constexpr int W = static_cast<int>(batch::size);
  const int n_vec = n - n % W;
  const batch one(1.0f);
  const ExpFast<Arch> exp_fast;
  for (int i = 0; i < n_vec; i += W) {
    const batch x = batch::load_unaligned(a + i) * batch::load_unaligned(b + i);
    x.store_unaligned(m + i);
    (x / (one + exp_fast(-x))).store_unaligned(out + i);
  }
  for (int i = n_vec; i < n; i++) {
    m[i] = a[i] * b[i];
    out[i] = m[i] / (1.0f + exp_fast_scalar(-m[i]));
  }
}

template <class Arch>
void silu_backward_simd(float* dinp, const float* dout, const float* inp,
                        int n) {
  using batch = xsimd::batch<float, Arch>;
  constexpr int W = static_cast<int>(batch::size);
  const int n_vec = n - n % W;
  const batch one(1.0f);
  const ExpFast<Arch> exp_fast;
  for (int i = 0; i < n_vec; i += W) {
    const batch x = batch::load_unaligned(inp + i);
    const batch s = one / (one + exp_fast(-x));
    const batch slope = s * xsimd::fma(x, one - s, one);
    (batch::load_unaligned(dout + i) * slope).store_unaligned(dinp + i);
  }
  for (int i = n_vec; i < n; i++) {
    const float s = 1.0f / (1.0f + exp_fast_scalar(-inp[i]));
    dinp[i] = dout[i] * s * (1.0f + inp[i] * (1.0f - s));
  }
}

template <class Arch>
void mul_rotate_segments_simd(float* out, const float* a, const float* b,
                              const float* cos_a, const float* sin_a, int n,
                              int seg) {
  using batch = xsimd::batch<float, Arch>;
  constexpr int W = static_cast<int>(batch::size);
  const int half = seg / 2;
  if (half < W || half % W != 0) {
    mul_rotate_segments_ref(out, a, b, cos_a, sin_a, n, seg);
    return;
  }
  for (int o = 0; o < n; o += seg) {
    for (int i = 0; i < half; i += W) {
      const int l = o + i, h = o + half + i;
      const batch lo = batch::load_unaligned(a + l) * batch::load_unaligned(b + l);
      const batch hi = batch::load_unaligned(a + h) * batch::load_unaligned(b + h);
      const batch c = batch::load_unaligned(cos_a + i);
      const batch s = batch::load_unaligned(sin_a + i);
      xsimd::fms(lo, c, hi * s).store_unaligned(out + l);
      xsimd::fma(lo, s, hi * c).store_unaligned(out + h);
    }
  }
}

}  // namespace

void fwht(float* x, int n, int block) {
  project_simd<BuildArch>(x, x, nullptr, 1.0f, n, block);
}

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

void hadamard_project(float* out, const float* inp, const float* diag,
                      float scale, int n, int block) {
  project_simd<BuildArch>(out, inp, diag, scale, n, block);
}

void hadamard_project_ref(float* out, const float* inp, const float* diag,
                          float scale, int n, int block) {
  for (int i = 0; i < n; i++) out[i] = inp[i] * (diag ? diag[i] : 1.0f) * scale;
  fwht_ref(out, n, block);
}

void mul(float* out, const float* a, const float* b, float scale, int n) {
  mul_simd<BuildArch>(out, a, b, scale, n);
}

void mul_ref(float* out, const float* a, const float* b, float scale, int n) {
  for (int i = 0; i < n; i++) out[i] = a[i] * b[i] * scale;
}

void mul_add(float* out, float* sum, const float* a, const float* b,
             const float* c, int n) {
  mul_add_simd<BuildArch>(out, sum, a, b, c, n);
}

void mul_add_ref(float* out, float* sum, const float* a, const float* b,
                 const float* c, int n) {
  for (int i = 0; i < n; i++) {
    out[i] = a[i] * b[i];
    sum[i] = c[i] + out[i];
  }
}

void scale(float* out, const float* inp, float s, int n) {
  scale_simd<BuildArch>(out, inp, s, n);
}

void scale_ref(float* out, const float* inp, float s, int n) {
  for (int i = 0; i < n; i++) out[i] = inp[i] * s;
}

void mul_acc(float* acc, const float* a, const float* b, int n) {
  mul_acc_simd<BuildArch>(acc, a, b, n);
}

void mul_acc_ref(float* acc, const float* a, const float* b, int n) {
  for (int i = 0; i < n; i++) acc[i] += a[i] * b[i];
}

void axpy(float* y, float alpha, const float* x, int n) {
  axpy_simd<BuildArch>(y, alpha, x, n);
}

void axpy_ref(float* y, float alpha, const float* x, int n) {
  for (int i = 0; i < n; i++) y[i] += alpha * x[i];
}

void add(float* out, const float* a, const float* b, int n) {
  add_simd<BuildArch>(out, a, b, n);
}

void add_ref(float* out, const float* a, const float* b, int n) {
  for (int i = 0; i < n; i++) out[i] = a[i] + b[i];
}

float dot(const float* a, const float* b, int n) {
  return dot_simd<BuildArch>(a, b, n);
}

float dot_ref(const float* a, const float* b, int n) {
  double sum = 0.0;
  for (int i = 0; i < n; i++) sum += static_cast<double>(a[i]) * b[i];
  return static_cast<float>(sum);
}

void segment_dots(float* out, const float* a, const float* b, int n, int seg) {
  segment_dots_simd<BuildArch>(out, a, b, n, seg);
}

void segment_dots_ref(float* out, const float* a, const float* b, int n,
                      int seg) {
  for (int j = 0, o = 0; o < n; j++, o += seg) {
    double sum = 0.0;
    for (int i = o; i < o + seg; i++) sum += static_cast<double>(a[i]) * b[i];
    out[j] = static_cast<float>(sum);
  }
}

void segment_axpy(float* y, const float* alpha, const float* x, int n,
                  int seg) {
  segment_axpy_simd<BuildArch>(y, alpha, x, n, seg);
}

void segment_axpy_ref(float* y, const float* alpha, const float* x, int n,
                      int seg) {
  for (int j = 0, o = 0; o < n; j++, o += seg) {
    for (int i = o; i < o + seg; i++) y[i] += alpha[j] * x[i];
  }
}

void segment_dots4(float* out, const float* a, const float* const b[4], int n,
                   int seg) {
  segment_dots4_simd<BuildArch>(out, a, b, n, seg);
}

void segment_axpy4(float* y, const float* alpha, const float* const x[4],
                   int n, int seg) {
  segment_axpy4_simd<BuildArch>(y, alpha, x, n, seg);
}

void segment_dots4_ref(float* out, const float* a, const float* const b[4],
                       int n, int seg) {
  for (int k = 0; k < 4; k++) segment_dots_ref(out + k * (n / seg), a, b[k], n, seg);
}

void segment_axpy4_ref(float* y, const float* alpha, const float* const x[4],
                       int n, int seg) {
  for (int k = 0; k < 4; k++) segment_axpy_ref(y, alpha + k * (n / seg), x[k], n, seg);
}

double sum_squares(const float* x, int n) {
  constexpr int chunk = 1024;
  double sum = 0.0;
  for (int i = 0; i < n; i += chunk) {
    const int m = std::min(chunk, n - i);
    sum += dot_simd<BuildArch>(x + i, x + i, m);
  }
  return sum;
}

double sum_squares_ref(const float* x, int n) {
  double sum = 0.0;
  for (int i = 0; i < n; i++) sum += static_cast<double>(x[i]) * x[i];
  return sum;
}

void rotate_pairs(float* lo, float* hi, const float* cos_a, const float* sin_a,
                  float direction, int n) {
  rotate_pairs_simd<BuildArch>(lo, hi, cos_a, sin_a, direction, n);
}

void rotate_pairs_ref(float* lo, float* hi, const float* cos_a,
                      const float* sin_a, float direction, int n) {
  for (int i = 0; i < n; i++) {
    const float a = lo[i], b = hi[i], c = cos_a[i], s = sin_a[i] * direction;
    lo[i] = a * c - b * s;
    hi[i] = a * s + b * c;
  }
}

void silu_forward(float* out, const float* inp, int n) {
  silu_forward_simd<BuildArch>(out, inp, n);
}

void silu_forward_ref(float* out, const float* inp, int n) {
  for (int i = 0; i < n; i++) {
    out[i] = static_cast<float>(inp[i] / (1.0 + std::exp(-double{inp[i]})));
  }
}

void mul_silu_forward(float* m, float* out, const float* a, const float* b,
                      int n) {
  mul_silu_forward_simd<BuildArch>(m, out, a, b, n);
}

void mul_silu_forward_ref(float* m, float* out, const float* a, const float* b,
                          int n) {
  mul_ref(m, a, b, 1.0f, n);
  silu_forward_ref(out, m, n);
}

void silu_backward(float* dinp, const float* dout, const float* inp, int n) {
  silu_backward_simd<BuildArch>(dinp, dout, inp, n);
}

void silu_backward_ref(float* dinp, const float* dout, const float* inp,
                       int n) {
  for (int i = 0; i < n; i++) {
    const double s = 1.0 / (1.0 + std::exp(-double{inp[i]}));
    dinp[i] = static_cast<float>(dout[i] * s * (1.0 + inp[i] * (1.0 - s)));
  }
}

void mul_rotate_segments(float* out, const float* a, const float* b,
                         const float* cos_a, const float* sin_a, int n,
                         int seg) {
  mul_rotate_segments_simd<BuildArch>(out, a, b, cos_a, sin_a, n, seg);
}

void mul_rotate_segments_ref(float* out, const float* a, const float* b,
                             const float* cos_a, const float* sin_a, int n,
                             int seg) {
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

}  // namespace normlab::model
