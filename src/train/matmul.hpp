// The SIMD matrix product of matmul.h, templated on the xsimd architecture.
//
// M, N, K = rows, columns, reduction length; W = batch::size (lanes);
// MR = rows per block, NB = batches per block (NB * W columns)
//
// Register blocking: the output is cut into blocks of MR rows by NB * W
// columns, each held in MR * NB accumulator registers for the whole sum over
// k. One step of k loads NB batches of B's row k (contiguous) and, per row,
// one broadcast A(i, k), then does MR * NB multiply-adds: (MR + NB) loads per
// MR * NB * W multiply-adds, and MR * NB independent chains to hide the add
// latency. Columns that do not fill NB batches take blocks of one batch, and
// the last N % W columns a scalar block with the same order of operations
// per output. Rows that do not fill MR take a block of fewer rows.
//
// Every output is summed over k in increasing order in one chain, starting
// from its old value or 0 (matmul.h: the order the trainer relies on).
#pragma once

#include "normlab/arch.hpp"
#include "train/matmul.h"

#include <xsimd/xsimd.hpp>

#include <algorithm>
#include <cstddef>
#include <type_traits>

namespace normlab::train::simd {

// Block shape per architecture, measured (tests/bench/native/bench_train.cpp
// built for each, step shapes R x 3D x D and 3D x D x R at D 32):
//   SIMD128  4 rows x 2 batches: 8 accumulators. V8 gives SIMD128 the 16 x86
//            xmm registers less its scratch ones; 4 x 3 (12 accumulators +
//            3 loads + 1 broadcast) spills and ran at ~27 GFLOP/s against
//            ~40 for 4 x 2 and 2 x 4; 4 x 2 also fits a head (dh = 8) in one
//            block.
//   emulated<128> (scalar wasm)  2 rows x 1 batch: each batch is 4 scalar
//            locals, so 8 accumulators are 32 locals; 2 x 1 ran ~1.5x faster
//            than 4 x 2.
//   AVX2     4 rows x 2 batches of 8 (16 ymm registers).
template <class Arch>
struct GemmShape {
#if XSIMD_WITH_EMULATED
  static constexpr bool kEmulated = std::is_same_v<Arch, xsimd::emulated<128>>;
#else
  static constexpr bool kEmulated = false;
#endif
  static constexpr int kRows = kEmulated ? 2 : 4;
  static constexpr int kBatches = kEmulated ? 1 : 2;
};

// One block: out(i0.., j0..) of MR rows x NB batches, summed over k in
// [k_begin, k_end). a, b, out point at the block's first row / column.
template <class Arch, int MR, int NB>
XSIMD_INLINE void gemm_block(float* out, const float* a, const float* b, int k_begin, int k_end,
                             int ld_out, int a_rs, int a_cs, int ldb, bool accumulate) {
  using batch = xsimd::batch<float, Arch>;
  constexpr int W = static_cast<int>(batch::size);
  batch acc[MR][NB];
  for (int r = 0; r < MR; ++r) {
    for (int nb = 0; nb < NB; ++nb) {
      acc[r][nb] =
          accumulate ? batch::load_unaligned(out + static_cast<std::ptrdiff_t>(r) * ld_out + nb * W)
                     : batch(0.0f);
    }
  }
  const float* a_k = a + static_cast<std::ptrdiff_t>(k_begin) * a_cs;  // A(i0, k)
  const float* b_k = b + static_cast<std::ptrdiff_t>(k_begin) * ldb;   // B(k, j0)
  for (int k = k_begin; k < k_end; ++k, a_k += a_cs, b_k += ldb) {
    batch b_v[NB];
    for (int nb = 0; nb < NB; ++nb) b_v[nb] = batch::load_unaligned(b_k + nb * W);
    for (int r = 0; r < MR; ++r) {
      const batch a_v(a_k[static_cast<std::ptrdiff_t>(r) * a_rs]);
      for (int nb = 0; nb < NB; ++nb) acc[r][nb] = xsimd::fma(a_v, b_v[nb], acc[r][nb]);
    }
  }
  for (int r = 0; r < MR; ++r) {
    for (int nb = 0; nb < NB; ++nb) {
      acc[r][nb].store_unaligned(out + static_cast<std::ptrdiff_t>(r) * ld_out + nb * W);
    }
  }
}

// The last n < W columns of MR rows, one float chain per output.
template <int MR>
inline void gemm_block_tail(float* out, const float* a, const float* b, int k_begin, int k_end,
                            int ld_out, int a_rs, int a_cs, int ldb, bool accumulate, int n) {
  for (int r = 0; r < MR; ++r) {
    float* out_r = out + static_cast<std::ptrdiff_t>(r) * ld_out;  // out_r: (n)
    const float* a_r = a + static_cast<std::ptrdiff_t>(r) * a_rs;  // A(i0 + r, .)
    for (int j = 0; j < n; ++j) {
      float acc = accumulate ? out_r[j] : 0.0f;
      for (int k = k_begin; k < k_end; ++k) {
        acc += a_r[static_cast<std::ptrdiff_t>(k) * a_cs] *
               b[static_cast<std::ptrdiff_t>(k) * ldb + j];
      }
      out_r[j] = acc;
    }
  }
}

// The blocks of MR rows x columns [0, n_end) summed over k in [k_begin,
// k_end); a, b, out point at the rows' first entry (A(i0, 0), B(0, 0),
// out(i0, 0)).
template <class Arch, int MR>
XSIMD_INLINE void gemm_row_blocks(float* out, const float* a, const float* b, int k_begin,
                                  int k_end, int n_end, int ld_out, int a_rs, int a_cs, int ldb,
                                  bool accumulate) {
  constexpr int W = static_cast<int>(xsimd::batch<float, Arch>::size);
  constexpr int NB = GemmShape<Arch>::kBatches;
  int j = 0;
  for (; j + NB * W <= n_end; j += NB * W) {
    gemm_block<Arch, MR, NB>(out + j, a, b + j, k_begin, k_end, ld_out, a_rs, a_cs, ldb,
                             accumulate);
  }
  for (; j + W <= n_end; j += W) {
    gemm_block<Arch, MR, 1>(out + j, a, b + j, k_begin, k_end, ld_out, a_rs, a_cs, ldb, accumulate);
  }
  if (j < n_end) {
    gemm_block_tail<MR>(out + j, a, b + j, k_begin, k_end, ld_out, a_rs, a_cs, ldb, accumulate,
                        n_end - j);
  }
}

// Depth of the packed panel of A (kPanelDepth x MR floats on the stack).
inline constexpr int kPanelDepth = 256;

// MR rows starting at row i0 of the product, every needed column.
//
// Where A's rows are not contiguous (a_cs != 1: a transposed view, as in a
// weight's gradient dout^T x) and more than one block of columns reads them,
// the block's MR rows are first copied into a panel,
// panel[k * MR + r] = A(i0 + r, k), in pieces of kPanelDepth values of k:
// the blocks then read A from one contiguous stretch instead of MR strided
// columns. Measured on the F x D x R product of the MLP's weight gradient
// (stride F = 128 floats) in wasm SIMD128: ~40 GFLOP/s with the panel, ~30
// reading the strided columns once per block of columns. A piece after the
// first continues each output's chain from the value the previous piece
// stored (accumulate), so the sums are the same float operations in the same
// order as without the panel.
template <class Arch, int MR>
void gemm_rows(float* out, const float* a, const float* b, int i0, int N, int K, int ld_out,
               int a_rs, int a_cs, int ldb, bool accumulate, Causal causal) {
  constexpr int W = static_cast<int>(xsimd::batch<float, Arch>::size);
  const int last_row = i0 + MR - 1;
  const int k_begin = causal == Causal::a_upper ? std::min(i0, K) : 0;
  const int k_end = causal == Causal::a_lower ? std::min(last_row + 1, K) : K;
  // out_lower: the columns up to the block's last row, rounded up to whole
  // batches (the extra entries are allowed to be written).
  const int n_end = causal == Causal::out_lower ? std::min(N, (last_row + W) / W * W) : N;
  float* out_i = out + static_cast<std::ptrdiff_t>(i0) * ld_out;  // out(i0, .)
  const float* a_i = a + static_cast<std::ptrdiff_t>(i0) * a_rs;  // A(i0, .)
  // One call site of gemm_row_blocks for both ways (each inlined copy is
  // code the page downloads).
  const bool packed = a_cs != 1 && n_end > GemmShape<Arch>::kBatches * W;
  alignas(16) float panel[kPanelDepth * MR];  // (kPanelDepth, MR), when packed
  int k0 = k_begin;
  do {  // at least once: an empty k range still writes its zeros
    const int k1 = packed ? std::min(k_end, k0 + kPanelDepth) : k_end;
    if (packed) {
      for (int k = k0; k < k1; ++k) {
        const float* a_k = a_i + static_cast<std::ptrdiff_t>(k) * a_cs;  // A(i0, k)
        for (int r = 0; r < MR; ++r)
          panel[(k - k0) * MR + r] = a_k[static_cast<std::ptrdiff_t>(r) * a_rs];
      }
    }
    // The panel holds k0 .. k1 - 1 as its k = 0 .. k1 - k0 - 1.
    gemm_row_blocks<Arch, MR>(
        out_i, packed ? panel : a_i, packed ? b + static_cast<std::ptrdiff_t>(k0) * ldb : b,
        packed ? 0 : k0, packed ? k1 - k0 : k1, n_end, ld_out, packed ? 1 : a_rs,
        packed ? MR : a_cs, ldb, accumulate || k0 > k_begin);
    k0 = k1;
  } while (k0 < k_end);
}

// The last rows < MR rows of the product: one block of that height.
template <class Arch, int MR>
void gemm_last_rows(float* out, const float* a, const float* b, int rows, int i0, int N, int K,
                    int ld_out, int a_rs, int a_cs, int ldb, bool accumulate, Causal causal) {
  if constexpr (MR > 0) {
    if (rows == MR) {
      gemm_rows<Arch, MR>(out, a, b, i0, N, K, ld_out, a_rs, a_cs, ldb, accumulate, causal);
    } else {
      gemm_last_rows<Arch, MR - 1>(out, a, b, rows, i0, N, K, ld_out, a_rs, a_cs, ldb, accumulate,
                                   causal);
    }
  }
}

template <class Arch>
void gemm(float* out, const float* a, const float* b, int M, int N, int K, int ld_out, int a_rs,
          int a_cs, int ldb, bool accumulate, Causal causal) {
  constexpr int MR = GemmShape<Arch>::kRows;
  int i = 0;
  for (; i + MR <= M; i += MR) {
    gemm_rows<Arch, MR>(out, a, b, i, N, K, ld_out, a_rs, a_cs, ldb, accumulate, causal);
  }
  gemm_last_rows<Arch, MR - 1>(out, a, b, M - i, i, N, K, ld_out, a_rs, a_cs, ldb, accumulate,
                               causal);
}

}  // namespace normlab::train::simd
