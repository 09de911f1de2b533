// The decomposed step: rates for this rank's rows from all N phases, gathered before each stage.
// Kernels per rate with MatVec: one matmul of the local rows of K with [sin θ, cos θ] (N, 2),
// and one elementwise kernel; the gather of N phases, one allgather, precedes it.
#include <cmath>
#include <string>

#include "checks.hpp"
#include "switchyard/apps/oscillators_dist.hpp"

namespace switchyard::apps::oscillators {
namespace {

class DistStepper {
 public:
  DistStepper(const DistNetwork& network, const Options& options)
      : net_(network),
        options_(options),
        inv_n_(1.0 / static_cast<double>(network.coupling.shape()[0])) {}

  // θ of every rank, (N, 1), from this rank's (rows, 1).
  Array all_phases(const Array& mine) const {
    return dist::gather(net_.frequencies.with_local(mine));
  }

  // This rank's next phases, (rows, 1), evaluated, from its own and all N phases now.
  Array step(const Array& mine, const Array& all) const {
    const double dt = options_.dt;
    const Array k1 = rate(mine, all);
    if (options_.method == Method::Euler) return evaluated(mine + dt * k1);
    const Array k2 = stage(mine, k1, dt / 2);
    const Array k3 = stage(mine, k2, dt / 2);
    const Array k4 = stage(mine, k3, dt);
    return evaluated(mine + (dt / 6) * (k1 + 2 * k2 + 2 * k3 + k4));
  }

 private:
  static Array evaluated(Array a) {
    eval(a);
    return a;
  }

  // The rate at mine + h·k, after gathering those phases from every rank.
  Array stage(const Array& mine, const Array& k, double h) const {
    const Array moved = evaluated(mine + h * k);
    return evaluated(rate(moved, all_phases(moved)));
  }

  // dθ/dt for this rank's rows, (rows, 1), lazy.
  Array rate(const Array& mine, const Array& all) const {
    const Array& k = net_.coupling.local();
    Array pull;
    if (options_.coupling == Coupling::Direct) {
      pull = sum(k * sin(all.transpose() - mine), 1, /*keepdims=*/true);
    } else {
      const Array m = matmul(k, concatenate({sin(all), cos(all)}, 1));  // (rows, 2)
      pull = cos(mine) * m.slice(1, 0, 1) - sin(mine) * m.slice(1, 1, 2);
    }
    return net_.frequencies.local() + pull * inv_n_;
  }

  const DistNetwork& net_;
  const Options& options_;
  double inv_n_;
};

void check_options(const Options& options) {
  if (!(options.dt > 0) || !std::isfinite(options.dt))
    throw ValueError("simulate: dt must be positive and finite, given " +
                     std::to_string(options.dt));
  if (options.steps < 0)
    throw ValueError("simulate: steps must be >= 0, given " + std::to_string(options.steps));
  if (options.record_every <= 0)
    throw ValueError("simulate: record_every must be positive, given " +
                     std::to_string(options.record_every));
  if (options.first_step < 0 || options.first_step > options.steps)
    throw ValueError(
        "simulate: first_step must be in [0, steps = " + std::to_string(options.steps) +
        "], given " + std::to_string(options.first_step));
}

// Every rank holds all N phases, so each finds the same r, and a NaN, at the same step.
void record(Result& result, const Array& all, std::int64_t step, double dt) {
  const double r = order_parameter(all.reshape({all.shape()[0]}));
  if (!std::isfinite(r))
    throw ValueError(
        "simulate: the phases became NaN by step " + std::to_string(step) +
        " (t = " + std::to_string(static_cast<double>(step) * dt) +
        "): the step or the coupling overflowed; use a smaller dt, or smaller K and ω");
  result.order.push_back(r);
  result.order_steps.push_back(step);
}

}  // namespace

DistNetwork distribute(const Network& network, const dist::Communicator& comm,
                       std::int64_t block_rows) {
  const std::int64_t n = checked_size("distribute", network.coupling, network.frequencies);
  const dist::Layout rows = dist::Layout::row_blocks(n, comm.size(), block_rows);
  const Array omega = network.frequencies.astype(network.coupling.dtype()).reshape({n, 1});
  return {dist::DistArray::distribute(network.coupling, rows, comm),
          dist::DistArray::distribute(omega, rows, comm)};
}

Result simulate(const DistNetwork& network, const Array& theta0, const Options& options) {
  check_options(options);
  const std::int64_t n = network.coupling.shape()[0];
  require_phases("simulate", theta0, n);
  const DistStepper stepper(network, options);
  const dist::DistArray start =
      dist::DistArray::distribute(theta0.astype(network.coupling.dtype()).reshape({n, 1}),
                                  network.frequencies.layout(), network.frequencies.communicator());
  Array mine = start.local();
  Array all = stepper.all_phases(mine);
  Result result;
  for (std::int64_t step = options.first_step; step < options.steps; ++step) {
    if (step % options.record_every == 0) record(result, all, step, options.dt);
    mine = stepper.step(mine, all);
    all = stepper.all_phases(mine);
  }
  if (options.steps % options.record_every == 0) record(result, all, options.steps, options.dt);
  result.phases = all.reshape({n});
  return result;
}

void save_checkpoint(const std::filesystem::path& path, const DistNetwork& network,
                     const Result& result, std::int64_t step) {
  const dist::DistArray& omega = network.frequencies;
  const Array theta = result.phases.astype(omega.dtype());
  dist::save(dist::DistArray::distribute(theta, omega.layout(), omega.communicator()), path, step);
}

Resume load_checkpoint(const std::filesystem::path& path, const DistNetwork& network) {
  const dist::DistArray& omega = network.frequencies;
  const dist::Checkpoint saved = dist::load(path, omega.communicator(),
                                            {.block_rows = omega.layout().block_rows(),
                                             .dtype = omega.dtype(),
                                             .shape = Shape{omega.shape()[0]}});
  return {dist::gather(saved.array), saved.step};
}

}  // namespace switchyard::apps::oscillators
