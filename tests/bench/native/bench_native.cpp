// Native normlab kernels (-O3 -march=native), timed the way tests/bench does
// it for WebAssembly and the peers: same sizes, bit-identical inputs (the
// generator and formulas of tests/bench/data.mjs), warm-up, then the median
// of samples that each batch enough calls to last >= 2 ms.
//
//   normlab_bench_native [--json FILE] [--quick]
//
// Prints a table and, with --json, writes the medians for bench.mjs.
#include "normlab/kernels.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

struct Budget {
  double warmup_ms = 120, budget_ms = 300, sample_ms = 2;
  int min_samples = 7, max_samples = 151;
};

struct Timing {
  double median_us, min_us;
  int samples, calls_per_sample;
};

// mulberry32, as in data.mjs.
struct Mulberry32 {
  uint32_t a;
  double operator()() {
    a += 0x6d2b79f5u;
    uint32_t t = a;
    t = (t ^ (t >> 15)) * (t | 1u);
    t ^= t + (t ^ (t >> 7)) * (t | 61u);
    return double(t ^ (t >> 14)) / 4294967296.0;
  }
};

std::vector<float> make_input(int rows, int dim, uint32_t seed = 1234) {
  Mulberry32 rand{seed};
  std::vector<float> x(size_t(rows) * dim);
  for (auto& v : x) {
    const double u1 = rand(), u2 = rand(), u3 = rand();
    v = float((u1 + u2 + u3 - 1.5) * 2 + 0.25);
  }
  return x;
}

double elapsed_ms(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

template <class F>
Timing measure(F&& run, const Budget& b) {
  auto batch = [&](long n) {
    const auto t0 = Clock::now();
    for (long i = 0; i < n; ++i) run();
    return elapsed_ms(t0);
  };
  long calls = 0;
  double spent = 0;
  while (calls < 3 || spent < b.warmup_ms) {
    const long n = std::max(1L, calls);
    spent += batch(n);
    calls += n;
  }
  const double per_call = spent / double(calls);
  const long cps = std::max(1L, long(std::ceil(b.sample_ms / per_call)));
  const int samples =
      std::min(b.max_samples,
               std::max(b.min_samples, int(std::lround(b.budget_ms / (per_call * double(cps))))));
  std::vector<double> t;
  for (int s = 0; s < samples; ++s) t.push_back(batch(cps) / double(cps));
  std::sort(t.begin(), t.end());
  const size_t mid = t.size() / 2;
  const double median = t.size() % 2 ? t[mid] : (t[mid - 1] + t[mid]) / 2;
  return {median * 1e3, t.front() * 1e3, samples, int(cps)};
}

// The same weighted sum as checksum() in data.mjs.
double checksum(const std::vector<float>& y) {
  double s = 0;
  for (size_t i = 0; i < y.size(); ++i) s += double(y[i]) * double(int(i % 7) - 3);
  return s;
}

struct Result {
  std::string op;
  int rows, dim;
  Timing t;
  double checksum;
};

}  // namespace

int main(int argc, char** argv) {
  const char* json_path = nullptr;
  Budget budget;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--json") && i + 1 < argc) {
      json_path = argv[++i];
    } else if (!std::strcmp(argv[i], "--quick")) {
      budget.warmup_ms = 30;
      budget.budget_ms = 60;
      budget.min_samples = 5;
    } else {
      std::fprintf(stderr, "usage: %s [--json FILE] [--quick]\n", argv[0]);
      return 2;
    }
  }

  const int sizes[][2] = {{1, 1024}, {64, 1024}, {64, 4096}, {1024, 4096}};
  const float rms_eps = 1e-6f, ln_eps = 1e-5f, temperature = 1.0f;
  const char* ops[] = {"rmsnorm", "layernorm", "softmax", "copy"};

  std::vector<Result> results;
  std::printf("native normlab kernels, arch %s\n", normlab::kernel_arch_name());
  std::printf("%-10s %12s %12s %10s\n", "op", "rows x dim", "median us", "GB/s");
  for (const char* op : ops) {
    for (const auto& sz : sizes) {
      const int T = sz[0], D = sz[1];
      const auto x = make_input(T, D);
      std::vector<float> gain(D), bias(D), y(x.size()), mean(T), rstd(T);
      for (int i = 0; i < D; ++i) {
        gain[i] = float(0.5 + double((i * 37) % 101) / 100);
        bias[i] = float(double((i * 53) % 61) / 100 - 0.3);
      }
      Timing t{};
      const std::string name = op;
      if (name == "rmsnorm") {
        t = measure(
            [&] {
              normlab::rmsnorm_forward(y.data(), rstd.data(), x.data(), gain.data(), T, D, rms_eps);
            },
            budget);
      } else if (name == "layernorm") {
        t = measure(
            [&] {
              normlab::layernorm_forward(y.data(), mean.data(), rstd.data(), x.data(), gain.data(),
                                         bias.data(), T, D, ln_eps);
            },
            budget);
      } else if (name == "softmax") {
        t = measure([&] { normlab::softmax_forward(y.data(), x.data(), T, D, temperature); },
                    budget);
      } else {
        t = measure([&] { normlab::copy_rows(y.data(), x.data(), T, D); }, budget);
      }
      const double gbs = 2.0 * 4.0 * double(T) * double(D) / (t.median_us * 1e3);
      std::printf("%-10s %5d x %-5d %12.2f %10.2f\n", op, T, D, t.median_us, gbs);
      results.push_back({name, T, D, t, checksum(y)});
    }
  }

  if (json_path) {
    std::FILE* f = std::fopen(json_path, "w");
    if (!f) {
      std::perror(json_path);
      return 1;
    }
    std::fprintf(f, "{\n  \"tool\": \"normlab_bench_native\",\n  \"arch\": \"%s\",\n",
                 normlab::kernel_arch_name());
#if defined(__clang__)
    std::fprintf(f, "  \"compiler\": \"clang %s\",\n", __clang_version__);
#elif defined(__GNUC__)
    std::fprintf(f, "  \"compiler\": \"g++ %s\",\n", __VERSION__);
#else
    std::fprintf(f, "  \"compiler\": \"unknown\",\n");
#endif
    std::fprintf(f, "  \"results\": [\n");
    for (size_t i = 0; i < results.size(); ++i) {
      const auto& r = results[i];
      std::fprintf(
          f,
          "    {\"op\": \"%s\", \"rows\": %d, \"dim\": %d, \"median_us\": %.4f, \"min_us\": %.4f, "
          "\"samples\": %d, \"calls_per_sample\": %d, \"checksum\": %.10g}%s\n",
          r.op.c_str(), r.rows, r.dim, r.t.median_us, r.t.min_us, r.t.samples, r.t.calls_per_sample,
          r.checksum, i + 1 < results.size() ? "," : "");
    }
    std::fprintf(f, "  ]\n}\n");
    std::fclose(f);
    std::printf("wrote %s\n", json_path);
  }
  return 0;
}
