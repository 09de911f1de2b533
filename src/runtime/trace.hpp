// Chrome trace recording (SWITCHYARD_TRACE=path.json, or start_trace): one complete event per
// compile, transfer and execution on its device's track, and an instant event per fallback.
// Open the file in Perfetto (ui.perfetto.dev) or chrome://tracing.
//
// Format: {"traceEvents":[...]} with pid 1, one tid per device named by a thread_name metadata
// event, timestamps in microseconds since the library was loaded (about process start).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include "switchyard/device.hpp"

namespace switchyard::runtime {

enum class TraceStage : std::uint8_t { Compile, Transfer, Execute };

using TraceClock = std::chrono::steady_clock;

namespace detail {
enum class TraceState : std::uint8_t { Unread, Off, On };
// Constant-initialised, so it is valid before any dynamic initialiser runs.
extern std::atomic<TraceState> trace_state;
// Reads SWITCHYARD_TRACE once and starts tracing if it is set; throws ConfigError when the file
// cannot be written.
bool tracing_from_environment();
}  // namespace detail

// Whether spans are recorded. When tracing is off: one relaxed load and one branch.
inline bool tracing() {
  const auto state = detail::trace_state.load(std::memory_order_relaxed);
  if (state == detail::TraceState::Off) [[likely]]
    return false;
  return state == detail::TraceState::On || detail::tracing_from_environment();
}

// Records a span the caller has timed itself (the executor times every stage for the metrics
// anyway, so it passes the same time points rather than reading the clock twice).
void trace_complete(const DeviceInfo& device, TraceStage stage, std::string_view name,
                    TraceClock::time_point start, TraceClock::time_point end);

// Records a moment on the device's track, e.g. "fallback: CL_OUT_OF_RESOURCES ...".
void trace_instant(const DeviceInfo& device, std::string_view name);

// Records the span from construction to destruction (also when leaving by an exception, so a
// failed compile shows how long it took). `device` must outlive the span. Reads no clock and
// copies nothing when tracing is off.
class TraceSpan {
 public:
  TraceSpan(const DeviceInfo& device, TraceStage stage, std::string_view name)
      : device_(tracing() ? &device : nullptr), stage_(stage) {
    if (!device_) return;
    name_ = name;
    start_ = TraceClock::now();
  }
  ~TraceSpan() {
    if (device_) trace_complete(*device_, stage_, name_, start_, TraceClock::now());
  }
  TraceSpan(const TraceSpan&) = delete;
  TraceSpan& operator=(const TraceSpan&) = delete;

 private:
  const DeviceInfo* device_;  // null when tracing is off
  TraceStage stage_;
  std::string name_;
  TraceClock::time_point start_;
};

}  // namespace switchyard::runtime
