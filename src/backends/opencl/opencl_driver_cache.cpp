#include "backends/opencl/opencl_driver_cache.hpp"

#include <stdlib.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <string>
#include <system_error>
#include <vector>

#include "core/kernel_cache.hpp"

namespace switchyard::opencl {
namespace {

namespace fs = std::filesystem;

// How often a cache is trimmed, and how old a file must be before it is taken for abandoned: a
// program or a temporary file in use by another process is younger than this.
constexpr auto kTrimInterval = std::chrono::hours(1);
constexpr const char* kTrimmedMarker = ".switchyard-trimmed";

struct Program {
  fs::path path;
  fs::file_time_type last_used;
  std::uintmax_t bytes = 0;
};

std::uintmax_t bytes_under(const fs::path& dir) {
  std::uintmax_t total = 0;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code size_ec;
    if (it->is_regular_file(size_ec)) total += it->file_size(size_ec);
  }
  return total;
}

fs::file_time_type last_used(const fs::path& program) {
  std::error_code ec;
  const auto accessed = fs::last_write_time(program / "last_accessed", ec);
  return ec ? fs::last_write_time(program, ec) : accessed;
}

// Whether this process should trim now (and if so, marks that it does).
bool due_for_trimming(const fs::path& directory, fs::file_time_type now) {
  const fs::path marker = directory / kTrimmedMarker;
  std::error_code ec;
  const auto last = fs::last_write_time(marker, ec);
  if (!ec && now - last < kTrimInterval) return false;
  if (ec) std::ofstream(marker) << "PoCL's cache, trimmed by Switchyard at most once an hour\n";
  fs::last_write_time(marker, now, ec);
  return true;
}

// PoCL's layout: <directory>/<2 letters>/<hash>/ per program, and tempfile_* at the top.
std::vector<Program> programs_after_removing_stale_files(const fs::path& directory,
                                                         fs::file_time_type now) {
  std::vector<Program> programs;
  std::error_code ec;
  for (fs::directory_iterator it(directory, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code entry_ec;
    const std::string name = it->path().filename().string();
    if (it->is_regular_file(entry_ec) && name.starts_with("tempfile_")) {
      if (now - it->last_write_time(entry_ec) > kTrimInterval && !entry_ec)
        fs::remove(it->path(), entry_ec);
      continue;
    }
    if (!it->is_directory(entry_ec) || name.size() != 2) continue;
    for (fs::directory_iterator p(it->path(), entry_ec), end_p; !entry_ec && p != end_p;
         p.increment(entry_ec))
      programs.push_back({p->path(), last_used(p->path()), bytes_under(p->path())});
  }
  return programs;
}

}  // namespace

fs::path place_driver_cache() {
  if (const char* chosen = std::getenv("POCL_CACHE_DIR"); chosen && *chosen) return {};
  const fs::path ours = cache_directory();
  if (ours.empty()) return {};
  const fs::path dir = ours / "pocl";
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return {};
  // Once, during device detection, before the first OpenCL call: PoCL reads it when the ICD
  // loader initialises it.
  ::setenv("POCL_CACHE_DIR", dir.c_str(), 1);
  return dir;
}

void bound_driver_cache(const fs::path& directory, std::uint64_t max_bytes) {
  const auto now = fs::file_time_type::clock::now();
  if (!due_for_trimming(directory, now)) return;
  std::vector<Program> programs = programs_after_removing_stale_files(directory, now);
  std::uintmax_t total = 0;
  for (const Program& p : programs) total += p.bytes;
  std::sort(programs.begin(), programs.end(),
            [](const Program& a, const Program& b) { return a.last_used < b.last_used; });
  for (const Program& p : programs) {
    if (total <= max_bytes || now - p.last_used < kTrimInterval) break;
    std::error_code ec;
    fs::remove_all(p.path, ec);
    total -= p.bytes;
  }
}

}  // namespace switchyard::opencl
