#include "runtime/trace.hpp"
#include "core/log.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <vector>

#include "core/atomic_file.hpp"
#include "core/config.hpp"
#include "switchyard/error.hpp"
#include "switchyard/metrics.hpp"

namespace switchyard {
namespace runtime {

namespace detail {
std::atomic<TraceState> trace_state{TraceState::Unread};
}  // namespace detail

namespace {

using detail::TraceState;

// About 100 bytes each with its name: a million events bound a runaway trace to ~100 MB.
constexpr std::size_t kMaxEvents = 1'000'000;

TraceClock::time_point process_start() {
  static const TraceClock::time_point start = TraceClock::now();
  return start;
}
// Initialised when the library is loaded, so timestamps count from about process start rather
// than from the first traced event.
[[maybe_unused]] const TraceClock::time_point loaded_at = process_start();

struct TraceEvent {
  int track;
  char phase;                 // 'X' complete, 'i' instant
  std::string_view category;  // always a string literal
  std::string name;
  double start_us, duration_us;
};

struct Track {
  std::string device_id, title;  // title: "opencl:0 (Portable Computing Language device)"
};

struct TraceRecorder {
  std::mutex mutex;  // guards everything below
  std::string path;
  std::vector<Track> tracks;  // tid = index + 1
  std::vector<TraceEvent> events;
  std::size_t dropped = 0;
  bool exit_hook_registered = false;
};

TraceRecorder& recorder() {
  static TraceRecorder* r = new TraceRecorder;  // never destroyed: work may outlive statics
  return *r;
}

std::string_view category(TraceStage stage) {
  switch (stage) {
    case TraceStage::Compile:
      return "compile";
    case TraceStage::Transfer:
      return "transfer";
    case TraceStage::Execute:
      return "execute";
  }
  return "other";
}

double since_start_us(TraceClock::time_point t) {
  return std::chrono::duration<double, std::micro>(t - process_start()).count();
}

int track_of(TraceRecorder& r, const DeviceInfo& device) {  // r.mutex held
  const std::string id = device.id();
  for (std::size_t i = 0; i < r.tracks.size(); ++i)
    if (r.tracks[i].device_id == id) return static_cast<int>(i) + 1;
  r.tracks.push_back({id, id + " (" + device.name + ")"});
  return static_cast<int>(r.tracks.size());
}

void add_event(const DeviceInfo& device, char phase, std::string_view cat, std::string_view name,
               double start_us, double duration_us) {
  TraceRecorder& r = recorder();
  std::lock_guard lock(r.mutex);
  // Recording may have stopped between the caller's tracing() check and here.
  if (detail::trace_state.load(std::memory_order_relaxed) != TraceState::On) return;
  if (r.events.size() >= kMaxEvents) {
    ++r.dropped;
    return;
  }
  r.events.push_back({track_of(r, device), phase, cat, std::string(name), start_us, duration_us});
}

nlohmann::json trace_document(const TraceRecorder& r) {  // r.mutex held
  nlohmann::json events = nlohmann::json::array();
  events.push_back({{"name", "process_name"},
                    {"ph", "M"},
                    {"pid", 1},
                    {"tid", 0},
                    {"args", {{"name", "switchyard"}}}});
  for (std::size_t i = 0; i < r.tracks.size(); ++i) {
    const int tid = static_cast<int>(i) + 1;
    events.push_back({{"name", "thread_name"},
                      {"ph", "M"},
                      {"pid", 1},
                      {"tid", tid},
                      {"args", {{"name", r.tracks[i].title}}}});
    events.push_back({{"name", "thread_sort_index"},
                      {"ph", "M"},
                      {"pid", 1},
                      {"tid", tid},
                      {"args", {{"sort_index", tid}}}});
  }
  for (const TraceEvent& e : r.events) {
    nlohmann::json j = {{"name", e.name}, {"cat", e.category}, {"ph", std::string(1, e.phase)},
                        {"pid", 1},       {"tid", e.track},    {"ts", e.start_us}};
    if (e.phase == 'X') j["dur"] = e.duration_us;
    if (e.phase == 'i') j["s"] = "t";  // instant scoped to its track
    events.push_back(std::move(j));
  }
  return {{"traceEvents", std::move(events)},
          {"displayTimeUnit", "ms"},
          {"otherData", {{"dropped_events", r.dropped}}}};
}

// Written whole or not at all (core/atomic_file): a reader never sees half a file, and two
// processes tracing to one path never share a temp file. Returns "" or why not.
std::string write_trace(const TraceRecorder& r) {  // r.mutex held
  if (r.path.empty()) return "";
  return write_file_atomically(r.path, {trace_document(r).dump()});
}

void write_at_exit() {
  TraceRecorder& r = recorder();
  std::lock_guard lock(r.mutex);
  if (const std::string error = write_trace(r); !error.empty())
    log(LogLevel::Warn, "trace not written: " + error);
}

void throw_if_failed(const std::string& error) {
  if (!error.empty())
    throw ConfigError("trace file: " + error + "; expected a writable path (SWITCHYARD_TRACE)");
}

void start(TraceRecorder& r, const std::string& path) {  // r.mutex held
  throw_if_failed(write_trace(r));
  r.path = path;
  r.tracks.clear();
  r.events.clear();
  r.dropped = 0;
  // Written now, so a bad path is reported at once rather than lost at exit.
  if (const std::string error = write_trace(r); !error.empty()) {
    r.path.clear();
    throw_if_failed(error);
  }
  if (!r.exit_hook_registered) {
    // The recorder was constructed before this registration, so it outlives the hook.
    std::atexit(write_at_exit);
    r.exit_hook_registered = true;
  }
  detail::trace_state.store(TraceState::On, std::memory_order_relaxed);
}

}  // namespace

bool detail::tracing_from_environment() {
  TraceRecorder& r = recorder();
  std::lock_guard lock(r.mutex);
  if (trace_state.load(std::memory_order_relaxed) != TraceState::Unread)
    return trace_state.load(std::memory_order_relaxed) == TraceState::On;
  const char* path = env_value("SWITCHYARD_TRACE");
  if (!path) {
    trace_state.store(TraceState::Off, std::memory_order_relaxed);
    return false;
  }
  start(r, path);
  return true;
}

void trace_complete(const DeviceInfo& device, TraceStage stage, std::string_view name,
                    TraceClock::time_point start, TraceClock::time_point end) {
  if (!tracing()) return;
  add_event(device, 'X', category(stage), name, since_start_us(start),
            std::chrono::duration<double, std::micro>(end - start).count());
}

void trace_instant(const DeviceInfo& device, std::string_view name) {
  if (!tracing()) return;
  add_event(device, 'i', "fallback", name, since_start_us(TraceClock::now()), 0);
}

}  // namespace runtime

void start_trace(const std::string& path) {
  runtime::TraceRecorder& r = runtime::recorder();
  std::lock_guard lock(r.mutex);
  runtime::start(r, path);
}

void flush_trace() {
  runtime::TraceRecorder& r = runtime::recorder();
  std::lock_guard lock(r.mutex);
  runtime::throw_if_failed(runtime::write_trace(r));
}

void stop_trace() {
  runtime::TraceRecorder& r = runtime::recorder();
  std::lock_guard lock(r.mutex);
  runtime::detail::trace_state.store(runtime::detail::TraceState::Off, std::memory_order_relaxed);
  const std::string error = runtime::write_trace(r);
  r.path.clear();
  r.tracks.clear();
  r.events.clear();
  runtime::throw_if_failed(error);
}

}  // namespace switchyard
