#include "backends/cuda/cuda_staging.hpp"

#include <algorithm>
#include <cstring>

#include "backends/cuda/cuda_error.hpp"

namespace switchyard::cuda {
namespace {

// Large enough that the per-chunk cost (an event wait and a DMA setup, microseconds) is small
// against the chunk's transfer (≈ 160 µs at 25 GB/s), small enough that pinning stays cheap.
constexpr std::size_t kChunkBytes = std::size_t{4} << 20;

std::size_t chunk_count(std::size_t bytes) {
  return (bytes + kChunkBytes - 1) / kChunkBytes;
}
std::size_t chunk_bytes(std::size_t bytes, std::size_t i) {
  return std::min(kChunkBytes, bytes - i * kChunkBytes);
}

}  // namespace

// Picks up where a failed earlier attempt stopped, so a failure leaves nothing half-made.
void Staging::ensure_buffers() {
  for (std::size_t b = 0; b < buffers_.size(); ++b) {
    if (!buffers_[b])
      check(driver().cuMemHostAlloc(&buffers_[b], kChunkBytes, 0), "cuMemHostAlloc", where_);
    if (!done_[b])
      check(driver().cuEventCreate(&done_[b], CU_EVENT_DISABLE_TIMING), "cuEventCreate", where_);
  }
}

void Staging::to_device(CUdeviceptr dst, const void* src, std::size_t bytes, CUstream stream) {
  std::lock_guard lock(mutex_);
  ensure_buffers();
  const auto* from = static_cast<const std::byte*>(src);
  for (std::size_t i = 0; i < chunk_count(bytes); ++i) {
    const std::size_t b = i % 2, n = chunk_bytes(bytes, i), offset = i * kChunkBytes;
    // The DMA that last read this buffer must be done before it is refilled.
    check(driver().cuEventSynchronize(done_[b]), "cuEventSynchronize", where_);
    std::memcpy(buffers_[b], from + offset, n);
    check(driver().cuMemcpyHtoDAsync(dst + offset, buffers_[b], n, stream), "cuMemcpyHtoDAsync",
          where_);
    check(driver().cuEventRecord(done_[b], stream), "cuEventRecord", where_);
  }
  check(driver().cuStreamSynchronize(stream), "cuStreamSynchronize", where_);
}

void Staging::to_host(void* dst, CUdeviceptr src, std::size_t bytes, CUstream stream) {
  std::lock_guard lock(mutex_);
  ensure_buffers();
  auto* to = static_cast<std::byte*>(dst);
  const std::size_t chunks = chunk_count(bytes);
  auto fetch = [&](std::size_t i) {
    const std::size_t b = i % 2;
    check(driver().cuMemcpyDtoHAsync(buffers_[b], src + i * kChunkBytes, chunk_bytes(bytes, i),
                                     stream),
          "cuMemcpyDtoHAsync", where_);
    check(driver().cuEventRecord(done_[b], stream), "cuEventRecord", where_);
  };
  if (chunks > 0) fetch(0);
  for (std::size_t i = 0; i < chunks; ++i) {
    // Chunk i+1 lands in the other buffer, drained in the previous iteration, while this one
    // is copied out.
    if (i + 1 < chunks) fetch(i + 1);
    check(driver().cuEventSynchronize(done_[i % 2]), "cuEventSynchronize", where_);
    std::memcpy(to + i * kChunkBytes, buffers_[i % 2], chunk_bytes(bytes, i));
  }
}

void Staging::release() noexcept {
  std::lock_guard lock(mutex_);
  for (std::size_t b = 0; b < buffers_.size(); ++b) {
    // Errors are ignored: this runs while the device is being torn down.
    if (done_[b]) driver().cuEventDestroy(done_[b]);
    if (buffers_[b]) driver().cuMemFreeHost(buffers_[b]);
    done_[b] = nullptr;
    buffers_[b] = nullptr;
  }
}

}  // namespace switchyard::cuda
