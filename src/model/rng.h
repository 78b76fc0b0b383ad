// The model's random numbers: SplitMix64, a 64-bit counter-based generator,
// and the few distributions the weights are drawn from.
//
// Determinism across builds: every draw uses only integer arithmetic and
// double +, -, *, / (correctly rounded IEEE operations, identical on x86 and
// WebAssembly), never exp/log/cos, whose libm results differ between glibc
// and Emscripten's libc. So native and wasm builds draw bit-identical weights.
#pragma once

#include <cstdint>

namespace normlab::model {

class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}

  uint64_t next_u64() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

  // Uniform in [0, 1) with 53 random bits.
  double uniform() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }

  // +1 or -1 with equal probability.
  double sign() { return (next_u64() >> 63) ? -1.0 : 1.0; }

  // Approximately standard normal: the Irwin-Hall sum of four uniforms,
  // centred and scaled to variance 1 (each uniform has variance 1/12).
  // Bounded by +-2*sqrt(3) ~ +-3.46, which keeps every draw finite and tame.
  double normal() {
    const double s = uniform() + uniform() + uniform() + uniform();
    return (s - 2.0) * 1.7320508075688772;
  }

 private:
  uint64_t state_;
};

// A seed for one tensor, mixed from the model seed and the tensor's identity,
// so each tensor's draws are independent of every other tensor's and of the
// model's depth: layer l's weights are the same in a 6- and a 48-layer model.
inline uint64_t tensor_seed(uint32_t model_seed, uint32_t layer, uint32_t tensor) {
  SplitMix64 mix((static_cast<uint64_t>(model_seed) << 32) ^ (static_cast<uint64_t>(layer) << 8) ^
                 tensor);
  return mix.next_u64();
}

}  // namespace normlab::model
