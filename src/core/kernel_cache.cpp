#include "core/kernel_cache.hpp"
#include "core/log.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string_view>
#include <system_error>

#include "core/atomic_file.hpp"
#include "core/config.hpp"

namespace switchyard {
namespace fs = std::filesystem;
namespace {

// Bumped whenever the entry layout or the key encoding changes; entries of other versions then
// no longer match by name and age out through LRU eviction.
constexpr std::uint32_t kFormatVersion = 1;
constexpr char kMagic[8] = {'S', 'W', 'Y', 'K', 'C', 'A', 'C', 'H'};
constexpr std::string_view kEntrySuffix = ".kc";

// A writer renames its temp file within milliseconds of creating it; one older than this was
// left by a process that died mid-write.
constexpr auto kStaleTempAge = std::chrono::hours(1);

struct Digest {
  std::uint64_t high = 0, low = 0;
  bool operator==(const Digest&) const = default;
};

// Every field of the key, length-prefixed so that ("ab", "c") and ("a", "bc") differ.
Digest digest(const KernelCacheKey& key) {
  std::string bytes;
  auto put = [&](const void* p, std::size_t n) { bytes.append(static_cast<const char*>(p), n); };
  auto put_string = [&](const std::string& s) {
    const std::uint64_t n = s.size();
    put(&n, sizeof n);
    put(s.data(), n);
  };
  put(&kFormatVersion, sizeof kFormatVersion);
  put(&key.source_hash, sizeof key.source_hash);
  put_string(key.device);
  put_string(key.driver_version);
  put_string(key.build_options);
  const XXH128_hash_t h = XXH3_128bits(bytes.data(), bytes.size());
  return {h.high64, h.low64};
}

std::string hex(std::uint64_t v) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(v));
  return text;
}

std::string entry_name(const Digest& d) {
  return hex(d.high) + hex(d.low) + std::string(kEntrySuffix);
}

// Entries are in the machine's native byte order: a cache directory belongs to one machine
// (or to identical MPI nodes sharing a file system), and a foreign entry fails the checks below.
struct EntryHeader {
  char magic[8];
  std::uint32_t format_version;
  std::uint32_t reserved;
  std::uint64_t key_high, key_low;
  std::uint64_t payload_bytes;
  std::uint64_t payload_xxh64;
};
static_assert(sizeof(EntryHeader) == 48);

void warn(const std::string& message) {
  log(LogLevel::Warn, "kernel cache: " + message);
}

// Write failures (disk full, permissions changed) repeat for every kernel; say it once.
void warn_once_about_writes(const std::string& message) {
  static std::atomic_flag warned = ATOMIC_FLAG_INIT;
  if (!warned.test_and_set()) warn(message + " (entries are rebuilt but not stored)");
}

enum class Lookup { Missing, Corrupt, Valid };

struct Loaded {
  Lookup state = Lookup::Missing;
  std::vector<std::byte> payload;
};

bool read_all(int fd, void* data, std::size_t bytes) {
  auto* p = static_cast<char*>(data);
  while (bytes > 0) {
    const ssize_t n = ::read(fd, p, bytes);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n;
    bytes -= static_cast<std::size_t>(n);
  }
  return true;
}

// Reads and verifies one entry. Anything that exists but does not verify (short, wrong magic,
// other version, other key, wrong size or checksum, unreadable) is Corrupt.
Loaded load(const fs::path& path, const Digest& key) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {errno == ENOENT ? Lookup::Missing : Lookup::Corrupt, {}};
  Loaded result{Lookup::Corrupt, {}};
  struct stat st {};
  EntryHeader h{};
  if (::fstat(fd, &st) == 0 && static_cast<std::size_t>(st.st_size) >= sizeof h &&
      read_all(fd, &h, sizeof h) && std::memcmp(h.magic, kMagic, sizeof kMagic) == 0 &&
      h.format_version == kFormatVersion && Digest{h.key_high, h.key_low} == key &&
      h.payload_bytes == static_cast<std::uint64_t>(st.st_size) - sizeof h) {
    std::vector<std::byte> payload(h.payload_bytes);
    if (read_all(fd, payload.data(), payload.size()) &&
        XXH64(payload.data(), payload.size(), 0) == h.payload_xxh64)
      result = {Lookup::Valid, std::move(payload)};
  }
  ::close(fd);
  return result;
}

// Written whole (core/atomic_file): readers see the old entry, no entry or the whole new one,
// and concurrent writers of one key simply replace each other's identical bytes.
void store(const fs::path& path, const Digest& d, const std::vector<std::byte>& payload) {
  EntryHeader h{};
  std::memcpy(h.magic, kMagic, sizeof kMagic);
  h.format_version = kFormatVersion;
  h.key_high = d.high;
  h.key_low = d.low;
  h.payload_bytes = payload.size();
  h.payload_xxh64 = XXH64(payload.data(), payload.size(), 0);
  const std::string error = write_file_atomically(
      path, {std::string_view(reinterpret_cast<const char*>(&h), sizeof h),
             std::string_view(reinterpret_cast<const char*>(payload.data()), payload.size())});
  if (!error.empty()) warn_once_about_writes(error);
}

// Runs after each write (that is, after a compile, which costs far more than listing the
// directory). Files that are not kernel entries are never counted or deleted.
void evict_beyond_bound(const fs::path& directory, std::uint64_t max_bytes, const fs::path& keep) {
  struct Entry {
    fs::path path;
    fs::file_time_type last_used;
    std::uint64_t bytes;
  };
  std::vector<Entry> entries;
  std::uint64_t total = 0;
  const auto now = fs::file_time_type::clock::now();
  std::error_code ec;
  for (fs::directory_iterator it(directory, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    std::error_code time_ec, size_ec;
    const auto last_used = it->last_write_time(time_ec);
    const std::uint64_t bytes = it->file_size(size_ec);
    if (time_ec || size_ec) continue;  // removed meanwhile by another process, or not a file
    if (is_atomic_temp_name(name)) {
      if (now - last_used > kStaleTempAge) fs::remove(it->path(), time_ec);
      continue;
    }
    if (!name.ends_with(kEntrySuffix)) continue;
    entries.push_back({it->path(), last_used, bytes});
    total += bytes;
  }
  if (total <= max_bytes) return;
  std::sort(entries.begin(), entries.end(),
            [](const Entry& a, const Entry& b) { return a.last_used < b.last_used; });
  for (const Entry& e : entries) {
    if (total <= max_bytes) break;
    if (e.path == keep) continue;
    std::error_code remove_ec;
    fs::remove(e.path, remove_ec);
    total -= e.bytes;
  }
}

}  // namespace

std::string KernelCacheKey::file_name() const {
  return entry_name(digest(*this));
}

KernelCacheKey KernelCacheKey::for_source(std::string_view source, std::string device,
                                          std::string driver_version, std::string build_options) {
  return {XXH64(source.data(), source.size(), 0), std::move(device), std::move(driver_version),
          std::move(build_options)};
}

fs::path cache_directory() {
  if (const char* dir = env_value("SWITCHYARD_CACHE_DIR")) return dir;
  // The XDG base-directory spec says relative values are invalid and must be ignored.
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  if (xdg && xdg[0] == '/') return fs::path(xdg) / "switchyard";
  const char* home = std::getenv("HOME");
  if (home && *home) return fs::path(home) / ".cache" / "switchyard";
  return {};
}

KernelCache& KernelCache::instance() {
  // Kernels get their own folder: the calibration profile shares the cache directory, and
  // eviction must only ever count and delete kernel entries.
  // Never destroyed: threads a program leaves running may still be compiling while exit
  // destroys statics, and one destroyed under them would be read after its destructor ran.
  static KernelCache* cache = [] {
    const fs::path root = cache_directory();
    return new KernelCache(root.empty() ? root : root / "kernels");
  }();
  return *cache;
}

KernelCache::KernelCache(fs::path directory, std::uint64_t max_bytes)
    : directory_(std::move(directory)), max_bytes_(max_bytes) {}

bool KernelCache::ensure_directory() {
  std::call_once(directory_checked_, [this] {
    if (directory_.empty()) {
      warn("disabled: no cache directory (set SWITCHYARD_CACHE_DIR, XDG_CACHE_HOME or HOME)");
      return;
    }
    std::error_code ec;
    fs::create_directories(directory_, ec);
    if (!ec && ::access(directory_.c_str(), W_OK | X_OK) != 0)
      ec = std::error_code(errno, std::generic_category());
    if (ec) {
      warn("disabled: cannot use '" + directory_.string() + "': " + ec.message() +
           " (set SWITCHYARD_CACHE_DIR to a writable directory)");
      return;
    }
    enabled_ = true;
  });
  return enabled_;
}

std::vector<std::byte> KernelCache::get_or_build(
    const KernelCacheKey& key, const std::function<std::vector<std::byte>()>& build) {
  if (!ensure_directory()) return build_and_count(build);
  const Digest d = digest(key);
  const fs::path path = directory_ / entry_name(d);
  Loaded found = load(path, d);
  if (found.state == Lookup::Valid) {
    // The modification time is the LRU clock; a concurrent eviction may have removed the file.
    std::error_code ignored;
    fs::last_write_time(path, fs::file_time_type::clock::now(), ignored);
    logf(LogLevel::Info, "kernel cache: disk hit {}", path.filename().string());
    std::lock_guard lock(stats_mutex_);
    ++stats_.disk_hits;
    return std::move(found.payload);
  }
  std::vector<std::byte> payload = build_and_count(build);
  logf(LogLevel::Info, "kernel cache: {} {}, built and stored",
       found.state == Lookup::Corrupt ? "corrupt entry" : "miss", path.filename().string());
  if (found.state == Lookup::Corrupt) {
    std::lock_guard lock(stats_mutex_);
    ++stats_.corrupt_entries_rebuilt;
  }
  store(path, d, payload);
  evict_beyond_bound(directory_, max_bytes_, path);
  return payload;
}

std::vector<std::byte> KernelCache::build_and_count(
    const std::function<std::vector<std::byte>()>& build) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::byte> payload = build();
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
  std::lock_guard lock(stats_mutex_);
  ++stats_.builds;
  stats_.build_seconds += took.count();
  return payload;
}

KernelCacheStats KernelCache::stats() const {
  std::lock_guard lock(stats_mutex_);
  return stats_;
}

}  // namespace switchyard
