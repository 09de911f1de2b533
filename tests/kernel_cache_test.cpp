#include "core/kernel_cache.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <stdexcept>
#include <thread>

#include "test_support.hpp"

namespace switchyard {
namespace {

namespace fs = std::filesystem;
using Bytes = std::vector<std::byte>;

using testing_support::ScopedEnv;
using testing_support::TempDir;

Bytes pattern_bytes(std::size_t n, unsigned seed) {
  Bytes b(n);
  for (std::size_t i = 0; i < n; ++i) b[i] = std::byte((i * 131 + seed) & 0xff);
  return b;
}

KernelCacheKey key(std::uint64_t source_hash = 42) {
  return {source_hash, "NVIDIA H100 sm_90", "driver 12040 nvrtc 12.4", "--gpu-architecture=sm_90"};
}

std::vector<fs::path> files_in(const fs::path& dir) {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir)) files.push_back(e.path());
  return files;
}

// A builder that counts its calls.
struct Builder {
  Bytes bytes;
  int calls = 0;
  Bytes operator()() {
    ++calls;
    return bytes;
  }
  std::function<Bytes()> fn() {
    return [this] { return (*this)(); };
  }
};

TEST(KernelCache, MissBuildsThenHitLoadsFromDisk) {
  TempDir dir;
  KernelCache cache(dir.path());
  Builder b{pattern_bytes(1000, 1)};
  EXPECT_EQ(cache.get_or_build(key(), b.fn()), b.bytes);
  EXPECT_EQ(cache.get_or_build(key(), b.fn()), b.bytes);
  EXPECT_EQ(b.calls, 1);
  const KernelCacheStats s = cache.stats();
  EXPECT_EQ(s.builds, 1u);
  EXPECT_EQ(s.disk_hits, 1u);
  EXPECT_EQ(s.corrupt_entries_rebuilt, 0u);
  EXPECT_GE(s.build_seconds, 0.0);
  ASSERT_EQ(files_in(dir.path()).size(), 1u);
  EXPECT_EQ(files_in(dir.path())[0].filename(), key().file_name());
}

TEST(KernelCache, EntriesPersistAcrossInstances) {
  TempDir dir;
  Builder b{pattern_bytes(5000, 2)};
  KernelCache(dir.path()).get_or_build(key(), b.fn());
  KernelCache second(dir.path());
  EXPECT_EQ(second.get_or_build(key(), b.fn()), b.bytes);
  EXPECT_EQ(b.calls, 1);
  EXPECT_EQ(second.stats().disk_hits, 1u);
}

TEST(KernelCache, EveryKeyFieldSelectsItsOwnEntry) {
  const KernelCacheKey base = key();
  std::vector<KernelCacheKey> keys(5, base);
  keys[1].source_hash += 1;
  keys[2].device += "x";
  keys[3].driver_version += "x";
  keys[4].build_options += "x";
  TempDir dir;
  KernelCache cache(dir.path());
  for (std::size_t i = 0; i < keys.size(); ++i) {
    Builder b{pattern_bytes(100, static_cast<unsigned>(i))};
    EXPECT_EQ(cache.get_or_build(keys[i], b.fn()), b.bytes);
    EXPECT_EQ(b.calls, 1) << "key " << i << " hit another key's entry";
  }
  EXPECT_EQ(files_in(dir.path()).size(), keys.size());
  // Length-prefixed encoding: moving a character between fields changes the key.
  KernelCacheKey a = base, c = base;
  a.device = "ab";
  a.driver_version = "c";
  c.device = "a";
  c.driver_version = "bc";
  EXPECT_NE(a.file_name(), c.file_name());
}

void expect_rebuilt_and_replaced(const std::function<void(const fs::path&)>& damage) {
  TempDir dir;
  Builder b{pattern_bytes(4096, 3)};
  KernelCache(dir.path()).get_or_build(key(), b.fn());
  damage(dir.path() / key().file_name());

  KernelCache cache(dir.path());
  EXPECT_EQ(cache.get_or_build(key(), b.fn()), b.bytes);
  EXPECT_EQ(b.calls, 2);
  EXPECT_EQ(cache.stats().corrupt_entries_rebuilt, 1u);
  // The replacement is valid: the next process loads it.
  KernelCache next(dir.path());
  EXPECT_EQ(next.get_or_build(key(), b.fn()), b.bytes);
  EXPECT_EQ(b.calls, 2);
  EXPECT_EQ(next.stats().disk_hits, 1u);
}

TEST(KernelCache, TruncatedEntryIsRebuiltAndReplaced) {
  expect_rebuilt_and_replaced([](const fs::path& p) { fs::resize_file(p, fs::file_size(p) / 2); });
}

TEST(KernelCache, TruncatedHeaderIsRebuiltAndReplaced) {
  expect_rebuilt_and_replaced([](const fs::path& p) { fs::resize_file(p, 10); });
}

TEST(KernelCache, EmptyEntryIsRebuiltAndReplaced) {
  expect_rebuilt_and_replaced([](const fs::path& p) { fs::resize_file(p, 0); });
}

TEST(KernelCache, FlippedPayloadByteIsRebuiltAndReplaced) {
  expect_rebuilt_and_replaced([](const fs::path& p) {
    std::fstream f(p, std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(-100, std::ios::end);
    char c;
    f.get(c);
    f.seekp(-100, std::ios::end);
    f.put(static_cast<char>(c ^ 0x40));
  });
}

TEST(KernelCache, GarbageEntryIsRebuiltAndReplaced) {
  expect_rebuilt_and_replaced([](const fs::path& p) {
    std::ofstream f(p, std::ios::binary | std::ios::trunc);
    f << std::string(10000, 'g');
  });
}

TEST(KernelCache, BuildExceptionPropagatesAndStoresNothing) {
  TempDir dir;
  KernelCache cache(dir.path());
  EXPECT_THROW(
      cache.get_or_build(key(), []() -> Bytes { throw std::runtime_error("compile failed"); }),
      std::runtime_error);
  EXPECT_TRUE(files_in(dir.path()).empty());
  EXPECT_EQ(cache.stats().builds, 0u);
  Builder b{pattern_bytes(10, 4)};
  EXPECT_EQ(cache.get_or_build(key(), b.fn()), b.bytes);
  EXPECT_EQ(b.calls, 1);
}

TEST(KernelCache, EmptyPayloadRoundTrips) {
  TempDir dir;
  Builder b{{}};
  KernelCache(dir.path()).get_or_build(key(), b.fn());
  KernelCache cache(dir.path());
  EXPECT_TRUE(cache.get_or_build(key(), b.fn()).empty());
  EXPECT_EQ(cache.stats().disk_hits, 1u);
}

// A slow build widens the window in which other writers and readers race on one key.
Bytes slow_build(std::size_t bytes) {
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  return pattern_bytes(bytes, 7);
}

void expect_no_temp_files(const fs::path& dir) {
  for (const auto& p : files_in(dir))
    EXPECT_EQ(p.filename().string().find(".tmp."), std::string::npos) << p << " left behind";
}

TEST(KernelCache, ConcurrentProcessesShareOneKeySafely) {
  TempDir dir;
  constexpr int kProcesses = 8, kRounds = 20;
  constexpr std::size_t kBytes = 1 << 20;
  const Bytes expected = pattern_bytes(kBytes, 7);
  std::vector<pid_t> children;
  for (int p = 0; p < kProcesses; ++p) {
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      int wrong = 0;
      for (int r = 0; r < kRounds; ++r) {
        // A fresh instance per round, as a new process (an MPI rank) would have; every few
        // rounds the entry is removed so that writers keep racing readers.
        KernelCache cache(dir.path());
        if (r % 5 == p % 5) fs::remove(dir.path() / key().file_name());
        if (cache.get_or_build(key(), [] { return slow_build(kBytes); }) != expected) ++wrong;
        if (cache.stats().corrupt_entries_rebuilt != 0) ++wrong;  // never a half-written file
      }
      ::_exit(wrong == 0 ? 0 : 1);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "a process read wrong bytes";
  }
  expect_no_temp_files(dir.path());
  KernelCache cache(dir.path());
  EXPECT_EQ(cache.get_or_build(key(), [] { return Bytes{}; }), expected);
}

TEST(KernelCache, ConcurrentThreadsShareOneKeySafely) {
  TempDir dir;
  KernelCache cache(dir.path());
  constexpr int kThreads = 8, kRounds = 20;
  constexpr std::size_t kBytes = 256 << 10;
  const Bytes expected = pattern_bytes(kBytes, 7);
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&] {
      for (int r = 0; r < kRounds; ++r)
        if (cache.get_or_build(key(), [] { return slow_build(kBytes); }) != expected) ++wrong;
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(wrong.load(), 0);
  const KernelCacheStats s = cache.stats();
  EXPECT_EQ(s.builds + s.disk_hits, std::uint64_t{kThreads * kRounds});
  EXPECT_EQ(s.corrupt_entries_rebuilt, 0u);
  expect_no_temp_files(dir.path());
}

TEST(KernelCache, EvictsLeastRecentlyUsedBeyondBound) {
  TempDir dir;
  constexpr std::size_t kPayload = 1000;
  // Room for three entries (payload plus header), not four.
  KernelCache cache(dir.path(), 3 * (kPayload + 100));
  Builder b{pattern_bytes(kPayload, 5)};
  for (std::uint64_t h = 1; h <= 3; ++h) cache.get_or_build(key(h), b.fn());
  // Make the ages unambiguous whatever the file system's timestamp resolution.
  const auto now = fs::file_time_type::clock::now();
  for (std::uint64_t h = 1; h <= 3; ++h)
    fs::last_write_time(dir.path() / key(h).file_name(), now - std::chrono::minutes(10 - h));
  cache.get_or_build(key(1), b.fn());  // a hit makes entry 1 the most recently used
  EXPECT_EQ(b.calls, 3);
  cache.get_or_build(key(4), b.fn());

  EXPECT_TRUE(fs::exists(dir.path() / key(1).file_name()));
  EXPECT_FALSE(fs::exists(dir.path() / key(2).file_name())) << "the least recently used stays";
  EXPECT_TRUE(fs::exists(dir.path() / key(3).file_name()));
  EXPECT_TRUE(fs::exists(dir.path() / key(4).file_name()));
  std::uintmax_t total = 0;
  for (const auto& p : files_in(dir.path())) total += fs::file_size(p);
  EXPECT_LE(total, cache.max_bytes());
}

TEST(KernelCache, EvictionLeavesOtherFilesAndRemovesStaleTempFiles) {
  TempDir dir;
  const fs::path mine = dir.path() / "profile.json";
  const fs::path stale = dir.path() / (key(9).file_name() + ".tmp.1234.abcd");
  const fs::path fresh = dir.path() / (key(8).file_name() + ".tmp.1234.ef01");
  for (const auto& p : {mine, stale, fresh}) std::ofstream(p) << std::string(5000, 'x');
  fs::last_write_time(stale, fs::file_time_type::clock::now() - std::chrono::hours(2));

  KernelCache cache(dir.path(), 100);
  Builder b{pattern_bytes(500, 6)};
  cache.get_or_build(key(1), b.fn());
  cache.get_or_build(key(2), b.fn());
  EXPECT_TRUE(fs::exists(mine));
  EXPECT_FALSE(fs::exists(stale)) << "a temp file of a writer that died stays forever";
  EXPECT_TRUE(fs::exists(fresh)) << "a temp file a live writer is filling was removed";
  EXPECT_TRUE(fs::exists(dir.path() / key(2).file_name())) << "the entry just written was evicted";
  EXPECT_FALSE(fs::exists(dir.path() / key(1).file_name()));
}

TEST(KernelCache, UnusableDirectoryDisablesCachingWithoutFailing) {
  TempDir dir;
  const fs::path file = dir.path() / "a-file";
  std::ofstream(file) << "not a directory";
  KernelCache cache(file / "cache");
  Builder b{pattern_bytes(10, 8)};
  EXPECT_EQ(cache.get_or_build(key(), b.fn()), b.bytes);
  EXPECT_EQ(cache.get_or_build(key(), b.fn()), b.bytes);
  EXPECT_EQ(b.calls, 2);
  EXPECT_EQ(cache.stats().builds, 2u);
  EXPECT_EQ(cache.stats().disk_hits, 0u);
}

TEST(KernelCache, DirectoryIsCreatedOnDemand) {
  TempDir dir;
  const fs::path nested = dir.path() / "a" / "b";
  KernelCache cache(nested);
  EXPECT_FALSE(fs::exists(nested));
  Builder b{pattern_bytes(10, 9)};
  cache.get_or_build(key(), b.fn());
  EXPECT_TRUE(fs::exists(nested / key().file_name()));
}

TEST(KernelCacheDirectory, HonoursSwitchyardCacheDir) {
  ScopedEnv cache("SWITCHYARD_CACHE_DIR", "/some/where");
  ScopedEnv xdg("XDG_CACHE_HOME", "/xdg");
  EXPECT_EQ(cache_directory(), fs::path("/some/where"));
}

TEST(KernelCacheDirectory, FallsBackToXdgThenHome) {
  ScopedEnv cache("SWITCHYARD_CACHE_DIR", nullptr);
  ScopedEnv home("HOME", "/home/user");
  {
    ScopedEnv xdg("XDG_CACHE_HOME", "/xdg");
    EXPECT_EQ(cache_directory(), fs::path("/xdg/switchyard"));
  }
  {
    ScopedEnv xdg("XDG_CACHE_HOME", "relative/ignored");
    EXPECT_EQ(cache_directory(), fs::path("/home/user/.cache/switchyard"));
  }
  ScopedEnv xdg("XDG_CACHE_HOME", nullptr);
  EXPECT_EQ(cache_directory(), fs::path("/home/user/.cache/switchyard"));
  ScopedEnv no_home("HOME", nullptr);
  EXPECT_TRUE(cache_directory().empty());
}

}  // namespace
}  // namespace switchyard
