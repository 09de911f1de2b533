// What Switchyard knows about a compute device.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace switchyard {

enum class DeviceKind : std::uint8_t { CPU, GPU, Accelerator, Other };

std::string_view name(DeviceKind k);

struct DeviceInfo {
  std::string backend;  // "cpu", "opencl", "cuda"
  int index = 0;        // position within its backend
  std::string name;
  std::string vendor;
  std::string driver_version;
  DeviceKind kind = DeviceKind::Other;
  int compute_units = 0;
  std::uint64_t global_memory_bytes = 0;
  std::optional<std::uint64_t> free_memory_bytes;  // only where the API reports it
  std::uint64_t max_allocation_bytes = 0;
  bool fp64 = false;
  bool fp16 = false;
  bool unified_memory = false;  // device and host share physical memory (as the API reports it)
  bool dense_solvers = false;   // runs numpy.linalg's factorisations (linalg.hpp): has LAPACK
  // Runs the library ops: matmul, scans, sorts, compaction, gathers; and FFTs. Work that needs
  // what a device lacks is placed on another device.
  bool library_ops = true;
  bool fft = true;
  // The device's allocations are plain host pointers (the CPU backend): arrays on the host are
  // already "on" it and no copy is ever made. Other devices get their own copies, even when
  // unified_memory is set, since their memory handles are not host pointers.
  bool host_addressable = false;

  std::string id() const { return backend + ":" + std::to_string(index); }  // "opencl:0"
};

}  // namespace switchyard
