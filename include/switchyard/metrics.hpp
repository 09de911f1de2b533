// What ran where, and how long it took. Every execution is counted: per kernel, per device, and
// the last 256 executions in full. Traces (SWITCHYARD_TRACE=path.json, or start_trace) show each
// compile, transfer and execution as a span on its device's track in Perfetto / chrome://tracing.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace switchyard {

// ---- one execution

struct ExecutionRecord {
  std::string device;     // "opencl:0"
  std::string signature;  // the kernel's signature, 16 hex digits
  std::string label;      // what it computes, e.g. "add f32"
  std::int64_t elements = 0;
  std::uint64_t bytes_moved = 0;  // host <-> device transfers made for it
  double compile_s = 0, transfer_s = 0, execute_s = 0, total_s = 0;
  bool cache_hit = false;     // the kernel was already compiled for the device
  double predicted_s = 0;     // the scheduler's prediction; 0 when it made none
  int fallbacks = 0;          // devices that failed this work before this one ran it
  std::string chosen_reason;  // why the scheduler chose the device
  bool explored = false;      // placed there to measure it (explain's "exploring")
};

// ---- aggregates

struct MetricsTotals {
  std::int64_t count = 0;
  double total_s = 0, compile_s = 0, transfer_s = 0, execute_s = 0;
  std::int64_t elements = 0;
  std::uint64_t bytes_moved = 0;
  std::int64_t fallbacks = 0;
  std::int64_t cache_hits = 0;
  // Runs placed on a device to measure it, and their time: what exploring cost at most. Of that
  // time, what each such run took over the best known candidate's expected time: what it cost.
  std::int64_t explored = 0;
  double explored_s = 0, explored_over_best_s = 0;
  // Over the executions that had a prediction: their summed predicted and measured times.
  std::int64_t predicted_count = 0;
  double predicted_s = 0, predicted_measured_s = 0;

  double mean_s() const { return count ? total_s / count : 0; }
  // Above 1: the model is pessimistic; below 1: optimistic. 0 when nothing was predicted.
  double predicted_over_measured() const {
    return predicted_measured_s > 0 ? predicted_s / predicted_measured_s : 0;
  }
};

struct KernelMetrics {
  std::string signature, label;
  MetricsTotals totals;
};

struct DeviceMetrics {
  std::string device;
  MetricsTotals totals;
  std::int64_t failures = 0;  // attempts that failed here (compile, memory, device errors)
};

struct Metrics {
  MetricsTotals totals;
  std::vector<KernelMetrics> kernels;   // largest total time first
  std::vector<DeviceMetrics> devices;   // by device id
  std::vector<ExecutionRecord> recent;  // the last 256 executions, oldest first
};

// A consistent snapshot of everything recorded since the start or the last reset_metrics().
Metrics metrics();
// The same as JSON: {"totals":{...},"kernels":[...],"devices":[...],"recent":[...]}.
std::string metrics_json();
void reset_metrics();

// ---- traces

// Starts recording a Chrome trace to `path` (as SWITCHYARD_TRACE does), first writing out any
// trace already being recorded. The file is written by flush_trace(), stop_trace() and at exit.
void start_trace(const std::string& path);
// Writes every span recorded so far to the trace file (replacing it whole; recording goes on).
void flush_trace();
// Writes the trace file and stops recording.
void stop_trace();

}  // namespace switchyard
