// What every harness shares: a quiet CPU-only runtime (no OpenCL compiler in the loop, one
// warning line per rejected input would drown the fuzzer's own output), and a scratch directory
// for harnesses that read files.
#pragma once

#include <stdlib.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace switchyard::fuzz {

inline void quiet_cpu_runtime() {
  setenv("SWITCHYARD_BACKEND", "cpu", 1);
  setenv("SWITCHYARD_LOG", "error", 1);
}

// A fresh directory under the system's temporary directory, made on first use and removed with
// everything in it at exit.
inline const std::filesystem::path& scratch_directory() {
  static const std::filesystem::path dir = [] {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "switchyard-fuzz-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) std::abort();
    std::atexit([] {
      std::error_code ignored;
      std::filesystem::remove_all(scratch_directory(), ignored);
    });
    return std::filesystem::path(pattern);
  }();
  return dir;
}

}  // namespace switchyard::fuzz
