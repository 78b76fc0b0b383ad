// The trainer's speed natively (-O3 -march=native): the median time of a
// whole training step (forward, backward and Adam) of the demonstration
// config and of its 6- and 48-layer neighbours, the FLOPs a step counts
// (train/options.h: flops_per_step) and the rate they imply; and the matmul
// alone on the shapes a step multiplies, in GFLOP/s (2 M N K per product).
// The same source builds under Emscripten for a wasm measurement.
//
//   normlab_bench_train [--quick] [--json FILE]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "train/matmul.h"
#include "train/trainer.h"

namespace {

using namespace normlab;
using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t mid = v.size() / 2;
  return v.size() % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

std::string read_file(const char* path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

struct StepTiming {
  int layers;
  double flops, median_ms, min_ms;
  int steps;
};

// Median over `steps` steps after `warmup` steps of a fresh trainer.
StepTiming time_steps(const train::TrainOptions& o, int warmup, int steps) {
  train::Trainer trainer(train::resolve_train_options(o), o.text);
  for (int s = 0; s < warmup; ++s) trainer.step();
  std::vector<double> ms;
  for (int s = 0; s < steps; ++s) {
    const auto t0 = Clock::now();
    trainer.step();
    ms.push_back(ms_since(t0));
  }
  return {static_cast<int>(o.layers), train::flops_per_step(trainer.config()), median(ms),
          *std::min_element(ms.begin(), ms.end()), steps};
}

struct GemmShape {
  const char* name;
  int M, N, K, a_rs, a_cs;
};

struct GemmTiming {
  GemmShape shape;
  double median_us, gflops;
};

GemmTiming time_gemm(const GemmShape& s, double budget_ms) {
  std::vector<float> a(static_cast<std::size_t>(std::max(s.M * s.a_rs + s.K * s.a_cs, 1)), 0.01f);
  std::vector<float> b(static_cast<std::size_t>(s.K) * s.N, 0.02f),
      out(static_cast<std::size_t>(s.M) * s.N);
  auto batch = [&](int n) {
    const auto t0 = Clock::now();
    for (int i = 0; i < n; ++i) {
      train::gemm(out.data(), a.data(), b.data(), s.M, s.N, s.K, s.N, s.a_rs, s.a_cs, s.N, true,
                  train::Causal::none);
    }
    return ms_since(t0) * 1e3 / n;
  };
  const double once = batch(20);
  const int calls = std::max(1, static_cast<int>(1000.0 / once));  // ~1 ms per sample
  std::vector<double> us;
  const auto start = Clock::now();
  while (us.size() < 7 || (ms_since(start) < budget_ms && us.size() < 201))
    us.push_back(batch(calls));
  const double m = median(us);
  return {s, m, 2.0 * s.M * s.N * s.K / (m * 1e3)};
}

}  // namespace

int main(int argc, char** argv) {
  const char* json_path = nullptr;
  const char* text_path = "web/data/training-text.zh.txt";
  bool quick = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--json") && i + 1 < argc)
      json_path = argv[++i];
    else if (!std::strcmp(argv[i], "--text") && i + 1 < argc)
      text_path = argv[++i];
    else if (!std::strcmp(argv[i], "--quick"))
      quick = true;
    else {
      std::fprintf(stderr, "usage: %s [--text FILE] [--quick] [--json FILE]\n", argv[0]);
      return 2;
    }
  }
  train::TrainOptions demo;
  demo.text = read_file(text_path);
  const std::string error = train::validate_train_options(demo);
  if (!error.empty()) {
    std::fprintf(stderr, "%s: %s: %s\n", argv[0], text_path, error.c_str());
    return 1;
  }
  const train::TrainConfig c = train::resolve_train_options(demo);
  std::printf("trainer, arch %s; demonstration config: D %d, H %d, L %d, T %d, B %d, %s, %s\n",
              train::matmul_arch_name(), c.hidden, c.heads, c.layers, c.seq, c.batch,
              c.placement == train::Placement::pre ? "pre-norm" : "post-norm",
              model::norm_kind_name(c.norm));

  std::vector<StepTiming> steps;
  std::printf("%-8s %16s %12s %10s %10s\n", "layers", "FLOPs per step", "median ms", "min ms",
              "GFLOP/s");
  for (int layers : {c.layers, 6, 48}) {
    train::TrainOptions o = demo;
    o.layers = layers;
    const StepTiming t = time_steps(o, quick ? 2 : 5, quick ? 5 : (layers > 24 ? 15 : 30));
    std::printf("%-8d %16.0f %12.2f %10.2f %10.2f\n", t.layers, t.flops, t.median_ms, t.min_ms,
                t.flops / (t.median_ms * 1e6));
    steps.push_back(t);
  }

  // The products of a step at D 32 (R = 64 rows a micro-batch): the linear
  // layers forward (against W^T), the weight gradient (A = dout^T), the head.
  const int D = c.hidden, F = c.mlp_width(), R = c.seq, V = train::TrainConfig::kVocab;
  const GemmShape shapes[] = {
      {"qkv forward    R x 3D x D", R, 3 * D, D, D, 1},
      {"fc forward     R x F x D", R, F, D, D, 1},
      {"fc_out forward R x D x F", R, D, F, F, 1},
      {"dW qkv        3D x D x R", 3 * D, D, R, 1, 3 * D},
      {"dW fc          F x D x R", F, D, R, 1, F},
      {"head forward   R x V x D", R, V, D, D, 1},
      {"dx head        R x D x V", R, D, V, V, 1},
  };
  std::vector<GemmTiming> gemms;
  std::printf("%-28s %12s %10s\n", "matmul", "median us", "GFLOP/s");
  for (const GemmShape& s : shapes) {
    const GemmTiming g = time_gemm(s, quick ? 30 : 150);
    std::printf("%-28s %12.2f %10.2f\n", s.name, g.median_us, g.gflops);
    gemms.push_back(g);
  }

  if (json_path) {
    std::FILE* f = std::fopen(json_path, "w");
    if (!f) {
      std::perror(json_path);
      return 1;
    }
    std::fprintf(f,
                 "{\n  \"tool\": \"normlab_bench_train\",\n  \"arch\": \"%s\",\n  \"steps\": [\n",
                 train::matmul_arch_name());
    for (std::size_t i = 0; i < steps.size(); ++i) {
      const StepTiming& t = steps[i];
      std::fprintf(f,
                   "    {\"layers\": %d, \"flops\": %.0f, \"median_ms\": %.3f, \"min_ms\": %.3f, "
                   "\"steps\": %d}%s\n",
                   t.layers, t.flops, t.median_ms, t.min_ms, t.steps,
                   i + 1 < steps.size() ? "," : "");
    }
    std::fprintf(f, "  ],\n  \"matmul\": [\n");
    for (std::size_t i = 0; i < gemms.size(); ++i) {
      const GemmTiming& g = gemms[i];
      std::fprintf(f,
                   "    {\"shape\": \"%s\", \"M\": %d, \"N\": %d, \"K\": %d, \"median_us\": %.3f, "
                   "\"gflops\": %.2f}%s\n",
                   g.shape.name, g.shape.M, g.shape.N, g.shape.K, g.median_us, g.gflops,
                   i + 1 < gemms.size() ? "," : "");
    }
    std::fprintf(f, "  ]\n}\n");
    std::fclose(f);
    std::printf("wrote %s\n", json_path);
  }
  return 0;
}
