#include "backends/cpu/cpu_info.hpp"

#include <tbb/info.h>

#include <string>

#include "backends/cpu/block_kernels.hpp"
#include "core/host_info.hpp"

namespace switchyard::cpu {

DeviceInfo detect_cpu_info() {
  const HostInfo& host = host_info();
  DeviceInfo info;
  info.backend = "cpu";
  info.index = 0;
  info.kind = DeviceKind::CPU;
  info.name = host.cpu_model.empty() ? "host processor" : host.cpu_model;
  info.vendor = host.cpu_vendor;
  info.driver_version = std::string("SIMD ") + simd_target_name();
  info.compute_units = tbb::info::default_concurrency();
  info.global_memory_bytes = host.memory_bytes;
  info.free_memory_bytes = available_memory_bytes();
  info.max_allocation_bytes = info.global_memory_bytes;
  info.fp64 = true;
  info.fp16 = false;
  info.unified_memory = true;
  info.host_addressable = true;
  info.dense_solvers = true;  // LAPACK, from the OpenBLAS linked for BLAS
  return info;
}

}  // namespace switchyard::cpu
