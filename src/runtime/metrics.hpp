// Recording side of the public metrics (switchyard/metrics.hpp): the executor reports each
// execution and each failed attempt here. Aggregates are updated in place under one mutex, and
// only the last kRecentExecutions records are kept, so memory stays bounded however long the
// process runs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "switchyard/metrics.hpp"

namespace switchyard::runtime {

inline constexpr std::size_t kRecentExecutions = 256;

// One execution as the executor knows it. The views need only live for the call: recording
// copies them into storage it reuses, so a warm recorder does not allocate.
struct ExecutionSample {
  std::string_view device;  // "opencl:0"
  std::uint64_t signature = 0;
  std::string_view label;  // "add f32"
  std::int64_t elements = 0;
  std::uint64_t bytes_moved = 0;
  double compile_s = 0, transfer_s = 0, execute_s = 0, total_s = 0;
  bool cache_hit = false;
  double predicted_s = 0;  // 0 when the scheduler made no prediction
  int fallbacks = 0;
  std::string_view chosen_reason;
  bool explored = false;            // placed there to measure it
  double explored_over_best_s = 0;  // explored: its time over the best candidate's expected
};

// Thread-safe; about 100 ns (a lock, two lookups, one record overwritten).
void record_execution(const ExecutionSample& sample);

// An attempt on `device` failed with a device error, whether the work then moved on to another
// device or not (counted in DeviceMetrics::failures).
void record_failed_attempt(std::string_view device);

}  // namespace switchyard::runtime
