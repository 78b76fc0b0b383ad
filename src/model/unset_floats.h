// A vector of floats whose resize() leaves new elements unset.
//
// For buffers that are written before they are read, and sized once at
// their largest: zeroing them on growth would touch every page of them at
// once (in wasm, a memset that runs before the code around it is tiered
// up), for values nothing reads. The trainer's parameters and activations
// and the model's shared scratch use it.
#pragma once

#include <memory>
#include <utility>
#include <vector>

namespace normlab::model {

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
  // initialization) leaves a float as it was; any other construction runs.
  template <class U>
  void construct(U* p) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

using UnsetFloats = std::vector<float, UnsetAllocator<float>>;

}  // namespace normlab::model
