// The time step: dθ/dt from the (N, 3) state [θ, sin θ, cos θ], and Euler / RK4 updates that
// produce the next state in one fused kernel each.
//
// Kernels per Euler step with MatVec: one matmul of [K; 1] with the state's sine and cosine
// columns (its last row is [Σ sin θ, Σ cos θ], the order parameter's sums, at no extra pass),
// and one elementwise kernel computing θ' and its sine and cosine. RK4: four of each.
#include <cmath>
#include <numbers>
#include <string>

#include "checks.hpp"
#include "switchyard/apps/oscillators.hpp"

namespace switchyard::apps::oscillators {
namespace {

Array row(std::vector<double> values, DType dtype) {
  const auto k = static_cast<std::int64_t>(values.size());
  return Array::from_vector(values, Shape{1, k}).astype(dtype);
}

// K with a row of ones appended, so K' [sin θ, cos θ] also yields the column sums.
Array with_ones_row(const Array& k) {
  const Array ones = Array::ones({1, k.shape()[1]}, k.dtype());
  Array stacked = concatenate({k, ones}, 0);
  eval(stacked);
  return stacked;
}

}  // namespace

Stepper::Stepper(const Network& network, Method method, Coupling coupling, double dt)
    : n_(checked_size("oscillators", network.coupling, network.frequencies)),
      method_(method),
      coupling_mode_(coupling),
      dt_(dt) {
  if (!(dt > 0) || !std::isfinite(dt))
    throw ValueError("oscillators: dt must be positive and finite, given " + std::to_string(dt));
  const DType t = network.coupling.dtype();
  coupling_ = coupling == Coupling::MatVec ? with_ones_row(network.coupling) : network.coupling;
  frequencies_ = network.frequencies.astype(t).reshape({n_, 1});
  column_phase_ = row({0, 0, std::numbers::pi / 2}, t);
  is_theta_column_ = row({1, 0, 0}, t) > 0.5;
  eval(frequencies_, column_phase_, is_theta_column_);
}

Array Stepper::expand(const Array& theta) const {
  return where(is_theta_column_, theta, sin(theta + column_phase_));
}

Array Stepper::state_of(const Array& theta) const {
  require_phases("oscillators", theta, n_);
  Array state = expand(theta.astype(coupling_.dtype()).reshape({n_, 1}));
  eval(state);
  return state;
}

Array Stepper::phases_of(const Array& state) {
  return state.slice(1, 0, 1).reshape({state.shape()[0]});
}

Array Stepper::order_sums_of(const Array& state) {
  return sum(state.slice(1, 1, 3), 0, /*keepdims=*/true);
}

Stepper::Rate Stepper::rate_and_order(const Array& state) const {
  const double inv_n = 1.0 / static_cast<double>(n_);
  if (coupling_mode_ == Coupling::Direct) {
    const Array theta = state.slice(1, 0, 1);
    const Array pull = sum(coupling_ * sin(theta.transpose() - theta), 1, /*keepdims=*/true);
    return {frequencies_ + pull * inv_n, order_sums_of(state)};
  }
  const Array m = matmul(coupling_, state.slice(1, 1, 3));  // (N + 1, 2)
  const Array k_sin = m.slice(0, 0, n_).slice(1, 0, 1), k_cos = m.slice(0, 0, n_).slice(1, 1, 2);
  const Array s = state.slice(1, 1, 2), c = state.slice(1, 2, 3);
  return {frequencies_ + (c * k_sin - s * k_cos) * inv_n, m.slice(0, n_, n_ + 1)};
}

Array Stepper::rate(const Array& state) const {
  return rate_and_order(state).dtheta;
}

Array derivative(const Network& network, const Array& theta, Coupling coupling) {
  const Stepper stepper(network, Method::Euler, coupling, /*dt=*/1);
  return stepper.rate(stepper.state_of(theta)).reshape({stepper.size()});
}

std::vector<Array> Stepper::operator()(std::span<const Array> inputs) const {
  if (inputs.size() != 1)
    throw ValueError("oscillators step: expected 1 input (the state), given " +
                     std::to_string(inputs.size()));
  const Array& state = inputs[0];
  const Array theta = state.slice(1, 0, 1);
  const Rate k1 = rate_and_order(state);
  Array next;
  if (method_ == Method::Euler) {
    next = expand(theta + dt_ * k1.dtheta);
  } else {
    // Each stage's state is realised (its matmul reads it); the k's stay lazy and are
    // recomputed inside the final update from the realised matmul results.
    const auto stage = [&](const Array& k, double h) {
      Array s = expand(theta + h * k);
      eval(s);
      return rate(s);
    };
    const Array k2 = stage(k1.dtheta, dt_ / 2);
    const Array k3 = stage(k2, dt_ / 2);
    const Array k4 = stage(k3, dt_);
    next = expand(theta + (dt_ / 6) * (k1.dtheta + 2 * k2 + 2 * k3 + k4));
  }
  eval(next);
  return {next, k1.order_sums};
}

}  // namespace switchyard::apps::oscillators
