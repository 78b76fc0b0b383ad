// The one xsimd architecture a build of normlab compiles its SIMD code for:
// the kernels (kernels.cpp) and the model's vector primitives
// (model/vec.cpp) both run on it.
//
//   g++ -march=native            xsimd::default_arch, the best x86 ISA present
//   em++ -msimd128               xsimd::default_arch = xsimd::wasm (SIMD128)
//   em++, XSIMD_WITH_EMULATED=1  xsimd::emulated<128>: the same code on
//                                plain scalar wasm, for engines without SIMD128
#pragma once

#include <xsimd/xsimd.hpp>

#include <type_traits>

namespace normlab::simd {

#if XSIMD_WITH_EMULATED
using kernel_arch = xsimd::emulated<128>;
#else
using kernel_arch = xsimd::default_arch;
#endif

#if defined(__wasm_simd128__) && !XSIMD_WITH_EMULATED
static_assert(std::is_same_v<kernel_arch, xsimd::wasm>,
              "a -msimd128 build must run the SIMD128 kernels");
#endif

}  // namespace normlab::simd
