// The OpenCL driver's own build cache, kept beside ours and bounded like it.
//
// PoCL caches every program it builds, and the work-group functions it compiles for it, under
// POCL_CACHE_DIR (default ~/.cache/pocl/kcache) and never evicts anything; PoCL 3.1 also leaves an
// empty tempfile_* there each time a process initialises it (its check that it can write). Unless
// the user chose that directory, it goes under our cache directory (<cache>/pocl), and at most
// once an hour a starting process trims it to our kernel cache's bound: stale temporary files
// first, then the least recently used programs.
#pragma once

#include <cstdint>
#include <filesystem>

namespace switchyard::opencl {

// Before the first OpenCL call: points PoCL's cache under ours when POCL_CACHE_DIR is unset (or
// empty) and we have a cache directory. Returns the directory chosen, empty when the driver's own
// choice stands (ours is then none of our business).
std::filesystem::path place_driver_cache();

// Trims `directory` (a PoCL cache) to `max_bytes` unless that was done within the last hour:
// removes temporary files an hour old, then whole program directories, least recently used
// first (PoCL touches each one's `last_accessed` file when it uses the program).
void bound_driver_cache(const std::filesystem::path& directory, std::uint64_t max_bytes);

}  // namespace switchyard::opencl
