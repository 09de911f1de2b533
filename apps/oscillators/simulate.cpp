// The integration loop: steps run in chunks of kStepsPerReplay, each chunk captured once and
// replayed (switchyard::capture), so a step costs its launches and no graph building, fusion or
// scheduling. The state stays on its device; a chunk also returns the order sums of each of its
// steps, and those are read back every kReadBack steps, one transfer each, so a GPU run is not a
// sync per step. A non-finite record makes the loop replay from the last verified state, checking
// every step, to name the step where the NaN first appeared.
#include <cmath>
#include <optional>
#include <string>

#include "switchyard/apps/oscillators.hpp"

namespace switchyard::apps::oscillators {
namespace {

// Steps per captured call: enough to spread a replay's fixed cost (its outputs, one metrics
// record) thin, few enough that the recording run, which is eager, stays short.
constexpr std::int64_t kStepsPerReplay = 32;
// Steps per read-back: a GPU round trip (~10 µs+) every 256 steps is noise next to the steps.
constexpr std::int64_t kReadBack = 256;
static_assert(kReadBack % kStepsPerReplay == 0);

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

// `steps` steps from {state}: {state after them, the order sums (steps, 2) of each step's input}.
std::vector<Array> run_steps(const Stepper& stepper, Array state, std::int64_t steps) {
  std::vector<Array> sums;
  for (std::int64_t i = 0; i < steps; ++i) {
    std::vector<Array> out = stepper(std::span<const Array>(&state, 1));
    sums.push_back(std::move(out[1]));
    state = std::move(out[0]);
  }
  return {state, concatenate(sums, 0)};
}

// The order sums of consecutive steps, kept on the device until read back together.
class OrderRecorder {
 public:
  OrderRecorder(std::int64_t n, std::int64_t record_every, Result& result)
      : n_(static_cast<double>(n)), record_every_(record_every), result_(result) {}

  // `sums` (k, 2): the order sums of steps first, first + 1, ..., first + k - 1.
  void add(Array sums, std::int64_t first) {
    if (pending_.empty()) first_ = first;
    pending_.push_back(std::move(sums));
  }
  std::int64_t pending_steps() const {
    std::int64_t n = 0;
    for (const Array& a : pending_) n += a.shape()[0];
    return n;
  }

  // Reads the pending sums back and keeps every record_every-th step's r; returns the first
  // non-finite step, if any.
  std::optional<std::int64_t> flush() {
    if (pending_.empty()) return std::nullopt;
    const auto sums = concatenate(pending_, 0).to_vector<double>();
    pending_.clear();
    for (std::size_t i = 0; 2 * i < sums.size(); ++i) {
      const double s = sums[2 * i], c = sums[2 * i + 1];
      const std::int64_t step = first_ + static_cast<std::int64_t>(i);
      if (!finite_sums(s, c)) return step;
      if (step % record_every_ != 0) continue;
      result_.order.push_back(std::hypot(s, c) / n_);
      result_.order_steps.push_back(step);
    }
    return std::nullopt;
  }

 private:
  double n_;
  std::int64_t record_every_;
  Result& result_;
  std::vector<Array> pending_;
  std::int64_t first_ = 0;
};

}  // namespace

Result simulate(const Network& network, const Array& theta0, const Options& options) {
  if (options.steps < 0)
    throw ValueError("simulate: steps must be >= 0, given " + std::to_string(options.steps));
  if (options.record_every <= 0)
    throw ValueError("simulate: record_every must be positive, given " +
                     std::to_string(options.record_every));
  if (options.first_step < 0 || options.first_step > options.steps)
    throw ValueError(
        "simulate: first_step must be in [0, steps = " + std::to_string(options.steps) +
        "], given " + std::to_string(options.first_step));
  const Stepper stepper(network, options.method, options.coupling, options.dt);
  const Captured chunk = capture(
      [&stepper](std::span<const Array> in) { return run_steps(stepper, in[0], kStepsPerReplay); });
  Array state = stepper.state_of(theta0);

  Result result;
  OrderRecorder recorder(stepper.size(), options.record_every, result);
  // The last state known to be finite, where a failed read-back is replayed from.
  Array verified = state;
  std::int64_t verified_step = options.first_step;
  const auto check = [&](std::optional<std::int64_t> bad_step) {
    if (bad_step)
      throw_nan(first_non_finite_step(stepper, verified, verified_step, *bad_step), options.dt);
  };

  std::int64_t step = options.first_step;
  while (step < options.steps) {
    const std::int64_t k = std::min(kStepsPerReplay, options.steps - step);
    std::vector<Array> out = k == kStepsPerReplay ? chunk({state}) : run_steps(stepper, state, k);
    recorder.add(std::move(out[1]), step);
    state = std::move(out[0]);
    step += k;
    if (recorder.pending_steps() >= kReadBack) {
      check(recorder.flush());
      verified = state;
      verified_step = step;
    }
  }
  // The final state's sums: r after the last step when it falls on the grid, checked either way.
  recorder.add(Stepper::order_sums_of(state), options.steps);
  check(recorder.flush());

  result.phases = Stepper::phases_of(state);
  return result;
}

}  // namespace switchyard::apps::oscillators
