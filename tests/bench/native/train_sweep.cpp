// The trainer's sweep: depth x learning rate x placement (pre-norm,
// post-norm, post-norm with linear warmup) x seeds, each a full run on the
// committed text, written as the JSON table the page's lab draws
// (web/data/train-sweep.json) and printed as a summary. The demonstration
// config (train/options.h defaults) is chosen from it.
//
//   normlab_train_sweep --text FILE --out FILE [--steps 400] [--seeds 3]
//       [--depths 24,6,12,48] [--lrs 1e-3,3e-3,5e-3,1e-2] [--warmup 100]
//       [--commit ID]
//
// Every run: hidden 32, 4 heads, RMSNorm, seq 64, batch 8, the options'
// defaults otherwise. Recorded per run: the final train loss (mean of the
// last 20 steps' batch losses), the held-out loss at the end, the first and
// last layer's gradient norms and their ratio at the last step, curves
// every 10 steps, and a verdict:
//   diverged  a loss or gradient was NaN/Inf at some step
//   learned   final train loss <= unigram entropy - 0.3 nats
//   stalled   otherwise (the run stays near the plateau of a model that
//             knows only byte frequencies)
// Runs go in the order given (by default the demonstration depths, 24 and 6,
// first); the JSON lists them sorted by layers, lr, variant and seed, and is
// rewritten after every run, so a partial sweep can be read.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sha256.h"
#include "train/matmul.h"
#include "train/trainer.h"

namespace {

using namespace normlab;

struct Variant {
  const char* name;
  const char* placement;
  bool warmup;
};

struct Run {
  int layers;
  double lr;
  std::string variant, placement;
  int warmup;
  int seed;
  double final_train_loss, last_loss, heldout, grad_first, grad_last, ratio;
  int diverged_at;  // -1 if never
  std::string verdict;
  double seconds;
  std::vector<double> loss_curve, ratio_curve;  // every 10 steps
};

std::string read_file(const char* path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

std::vector<double> parse_list(const char* s) {
  std::vector<double> v;
  std::stringstream in(s);
  std::string item;
  while (std::getline(in, item, ',')) v.push_back(std::atof(item.c_str()));
  return v;
}

std::string json_number(double x) {
  if (!std::isfinite(x)) return "null";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", x);
  return buf;
}

std::string json_array(const std::vector<double>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + json_number(v[i]);
  return s + "]";
}

std::string compiler() {
#if defined(__clang__)
  return std::string("clang ") + __clang_version__;
#elif defined(__GNUC__)
  return std::string("g++ ") + __VERSION__;
#else
  return "unknown";
#endif
}

}  // namespace

int main(int argc, char** argv) {
  const char* text_path = nullptr;
  const char* out_path = nullptr;
  const char* commit = "unknown";
  int steps = 400, seeds = 3, warmup = 100;
  std::vector<double> depths = {24, 6, 12, 48}, lrs = {1e-3, 3e-3, 5e-3, 1e-2};
  for (int i = 1; i < argc; ++i) {
    const bool has_value = i + 1 < argc;
    if (!std::strcmp(argv[i], "--text") && has_value)
      text_path = argv[++i];
    else if (!std::strcmp(argv[i], "--out") && has_value)
      out_path = argv[++i];
    else if (!std::strcmp(argv[i], "--commit") && has_value)
      commit = argv[++i];
    else if (!std::strcmp(argv[i], "--steps") && has_value)
      steps = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--seeds") && has_value)
      seeds = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--warmup") && has_value)
      warmup = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--depths") && has_value)
      depths = parse_list(argv[++i]);
    else if (!std::strcmp(argv[i], "--lrs") && has_value)
      lrs = parse_list(argv[++i]);
    else {
      std::fprintf(stderr,
                   "usage: %s --text FILE --out FILE [--steps N] [--seeds N] [--depths 24,6,12,48] "
                   "[--lrs 1e-3,3e-3,5e-3,1e-2] [--warmup N] [--commit ID]\n",
                   argv[0]);
      return 2;
    }
  }
  if (!text_path || !out_path) {
    std::fprintf(stderr, "%s: --text and --out are required\n", argv[0]);
    return 2;
  }
  const std::string text = read_file(text_path);
  const std::string sha = test::sha256_hex(text);
  const Variant variants[] = {
      {"pre", "pre", false}, {"post", "post", false}, {"post+warmup", "post", true}};

  train::TrainOptions base;
  base.text = text;
  base.hidden = 32;
  base.heads = 4;
  base.norm = "rmsnorm";
  base.seq = 64;
  base.batch = 8;
  base.steps = steps;
  const std::string error = train::validate_train_options(base);
  if (!error.empty()) {
    std::fprintf(stderr, "%s: %s\n", argv[0], error.c_str());
    return 1;
  }
  const train::TextSplit split = train::split_text(text);
  const double entropy = train::unigram_entropy(split.train, split.n_train);
  std::time_t now = std::time(nullptr);
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  std::printf("sweep on %s: %zu bytes, sha256 %s, unigram entropy %.4f nats\n", text_path,
              text.size(), sha.c_str(), entropy);

  std::vector<Run> runs;
  auto write_json = [&](bool complete) {
    std::FILE* f = std::fopen(out_path, "w");
    if (!f) {
      std::perror(out_path);
      std::exit(1);
    }
    std::fprintf(f, "{\n  \"tool\": \"normlab_train_sweep\",\n  \"complete\": %s,\n",
                 complete ? "true" : "false");
    std::fprintf(f, "  \"command\": \"./build.sh sweep\",\n");
    std::fprintf(f,
                 "  \"build\": {\"commit\": \"%s\", \"compiler\": \"%s\", \"arch\": \"%s\", "
                 "\"date\": \"%s\"},\n",
                 commit, compiler().c_str(), train::matmul_arch_name(), date);
    std::fprintf(f,
                 "  \"text\": {\"file\": \"web/data/training-text.zh.txt\", \"bytes\": %zu, "
                 "\"sha256\": \"%s\", "
                 "\"train_bytes\": %d, \"heldout_bytes\": %d, \"unigram_entropy\": %s},\n",
                 text.size(), sha.c_str(), split.n_train, split.n_heldout,
                 json_number(entropy).c_str());
    std::fprintf(f,
                 "  \"model\": {\"hidden\": 32, \"heads\": 4, \"norm\": \"rmsnorm\", \"seq\": 64, "
                 "\"batch\": 8, "
                 "\"steps\": %d, \"warmup_steps\": %d},\n",
                 steps, warmup);
    std::fprintf(
        f,
        "  \"verdict_rule\": \"diverged: a loss or gradient was NaN/Inf at some step; learned: "
        "final train "
        "loss (mean of the last 20 steps) <= unigram_entropy - 0.3; stalled: otherwise\",\n");
    std::fprintf(f,
                 "  \"curves\": \"loss_curve: mean batch loss of steps 10i..10i+9; ratio_curve: "
                 "grad_first / "
                 "grad_last at step 10i+9\",\n");
    std::vector<Run> sorted = runs;
    std::sort(sorted.begin(), sorted.end(), [](const Run& a, const Run& b) {
      if (a.layers != b.layers) return a.layers < b.layers;
      if (a.lr != b.lr) return a.lr < b.lr;
      if (a.variant != b.variant) return a.variant < b.variant;
      return a.seed < b.seed;
    });
    std::fprintf(f, "  \"runs\": [\n");
    for (std::size_t i = 0; i < sorted.size(); ++i) {
      const Run& r = sorted[i];
      std::fprintf(f,
                   "    {\"layers\": %d, \"lr\": %s, \"variant\": \"%s\", \"placement\": \"%s\", "
                   "\"warmup\": %d, "
                   "\"seed\": %d, \"final_train_loss\": %s, \"last_loss\": %s, \"heldout\": %s, "
                   "\"grad_first\": %s, "
                   "\"grad_last\": %s, \"ratio\": %s, \"diverged_at\": %s, \"verdict\": \"%s\", "
                   "\"seconds\": %.1f, "
                   "\"loss_curve\": %s, \"ratio_curve\": %s}%s\n",
                   r.layers, json_number(r.lr).c_str(), r.variant.c_str(), r.placement.c_str(),
                   r.warmup, r.seed, json_number(r.final_train_loss).c_str(),
                   json_number(r.last_loss).c_str(), json_number(r.heldout).c_str(),
                   json_number(r.grad_first).c_str(), json_number(r.grad_last).c_str(),
                   json_number(r.ratio).c_str(),
                   r.diverged_at < 0 ? "null" : std::to_string(r.diverged_at).c_str(),
                   r.verdict.c_str(), r.seconds, json_array(r.loss_curve).c_str(),
                   json_array(r.ratio_curve).c_str(), i + 1 < sorted.size() ? "," : "");
    }
    std::fprintf(f, "  ]\n}\n");
    std::fclose(f);
  };

  std::printf("%6s %7s %-12s %4s %8s %8s %9s %7s\n", "layers", "lr", "variant", "seed", "train",
              "heldout", "ratio", "verdict");
  for (double depth : depths) {
    for (double lr : lrs) {
      for (const Variant& v : variants) {
        for (int seed = 1; seed <= seeds; ++seed) {
          train::TrainOptions o = base;
          o.layers = depth;
          o.lr = lr;
          o.placement = v.placement;
          o.warmup = v.warmup ? warmup : 0;
          o.seed = seed;
          const train::TrainConfig c = train::resolve_train_options(o);
          train::Trainer trainer(c, text);
          Run r{c.layers, lr, v.name, v.placement, c.warmup, seed, 0,  0, 0,
                0,        0,  0,      -1,          "",       0,    {}, {}};
          const auto t0 = std::chrono::steady_clock::now();
          double tail = 0.0, window = 0.0;
          train::StepResult s{};
          for (int k = 0; k < steps; ++k) {
            s = trainer.step();
            if (s.diverged && r.diverged_at < 0) r.diverged_at = k;
            window += s.loss;
            if (k >= steps - 20) tail += s.loss;
            if (k % 10 == 9) {
              r.loss_curve.push_back(window / 10);
              r.ratio_curve.push_back(s.grad_first / s.grad_last);
              window = 0.0;
            }
          }
          r.final_train_loss = tail / std::min(20, steps);
          r.last_loss = s.loss;
          r.heldout = trainer.diverged() ? NAN : trainer.evaluate();
          r.grad_first = s.grad_first;
          r.grad_last = s.grad_last;
          r.ratio = s.grad_first / s.grad_last;
          r.verdict = r.diverged_at >= 0                    ? "diverged"
                      : r.final_train_loss <= entropy - 0.3 ? "learned"
                                                            : "stalled";
          r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
          std::printf("%6d %7.0e %-12s %4d %8.4f %8.4f %9.2e %7s  (%.0f s)\n", r.layers, lr, v.name,
                      seed, r.final_train_loss, r.heldout, r.ratio, r.verdict.c_str(), r.seconds);
          std::fflush(stdout);
          runs.push_back(r);
          write_json(false);
        }
      }
    }
  }
  write_json(true);
  std::printf("wrote %s (%zu runs)\n", out_path, runs.size());
  return 0;
}
