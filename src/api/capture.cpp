// Captured: the user-facing side of captured replay (switchyard/capture.hpp). It checks the
// inputs, finds the recording for their signature, replays it, and records the function when
// there is none or when a replay failed on a device. Recording and replaying themselves live in
// runtime/recording.hpp.
#include "switchyard/capture.hpp"

#include <algorithm>
#include <cstdio>
#include <mutex>
#include <optional>

#include "runtime/buffer.hpp"
#include "runtime/executor.hpp"
#include "runtime/placement.hpp"
#include "runtime/recording.hpp"
#include "switchyard/fallback.hpp"
#include "switchyard/ops.hpp"
#include "switchyard/runtime.hpp"

namespace switchyard {
namespace {

struct InputKey {
  DType dtype;
  Shape shape;
  Strides strides;
  int alias;  // the first earlier input sharing this one's storage; -1 when none
};

int alias_of(std::span<const runtime::View> views, std::size_t i) {
  for (std::size_t j = 0; j < i; ++j)
    if (views[j].buffer == views[i].buffer) return static_cast<int>(j);
  return -1;
}

// What must match for a recording to replay: the inputs' layout and the DeviceScope in force
// (the recording's launches run where that scope put them).
struct Signature {
  std::vector<InputKey> inputs;
  runtime::Candidate pin;

  bool matches(std::span<const runtime::View> views, const runtime::Candidate& p) const {
    if (views.size() != inputs.size() || p.device != pin.device || p.parallelism != pin.parallelism)
      return false;
    for (std::size_t i = 0; i < views.size(); ++i) {
      const InputKey& k = inputs[i];
      const runtime::View& v = views[i];
      if (k.dtype != v.dtype || !(k.shape == v.shape) || !(k.strides == v.strides) ||
          k.alias != alias_of(views, i))
        return false;
    }
    return true;
  }
};

Signature signature_of(std::span<const runtime::View> views) {
  Signature s{{}, runtime::pinned_candidate()};
  for (std::size_t i = 0; i < views.size(); ++i)
    s.inputs.push_back({views[i].dtype, views[i].shape, views[i].strides, alias_of(views, i)});
  return s;
}

bool device_failure(const Error& e) {
  return dynamic_cast<const CompileError*>(&e) || dynamic_cast<const OutOfMemory*>(&e) ||
         dynamic_cast<const DeviceError*>(&e);
}

runtime::View view_of(const Array& a) {
  return {a.buffer(), a.dtype(), a.shape(), a.strides(), a.offset()};
}

}  // namespace

struct Captured::State {
  Function fn;
  std::mutex mutex;  // held for a call: one thread at a time
  struct Entry {
    Signature signature;
    std::shared_ptr<runtime::Recording> recording;
    std::int64_t replays = 0;
    // Set when the whole step is expected faster placed otherwise: the next call records it so
    // (a device id to run every launch on; empty: each launch where the scheduler puts it).
    std::optional<std::string> place_on;
  };
  std::vector<Entry> entries;  // most recently recorded last
  CaptureStats stats;
  std::shared_ptr<runtime::Recording> last;  // the recording the last call used
  std::vector<runtime::View> views;          // the call's inputs, reused

  void bind(std::span<const Array> inputs);
  std::vector<Array> replay(runtime::Recording& recording);
  std::vector<Array> record(std::span<const Array> inputs);
  std::vector<Array> record_placed(std::span<const Array> inputs, const std::string& device);
  void revisit_placement(Entry& entry);
};

void Captured::State::bind(std::span<const Array> inputs) {
  views.clear();
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    if (!inputs[i])
      throw ValueError("captured function input " + std::to_string(i) +
                       " is a null Array: expected an array");
    views.push_back(view_of(inputs[i]));  // computes a pending input first
  }
}

std::vector<Array> Captured::State::replay(runtime::Recording& recording) {
  // An input the replay would overwrite (an array the function leaked) is read from a copy.
  for (runtime::View& v : views)
    if (recording.writes(v.buffer.get())) {
      const Array copy = Array(v.buffer, v.dtype, v.shape, v.strides, v.offset).copy();
      eval(copy);
      v = view_of(copy);
    }
  std::vector<Array> outputs;
  const auto replayed = recording.replay(views);
  outputs.reserve(replayed.size());
  for (runtime::ReplayedView& r : replayed) {
    const runtime::RecordedOutput& o = *r.output;
    outputs.push_back(o.empty ? Array::zeros(o.shape, o.dtype)
                              : Array(std::move(r.buffer), o.dtype, o.shape, o.strides, o.offset));
  }
  return outputs;
}

std::vector<Array> Captured::State::record(std::span<const Array> inputs) {
  Signature signature = signature_of(views);
  std::vector<Array> outputs;
  std::vector<runtime::View> output_views;
  std::shared_ptr<runtime::Recording> recording;
  {
    runtime::Recorder recorder(views);
    outputs = fn(inputs);
    eval(outputs);
    // Every call returns new arrays: an output the function did not compute (an input, an
    // array from outside) is returned as a copy, which the recording then makes every time.
    for (Array& out : outputs) {
      if (!out) throw ValueError("captured function returned a null Array: expected arrays");
      if (out.size() > 0 && !recorder.made_by_launch(out.buffer().get())) {
        out = out.copy();
        eval(out);
      }
      output_views.push_back(
          out.size() > 0 ? view_of(out)
                         : runtime::View{nullptr, out.dtype(), out.shape(), out.strides(), 0});
    }
    recording = recorder.finish(output_views);
  }
  if (entries.size() == kMaxRecordings) entries.erase(entries.begin());
  entries.push_back({std::move(signature), recording, 0, std::nullopt});
  ++stats.recordings;
  last = std::move(recording);
  return outputs;
}

// Records the function with every launch on `device` (the whole step placed there); records it
// as usual when that device fails meanwhile.
std::vector<Array> Captured::State::record_placed(std::span<const Array> inputs,
                                                  const std::string& device) {
  const std::size_t recordings = entries.size();
  try {
    // The entry keeps the caller's DeviceScope (none): the pin is the recording's own placement.
    Signature signature = signature_of(views);
    const DeviceScope scope(device);
    auto outputs = record(inputs);
    entries.back().signature = std::move(signature);
    return outputs;
  } catch (const Error& e) {
    if (!device_failure(e) || !fallback_enabled()) throw;
    if (entries.size() > recordings) entries.pop_back();
    bind(inputs);
    return record(inputs);
  }
}

// After 2, 4, 8, ... replays (then every 1024th), asks the scheduler whether the whole step is
// expected faster placed otherwise; if so the next call records it placed so.
void Captured::State::revisit_placement(Entry& entry) {
  const std::int64_t n = ++entry.replays;
  if (n < 2 || ((n & (n - 1)) != 0 && n % 1024 != 0)) return;
  const auto decision = entry.recording->placement_decision();
  if (!decision) return;
  const auto& models = runtime::Placement::instance().scheduler()->models();
  const auto device_of = [&](int candidate) {
    return scheduler::device_of(models[candidate].name);
  };
  stats.placements.clear();
  for (std::size_t i = 0; i < decision->alternatives.size(); ++i) {
    const scheduler::GroupAlternative& a = decision->alternatives[i];
    CaptureStats::Placement p{a.name,        {},
                              a.predicted_s, a.measured_s.value_or(-1),
                              a.expected_s,  static_cast<int>(i) == decision->chosen};
    for (const int c : a.candidates)
      if (std::find(p.devices.begin(), p.devices.end(), device_of(c)) == p.devices.end())
        p.devices.push_back(device_of(c));
    stats.placements.push_back(std::move(p));
  }
  if (!decision->moves()) return;
  const scheduler::GroupAlternative& chosen = decision->alternatives[decision->chosen];
  entry.place_on = chosen.all_on;
}

Captured::Captured(Function fn) : state_(std::make_shared<State>()) {
  if (!fn) throw ValueError("capture of an empty function: expected a callable");
  state_->fn = std::move(fn);
}

std::vector<Array> Captured::operator()(std::span<const Array> inputs) const {
  State& s = *state_;
  // Inside another capture the function is part of that recording.
  if (runtime::Recorder::active()) return s.fn(inputs);
  std::unique_lock lock(s.mutex, std::try_to_lock);
  if (!lock.owns_lock())
    throw ValueError(
        "captured function called from two threads at once: expected one thread at a time "
        "(give each thread its own capture())");
  ++s.stats.calls;
  s.bind(inputs);
  const runtime::Candidate& pin = runtime::pinned_candidate();
  const auto entry = std::find_if(s.entries.begin(), s.entries.end(),
                                  [&](const auto& e) { return e.signature.matches(s.views, pin); });
  // A recording made while a kernel compiled for another device is made again once it is
  // ready, so that the scheduler can place the work there.
  if (entry != s.entries.end() && entry->recording->placement_outdated()) {
    s.entries.erase(entry);
    return s.record(inputs);
  }
  // Another placement of the whole step was found faster: record it placed so.
  if (entry != s.entries.end() && entry->place_on) {
    const std::string device = *entry->place_on;
    s.entries.erase(entry);
    ++s.stats.placements_changed;
    return device.empty() ? s.record(inputs) : s.record_placed(inputs, device);
  }
  if (entry != s.entries.end()) {
    try {
      auto outputs = s.replay(*entry->recording);
      ++s.stats.replays;
      if (s.last != entry->recording) s.last = entry->recording;
      // Not under the caller's own DeviceScope: that placement is the caller's to choose.
      if (!pin.device) s.revisit_placement(*entry);
      return outputs;
    } catch (const Error& e) {
      // The replay wrote only memory of its own: running the function again loses nothing.
      if (!device_failure(e) || !fallback_enabled()) throw;
      ++s.stats.fallbacks;
      s.entries.erase(entry);
      s.bind(inputs);
    }
  }
  return s.record(inputs);
}

CaptureStats Captured::stats() const {
  std::lock_guard lock(state_->mutex);
  CaptureStats stats = state_->stats;
  if (const auto& r = state_->last) {
    stats.kernels = static_cast<std::int64_t>(r->kernels());
    stats.library_calls = static_cast<std::int64_t>(r->library_calls());
    stats.devices = r->devices();
  }
  return stats;
}

std::string CaptureStats::placement_report() const {
  std::string text;
  const auto ms = [](double s) {
    char out[32];
    std::snprintf(out, sizeof out, "%.3f ms", s * 1e3);
    return std::string(out);
  };
  for (const Placement& p : placements) {
    text += (p.chosen ? "* " : "  ") + p.name + " (";
    for (std::size_t i = 0; i < p.devices.size(); ++i) text += (i ? ", " : "") + p.devices[i];
    text += "): expected " + ms(p.expected_s) + ", predicted " + ms(p.predicted_s) +
            (p.measured_s >= 0 ? ", measured " + ms(p.measured_s) : ", not run yet") + "\n";
  }
  return text;
}

Captured capture(Captured::Function fn) {
  return Captured(std::move(fn));
}

}  // namespace switchyard
