// A vector of floats whose resize() leaves new elements unset.
//
// For buffers that are written before they are read, and sized once at
// their largest: zeroing them on growth would touch every page of them at
// once (in wasm, a memset that runs before the code around it is tiered
// up), for values nothing reads. The trainer's parameters and activations
// and the model's shared scratch use it.
//
// A build with NORMLAB_FILL_UNSET_NAN defined (the CMake option of that
// name; the sanitized test build turns it on) checks that claim: new
// elements are quiet NaNs, and each call of the model and the trainer fills
// what it is about to write with NaN first (fill_unset), so a buffer read
// before it is written shows up as NaN in a result.
#pragma once

#include <algorithm>
#include <cstddef>
#include <limits>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

namespace normlab::model {

#ifdef NORMLAB_FILL_UNSET_NAN
inline constexpr bool kFillUnsetNan = true;
#else
inline constexpr bool kFillUnsetNan = false;
#endif

// Fills n floats at p with NaN in a NORMLAB_FILL_UNSET_NAN build; does
// nothing otherwise.
inline void fill_unset(float* p, std::size_t n) {
  if constexpr (kFillUnsetNan) std::fill_n(p, n, std::numeric_limits<float>::quiet_NaN());
}

template <class T>
struct UnsetAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = UnsetAllocator<U>;
  };
  UnsetAllocator() = default;
  template <class U>
  UnsetAllocator(const UnsetAllocator<U>&) {}
  // Default construction (resize(), the allocator-aware containers' value
  // initialization) leaves a float as it was (NaN in a
  // NORMLAB_FILL_UNSET_NAN build); any other construction runs.
  template <class U>
  void construct(U* p) {
    ::new (static_cast<void*>(p)) U;
    if constexpr (kFillUnsetNan && std::is_same_v<U, float>) {
      *p = std::numeric_limits<float>::quiet_NaN();
    }
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

using UnsetFloats = std::vector<float, UnsetAllocator<float>>;

}  // namespace normlab::model
