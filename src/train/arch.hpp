// The xsimd architecture the trainer's kernels are instantiated for.
//
//   em++ -msimd128               xsimd::wasm (SIMD128, 4 lanes)
//   em++, XSIMD_WITH_EMULATED=1  xsimd::emulated<128>: the same code on plain
//                                scalar wasm
//   g++/clang -march=native      fma3<avx2> (8 lanes) where the CPU has it,
//                                else the best ISA compiled for
//
// Natively the trainer takes AVX2 even on AVX-512 machines: its rows are
// short (a head is 8 floats, the hidden size 32), and a 16-lane batch would
// leave every head to the scalar tail.
#pragma once

#include <xsimd/xsimd.hpp>

#include <type_traits>

namespace normlab::train {

#if XSIMD_WITH_EMULATED
using train_arch = xsimd::emulated<128>;
#elif XSIMD_WITH_FMA3_AVX2
using train_arch = xsimd::fma3<xsimd::avx2>;
#else
using train_arch = xsimd::default_arch;
#endif

#if defined(__wasm_simd128__) && !XSIMD_WITH_EMULATED
static_assert(std::is_same_v<train_arch, xsimd::wasm>,
              "a -msimd128 build must run the SIMD128 trainer kernels");
#endif

}  // namespace normlab::train
