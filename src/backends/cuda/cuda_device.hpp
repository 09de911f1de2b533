// One NVIDIA GPU: its primary context, one stream that orders all of its work, a memory pool,
// pinned staging for transfers, kernels built by NVRTC for its architecture, and cuBLAS.
#pragma once

#include <memory>
#include <mutex>
#include <string>

#include "backends/backend.hpp"
#include "backends/cuda/cuda_api.hpp"
#include "backends/cuda/cuda_context.hpp"
#include "backends/cuda/cuda_staging.hpp"
#include "core/memory_pool.hpp"

namespace switchyard::cuda {

class BlasHandle;

class Device final : public switchyard::Device {
 public:
  // Creates the device's stream; throws DeviceError.
  Device(DeviceInfo info, std::shared_ptr<const PrimaryContext> context);
  ~Device() override;

  // Shared with the programs built for the device, which need it to unload their modules.
  const std::shared_ptr<const PrimaryContext>& context() const { return context_; }
  CUstream stream() const { return stream_; }
  int compute_capability() const { return context_->compute_capability(); }
  int multiprocessors() const { return info().compute_units; }
  const std::string& where() const { return context_->where(); }  // "cuda:0 (NVIDIA H200)"
  // Who programs are built for, in the kernel cache's keys: the device with its architecture,
  // then the driver.
  std::string cache_device() const {
    return info().name + " sm_" + std::to_string(compute_capability());
  }
  const std::string& cache_driver() const { return info().driver_version; }
  // Created on first use: cuBLAS reserves workspace memory on the device.
  cublasHandle_t blas();

 private:
  DeviceMemory do_allocate(std::size_t bytes) override;
  void do_free(DeviceMemory memory) override;
  void do_copy_from_host(DeviceMemory dst, std::size_t dst_offset, const void* src,
                         std::size_t bytes) override;
  void do_copy_to_host(void* dst, DeviceMemory src, std::size_t src_offset,
                       std::size_t bytes) override;
  void do_copy_within(DeviceMemory dst, std::size_t dst_offset, DeviceMemory src,
                      std::size_t src_offset, std::size_t bytes) override;
  std::shared_ptr<Executable> do_prepare(const ir::Kernel& kernel) override;
  std::shared_ptr<Executable> do_prepare_library(const LibraryOp& op) override;
  void do_launch(Executable& exe, const LaunchArgs& args) override;
  void do_launch_library(Executable& exe, const LibraryArgs& args) override;
  void do_synchronize() override;
  // Graphs by stream capture (cuda_graph.cpp).
  bool do_supports_graphs() const override { return true; }
  void do_begin_graph() override;
  std::unique_ptr<LaunchGraph> do_end_graph() override;
  void do_launch_graph(LaunchGraph& graph) override;

  std::shared_ptr<const PrimaryContext> context_;
  CUstream stream_ = nullptr;
  MemoryPool pool_;
  Staging staging_;
  std::once_flag blas_created_;
  std::unique_ptr<BlasHandle> blas_;
};

// The device address of byte `offset` of an allocation.
inline CUdeviceptr address(DeviceMemory memory, std::size_t offset = 0) {
  return reinterpret_cast<CUdeviceptr>(memory.handle) + offset;
}

}  // namespace switchyard::cuda
