// The xsimd architectures a build of normlab compiles its SIMD code for:
// kernel_arch for the kernels (kernels.cpp) and the model's vector
// primitives (model/vec.cpp), train_arch for the trainer's kernels
// (train/matmul.cpp, train/elementwise.cpp).
//
//   g++ -march=native            kernel_arch: xsimd::default_arch, the best
//                                x86 ISA present; train_arch: fma3<avx2>
//                                (8 lanes) where the CPU has it, else the
//                                best ISA compiled for
//   em++ -msimd128               both xsimd::wasm (SIMD128, 4 lanes)
//   em++, XSIMD_WITH_EMULATED=1  both xsimd::emulated<128>: the same code on
//                                plain scalar wasm, for engines without SIMD128
//
// Natively the trainer takes AVX2 even on AVX-512 machines: its rows are
// short (a head is 8 floats, the hidden size 32), and a 16-lane batch would
// leave every head to the scalar tail.
#pragma once

#include <xsimd/xsimd.hpp>

#include <type_traits>

namespace normlab::simd {

#if XSIMD_WITH_EMULATED
using kernel_arch = xsimd::emulated<128>;
using train_arch = xsimd::emulated<128>;
#elif XSIMD_WITH_FMA3_AVX2
using kernel_arch = xsimd::default_arch;
using train_arch = xsimd::fma3<xsimd::avx2>;
#else
using kernel_arch = xsimd::default_arch;
using train_arch = xsimd::default_arch;
#endif

#if defined(__wasm_simd128__) && !XSIMD_WITH_EMULATED
static_assert(std::is_same_v<kernel_arch, xsimd::wasm> && std::is_same_v<train_arch, xsimd::wasm>,
              "a -msimd128 build must run the SIMD128 kernels");
#endif

}  // namespace normlab::simd
