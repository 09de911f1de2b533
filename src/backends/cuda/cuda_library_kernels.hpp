// Scan, sort, compaction and gather on a CUDA device: the program codegen/library_kernels.hpp
// renders, compiled by NVRTC (through the kernel cache), loaded as a module, and launched as its
// plan says.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "backends/cuda/cuda_api.hpp"
#include "backends/cuda/cuda_context.hpp"
#include "backends/cuda/cuda_library.hpp"

namespace switchyard::cuda {

class LibraryKernels final : public Routine {
 public:
  // Items per block: eight blocks of 256 stay resident per SM with the sort's 33 KiB of shared
  // memory on every architecture since Volta.
  static constexpr int kBlock = 256;

  // Renders, builds and loads the op's program with the device's context current; throws
  // DTypeError, ValueError, CompileError or DeviceError.
  LibraryKernels(Device& device, const LibraryOp& op);

  // Queues the op's launches on the device's stream, with its context current.
  void launch(const LibraryArgs& args) override;

 private:
  // Unloads the module in the context it was loaded into, keeping that context alive until then
  // (routines may outlive their Device in the runtime's caches).
  struct ModuleUnloader {
    std::shared_ptr<const PrimaryContext> context;
    void operator()(CUmodule module) const;
  };

  std::unique_ptr<CUmod_st, ModuleUnloader> module_;
  std::map<std::string, CUfunction, std::less<>> functions_;
};

}  // namespace switchyard::cuda
