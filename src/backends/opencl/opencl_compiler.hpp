// Builds OpenCL programs: from source (build failures become CompileError with the build log)
// and through the disk kernel cache, which stores program binaries.
#pragma once

#include <string>

#include "backends/opencl/opencl_api.hpp"
#include "core/kernel_cache.hpp"

namespace switchyard::opencl {

class Device;

// Builds `source` for `device`; throws CompileError carrying the CL error name and build log.
ProgramHandle build_source(const Device& device, const std::string& source,
                           const std::string& options);

// The program for `source` built with `options`: loaded from the cached binary (keyed by
// KernelCacheKey::for_source) when one exists and the driver accepts it, otherwise built from
// source (and its binary cached).
ProgramHandle cached_program(const Device& device, const std::string& source,
                             const std::string& options);

}  // namespace switchyard::opencl
