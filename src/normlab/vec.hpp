// Vector primitives the row kernels and the model's vector ops
// (model/vec.cpp) are composed from: sums, maxima and element-wise maps over
// one row of n floats, templated on the xsimd architecture.
//
// n = row length, W = batch::size (SIMD lanes: 16 for AVX-512, 8 for AVX,
// 4 for SSE, SIMD128 and emulated<128>)
//
// Every primitive has the same loop structure: whole batches up to
// n - n % W with unaligned loads (rows start anywhere in a (T, D) tensor),
// then a scalar tail. The caller describes the work per index as a generic
// lambda `term(load, i)` that reads its operands through `load`, so one
// expression serves both the batch loop (load = W lanes) and the tail
// (load = one float):
//
//   vec_sum_of<Arch>(n, [x](auto load, int i) { auto v = load(x + i); return v * v; })
#pragma once

#include <xsimd/xsimd.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <type_traits>
#include <utility>

namespace normlab::simd {

// Loads W lanes starting at p (no alignment required).
template <class Arch>
struct batch_load {
  XSIMD_INLINE xsimd::batch<float, Arch> operator()(const float* p) const noexcept {
    return xsimd::batch<float, Arch>::load_unaligned(p);
  }
};

// Loads the single float at p (the scalar tail).
struct scalar_load {
  XSIMD_INLINE float operator()(const float* p) const noexcept { return *p; }
};

// Whether vec_map handles four batches per step: on SIMD128 only, where it
// lets the four loads and stores of a step share one address computation.
// V8 computes each address afresh (Emscripten builds without loop strength
// reduction), half the instructions of a loop as short as RMSNorm's output
// loop. Elsewhere it does not pay: on x86, where g++ already addresses
// well, it makes a 1x1024 LayerNorm slower, and emulated<128> (the scalar
// wasm build) holds a batch in four locals, sixteen of which spill on V8.
#if XSIMD_WITH_WASM
template <class Arch>
inline constexpr bool kUnrollMaps = std::is_same_v<Arch, xsimd::wasm>;
#else
template <class Arch>
inline constexpr bool kUnrollMaps = false;
#endif

// Block length of the sums below, in floats: a multiple of 4W for every W.
inline constexpr int kSumBlock = 1024;

// sum_{i < n} term(load, i): float lanes within a block, double across.
// Four independent accumulators hide the add latency (3-4 cycles) behind the
// loads. Each accumulator lane sums at most kSumBlock / 4W terms before the
// block is reduced into a double, so the rounding error stays below
// ~(kSumBlock / 4W) * 2^-24 relative (2^-18 for W = 4) for any n, instead of
// growing with n. A float overflow inside a block shows as +inf, a NaN term
// as NaN, in the result.
template <class Arch, class Term>
XSIMD_INLINE double vec_sum_of(int n, Term&& term) {
  using batch = xsimd::batch<float, Arch>;
  constexpr int W = static_cast<int>(batch::size);
  const batch_load<Arch> lanes;
  const int n_vec = n - n % W;
  double sum = 0.0;
  int i = 0;
  while (i < n_vec) {
    const int block_end = std::min(n_vec, i + kSumBlock);
    batch acc0(0.0f), acc1(0.0f), acc2(0.0f), acc3(0.0f);
    for (; i + 4 * W <= block_end; i += 4 * W) {
      acc0 += term(lanes, i);
      acc1 += term(lanes, i + W);
      acc2 += term(lanes, i + 2 * W);
      acc3 += term(lanes, i + 3 * W);
    }
    for (; i < block_end; i += W) {
      acc0 += term(lanes, i);
    }
    sum += xsimd::reduce_add((acc0 + acc1) + (acc2 + acc3));
  }
  for (; i < n; ++i) {
    sum += term(scalar_load{}, i);
  }
  return sum;
}

// sum x_i^2 for i < n, summed as vec_sum_of. vec_sum_of counts in int: an
// array of more than 2^30 floats is summed in chunks of 2^30, each chunk's
// sum added in double. x: (n)
template <class Arch>
XSIMD_INLINE double vec_sum_squares(const float* x, std::size_t n) {
  constexpr std::size_t kChunk = std::size_t{1} << 30;
  double sum = 0.0;
  for (std::size_t at = 0; at < n; at += kChunk) {
    const float* x_c = x + at;
    sum += vec_sum_of<Arch>(static_cast<int>(std::min(kChunk, n - at)), [x_c](auto load, int i) {
      const auto v = load(x_c + i);
      return v * v;
    });
  }
  return sum;
}

// Two sums in one pass: term returns a std::pair (a_i, b_i) and the result is
// (sum a_i, sum b_i), blocked as vec_sum_of. Two accumulators per sum, four
// independent chains.
template <class Arch, class Term>
XSIMD_INLINE std::pair<double, double> vec_sum2_of(int n, Term&& term) {
  using batch = xsimd::batch<float, Arch>;
  constexpr int W = static_cast<int>(batch::size);
  const batch_load<Arch> lanes;
  const int n_vec = n - n % W;
  double a = 0.0, b = 0.0;
  int i = 0;
  while (i < n_vec) {
    const int block_end = std::min(n_vec, i + kSumBlock);
    batch a0(0.0f), a1(0.0f), b0(0.0f), b1(0.0f);
    for (; i + 2 * W <= block_end; i += 2 * W) {
      const auto t0 = term(lanes, i);
      const auto t1 = term(lanes, i + W);
      a0 += t0.first;
      b0 += t0.second;
      a1 += t1.first;
      b1 += t1.second;
    }
    for (; i < block_end; i += W) {
      const auto t0 = term(lanes, i);
      a0 += t0.first;
      b0 += t0.second;
    }
    a += xsimd::reduce_add(a0 + a1);
    b += xsimd::reduce_add(b0 + b1);
  }
  for (; i < n; ++i) {
    const auto t = term(scalar_load{}, i);
    a += t.first;
    b += t.second;
  }
  return {a, b};
}

// Four sums in one pass: term returns a std::array (a_i, b_i, c_i, d_i) and
// the result is their four sums, blocked as vec_sum_of. One accumulator per
// sum: four independent chains, as vec_sum_of's. Suits four dot products
// that share one operand, which is then loaded once for all four.
template <class Arch, class Term>
XSIMD_INLINE std::array<double, 4> vec_sum4_of(int n, Term&& term) {
  using batch = xsimd::batch<float, Arch>;
  constexpr int W = static_cast<int>(batch::size);
  const batch_load<Arch> lanes;
  const int n_vec = n - n % W;
  std::array<double, 4> sums = {0.0, 0.0, 0.0, 0.0};
  int i = 0;
  while (i < n_vec) {
    const int block_end = std::min(n_vec, i + kSumBlock);
    batch acc0(0.0f), acc1(0.0f), acc2(0.0f), acc3(0.0f);
    for (; i < block_end; i += W) {
      const auto t = term(lanes, i);
      acc0 += t[0];
      acc1 += t[1];
      acc2 += t[2];
      acc3 += t[3];
    }
    sums[0] += xsimd::reduce_add(acc0);
    sums[1] += xsimd::reduce_add(acc1);
    sums[2] += xsimd::reduce_add(acc2);
    sums[3] += xsimd::reduce_add(acc3);
  }
  for (; i < n; ++i) {
    const auto t = term(scalar_load{}, i);
    for (int k = 0; k < 4; ++k) sums[k] += t[k];
  }
  return sums;
}

// max_{i < n} term(load, i), n >= 1. Whether a NaN term survives the max
// differs between instruction sets (x86 max returns its second operand when
// either is NaN); callers that must see NaN detect it with a sum instead.
template <class Arch, class Term>
XSIMD_INLINE float vec_max_of(int n, Term&& term) {
  using batch = xsimd::batch<float, Arch>;
  constexpr int W = static_cast<int>(batch::size);
  const batch_load<Arch> lanes;
  const int n_vec = n - n % W;
  batch acc0(-INFINITY), acc1(-INFINITY), acc2(-INFINITY), acc3(-INFINITY);
  int i = 0;
  for (; i + 4 * W <= n_vec; i += 4 * W) {
    acc0 = xsimd::max(acc0, term(lanes, i));
    acc1 = xsimd::max(acc1, term(lanes, i + W));
    acc2 = xsimd::max(acc2, term(lanes, i + 2 * W));
    acc3 = xsimd::max(acc3, term(lanes, i + 3 * W));
  }
  for (; i < n_vec; i += W) {
    acc0 = xsimd::max(acc0, term(lanes, i));
  }
  float m = xsimd::reduce_max(xsimd::max(xsimd::max(acc0, acc1), xsimd::max(acc2, acc3)));
  for (; i < n; ++i) {
    m = std::max(m, term(scalar_load{}, i));
  }
  return m;
}

// y_i = f(load, i) for i < n. Each batch is loaded before it is stored, so
// y may be one of the rows f reads at the same index (an in-place update).
// y: (n)
template <class Arch, class F>
XSIMD_INLINE void vec_map(float* y, int n, F&& f) {
  using batch = xsimd::batch<float, Arch>;
  constexpr int W = static_cast<int>(batch::size);
  const batch_load<Arch> lanes;
  const int n_vec = n - n % W;
  int i = 0;
  for (; kUnrollMaps<Arch> && i + 4 * W <= n_vec; i += 4 * W) {
    const batch v0 = f(lanes, i);
    const batch v1 = f(lanes, i + W);
    const batch v2 = f(lanes, i + 2 * W);
    const batch v3 = f(lanes, i + 3 * W);
    v0.store_unaligned(y + i);
    v1.store_unaligned(y + i + W);
    v2.store_unaligned(y + i + 2 * W);
    v3.store_unaligned(y + i + 3 * W);
  }
  for (; i < n_vec; i += W) {
    f(lanes, i).store_unaligned(y + i);
  }
  for (; i < n; ++i) {
    y[i] = f(scalar_load{}, i);
  }
}

// (y_i, z_i) = f(load, i) for i < n: two outputs of one pass, f returning a
// std::pair. As in vec_map, each batch is loaded before it is stored, so y
// and z may be rows f reads at the same index (an in-place update of both).
// One batch per step. y, z: (n)
template <class Arch, class F>
XSIMD_INLINE void vec_map2(float* y, float* z, int n, F&& f) {
  using batch = xsimd::batch<float, Arch>;
  constexpr int W = static_cast<int>(batch::size);
  const batch_load<Arch> lanes;
  const int n_vec = n - n % W;
  int i = 0;
  for (; i < n_vec; i += W) {
    const auto v = f(lanes, i);
    v.first.store_unaligned(y + i);
    v.second.store_unaligned(z + i);
  }
  for (; i < n; ++i) {
    const auto v = f(scalar_load{}, i);
    y[i] = v.first;
    z[i] = v.second;
  }
}

// y_i = f(load, i) for i < n, and returns sum_i y_i, blocked as
// vec_sum_of. Two batches per step, each into its own accumulator: the
// callers' f (a backward pass's three loads and four arithmetic ops) hides
// the add latency, and two chains keep it hidden even where a JIT
// (V8) keeps an accumulator on the stack, whose reload and store add ~5
// cycles to its chain. y: (n)
template <class Arch, class F>
XSIMD_INLINE double vec_map_sum(float* y, int n, F&& f) {
  using batch = xsimd::batch<float, Arch>;
  constexpr int W = static_cast<int>(batch::size);
  const batch_load<Arch> lanes;
  const int n_vec = n - n % W;
  double sum = 0.0;
  int i = 0;
  while (i < n_vec) {
    const int block_end = std::min(n_vec, i + kSumBlock);
    batch acc0(0.0f), acc1(0.0f);
    for (; i + 2 * W <= block_end; i += 2 * W) {
      const batch v0 = f(lanes, i);
      const batch v1 = f(lanes, i + W);
      v0.store_unaligned(y + i);
      v1.store_unaligned(y + i + W);
      acc0 += v0;
      acc1 += v1;
    }
    for (; i < block_end; i += W) {
      const batch v = f(lanes, i);
      v.store_unaligned(y + i);
      acc0 += v;
    }
    sum += xsimd::reduce_add(acc0 + acc1);
  }
  for (; i < n; ++i) {
    y[i] = f(scalar_load{}, i);
    sum += y[i];
  }
  return sum;
}

}  // namespace normlab::simd
