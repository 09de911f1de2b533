// A Kernel IR program built for one device: the CUDA C the shared code generator renders,
// compiled by NVRTC for the device's architecture (through the kernel cache), loaded as a module,
// and launched as codegen/launch_plan.hpp plans it, in blocks of kReduceBlock threads.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>

#include "backends/backend.hpp"
#include "backends/cuda/cuda_api.hpp"
#include "backends/cuda/cuda_context.hpp"

namespace switchyard::cuda {

class Device;

class KernelProgram final : public Executable {
 public:
  // Threads per block of every entry point (the reduction's local tree is sized for it when
  // rendering): 256 keep eight blocks resident per SM on every architecture since Maxwell.
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
    int full_grid = 0;  // blocks of kReduceBlock threads that fill the device
  };
  Entry entry(const char* name) const;
  const Entry& entry_for(std::string_view name) const;  // an entry point of codegen.hpp's ABI

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
