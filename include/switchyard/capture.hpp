// Captured replay: work that repeats (a simulation time step, an animation frame, a training
// step) is recorded once and replayed without rebuilding the lazy graph, fusing, planning or
// scheduling again. A replay binds the new inputs' memory and launches the executables the first
// run prepared, on the devices it chose; on CUDA the launches may replay as one CUDA graph.
//
//   Captured step = capture([&](std::span<const Array> in) {
//     return std::vector<Array>{in[0] + dt * (omega + coupling(in[0]))};
//   });
//   for (int t = 0; t < steps; ++t) theta = step({theta})[0];
//
// What a captured function may do:
// - Compute on its inputs and on arrays from outside it (such as `omega` above). Those outside
//   arrays are read as they are at each replay: writing new values into them is seen, rebinding
//   a name to another array is not (capture again for that).
// - Return arrays: every call returns new arrays, so earlier results stay valid.
// What it may not do (each throws ValueError when the function is first run):
// - Read values on the host (to_host, item, to_vector, printing, NumPy export), except of arrays
//   it made on the host itself: a replay would reuse the value that read gave.
// - Write into its inputs or into arrays from outside it (assign, fill, a += b): return the new
//   values instead. Writing into arrays it made itself (computed, or storage it allocated, such
//   as concatenate's result, before reading it) is fine.
// - Use operations whose output size depends on the values (nonzero, compress).
// Arrays it makes other than its outputs must not be kept outside it: a replay rewrites them.
//
// A recording keeps the devices the scheduler chose when it was made, until another placement of
// the whole function is expected faster by the scheduler's hysteresis margin: each launch on its
// own best device, or all of them on one device (moving data between launches priced once, over
// the whole step), from the cost model corrected by every launch's history and by what whole
// replays of each placement measured. Then it is recorded again, placed so; the decision is
// revisited after 2, 4, 8, ... replays (at least every 1024), and stats() shows it. One made while
// a kernel was still compiling for another device is made again once that kernel is ready. A new
// input signature (shape, dtype, strides, which inputs share storage, the DeviceScope in force)
// records again; up to kMaxRecordings are kept per Captured, the oldest replaced. When a device
// fails during a replay the function runs again normally, with fallback, and is recorded anew: no
// data is lost, since a replay writes only memory of its own until it succeeds.
//
// A Captured is called by one thread at a time (a second thread calling at once gets a
// ValueError); copies share their recordings. A Captured called inside another captured
// function simply runs its function, recorded as part of the outer one.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "switchyard/array.hpp"

namespace switchyard {

struct CaptureStats {
  std::int64_t calls = 0;       // every call
  std::int64_t recordings = 0;  // calls that ran the function and recorded it
  std::int64_t replays = 0;     // calls answered by a replay
  std::int64_t fallbacks = 0;   // replays that failed on a device and ran the function again
  // Recordings made again because another placement of the whole function was expected faster.
  std::int64_t placements_changed = 0;
  // Of the recording the last call used: its launches and the devices they run on.
  std::int64_t kernels = 0;
  std::int64_t library_calls = 0;
  std::vector<std::string> devices;

  // The last decision on where the whole function runs (empty before one was made): every
  // placement considered, the one it runs with now first. Times are per call.
  struct Placement {
    std::string name;                  // "as recorded", "each kernel's best", "all on opencl:0"
    std::vector<std::string> devices;  // where its launches run, in order of first use
    double predicted_s = 0;            // the model, corrected by each launch's history
    double measured_s = -1;            // replays placed exactly so (median); -1 when none ran
    double expected_s = 0;             // what the decision compares
    bool chosen = false;
  };
  std::vector<Placement> placements;
  std::string placement_report() const;  // the decision as text, one line per placement
};

class Captured {
 public:
  using Function = std::function<std::vector<Array>(std::span<const Array>)>;
  static constexpr std::size_t kMaxRecordings = 8;

  explicit Captured(Function fn);

  // Runs the function: recorded on the first call for an input signature, replayed after.
  std::vector<Array> operator()(std::span<const Array> inputs) const;
  std::vector<Array> operator()(std::initializer_list<Array> inputs) const {
    return (*this)(std::span<const Array>(inputs.begin(), inputs.size()));
  }

  CaptureStats stats() const;

  struct State;

 private:
  std::shared_ptr<State> state_;
};

// A function of arrays, recorded on its first call and replayed after (see above).
Captured capture(Captured::Function fn);

}  // namespace switchyard
