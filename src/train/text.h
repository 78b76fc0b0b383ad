// The training text: its split, its unigram entropy, the seeded batches a
// step trains on and the fixed windows the held-out loss is measured on.
//
// n = text bytes, T = seq, B = batch
//
// Split: the last n / 10 bytes (rounded down) are held out, the rest trains.
// Batches: sequence b of step s starts at a position drawn uniformly from
// the training split by SplitMix64 seeded with (seed, s) alone, so a step's
// batch depends on nothing else (not on the model, the placement or how the
// steps were sliced), and runs with the same seed see the same bytes.
// Held-out windows: the held-out split cut into consecutive, non-overlapping
// windows of T inputs each, window w predicting bytes w T + 1 .. w T + T from
// bytes w T .. w T + T - 1; (held-out bytes - 1) / T windows, every window
// whole.
#pragma once

#include <cstdint>
#include <string>

namespace normlab::train {

struct TextSplit {
  const uint8_t* train;  // (n_train)
  int n_train;
  const uint8_t* heldout;  // (n_heldout)
  int n_heldout;
};

TextSplit split_text(const std::string& text);

// -sum p log p over the byte frequencies of bytes, in nats: the loss of a
// model that knows only how often each byte occurs (the unigram plateau).
double unigram_entropy(const uint8_t* bytes, int n);

// One step's batch. inputs, targets: (B, T); targets[b][t] = inputs[b][t + 1]
// of the text, so sequence b covers text[start_b .. start_b + T].
// Precondition: n_train >= T + 1.
void sample_batch(uint8_t* inputs, uint8_t* targets, const TextSplit& split, uint32_t seed,
                  int step, int B, int T);

int heldout_windows(const TextSplit& split, int T);

// inputs, targets: (T) of held-out window w.
void heldout_window(uint8_t* inputs, uint8_t* targets, const TextSplit& split, int w, int T);

}  // namespace normlab::train
