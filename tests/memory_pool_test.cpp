// The memory pool's books (core/memory_pool.hpp), which every device's memory and the host's
// large blocks go through, against a fake supplier with a fixed capacity: no device needed.
#include "core/memory_pool.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <utility>

namespace switchyard {
namespace {

// A supplier with room for `capacity` bytes.
struct FakeSupplier {
  std::size_t capacity, used = 0;
  std::uint64_t next = 0x1000;
  std::map<std::uint64_t, std::size_t> live;
  int allocations = 0;
  MemoryPool pool;
  explicit FakeSupplier(std::size_t c, PoolClasses classes = {})
      : capacity(c),
        pool(
            [this](std::size_t bytes) -> MemoryPool::Block {
              if (used + bytes > capacity) return 0;
              ++allocations;
              used += bytes;
              live[next] = bytes;
              return std::exchange(next, next + bytes);
            },
            [this](MemoryPool::Block block) {
              used -= live.at(block);
              live.erase(block);
            },
            classes) {}
};

TEST(MemoryPool, SizeClassesBoundWaste) {
  const FakeSupplier s(0);
  EXPECT_EQ(s.pool.size_class(0), 512u);
  EXPECT_EQ(s.pool.size_class(512), 512u);
  EXPECT_EQ(s.pool.size_class(513), 640u);
  EXPECT_EQ(s.pool.size_class(1024), 1024u);
  EXPECT_EQ(s.pool.size_class(1025), 1280u);
  for (std::size_t bytes = 1; bytes < (std::size_t{1} << 40); bytes = bytes * 3 + 7) {
    const std::size_t c = s.pool.size_class(bytes);
    EXPECT_GE(c, bytes);
    EXPECT_LE(c, std::max<std::size_t>(512, bytes + bytes / 4 + 1)) << bytes;
  }
}

TEST(MemoryPool, ClassesAreMultiplesOfTheGranularityAndKeepWithinTheLargestAllocation) {
  constexpr std::size_t kPage = 2 << 20, kLargest = 100'000'000;
  const FakeSupplier s(0, {.smallest = 1 << 20, .granularity = kPage, .largest = kLargest});
  for (std::size_t bytes = 1 << 20; bytes < (std::size_t{1} << 34); bytes = bytes * 3 / 2 + 1) {
    const std::size_t c = s.pool.size_class(bytes);
    EXPECT_GE(c, bytes);
    if (bytes <= kLargest) {
      EXPECT_LE(c, kLargest) << bytes << ": a class the device cannot allocate";
    }
    if (c != bytes) {
      EXPECT_EQ(c % kPage, 0u) << bytes;
    }
  }
}

TEST(MemoryPool, ReusesFreedBlocksOfTheSameClass) {
  FakeSupplier s(1 << 20);
  const auto a = s.pool.allocate(1000);
  EXPECT_EQ(s.pool.in_use_bytes(), 1024u);
  s.pool.free(a, 1000);
  EXPECT_EQ(s.pool.cached_bytes(), 1024u);
  EXPECT_EQ(s.pool.in_use_bytes(), 0u);
  EXPECT_EQ(s.pool.allocate(1020), a) << "same size class, so the cached block";
  EXPECT_EQ(s.pool.cached_bytes(), 0u);
  EXPECT_NE(s.pool.allocate(1000), a);
  EXPECT_EQ(s.allocations, 2);
}

TEST(MemoryPool, OutOfMemoryReleasesCachedBlocksAndRetriesOnce) {
  FakeSupplier s(4096);
  const auto a = s.pool.allocate(2048), b = s.pool.allocate(2048);
  s.pool.free(a, 2048);
  s.pool.free(b, 2048);
  // A different class: the cached blocks are in the way until the pool releases them.
  EXPECT_NE(s.pool.allocate(3000), 0u);
  EXPECT_EQ(s.pool.cached_bytes(), 0u);
  EXPECT_EQ(s.live.size(), 1u);
  const int before = s.allocations;
  EXPECT_EQ(s.pool.allocate(3000), 0u) << "no room even after releasing";
  EXPECT_EQ(s.allocations, before) << "nothing cached to release, so no second try";
}

TEST(MemoryPool, CachesNoMoreThanItsLimit) {
  FakeSupplier s(1 << 20, {.cache_limit = 2048});
  const auto a = s.pool.allocate(1024), b = s.pool.allocate(1024), c = s.pool.allocate(1024);
  s.pool.free(a, 1024);
  s.pool.free(b, 1024);
  s.pool.free(c, 1024);
  EXPECT_EQ(s.pool.cached_bytes(), 2048u);
  EXPECT_EQ(s.live.size(), 2u) << "the block beyond the limit went back to the supplier";
}

TEST(MemoryPool, DestructionReleasesCachedBlocks) {
  std::size_t released = 0;
  {
    std::uint64_t next = 0x1000;
    MemoryPool pool([&](std::size_t bytes) { return std::exchange(next, next + bytes); },
                    [&](MemoryPool::Block) { ++released; });
    pool.free(pool.allocate(100), 100);
    pool.free(pool.allocate(5000), 5000);
  }
  EXPECT_EQ(released, 2u);
}

}  // namespace
}  // namespace switchyard
