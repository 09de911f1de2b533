// The persistent kernel cache: compiled device programs (OpenCL program binaries, CUDA cubins)
// keyed by (source hash, device, driver and compiler version, build options), on disk under
// $SWITCHYARD_CACHE_DIR (default $XDG_CACHE_HOME/switchyard, else ~/.cache/switchyard).
//
// Loaded programs are kept in memory by the runtime's executable cache; this cache is the disk
// level behind it. Writes are atomic (temp file + rename), so concurrent processes never see a
// half-written entry and never wait on a lock; a corrupt or unreadable entry is rebuilt and
// replaced; total size is bounded with least-recently-used eviction.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace switchyard {

struct KernelCacheKey {
  std::uint64_t source_hash = 0;
  std::string device;          // stable identity: name + vendor (+ architecture)
  std::string driver_version;  // driver and compiler versions
  std::string build_options;
  std::string file_name() const;  // hex digest of every field, with a format version

  // The one convention every backend keys its programs by: the source itself (generated from
  // IR, from a library op, or fixed), so a change to the IR, the target or the code generator
  // never loads a program built from other code; then who builds it and how.
  static KernelCacheKey for_source(std::string_view source, std::string device,
                                   std::string driver_version, std::string build_options);
};

struct KernelCacheStats {
  std::uint64_t disk_hits = 0;
  std::uint64_t builds = 0;
  std::uint64_t corrupt_entries_rebuilt = 0;
  double build_seconds = 0;
};

class KernelCache {
 public:
  // The process-wide cache, at the configured directory.
  static KernelCache& instance();
  explicit KernelCache(std::filesystem::path directory,
                       std::uint64_t max_bytes = std::uint64_t{512} << 20);

  // The program binary for `key`: read from disk when a valid entry exists, otherwise built by
  // `build` (whose exceptions propagate, nothing stored) and written atomically.
  std::vector<std::byte> get_or_build(const KernelCacheKey& key,
                                      const std::function<std::vector<std::byte>()>& build);

  KernelCacheStats stats() const;
  const std::filesystem::path& directory() const { return directory_; }
  std::uint64_t max_bytes() const { return max_bytes_; }

 private:
  bool ensure_directory();  // false (after one warning) when caching is disabled
  std::vector<std::byte> build_and_count(const std::function<std::vector<std::byte>()>& build);

  std::filesystem::path directory_;
  std::uint64_t max_bytes_;
  std::once_flag directory_checked_;
  bool enabled_ = false;  // written once under directory_checked_

  mutable std::mutex stats_mutex_;  // guards stats_
  KernelCacheStats stats_;
};

// The cache directory from SWITCHYARD_CACHE_DIR / XDG_CACHE_HOME / HOME; empty when none is set
// (caching is then disabled).
std::filesystem::path cache_directory();

}  // namespace switchyard
