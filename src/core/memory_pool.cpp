#include "core/memory_pool.hpp"

#include <bit>

namespace switchyard {

MemoryPool::MemoryPool(std::function<Block(std::size_t)> allocate,
                       std::function<void(Block)> release, PoolClasses classes)
    : allocate_(std::move(allocate)), release_(std::move(release)), classes_(classes) {}

MemoryPool::~MemoryPool() {
  trim();
}

std::size_t MemoryPool::size_class(std::size_t bytes) const {
  std::size_t size = classes_.smallest;
  if (bytes > size) {
    const std::size_t step = std::bit_floor(bytes - 1) / 4;  // a quarter of the power below
    size = step > 0 ? (bytes + step - 1) / step * step : bytes;
  }
  const std::size_t g = classes_.granularity;
  if (g > 1) size = (size + g - 1) / g * g;
  const std::size_t limit = classes_.largest;
  return limit && size > limit && bytes <= limit ? bytes : size;
}

MemoryPool::Block MemoryPool::allocate(std::size_t bytes) {
  const std::size_t size = size_class(bytes);
  {
    std::lock_guard lock(mutex_);
    if (auto it = cached_.find(size); it != cached_.end() && !it->second.empty()) {
      const Block block = it->second.back();
      it->second.pop_back();
      cached_bytes_ -= size;
      in_use_bytes_ += size;
      return block;
    }
  }
  Block block = allocate_(size);
  if (!block && trim() > 0) block = allocate_(size);
  if (block) {
    std::lock_guard lock(mutex_);
    in_use_bytes_ += size;
  }
  return block;
}

void MemoryPool::free(Block block, std::size_t bytes) {
  const std::size_t size = size_class(bytes);
  {
    std::lock_guard lock(mutex_);
    in_use_bytes_ -= size;
    if (cached_bytes_ + size <= classes_.cache_limit) {
      cached_[size].push_back(block);
      cached_bytes_ += size;
      return;
    }
  }
  release_(block);
}

std::size_t MemoryPool::trim() {
  std::map<std::size_t, std::vector<Block>> blocks;
  std::size_t bytes = 0;
  {
    std::lock_guard lock(mutex_);
    blocks.swap(cached_);
    bytes = cached_bytes_;
    cached_bytes_ = 0;
  }
  for (const auto& [size, list] : blocks)
    for (Block block : list) release_(block);
  return bytes;
}

std::size_t MemoryPool::cached_bytes() const {
  std::lock_guard lock(mutex_);
  return cached_bytes_;
}

std::size_t MemoryPool::in_use_bytes() const {
  std::lock_guard lock(mutex_);
  return in_use_bytes_;
}

}  // namespace switchyard
