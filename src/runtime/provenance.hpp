// Which kernel last wrote a buffer, where and why: what explain reports of an array computed
// before it was asked. Kept in the buffer itself (no allocation per kernel: the label is shared
// with the executor's label cache), replaced by every kernel that writes the buffer and cleared
// by a write from the host.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "backends/backend.hpp"
#include "scheduler/scheduler.hpp"

namespace switchyard::runtime {

struct Provenance {
  std::shared_ptr<const std::string> label;  // "mul,sin,add float32", "gemm float32"
  std::int64_t elements = 0;
  Device* chosen = nullptr;  // the first candidate tried
  Parallelism chosen_parallelism = Parallelism::Auto;
  scheduler::Reason reason = scheduler::Reason::Forced;
  Device* ran_on = nullptr;  // after fallbacks
  Parallelism ran_parallelism = Parallelism::Auto;
  int fallbacks = 0;
  bool cache_hit = false;
  double total_s = 0, compile_s = 0, transfer_s = 0, execute_s = 0;
  double predicted_s = 0;       // the model's prediction for where it ran; 0 when none was made
  std::uint64_t signature = 0;  // the work's (scheduler::Workload::signature)
};

}  // namespace switchyard::runtime
