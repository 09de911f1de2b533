// The integration loop: the state stays on its device; the order sums of each recorded step are
// copied into a device-side history and read back every kChunk records, one transfer each, so a
// GPU run is not a sync per step. A non-finite record makes the loop replay its chunk from the
// last verified state, checking every step, to name the step where the NaN first appeared.
#include <cmath>
#include <optional>
#include <string>

#include "switchyard/apps/oscillators.hpp"

namespace switchyard::apps::oscillators {
namespace {

// Records per read-back: a GPU round trip (~10 µs+) every 256 steps is noise next to the steps.
constexpr std::int64_t kChunk = 256;

bool finite_sums(double sin_sum, double cos_sum) {
  return std::isfinite(sin_sum) && std::isfinite(cos_sum);
}

[[noreturn]] void throw_nan(std::int64_t step, double dt) {
  throw ValueError("simulate: the phases became NaN at step " + std::to_string(step) +
                   " (t = " + std::to_string(static_cast<double>(step) * dt) +
                   "): the step or the coupling overflowed; use a smaller dt, or smaller K and ω");
}

// The step where the state first turns non-finite, replaying from a finite `state` at `step`.
std::int64_t first_non_finite_step(const Stepper& stepper, Array state, std::int64_t step,
                                   std::int64_t last_step) {
  for (; step < last_step; ++step) {
    const auto sums = Stepper::order_sums_of(state).to_vector<double>();
    if (!finite_sums(sums[0], sums[1])) return step;
    state = stepper(std::span<const Array>(&state, 1))[0];
  }
  return last_step;
}

class OrderRecorder {
 public:
  OrderRecorder(std::int64_t n, DType dtype, Result& result)
      : n_(static_cast<double>(n)), history_(Array::zeros({kChunk, 2}, dtype)), result_(result) {}

  // The order sums (1, 2) of the state at `step`, copied into the history on the device.
  void record(const Array& order_sums, std::int64_t step) {
    history_.slice(0, count_, count_ + 1).assign(order_sums);
    steps_.push_back(step);
    ++count_;
  }
  bool full() const { return count_ == kChunk; }

  // Reads the chunk back; returns the first non-finite record's step, if any.
  std::optional<std::int64_t> flush() {
    if (count_ == 0) return std::nullopt;
    const auto sums = history_.slice(0, 0, count_).to_vector<double>();
    for (std::int64_t i = 0; i < count_; ++i) {
      const double s = sums[2 * i], c = sums[2 * i + 1];
      if (!finite_sums(s, c)) return steps_[i];
      result_.order.push_back(std::hypot(s, c) / n_);
      result_.order_steps.push_back(steps_[i]);
    }
    count_ = 0;
    steps_.clear();
    return std::nullopt;
  }

 private:
  double n_;
  Array history_;
  Result& result_;
  std::int64_t count_ = 0;
  std::vector<std::int64_t> steps_;
};

}  // namespace

Result simulate(const Network& network, const Array& theta0, const Options& options) {
  if (options.steps < 0)
    throw ValueError("simulate: steps must be >= 0, given " + std::to_string(options.steps));
  if (options.record_every <= 0)
    throw ValueError("simulate: record_every must be positive, given " +
                     std::to_string(options.record_every));
  const Stepper stepper(network, options.method, options.coupling, options.dt);
  Array state = stepper.state_of(theta0);

  Result result;
  OrderRecorder recorder(stepper.size(), network.coupling.dtype(), result);
  // The last state known to be finite, where a failed chunk is replayed from.
  Array verified = state;
  std::int64_t verified_step = 0;
  const auto check = [&](std::optional<std::int64_t> bad_step) {
    if (bad_step)
      throw_nan(first_non_finite_step(stepper, verified, verified_step, *bad_step), options.dt);
  };

  for (std::int64_t step = 0; step < options.steps; ++step) {
    std::vector<Array> out = stepper(std::span<const Array>(&state, 1));
    if (step % options.record_every == 0) {
      recorder.record(out[1], step);
      if (recorder.full()) {
        check(recorder.flush());
        verified = state;
        verified_step = step;
      }
    }
    state = std::move(out[0]);
  }
  // The final state: recorded when it falls on the grid, checked either way.
  const Array final_sums = Stepper::order_sums_of(state);
  if (options.steps % options.record_every == 0) {
    recorder.record(final_sums, options.steps);
    check(recorder.flush());
  } else {
    check(recorder.flush());
    const auto last = final_sums.to_vector<double>();
    if (!finite_sums(last[0], last[1])) check(options.steps);
  }

  result.phases = Stepper::phases_of(state);
  return result;
}

}  // namespace switchyard::apps::oscillators
