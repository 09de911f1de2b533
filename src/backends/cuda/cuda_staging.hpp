// Host <-> device copies through pinned (page-locked) staging buffers. The DMA engines read and
// write only pinned memory: from pageable memory the driver copies through its own small bounce
// buffer, synchronously, one piece at a time. Here two pinned chunks alternate, so the CPU fills
// (or drains) one while the DMA engine moves the other.
#pragma once

#include <array>
#include <cstddef>
#include <mutex>
#include <string>

#include "backends/cuda/cuda_api.hpp"

namespace switchyard::cuda {

class Staging {
 public:
  // `where` names the device in error messages. Every method runs with the device's context
  // current; the buffers are allocated on the first transfer.
  explicit Staging(std::string where) : where_(std::move(where)) {}
  Staging(const Staging&) = delete;
  Staging& operator=(const Staging&) = delete;

  // Both return when the data has arrived: `src` may be reused, `dst` read.
  void to_device(CUdeviceptr dst, const void* src, std::size_t bytes, CUstream stream);
  void to_host(void* dst, CUdeviceptr src, std::size_t bytes, CUstream stream);

  // Frees the pinned buffers (the device calls it before releasing its context).
  void release() noexcept;

 private:
  void ensure_buffers();  // mutex_ held

  std::string where_;
  std::mutex mutex_;  // one transfer at a time owns the buffers
  std::array<void*, 2> buffers_{};
  std::array<CUevent, 2> done_{};  // recorded after the DMA that last used each buffer
};

}  // namespace switchyard::cuda
