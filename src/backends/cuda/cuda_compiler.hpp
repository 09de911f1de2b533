// CUDA C → device code with NVRTC (which needs no GPU), through the persistent kernel cache.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/kernel_cache.hpp"

namespace switchyard::cuda {

// What NVRTC builds for a GPU of compute capability `major * 10 + minor`: a CUBIN for exactly
// that architecture when this NVRTC knows it, else PTX for the newest architecture it knows
// (the driver compiles PTX for the GPU when loading it: slower to load, same results).
struct CompileTarget {
  int architecture = 0;  // e.g. 90
  bool cubin = true;
  std::string option() const;  // "--gpu-architecture=sm_90" or "--gpu-architecture=compute_90"
};

// Throws CompileError when NVRTC is not available.
CompileTarget compile_target(int compute_capability);

// "nvrtc 13.0"; throws CompileError when NVRTC is not available.
std::string nvrtc_version();

// Compiles CUDA C into an image cuModuleLoadData accepts (a CUBIN, or NUL-terminated PTX).
// Throws CompileError carrying NVRTC's log and the numbered source.
std::vector<std::byte> compile(const std::string& source, const CompileTarget& target);

// Who a program is built for; with the program's hash and options this names its cache entry.
struct BuildIdentity {
  std::string device;          // e.g. "NVIDIA H200 sm_90"
  std::string driver_version;  // the driver's, e.g. "cuda driver 12.4"
};

// The image for `source`, loaded from `cache` (keyed by KernelCacheKey::for_source) or compiled
// and stored there.
std::vector<std::byte> cached_image(KernelCache& cache, const std::string& source,
                                    const CompileTarget& target, const BuildIdentity& identity);

}  // namespace switchyard::cuda
