// The training text's split, entropy, batches and held-out windows (see
// text.h).
//
// n = text bytes, T = seq, B = batch
#include "train/text.h"

#include <cmath>
#include <cstring>

#include "model/rng.h"

namespace normlab::train {

TextSplit split_text(const std::string& text) {
  const int n = static_cast<int>(text.size());
  const int n_heldout = n / 10;
  const auto* bytes = reinterpret_cast<const uint8_t*>(text.data());
  return {bytes, n - n_heldout, bytes + (n - n_heldout), n_heldout};
}

double unigram_entropy(const uint8_t* bytes, int n) {
  if (n <= 0) return 0.0;
  long counts[256] = {};
  for (int i = 0; i < n; ++i) counts[bytes[i]]++;
  double h = 0.0;
  for (long c : counts) {
    if (c == 0) continue;
    const double p = static_cast<double>(c) / n;
    h -= p * std::log(p);
  }
  return h;
}

void sample_batch(uint8_t* inputs, uint8_t* targets, const TextSplit& split, uint32_t seed,
                  int step, int B, int T) {
  // A stream of its own per step: the seed in the high half, the step in the
  // low, mixed once so neighbouring steps start far apart.
  model::SplitMix64 mix((static_cast<uint64_t>(seed) << 32) | static_cast<uint32_t>(step));
  model::SplitMix64 rng(mix.next_u64() ^ 0x6261746368ull);  // "batch"
  // Starts 0 .. n_train - T - 1, so that start + T is a byte of the split.
  // The modulo's bias is below (n_train - T) / 2^64.
  const uint64_t starts = static_cast<uint64_t>(split.n_train - T);
  for (int b = 0; b < B; ++b) {
    const int start = static_cast<int>(rng.next_u64() % starts);
    std::memcpy(inputs + static_cast<std::size_t>(b) * T, split.train + start, T);
    std::memcpy(targets + static_cast<std::size_t>(b) * T, split.train + start + 1, T);
  }
}

int heldout_windows(const TextSplit& split, int T) {
  return split.n_heldout >= 1 ? (split.n_heldout - 1) / T : 0;
}

void heldout_window(uint8_t* inputs, uint8_t* targets, const TextSplit& split, int w, int T) {
  const uint8_t* start = split.heldout + static_cast<std::size_t>(w) * T;
  std::memcpy(inputs, start, T);
  std::memcpy(targets, start + 1, T);
}

}  // namespace normlab::train
