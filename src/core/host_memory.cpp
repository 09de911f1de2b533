#include "core/host_memory.hpp"

#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>
#include <string>

#include "core/host_info.hpp"
#include "core/memory_pool.hpp"
#include "switchyard/error.hpp"

namespace switchyard::host_memory {
namespace {

constexpr std::size_t kAlignment = 64;
constexpr std::size_t kHugePage = std::size_t{2} << 20;
// Blocks at least this large go through the pool and ask for huge pages.
constexpr std::size_t kPooledMin = std::size_t{1} << 20;

// Null when the system refuses.
void* system_allocate(std::size_t bytes, std::size_t alignment) {
  return std::aligned_alloc(alignment, (bytes + alignment - 1) / alignment * alignment);
}

[[noreturn]] void refused(std::size_t bytes) {
  throw OutOfMemory("host allocation of " + std::to_string(bytes) +
                    " bytes failed: expected a size the system can provide (" +
                    std::to_string(available_memory_bytes()) + " bytes available now)");
}

MemoryPool& pool() {
  // Never destroyed: arrays may be freed during static destruction.
  static MemoryPool* p = new MemoryPool(
      [](std::size_t bytes) -> MemoryPool::Block {
        void* block = system_allocate(bytes, kHugePage);
        if (block) madvise(block, bytes, MADV_HUGEPAGE);
        return reinterpret_cast<std::uintptr_t>(block);
      },
      [](MemoryPool::Block block) { std::free(reinterpret_cast<void*>(block)); },
      {.smallest = kPooledMin, .granularity = kHugePage, .cache_limit = std::size_t{2} << 30});
  return *p;
}

}  // namespace

void* allocate(std::size_t bytes) {
  // Rounding up to the alignment or to a huge page below would wrap for sizes near 2^64; no
  // system provides more than 2^63 bytes anyway.
  if (bytes > static_cast<std::size_t>(PTRDIFF_MAX))
    throw OutOfMemory("host allocation of " + std::to_string(bytes) +
                      " bytes: expected at most 2^63 - 1 bytes, the most any system can address");
  void* block = bytes < kPooledMin ? system_allocate(bytes ? bytes : 1, kAlignment)
                                   : reinterpret_cast<void*>(pool().allocate(bytes));
  if (!block) refused(bytes);
  return block;
}

void release(void* p, std::size_t bytes) {
  if (!p) return;
  if (bytes < kPooledMin) return std::free(p);
  pool().free(reinterpret_cast<std::uintptr_t>(p), bytes);
}

}  // namespace switchyard::host_memory
