// The apps' workloads (apps/) at a small and a large size, each beside a hand-written floor:
//   oscillators  µs per time step of simulate() (Euler and RK4, MatVec), against the same
//                Euler step as a plain host loop (two mat-vecs and the update, one thread);
//   field        statistics() per frame and animate() per frame, in pixels per second;
//   query        run() end to end and its stages, in events per second.
// Method: one untimed run (compiles and first touches), then the median of ROUNDS runs.
//
// Usage: apps_bench [ROUNDS]        (default 7)
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

#include "median_time.hpp"
#include "switchyard/apps/field.hpp"
#include "switchyard/apps/oscillators.hpp"
#include "switchyard/apps/query.hpp"

namespace sy = switchyard;
namespace osc = switchyard::apps::oscillators;
namespace field = switchyard::apps::field;
namespace query = switchyard::apps::query;

namespace {

using sy::bench::median_s;

// One Euler step of the MatVec form on the host, in double: the floor a step can reach on one
// core without any runtime in the way.
void host_euler_step(const std::vector<double>& k, const std::vector<double>& omega,
                     std::vector<double>& theta, double dt) {
  const std::size_t n = theta.size();
  std::vector<double> s(n), c(n);
  for (std::size_t i = 0; i < n; ++i) s[i] = std::sin(theta[i]), c[i] = std::cos(theta[i]);
  for (std::size_t i = 0; i < n; ++i) {
    double ks = 0, kc = 0;
    for (std::size_t j = 0; j < n; ++j) ks += k[i * n + j] * s[j], kc += k[i * n + j] * c[j];
    theta[i] += dt * (omega[i] + (c[i] * ks - s[i] * kc) / static_cast<double>(n));
  }
}

void oscillators(int rounds) {
  for (const std::int64_t n : {64, 1024}) {
    const osc::Network net = osc::random_network(n, 1, 2.0);
    const sy::Array theta0 = osc::random_phases(n, 2);
    const std::int64_t steps = n <= 64 ? 2000 : 200;
    for (const osc::Method m : {osc::Method::Euler, osc::Method::RK4}) {
      const double s = median_s(
          rounds, [&] { osc::simulate(net, theta0, {.dt = 0.01, .steps = steps, .method = m}); });
      std::printf("oscillators %-5s matvec N=%-5lld %9.2f us/step\n",
                  m == osc::Method::Euler ? "euler" : "rk4", static_cast<long long>(n),
                  s / static_cast<double>(steps) * 1e6);
    }
    const auto k = net.coupling.to_vector<double>(), omega = net.frequencies.to_vector<double>();
    std::vector<double> theta = theta0.to_vector<double>();
    const double host = median_s(rounds, [&] {
      for (std::int64_t i = 0; i < steps; ++i) host_euler_step(k, omega, theta, 0.01);
    });
    std::printf("oscillators euler host   N=%-5lld %9.2f us/step (plain loop, 1 thread)\n",
                static_cast<long long>(n), host / static_cast<double>(steps) * 1e6);
  }
}

void fields(int rounds) {
  for (const std::int64_t side : {256, 4096}) {
    const field::Grid grid{.width = side, .height = side};
    const double pixels = static_cast<double>(side * side);
    const double one = median_s(rounds, [&] { field::statistics(grid, {}, 0.5); });
    const int frames = 8;
    const double many = median_s(rounds, [&] { field::animate(grid, {}, frames, 0.01); });
    std::printf(
        "field %5lld^2 statistics %9.3f ms/frame %8.1f Mpx/s | animate(%d) %9.3f "
        "ms/frame %8.1f Mpx/s\n",
        static_cast<long long>(side), one * 1e3, pixels / one / 1e6, frames, many / frames * 1e3,
        pixels * frames / many / 1e6);
  }
}

void queries(int rounds) {
  for (const std::int64_t n : {1'000'000, 10'000'000}) {
    const query::Events events = query::synthetic_events(n, 3);
    query::Result last;
    const double s = median_s(rounds, [&] { last = query::run(events, {.threshold = 0.5}); });
    std::printf("query n=%-9lld %9.3f ms %8.1f Mevents/s |", static_cast<long long>(n), s * 1e3,
                static_cast<double>(n) / s / 1e6);
    for (const query::Stage& stage : last.stages)
      std::printf(" %s %.3f ms", stage.name.c_str(), stage.report.total_s * 1e3);
    std::printf("\n");
  }
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::max(1, std::atoi(argv[1])) : 7;
  oscillators(rounds);
  fields(rounds);
  queries(rounds);
}
