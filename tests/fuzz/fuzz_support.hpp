// What every harness shares: a quiet CPU-only runtime (no OpenCL compiler in the loop, one
// warning line per rejected input would drown the fuzzer's own output).
#pragma once

#include <cstdlib>

namespace switchyard::fuzz {

inline void quiet_cpu_runtime() {
  setenv("SWITCHYARD_BACKEND", "cpu", 1);
  setenv("SWITCHYARD_LOG", "error", 1);
}

}  // namespace switchyard::fuzz
