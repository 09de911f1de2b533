#include "core/host_memory.hpp"

#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "core/host_info.hpp"
#include "switchyard/error.hpp"

namespace switchyard::host_memory {
namespace {

constexpr std::size_t kAlignment = 64;
constexpr std::size_t kHugePage = std::size_t{2} << 20;
// Blocks at least this large go through the pool and ask for huge pages.
constexpr std::size_t kPooledMin = std::size_t{1} << 20;
// The pool never holds more than this much idle memory.
constexpr std::size_t kPoolCapacity = std::size_t{2} << 30;

struct Pool {
  std::mutex mutex;  // guards free_blocks and idle_bytes
  std::multimap<std::size_t, void*> free_blocks;
  std::size_t idle_bytes = 0;
};

Pool& pool() {
  static Pool* p = new Pool;  // never destroyed: arrays may be freed during static destruction
  return *p;
}

std::size_t pooled_size(std::size_t bytes) {
  return (bytes + kHugePage - 1) / kHugePage * kHugePage;
}

void* system_allocate(std::size_t bytes, std::size_t alignment) {
  void* p = std::aligned_alloc(alignment, (bytes + alignment - 1) / alignment * alignment);
  if (!p)
    throw OutOfMemory("host allocation of " + std::to_string(bytes) +
                      " bytes failed: expected a size the system can provide (" +
                      std::to_string(available_memory_bytes()) + " bytes available now)");
  return p;
}

}  // namespace

void* allocate(std::size_t bytes) {
  // Rounding up to the alignment or to a huge page below would wrap for sizes near 2^64; no
  // system provides more than 2^63 bytes anyway.
  if (bytes > static_cast<std::size_t>(PTRDIFF_MAX))
    throw OutOfMemory("host allocation of " + std::to_string(bytes) +
                      " bytes: expected at most 2^63 - 1 bytes, the most any system can address");
  if (bytes < kPooledMin) return system_allocate(bytes ? bytes : 1, kAlignment);
  const std::size_t size = pooled_size(bytes);
  {
    Pool& p = pool();
    std::lock_guard lock(p.mutex);
    auto it = p.free_blocks.find(size);
    if (it != p.free_blocks.end()) {
      void* block = it->second;
      p.free_blocks.erase(it);
      p.idle_bytes -= size;
      return block;
    }
  }
  void* block = nullptr;
  try {
    block = system_allocate(size, kHugePage);
  } catch (const OutOfMemory&) {
    trim();
    block = system_allocate(size, kHugePage);
  }
  madvise(block, size, MADV_HUGEPAGE);
  return block;
}

void release(void* p, std::size_t bytes) {
  if (!p) return;
  if (bytes < kPooledMin) return std::free(p);
  const std::size_t size = pooled_size(bytes);
  Pool& pl = pool();
  std::lock_guard lock(pl.mutex);
  if (pl.idle_bytes + size > kPoolCapacity) return std::free(p);
  pl.free_blocks.emplace(size, p);
  pl.idle_bytes += size;
}

void trim() {
  Pool& p = pool();
  std::lock_guard lock(p.mutex);
  for (auto& [size, block] : p.free_blocks) std::free(block);
  p.free_blocks.clear();
  p.idle_bytes = 0;
}

std::size_t pooled_bytes() {
  Pool& p = pool();
  std::lock_guard lock(p.mutex);
  return p.idle_bytes;
}

}  // namespace switchyard::host_memory
