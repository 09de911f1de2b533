// CUDA C → device code with NVRTC (which needs no GPU).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

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

// Who a program is built for, in the kernel cache's keys (driver.hpp's identity() and
// versions(); build_options() is the CompileTarget's option()): the GPU with its architecture,
// e.g. "NVIDIA H200 sm_90", then the driver and NVRTC, e.g. "CUDA 13.0 nvrtc 13.0". Another
// architecture, driver or NVRTC gets programs of its own.
std::string build_identity(const std::string& device_name, int compute_capability);
std::string build_versions(const std::string& driver_version);

}  // namespace switchyard::cuda
