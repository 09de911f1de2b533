// The CPU backend's SIMD instruction set: the best Highway target this machine supports, or the
// one SWITCHYARD_SIMD caps it to, so that a result can be reproduced on a machine with fewer
// instructions (and tests can run the suite at each level). The cap reaches every ISA-dependent
// path of the backend: Highway's dynamic dispatch (block kernels, folds, vqsort) and SLEEF's
// variants in vector_math_kernels. OpenBLAS and FFTW choose their kernels themselves (OpenBLAS
// reads OPENBLAS_CORETYPE when it loads); the OpenCL device compiles for its own target.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace switchyard::cpu {

// What SWITCHYARD_SIMD accepts: "best", then the SIMD targets this build has, best first
// ("avx3", "avx2", "sse4" on x86-64: Highway's names, lower case).
std::vector<std::string> simd_setting_values();

// The Highway target SWITCHYARD_SIMD caps dispatch to, or 0 for the best (unset or "best").
// Throws ConfigError naming the accepted values for anything else.
std::int64_t simd_cap();

// Applies the cap, once, before the first dispatch; every dispatching function calls it. A bad
// value leaves the targets uncapped here: the registry reports it when the runtime starts.
void apply_simd_cap();

// Those of the targets SWITCHYARD_SIMD names that this machine supports, best first, whatever
// the cap ("AVX2", "SSE4").
std::vector<std::string> simd_targets_supported();

// The level of SLEEF's 128-bit functions that matches the capped target. SLEEF's avx2128
// variants use FMA as Highway's AVX2 and AVX3 targets do; SLEEF's own dispatcher would pick them
// whatever the cap.
enum class SleefLevel { Sse2, Sse4, Avx2 };
SleefLevel sleef_level();

}  // namespace switchyard::cpu
