// Kuramoto oscillator networks: N phases θ_i coupled through a matrix K,
//
//   dθ_i/dt = ω_i + (1/N) Σ_j K_ij sin(θ_j − θ_i),
//
// integrated on whatever device the runtime picks, with the phases resident there for the
// whole run: only the order parameter r(t) = |mean_j exp(iθ_j)| comes back, in chunks.
//
//   namespace osc = switchyard::apps::oscillators;
//   const osc::Network net = osc::random_network(64, /*seed=*/1, /*coupling_strength=*/2);
//   const osc::Result run = osc::simulate(net, osc::random_phases(64, 2), {.dt = 0.01});
//   run.order.back();  // r at the last step
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "switchyard/switchyard.hpp"

namespace switchyard::apps::oscillators {

struct Network {
  Array coupling;     // K, (N, N), float32 or float64
  Array frequencies;  // ω, (N), converted to K's dtype
};

// K_ij uniform in [0, 2·coupling_strength) (mean coupling_strength), ω_i standard normal; seeded.
Network random_network(std::int64_t n, std::uint64_t seed, double coupling_strength = 1,
                       DType dtype = DType::Float64);
// θ_i uniform in [0, 2π); seeded.
Array random_phases(std::int64_t n, std::uint64_t seed, DType dtype = DType::Float64);

// How Σ_j K_ij sin(θ_j − θ_i) is computed.
enum class Coupling : std::uint8_t {
  // cos θ_i (K sin θ)_i − sin θ_i (K cos θ)_i: one matmul of K with the (N, 2) columns
  // [sin θ, cos θ], so K is read once per evaluation and only 2N sines are taken.
  MatVec,
  // The N² sines as one fused multiply-and-sum over K: for checking MatVec.
  Direct,
};
enum class Method : std::uint8_t { Euler, RK4 };

// dθ/dt at θ (N), lazy, in the network's dtype.
Array derivative(const Network& network, const Array& theta, Coupling coupling = Coupling::MatVec);

// r = |mean_j exp(iθ_j)|: 1 when every phase agrees, about 1/sqrt(N) for random phases.
double order_parameter(const Array& theta);

struct Options {
  double dt = 0.01;
  std::int64_t steps = 1000;
  Method method = Method::Euler;
  Coupling coupling = Coupling::MatVec;
  std::int64_t record_every = 1;  // r is recorded at steps 0, record_every, 2·record_every, ...
  // The step θ0 is at: a run resumed from a checkpoint taken at step k sets first_step = k and
  // runs on to `steps`, recording r on the same schedule as a run from step 0 would.
  std::int64_t first_step = 0;
};

struct Result {
  Array phases;                           // θ after the last step (N), left where it was computed
  std::vector<double> order;              // r at each recorded step, step 0 (θ0) first
  std::vector<std::int64_t> order_steps;  // the step of each r
};

// Integrates from θ0. Throws ValueError naming the step where the phases first became NaN or
// infinite (dt too large, K or ω overflowing) instead of carrying NaNs to the end.
Result simulate(const Network& network, const Array& theta0, const Options& options = {});

// One time step, in the shape capture() takes: {state} → {next state, order sums of the input
// state}. The state is (N, 3): columns θ, sin θ, cos θ, so the next step's matmul reads the
// sines it needs without recomputing them; the order sums are (1, 2): [Σ sin θ, Σ cos θ], which
// MatVec gets for free from a row of ones appended to K. simulate() is a loop over this.
class Stepper {
 public:
  Stepper(const Network& network, Method method, Coupling coupling, double dt);

  std::vector<Array> operator()(std::span<const Array> inputs) const;

  Array state_of(const Array& theta) const;        // θ (N) → state (N, 3), evaluated
  static Array phases_of(const Array& state);      // state → θ (N), a view
  static Array order_sums_of(const Array& state);  // state → (1, 2), lazy
  Array rate(const Array& state) const;            // dθ/dt (N, 1), lazy
  std::int64_t size() const { return n_; }

 private:
  struct Rate {
    Array dtheta;      // (N, 1), lazy
    Array order_sums;  // (1, 2) of the state the rate was taken at
  };
  Rate rate_and_order(const Array& state) const;
  Array expand(const Array& theta) const;  // θ (N, 1) → state (N, 3), lazy

  std::int64_t n_;
  Method method_;
  Coupling coupling_mode_;
  double dt_;
  Array coupling_;         // K, or for MatVec K with a row of ones below it: (N + 1, N)
  Array frequencies_;      // ω as (N, 1)
  Array column_phase_;     // (1, 3): [0, 0, π/2], so sin(θ + phase) gives [·, sin θ, cos θ]
  Array is_theta_column_;  // (1, 3) bool: [true, false, false]
};

}  // namespace switchyard::apps::oscillators
