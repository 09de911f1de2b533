// Device memory recycled by size class. cuMemAlloc costs tens of microseconds and cuMemFree
// synchronises the whole device, while iterative work (an ODE step, a training step) frees and
// allocates arrays of the same sizes every step.
//
// Handing a block out again at once is safe because every kernel and copy of a device runs on
// its one in-order stream: work queued with the new owner runs after all work of the old one.
//
// The pool only keeps the books; the device supplies the calls that allocate and release, with
// its context current, so the bookkeeping is tested without a GPU.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <vector>

namespace switchyard::cuda {

class MemoryPool {
 public:
  using Address = std::uint64_t;  // a CUdeviceptr; 0 is never a valid block

  // `allocate(bytes)` returns 0 when the device is out of memory (other failures throw);
  // `release(address)` frees what it returned.
  MemoryPool(std::function<Address(std::size_t)> allocate, std::function<void(Address)> release);
  ~MemoryPool();  // releases cached blocks; blocks handed out belong to their holders
  MemoryPool(const MemoryPool&) = delete;
  MemoryPool& operator=(const MemoryPool&) = delete;

  // A block of at least `bytes`: a cached one of the same size class, else a new one; when the
  // device is out of memory, every cached block is released and the allocation tried once more.
  // Returns 0 when there is still no room.
  Address allocate(std::size_t bytes);
  // Caches `block`, which allocate(bytes) returned, for reuse.
  void free(Address block, std::size_t bytes);
  // Releases every cached block; returns the bytes released.
  std::size_t trim();
  std::size_t cached_bytes() const;

  // Sizes round up to 512 bytes, then to a quarter of their power of two (at most 25% waste,
  // and few enough classes that blocks are found again).
  static std::size_t size_class(std::size_t bytes);

 private:
  std::function<Address(std::size_t)> allocate_;
  std::function<void(Address)> release_;
  mutable std::mutex mutex_;                            // guards cached_ and cached_bytes_
  std::map<std::size_t, std::vector<Address>> cached_;  // size class -> free blocks
  std::size_t cached_bytes_ = 0;
};

}  // namespace switchyard::cuda
