// The trainer's matrix product: the SIMD gemm against its double reference
// on shapes that are not multiples of the block (rows % 4, columns % W,
// single rows and columns), with strided and transposed operands, every
// causal mode, written and accumulated; the linear layer's forward and
// backward against plain loops; and the accumulation-order guarantee the
// trainer relies on (a sum over k split into calls equals one call, bit for
// bit).
//
// M, N, K = rows, columns, reduction length. The error of an output is
// reported relative to sum_k |A(i, k) B(k, j)| (plus |old value| when
// accumulating): the scale a float sum of those terms is accurate to.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "tensor_check.h"
#include "train/matmul.h"

using namespace normlab;
using namespace normlab::test;
using train::Causal;

namespace {

// Worst |got - want| / (sum_k |a b| + |old|) over the outputs the causal mode
// asks for.
double worst_gemm_error(const std::vector<float>& got, const std::vector<float>& want,
                        const std::vector<float>& old, const std::vector<float>& a,
                        const std::vector<float>& b, int M, int N, int K, int ld_out, int a_rs,
                        int a_cs, int ldb, bool accumulate, Causal causal) {
  double worst = 0.0;
  for (int i = 0; i < M; ++i) {
    const int n_end = causal == Causal::out_lower ? std::min(N, i + 1) : N;
    for (int j = 0; j < n_end; ++j) {
      double scale = accumulate ? std::fabs(old[i * ld_out + j]) : 0.0;
      for (int k = 0; k < K; ++k)
        scale += std::fabs(static_cast<double>(a[i * a_rs + k * a_cs]) * b[k * ldb + j]);
      const double err = std::fabs(static_cast<double>(got[i * ld_out + j]) - want[i * ld_out + j]);
      worst = std::max(worst, scale > 0 ? err / scale : err);
    }
  }
  return worst;
}

}  // namespace

TEST_CASE("gemm matches the double reference on odd shapes, strides and causal modes",
          "[train][matmul]") {
  Rng rng(11);
  const int shapes[][3] = {{1, 1, 1},    {1, 7, 3},   {3, 1, 5},   {5, 9, 7},
                           {4, 16, 8},   {7, 13, 33}, {9, 24, 1},  {13, 31, 17},
                           {16, 32, 32}, {17, 33, 9}, {64, 8, 64}, {30, 70, 19}};
  const Causal modes[] = {Causal::none, Causal::out_lower, Causal::a_lower, Causal::a_upper};
  double worst = 0.0;
  int cases = 0;
  for (const auto& shape : shapes) {
    const int M = shape[0], N = shape[1], K = shape[2];
    for (Causal causal : modes) {
      // The triangular modes are square in the dimension they tie to the rows.
      const int Kc = causal == Causal::a_lower || causal == Causal::a_upper ? M : K;
      for (int transposed_a = 0; transposed_a < 2; ++transposed_a) {
        for (int accumulate = 0; accumulate < 2; ++accumulate) {
          // Padded strides: every operand is a column slice of a wider matrix.
          const int ld_out = N + 3, ldb = N + 5;
          const int a_rs = transposed_a ? 1 : Kc + 2;
          const int a_cs = transposed_a ? M + 2 : 1;
          std::vector<float> a =
              rng.uniform_vec(static_cast<std::size_t>(std::max(M * a_rs + Kc * a_cs, 1)), -1, 1);
          const std::vector<float> b =
              rng.uniform_vec(static_cast<std::size_t>(Kc) * ldb + 1, -1, 1);
          if (causal == Causal::a_lower || causal == Causal::a_upper) {
            for (int i = 0; i < M; ++i) {
              for (int k = 0; k < Kc; ++k) {
                if (causal == Causal::a_lower ? k > i : k < i) a[i * a_rs + k * a_cs] = 0.0f;
              }
            }
          }
          const std::vector<float> old =
              rng.uniform_vec(static_cast<std::size_t>(M) * ld_out, -1, 1);
          std::vector<float> got = old, want = old;
          train::gemm(got.data(), a.data(), b.data(), M, N, Kc, ld_out, a_rs, a_cs, ldb, accumulate,
                      causal);
          train::gemm_ref(want.data(), a.data(), b.data(), M, N, Kc, ld_out, a_rs, a_cs, ldb,
                          accumulate, causal);
          const double err = worst_gemm_error(got, want, old, a, b, M, N, Kc, ld_out, a_rs, a_cs,
                                              ldb, accumulate, causal);
          INFO("M " << M << " N " << N << " K " << Kc << " causal " << static_cast<int>(causal)
                    << " transposed " << transposed_a << " accumulate " << accumulate);
          // A float sum of K products: at most (K + 1) roundings of 2^-24 of the
          // terms' scale (the textbook bound), one more for the reference's.
          CHECK(err <= (Kc + 2) * 0x1p-24);
          // The padding between rows is never written.
          for (int i = 0; i < M; ++i) {
            for (int j = N; j < ld_out; ++j) CHECK(got[i * ld_out + j] == old[i * ld_out + j]);
          }
          worst = std::max(worst, err / ((Kc + 2) * 0x1p-24));
          ++cases;
        }
      }
    }
  }
  std::printf(
      "gemm vs double reference: %d cases, max error %.3f of the bound (K + 2) 2^-24 sum |a b| "
      "(arch %s)\n",
      cases, worst, train::matmul_arch_name());
}

TEST_CASE("gemm: a sum over k split into accumulating calls is bit-identical to one call",
          "[train][matmul]") {
  // The trainer sums weight gradients micro-batch by micro-batch: dW += dout^T x
  // over the rows of each micro-batch in turn (A transposed, k = rows).
  Rng rng(12);
  const int M = 35, N = 41, K = 64 * 3, lda = M;
  const std::vector<float> a = rng.uniform_vec(static_cast<std::size_t>(K) * lda, -1, 1);
  const std::vector<float> b = rng.uniform_vec(static_cast<std::size_t>(K) * N, -1, 1);
  const std::vector<float> start = rng.uniform_vec(static_cast<std::size_t>(M) * N, -1, 1);
  std::vector<float> whole = start, parts = start;
  train::gemm(whole.data(), a.data(), b.data(), M, N, K, N, 1, lda, N, true, Causal::none);
  for (int k0 : {0, 64, 128}) {
    train::gemm(parts.data(), a.data() + k0 * lda, b.data() + k0 * N, M, N, 64, N, 1, lda, N, true,
                Causal::none);
  }
  CHECK(whole == parts);
  // Rows blocked differently (one call per row) give the same bits too.
  std::vector<float> by_row = start;
  for (int i = 0; i < M; ++i) {
    train::gemm(by_row.data() + i * N, a.data() + i, b.data(), 1, N, K, N, 1, lda, N, true,
                Causal::none);
  }
  CHECK(whole == by_row);
}

TEST_CASE("gemm: a transposed A (copied into panels) gives the bits of the same A stored by rows",
          "[train][matmul]") {
  // With a_cs != 1 and more than one block of columns, gemm copies each
  // block's rows of A into panels of 256 values of k (matmul.hpp); with
  // a_cs = 1 it reads A in place. Both must be the same float chains. K spans
  // three panels; every causal mode (the triangular ones on a square A).
  Rng rng(14);
  const int N = 37, K = 2 * 256 + 37;
  const Causal modes[] = {Causal::none, Causal::out_lower, Causal::a_lower, Causal::a_upper};
  for (Causal causal : modes) {
    for (int M : {1, 6, K}) {
      if ((causal == Causal::a_lower || causal == Causal::a_upper) && M != K) continue;
      for (int accumulate = 0; accumulate < 2; ++accumulate) {
        std::vector<float> rows =
            rng.uniform_vec(static_cast<std::size_t>(M) * K, -1, 1);  // (M, K)
        for (int i = 0; i < M; ++i) {
          for (int k = 0; k < K; ++k) {
            if (causal == Causal::a_lower ? k > i : causal == Causal::a_upper && k < i)
              rows[i * K + k] = 0.0f;
          }
        }
        std::vector<float> cols(static_cast<std::size_t>(K) * M);  // (K, M): A^T stored by rows
        for (int i = 0; i < M; ++i) {
          for (int k = 0; k < K; ++k) cols[k * M + i] = rows[i * K + k];
        }
        const std::vector<float> b = rng.uniform_vec(static_cast<std::size_t>(K) * N, -1, 1);
        const std::vector<float> old = rng.uniform_vec(static_cast<std::size_t>(M) * N, -1, 1);
        std::vector<float> by_rows = old, by_cols = old;
        train::gemm(by_rows.data(), rows.data(), b.data(), M, N, K, N, K, 1, N, accumulate, causal);
        train::gemm(by_cols.data(), cols.data(), b.data(), M, N, K, N, 1, M, N, accumulate, causal);
        INFO("M " << M << " causal " << static_cast<int>(causal) << " accumulate " << accumulate);
        CHECK(by_rows == by_cols);
      }
    }
  }
}

TEST_CASE("transpose copies every entry, with padded input rows, on odd shapes",
          "[train][matmul]") {
  Rng rng(15);
  for (int rows : {1, 3, 4, 8, 9, 17, 64}) {
    for (int cols : {1, 5, 8, 12, 16, 33}) {
      const int ld = cols + 3;
      const std::vector<float> inp = rng.uniform_vec(static_cast<std::size_t>(rows) * ld, -1, 1);
      std::vector<float> out(static_cast<std::size_t>(rows) * cols + 1, 7.0f);
      train::transpose(out.data(), inp.data(), rows, cols, ld);
      int wrong = 0;
      for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < cols; ++c) wrong += out[c * rows + r] != inp[r * ld + c];
      }
      INFO("rows " << rows << " cols " << cols);
      CHECK(wrong == 0);
      CHECK(out.back() == 7.0f);  // nothing written past (cols, rows)
    }
  }
}

TEST_CASE("linear layer: forward and backward against plain loops", "[train][matmul]") {
  // y = x W^T; dx = dy W; dW += dy^T x.  x: (R, C), W: (OC, C), dy: (R, OC)
  Rng rng(13);
  const int R = 19, C = 12, OC = 37;
  const std::vector<float> x = rng.uniform_vec(R * C, -1, 1);
  const std::vector<float> w = rng.uniform_vec(OC * C, -1, 1);
  const std::vector<float> dy = rng.uniform_vec(R * OC, -1, 1);
  std::vector<float> w_t(C * OC);
  train::transpose(w_t.data(), w.data(), OC, C, C);
  for (int o = 0; o < OC; ++o) {
    for (int c = 0; c < C; ++c) REQUIRE(w_t[c * OC + o] == w[o * C + c]);
  }
  std::vector<float> y(R * OC), dx(R * C, 5.0f), dw0 = rng.uniform_vec(OC * C, -1, 1), dw = dw0;
  train::matmul_forward(y.data(), x.data(), w_t.data(), R, C, OC);
  train::matmul_backward(dx.data(), dw.data(), dy.data(), x.data(), w.data(), R, C, OC, false);
  double worst = 0.0;
  for (int r = 0; r < R; ++r) {
    for (int o = 0; o < OC; ++o) {
      double s = 0.0;
      for (int c = 0; c < C; ++c) s += static_cast<double>(x[r * C + c]) * w[o * C + c];
      worst = std::max(worst, std::fabs(y[r * OC + o] - s));
    }
    for (int c = 0; c < C; ++c) {
      double s = 0.0;
      for (int o = 0; o < OC; ++o) s += static_cast<double>(dy[r * OC + o]) * w[o * C + c];
      worst = std::max(worst, std::fabs(dx[r * C + c] - s));
    }
  }
  for (int o = 0; o < OC; ++o) {
    for (int c = 0; c < C; ++c) {
      double s = dw0[o * C + c];
      for (int r = 0; r < R; ++r) s += static_cast<double>(dy[r * OC + o]) * x[r * C + c];
      worst = std::max(worst, std::fabs(dw[o * C + c] - s));
    }
  }
  std::printf(
      "linear layer vs plain loops: max abs error %.2e (terms in [-1, 1], sums of 12 to 37)\n",
      worst);
  CHECK(worst < 2e-5);
  // accumulate_dinp adds to dx instead of writing it.
  std::vector<float> dx_acc(R * C, 5.0f);
  train::matmul_backward(dx_acc.data(), dw.data(), dy.data(), x.data(), w.data(), R, C, OC, true);
  double worst_acc = 0.0;
  for (int i = 0; i < R * C; ++i)
    worst_acc = std::max(worst_acc, std::fabs(dx_acc[i] - (dx[i] + 5.0)));
  CHECK(worst_acc < 1e-5);
}
