#include "backends/cuda/cuda_memory_pool.hpp"

#include <bit>

namespace switchyard::cuda {

MemoryPool::MemoryPool(std::function<Address(std::size_t)> allocate,
                       std::function<void(Address)> release)
    : allocate_(std::move(allocate)), release_(std::move(release)) {}

MemoryPool::~MemoryPool() {
  trim();
}

std::size_t MemoryPool::size_class(std::size_t bytes) {
  constexpr std::size_t kSmallest = 512;
  if (bytes <= kSmallest) return kSmallest;
  const std::size_t power = std::size_t{1} << (std::bit_width(bytes - 1) - 1);  // < bytes
  const std::size_t step = power / 4;
  return (bytes + step - 1) / step * step;
}

MemoryPool::Address MemoryPool::allocate(std::size_t bytes) {
  const std::size_t size = size_class(bytes);
  {
    std::lock_guard lock(mutex_);
    if (auto it = cached_.find(size); it != cached_.end() && !it->second.empty()) {
      const Address block = it->second.back();
      it->second.pop_back();
      cached_bytes_ -= size;
      return block;
    }
  }
  if (const Address block = allocate_(size)) return block;
  if (trim() == 0) return 0;
  return allocate_(size);
}

void MemoryPool::free(Address block, std::size_t bytes) {
  const std::size_t size = size_class(bytes);
  std::lock_guard lock(mutex_);
  cached_[size].push_back(block);
  cached_bytes_ += size;
}

std::size_t MemoryPool::trim() {
  std::map<std::size_t, std::vector<Address>> blocks;
  std::size_t bytes = 0;
  {
    std::lock_guard lock(mutex_);
    blocks.swap(cached_);
    bytes = cached_bytes_;
    cached_bytes_ = 0;
  }
  for (const auto& [size, list] : blocks)
    for (Address block : list) release_(block);
  return bytes;
}

std::size_t MemoryPool::cached_bytes() const {
  std::lock_guard lock(mutex_);
  return cached_bytes_;
}

}  // namespace switchyard::cuda
