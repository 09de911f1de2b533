// The CUDA driver (backends/driver.hpp) of one NVIDIA GPU: its primary context, one stream that
// orders all of its work, device memory, copies through pinned staging, programs NVRTC builds for
// the GPU's architecture, launches sized by occupancy, graphs by stream capture, and cuBLAS and
// cuFFT for the library ops they serve.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "backends/cuda/cuda_api.hpp"
#include "backends/cuda/cuda_context.hpp"
#include "backends/cuda/cuda_staging.hpp"
#include "backends/driver.hpp"

namespace switchyard::cuda {

class BlasHandle;

class Driver final : public switchyard::Driver {
 public:
  // Threads per block of every launch (the reduction's local tree is sized for it when
  // rendering): 256 keep eight blocks resident per SM on every architecture since Maxwell, and
  // with the sort's 33 KiB of shared memory on every architecture since Volta.
  static constexpr int kBlock = 256;

  // Creates the device's stream; throws DeviceError.
  Driver(DeviceInfo info, std::shared_ptr<const PrimaryContext> context);
  ~Driver() override;

  std::uint64_t allocate(std::size_t bytes) override;
  void release(std::uint64_t block) override;
  std::string refusal_name() const override { return "CUDA_ERROR_OUT_OF_MEMORY"; }
  std::optional<std::size_t> free_bytes() const override;
  void copy_from_host(DeviceMemory dst, std::size_t dst_offset, const void* src,
                      std::size_t bytes) override;
  void copy_to_host(void* dst, DeviceMemory src, std::size_t src_offset,
                    std::size_t bytes) override;
  void copy_within(DeviceMemory dst, std::size_t dst_offset, DeviceMemory src,
                   std::size_t src_offset, std::size_t bytes) override;

  codegen::Target target_for(const ir::Kernel& kernel) const override;
  std::int64_t max_groups(const Module& module, std::string_view entry) const override;
  std::string identity() const override;
  std::string versions() const override;
  std::string build_options() const override;
  std::vector<std::byte> build(const std::string& source,
                               std::span<const std::string_view> entries) override;
  std::unique_ptr<Module> load(std::span<const std::byte> binary,
                               std::span<const std::string_view> entries) override;
  void launch(Module& module, std::string_view entry, std::int64_t groups, int local_size,
              const LaunchArguments& args) override;
  void synchronize() override;

  // Gemm and gemv through cuBLAS, FFTs through cuFFT; null for the other ops.
  std::shared_ptr<LibraryRoutine<switchyard::Device>> prepare_library(
      const LibraryOp& op, switchyard::Device& device) override;

  // Graphs by stream capture (cuda_graph.cpp).
  bool supports_graphs() const override { return true; }
  void begin_graph() override;
  std::unique_ptr<LaunchGraph> end_graph() override;
  void launch_graph(LaunchGraph& graph) override;

  // For the vendor routines, which queue their work on the same stream with the context current,
  // and for code sharing memory with other CUDA users of the process.
  const DeviceInfo& info() const { return info_; }
  const std::shared_ptr<const PrimaryContext>& context() const { return context_; }
  CUstream stream() const { return stream_; }
  int compute_capability() const { return context_->compute_capability(); }
  const std::string& where() const { return context_->where(); }  // "cuda:0 (NVIDIA H200)"
  // Created on first use, with the context current: cuBLAS reserves workspace memory on the
  // device.
  cublasHandle_t blas();

 private:
  const DeviceInfo info_;
  std::shared_ptr<const PrimaryContext> context_;
  CUstream stream_ = nullptr;
  Staging staging_;
  std::once_flag blas_created_;
  std::unique_ptr<BlasHandle> blas_;
};

// The device address of byte `offset` of an allocation.
inline CUdeviceptr address(DeviceMemory memory, std::size_t offset = 0) {
  return reinterpret_cast<CUdeviceptr>(memory.handle) + offset;
}

}  // namespace switchyard::cuda
