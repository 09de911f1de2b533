// The kernel cache's disk entry reader (core/kernel_cache.cpp) on arbitrary entry files: the
// fuzz bytes are written where the cache looks for one fixed key. Whatever the file holds, the
// cache must return either the freshly built program or the payload the file really stores
// (header verified), and never crash or throw.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/kernel_cache.hpp"
#include "fuzz_support.hpp"

namespace {

namespace fs = std::filesystem;

constexpr std::size_t kHeaderBytes = 48;  // EntryHeader

// The key of seed corpus/fuzz_kernel_cache/valid_entry (written by this cache for this key).
const switchyard::KernelCacheKey& key() {
  static const switchyard::KernelCacheKey k{0x5eed, "fuzz device", "fuzz driver 1", "-O2"};
  return k;
}

std::vector<std::byte> built_program() {
  const char text[] = "freshly built program";
  std::vector<std::byte> bytes(sizeof text);
  std::memcpy(bytes.data(), text, sizeof text);
  return bytes;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  switchyard::fuzz::quiet_cpu_runtime();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  switchyard::KernelCache cache(switchyard::fuzz::scratch_directory(), 1 << 20);
  const fs::path entry = switchyard::fuzz::scratch_directory() / key().file_name();
  {
    std::ofstream out(entry, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  const std::vector<std::byte> got = cache.get_or_build(key(), built_program);
  const bool built = got == built_program();
  const bool stored = size >= kHeaderBytes && got.size() == size - kHeaderBytes &&
                      std::memcmp(got.data(), data + kHeaderBytes, got.size()) == 0;
  if (!built && !stored) std::abort();
  if (!built && cache.stats().disk_hits != 1) std::abort();
  return 0;
}
