// A Kernel IR program built for one device: the CUDA C the shared code generator renders,
// compiled by NVRTC for the device's architecture (through the kernel cache), loaded as a module,
// and launched following the kernel ABI in codegen/codegen.hpp.
#pragma once

#include <cstdint>
#include <memory>

#include "backends/backend.hpp"
#include "backends/cuda/cuda_api.hpp"
#include "backends/cuda/cuda_context.hpp"

namespace switchyard::cuda {

class Device;

class KernelProgram final : public Executable {
 public:
  // Items per block of the two-stage reduction's entry points, fixed when rendering: 256 items
  // keep eight blocks resident per SM on every architecture since Maxwell.
  static constexpr int kReduceBlock = 256;

  // Renders, builds and loads `kernel`, with the device's context current. Throws CompileError
  // or DeviceError.
  KernelProgram(const ir::Kernel& kernel, const Device& device);

  const Device& device() const { return device_; }
  // Queues the kernel on the device's stream, with the device's context current.
  void launch(Device& device, const LaunchArgs& args) const;

 private:
  struct Entry {
    CUfunction function = nullptr;
    int block = 0;      // threads per block
    int full_grid = 0;  // blocks that fill the device at full occupancy
  };
  Entry entry(const char* name, int fixed_block) const;
  void launch_map(const LaunchArgs& args, std::int64_t n) const;
  void launch_reduction(Device& device, const LaunchArgs& args) const;
  void run(const Entry& entry, std::int64_t blocks, void** arguments) const;

  // Unloads a module in the context it was loaded into, keeping that context alive until then
  // (programs may outlive their Device in the runtime's caches).
  struct ModuleUnloader {
    std::shared_ptr<const PrimaryContext> context;
    void operator()(CUmodule module) const;
  };

  ir::Kernel kernel_;
  const Device& device_;
  std::unique_ptr<CUmod_st, ModuleUnloader> module_;
  Entry map_, partial_, final_, rows_;
};

}  // namespace switchyard::cuda
