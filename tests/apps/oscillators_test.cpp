// The Kuramoto app on every device (and on "auto"): Euler and RK4 against float64 host loops of
// the direct N² sum, MatVec against Direct, the order parameter against its formula, the
// physics (synchrony under strong coupling, incoherence without), kernel counts per step, NaN
// reporting and bad input.
#include <cmath>
#include <numbers>
#include <vector>

#include "conformance/conformance.hpp"
#include "switchyard/apps/oscillators.hpp"

namespace switchyard::apps::oscillators {
namespace {

using conformance::host_array;
using conformance::random_values;
using Vec = std::vector<double>;

// ---- float64 host reference: plain loops over the direct sum
struct HostNetwork {
  std::int64_t n;
  Vec k, omega;  // k row-major (n, n)
};

Vec host_rate(const HostNetwork& net, const Vec& theta) {
  Vec out(net.n);
  for (std::int64_t i = 0; i < net.n; ++i) {
    double pull = 0;
    for (std::int64_t j = 0; j < net.n; ++j)
      pull += net.k[i * net.n + j] * std::sin(theta[j] - theta[i]);
    out[i] = net.omega[i] + pull / static_cast<double>(net.n);
  }
  return out;
}

Vec axpy(const Vec& x, double a, const Vec& y) {
  Vec out(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) out[i] = x[i] + a * y[i];
  return out;
}

Vec host_simulate(const HostNetwork& net, Vec theta, double dt, std::int64_t steps, Method m) {
  for (std::int64_t s = 0; s < steps; ++s) {
    const Vec k1 = host_rate(net, theta);
    if (m == Method::Euler) {
      theta = axpy(theta, dt, k1);
      continue;
    }
    const Vec k2 = host_rate(net, axpy(theta, dt / 2, k1));
    const Vec k3 = host_rate(net, axpy(theta, dt / 2, k2));
    const Vec k4 = host_rate(net, axpy(theta, dt, k3));
    for (std::size_t i = 0; i < theta.size(); ++i)
      theta[i] += dt / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
  }
  return theta;
}

double host_order(const Vec& theta) {
  double c = 0, s = 0;
  for (const double t : theta) c += std::cos(t), s += std::sin(t);
  return std::hypot(c, s) / static_cast<double>(theta.size());
}

struct Case {
  HostNetwork host;
  Vec theta0;
  Network net;
  Array theta;
};

Case make_case(std::int64_t n, DType t, std::uint64_t seed) {
  Case c{{n, random_values(n * n, DType::Float64, seed, 0, 2),
          random_values(n, DType::Float64, seed + 1, -1, 1)},
         random_values(n, DType::Float64, seed + 2, 0, 2 * std::numbers::pi),
         {},
         {}};
  // The host works on the values the device sees (rounded to t).
  for (Vec* v : {&c.host.k, &c.host.omega, &c.theta0})
    for (double& x : *v) x = t == DType::Float32 ? static_cast<float>(x) : x;
  c.net = {host_array(c.host.k, {n, n}, t), host_array(c.host.omega, {n}, t)};
  c.theta = host_array(c.theta0, {n}, t);
  return c;
}

// Phases after 50 steps of dt 0.01: float32 rounding grows by ~1e-6 per step.
double phase_tolerance(DType t) {
  return t == DType::Float32 ? 2e-4 : 1e-10;
}

void expect_phases(const Array& got, const Vec& want, DType t, const std::string& what) {
  const auto g = got.to_vector<double>();
  ASSERT_EQ(g.size(), want.size()) << what;
  for (std::size_t i = 0; i < g.size(); ++i)
    ASSERT_NEAR(g[i], want[i], phase_tolerance(t)) << what << " at " << i;
}

class Oscillators : public conformance::OnEveryDevice {
 protected:
  std::vector<DType> dtypes() const {
    if (device_has_fp64()) return {DType::Float32, DType::Float64};
    return {DType::Float32};
  }
};

void check_against_host(Method method, Coupling coupling, DType t) {
  const Case c = make_case(40, t, 11);
  const Options options{.dt = 0.01, .steps = 50, .method = method, .coupling = coupling};
  const Result r = simulate(c.net, c.theta, options);
  const Vec want = host_simulate(c.host, c.theta0, options.dt, options.steps, method);
  const std::string what = std::string(method == Method::Euler ? "Euler" : "RK4") +
                           (coupling == Coupling::MatVec ? " MatVec " : " Direct ") +
                           std::string(name(t));
  expect_phases(r.phases, want, t, what);
  ASSERT_EQ(r.order.size(), 51u) << what;
  EXPECT_NEAR(r.order.front(), host_order(c.theta0), 1e-5) << what;
  EXPECT_NEAR(r.order.back(), host_order(want), 1e-4) << what;
}

TEST_P(Oscillators, EulerAndRK4MatchTheHostDirectSum) {
  // Every method and coupling in float64 (tight); float32, which only adds rounding, for the
  // default coupling: each variant is new kernels to compile on OpenCL devices.
  const DType wide = device_has_fp64() ? DType::Float64 : DType::Float32;
  for (const Method m : {Method::Euler, Method::RK4})
    for (const Coupling k : {Coupling::MatVec, Coupling::Direct}) check_against_host(m, k, wide);
  if (wide != DType::Float32)
    for (const Method m : {Method::Euler, Method::RK4})
      check_against_host(m, Coupling::MatVec, DType::Float32);
}

TEST(OscillatorsAuto, EulerAndRK4MatchTheHostDirectSum) {
  check_against_host(Method::Euler, Coupling::MatVec, DType::Float64);
  check_against_host(Method::RK4, Coupling::MatVec, DType::Float32);
}

TEST_P(Oscillators, MatVecDerivativeAgreesWithDirect) {
  for (const DType t : dtypes()) {
    const Case c = make_case(77, t, 21);
    const Vec want = host_rate(c.host, c.theta0);
    const Vec matvec = derivative(c.net, c.theta, Coupling::MatVec).to_vector<double>();
    const Vec direct = derivative(c.net, c.theta, Coupling::Direct).to_vector<double>();
    const double tol = t == DType::Float32 ? 1e-5 : 1e-12;
    for (std::size_t i = 0; i < want.size(); ++i) {
      EXPECT_NEAR(matvec[i], want[i], tol) << name(t) << " at " << i;
      EXPECT_NEAR(direct[i], want[i], tol) << name(t) << " at " << i;
    }
  }
}

TEST_P(Oscillators, OrderParameterMatchesTheHostFormula) {
  for (const DType t : dtypes())
    for (const std::int64_t n : {1, 7, 1000}) {
      const Vec theta = random_values(n, t, 31, -10, 10);
      EXPECT_NEAR(order_parameter(host_array(theta, {n}, t)), host_order(theta), 1e-5)
          << name(t) << " n = " << n;
    }
  EXPECT_NEAR(order_parameter(Array::full({64}, 1.25, DType::Float32)), 1.0, 1e-6);
}

TEST_P(Oscillators, StrongCouplingWithIdenticalFrequenciesSynchronises) {
  const std::int64_t n = 64;
  const Network net{Array::full({n, n}, 4.0, DType::Float32),
                    Array::full({n}, 0.5, DType::Float32)};
  // Phases spread over half the circle: one basin, the synchronised state.
  const Array theta0 = random_phases(n, 5, DType::Float32) * 0.5;
  const Result r = simulate(net, theta0, {.dt = 0.02, .steps = 500, .record_every = 50});
  EXPECT_LT(r.order.front(), 0.9);
  EXPECT_GT(r.order.back(), 0.999);
  EXPECT_NEAR(order_parameter(r.phases), r.order.back(), 1e-5);
}

TEST_P(Oscillators, DecoupledNetworkStaysIncoherent) {
  const std::int64_t n = 400;
  Network net = random_network(n, 8, 1.0, DType::Float32);
  net.coupling = Array::zeros({n, n}, DType::Float32);
  const Result r = simulate(net, random_phases(n, 9, DType::Float32),
                            {.dt = 0.05, .steps = 300, .method = Method::RK4, .record_every = 10});
  ASSERT_EQ(r.order.size(), 31u);
  // Independent uniform phases: P(r > 0.2) = exp(-N r²) ≈ 1e-7 per record.
  for (const double v : r.order) EXPECT_LT(v, 0.2);
}

TEST_P(Oscillators, RecordsEveryKthStepAcrossReadBackChunks) {
  const Case c = make_case(16, DType::Float32, 41);
  const Result r = simulate(c.net, c.theta, {.dt = 0.01, .steps = 600});
  ASSERT_EQ(r.order.size(), 601u);  // more than one 256-record chunk
  for (std::size_t i = 0; i < r.order_steps.size(); ++i)
    ASSERT_EQ(r.order_steps[i], static_cast<std::int64_t>(i));
  EXPECT_NEAR(r.order.back(), order_parameter(r.phases), 1e-5);
  const Vec half = host_simulate(c.host, c.theta0, 0.01, 300, Method::Euler);
  EXPECT_NEAR(r.order[300], host_order(half), 1e-4);

  const Result sparse = simulate(c.net, c.theta, {.dt = 0.01, .steps = 50, .record_every = 7});
  EXPECT_EQ(sparse.order_steps, (std::vector<std::int64_t>{0, 7, 14, 21, 28, 35, 42, 49}));
  const Result none = simulate(c.net, c.theta, {.dt = 0.01, .steps = 0});
  EXPECT_EQ(none.order_steps, (std::vector<std::int64_t>{0}));
  expect_phases(none.phases, c.theta0, DType::Float32, "0 steps");
}

// A run resumed at step 20 from the phases a run of 20 steps ended with: the recorded steps and
// the end of a run of 50 from step 0 (the chunks of captured steps fall elsewhere, so within the
// phase tolerance rather than bit for bit).
TEST_P(Oscillators, ResumingAtAStepKeepsTheScheduleAndTheEnd) {
  const Case c = make_case(16, DType::Float32, 41);
  const Options whole{.dt = 0.01, .steps = 50, .record_every = 7};
  Options first = whole, rest = whole;
  first.steps = 20;
  rest.first_step = 20;
  const Result resumed = simulate(c.net, simulate(c.net, c.theta, first).phases, rest);
  EXPECT_EQ(resumed.order_steps, (std::vector<std::int64_t>{21, 28, 35, 42, 49}));
  expect_phases(resumed.phases, host_simulate(c.host, c.theta0, 0.01, 50, Method::Euler),
                DType::Float32, "resumed at step 20");
  const Result uninterrupted = simulate(c.net, c.theta, whole);
  EXPECT_NEAR(resumed.order.back(), uninterrupted.order.back(), 1e-5);
}

// ω near the largest finite value: θ overflows to inf after 11 steps of dt 1 (10 · max / 10.5
// is finite, 11 · max / 10.5 is not), and sin(inf) is NaN.
void expect_nan_at_step_11(DType t, Method m, std::int64_t record_every) {
  const std::int64_t n = 8;
  const double big = (t == DType::Float32 ? 3.4028234663852886e38 : 1.7976931348623157e308) / 10.5;
  Vec omega(n, 1.0);
  omega[3] = big;
  const Network net{Array::zeros({n, n}, t), host_array(omega, {n}, t)};
  try {
    simulate(net, Array::zeros({n}, t),
             {.dt = 1, .steps = 40, .method = m, .record_every = record_every});
    FAIL() << "no error for a run that overflows";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("NaN at step 11 "), std::string::npos) << e.what();
  }
}

TEST_P(Oscillators, NaNMidRunIsReportedWithItsStep) {
  for (const DType t : dtypes())
    for (const Method m : {Method::Euler, Method::RK4})
      for (const std::int64_t every : {1, 4, 100}) expect_nan_at_step_11(t, m, every);
}

TEST_P(Oscillators, KernelsPerEulerStep) {
  const Case c = make_case(64, DType::Float32, 51);
  const Stepper step(c.net, Method::Euler, Coupling::MatVec, 0.01);
  Array state = step.state_of(c.theta);
  step(std::span<const Array>(&state, 1));  // warm: compiled
  const Explanation e = explain([&] { state = step(std::span<const Array>(&state, 1))[0]; });
  // One matmul ([K; 1] times [sin θ, cos θ]) and one update kernel producing θ', sin θ', cos θ'.
  EXPECT_EQ(e.kernels.size(), 2u) << e.to_string();
}

TEST(OscillatorsErrors, BadInputIsATypedErrorNamingTheParameter) {
  const auto expect_error = [](const auto& f, const std::string& word) {
    try {
      f();
      ADD_FAILURE() << "no error; expected one naming " << word;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(word), std::string::npos) << e.what();
    }
  };
  const Network net = random_network(8, 1);
  const Array theta = random_phases(8, 2);
  EXPECT_THROW(random_network(0, 1), ValueError);
  EXPECT_THROW(random_network(4, 1, 1.0, DType::Int32), DTypeError);
  EXPECT_THROW(simulate({Array::zeros({8, 7}, DType::Float64), net.frequencies}, theta),
               ShapeError);
  EXPECT_THROW(simulate({Array::zeros({0, 0}, DType::Float64), Array::zeros({0}, DType::Float64)},
                        Array::zeros({0}, DType::Float64)),
               ShapeError);
  EXPECT_THROW(simulate({net.coupling, Array::zeros({7}, DType::Float64)}, theta), ShapeError);
  EXPECT_THROW(simulate(net, random_phases(9, 2)), ShapeError);
  EXPECT_THROW(simulate({net.coupling.astype(DType::Int64), net.frequencies}, theta), DTypeError);
  expect_error([&] { simulate(net, theta, {.dt = 0}); }, "dt");
  expect_error([&] { simulate(net, theta, {.dt = -1}); }, "dt");
  expect_error([&] { simulate(net, theta, {.dt = NAN}); }, "dt");
  expect_error([&] { simulate(net, theta, {.steps = -1}); }, "steps");
  expect_error([&] { simulate(net, theta, {.record_every = 0}); }, "record_every");
  expect_error([&] { simulate(net, theta, {.steps = 5, .first_step = 6}); }, "first_step");
  expect_error([&] { simulate({net.coupling * INFINITY, net.frequencies}, theta); }, "coupling");
  expect_error([&] { simulate({net.coupling, net.frequencies * NAN}, theta); }, "frequencies");
  expect_error([&] { simulate(net, theta * NAN); }, "theta");
  EXPECT_THROW(simulate(net, theta, {.dt = 0}), ValueError);
  EXPECT_THROW(order_parameter(Array::zeros({0}, DType::Float64)), ShapeError);
}

SWITCHYARD_ON_EVERY_DEVICE(Oscillators);

}  // namespace
}  // namespace switchyard::apps::oscillators
