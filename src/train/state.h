// The trainer's state as bytes (Trainer::save_state, restore_state): what a
// page checkpoints (to IndexedDB, say) so that a run survives a reload and
// continues bit for bit.
//
// P = parameters (layout.h). Little-endian whatever the host (both wasm and
// x86-64 are); every number at a fixed offset:
//
//   offset  bytes  what
//        0      8  kStateMagic, "NLTRAIN" and a 0 byte
//        8      4  u32 format version, kStateVersion
//       12     60  the config: u32 layers, hidden, heads, norm (0 rmsnorm,
//                  1 layernorm, 2 none, 3 dyt), placement (0 pre, 1 post,
//                  2 deepnorm, 3 output, 4 sandwich), qkNorm (0 or 1); f32
//                  eps, initStd, residualInitScale; u32 warmup; f64 lr; u32
//                  seed, seq, batch
//       72      4  u32 diverged (0 or 1)
//       76      8  u64 the text's bytes
//       84      8  u64 the text's FNV-1a 64 hash
//       92      8  u64 P
//      100      8  u64 steps done
//      108      8  f64 beta1^t, Adam's first bias correction (t = updates)
//      116      8  f64 beta2^t, its second
//      124   4 P  f32 the parameters
//          4 P    f32 Adam's first moments
//          4 P    f32 Adam's second moments
//
// A new format gets a new version: a trainer refuses every version but its
// own, so a checkpoint of another build is dropped rather than misread.
// Version 2 added qkNorm to the config.
#pragma once

#include <cstddef>
#include <cstdint>

namespace normlab::train {

inline constexpr char kStateMagic[8] = {'N', 'L', 'T', 'R', 'A', 'I', 'N', '\0'};
inline constexpr uint32_t kStateVersion = 2;
inline constexpr std::size_t kStateHeaderBytes = 124;
// Where the format version sits (the bytes before it are the magic).
inline constexpr std::size_t kStateVersionOffset = 8;

// The bytes of a state of P parameters.
inline constexpr std::size_t state_bytes_for(std::size_t P) {
  return kStateHeaderBytes + 3 * 4 * P;
}

}  // namespace normlab::train
