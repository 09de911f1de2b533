// Memory recycled by size class: device memory (cuMemAlloc costs tens of microseconds and
// cuMemFree synchronises the whole device; clCreateBuffer is a driver call and, on GPUs, a
// page-table update) and large host blocks (fresh pages cost far more to touch than warm ones),
// while iterative work (an ODE step, a training step) frees and allocates arrays of the same few
// sizes every step.
//
// Running out of memory is handled here, once: when the supplier has no room, every cached block
// is released and the allocation tried once more.
//
// A device may hand a block out again at once because every kernel and copy of a device runs on
// its one in-order queue: work queued with the new owner runs after all work of the old one.
//
// The pool only keeps the books; its owner supplies the calls that allocate and release (with
// whatever context they need), so the bookkeeping is tested without a device.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <mutex>
#include <vector>

namespace switchyard {

// How a pool sizes its blocks.
struct PoolClasses {
  std::size_t smallest = 512;   // smaller sizes round up to this
  std::size_t granularity = 1;  // every class is a multiple of this (a huge page, say)
  // A size within this whose class would exceed it keeps its exact size (a device's largest
  // allocation); 0: no such limit.
  std::size_t largest = 0;
  // Cached bytes kept at most: a block freed beyond it goes back to the supplier at once.
  std::size_t cache_limit = std::numeric_limits<std::size_t>::max();
};

class MemoryPool {
 public:
  using Block = std::uint64_t;  // the supplier's handle (CUdeviceptr, cl_mem, pointer); 0: none

  // `allocate(bytes)` returns 0 when there is no room (other failures throw); `release(block)`
  // frees what it returned.
  MemoryPool(std::function<Block(std::size_t)> allocate, std::function<void(Block)> release,
             PoolClasses classes = {});
  ~MemoryPool();  // releases cached blocks; blocks handed out belong to their holders
  MemoryPool(const MemoryPool&) = delete;
  MemoryPool& operator=(const MemoryPool&) = delete;

  // A block of at least `bytes`: a cached one of the same size class, else a new one; when the
  // supplier has no room, every cached block is released and the allocation tried once more.
  // Returns 0 when there is still no room.
  Block allocate(std::size_t bytes);
  // Caches `block`, which allocate(bytes) returned, for reuse.
  void free(Block block, std::size_t bytes);
  // Releases every cached block; returns the bytes released.
  std::size_t trim();
  std::size_t cached_bytes() const;
  std::size_t in_use_bytes() const;  // handed out and not freed, by size class

  // Sizes round up to `smallest`, then to a quarter of their power of two (at most 25% waste,
  // and few enough classes that blocks are found again), then to the granularity.
  std::size_t size_class(std::size_t bytes) const;

 private:
  std::function<Block(std::size_t)> allocate_;
  std::function<void(Block)> release_;
  PoolClasses classes_;
  mutable std::mutex mutex_;                          // guards everything below
  std::map<std::size_t, std::vector<Block>> cached_;  // size class -> free blocks
  std::size_t cached_bytes_ = 0, in_use_bytes_ = 0;
};

}  // namespace switchyard
