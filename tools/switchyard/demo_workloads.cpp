#include "demo_workloads.hpp"

#include <fmt/format.h>

#include <memory>

#include "switchyard/apps/field.hpp"
#include "switchyard/apps/fractional.hpp"
#include "switchyard/apps/nn.hpp"
#include "switchyard/apps/oscillators.hpp"
#include "switchyard/apps/query.hpp"

namespace switchyard::cli {
namespace {

namespace osc = apps::oscillators;
namespace frac = apps::fractional;

// Steps per run: small networks run long, as users run them; large ones a few steps.
std::int64_t oscillator_steps(std::int64_t n) {
  return n <= 256 ? 1000 : n <= 1024 ? 100 : 20;
}

DemoWorkload oscillators() {
  return {"oscillators", 80, 4096,
          [](std::int64_t n) {
            return fmt::format("Kuramoto network of {} oscillators, {} Euler steps, r(t) read back",
                               n, oscillator_steps(n));
          },
          [](std::int64_t n) -> std::function<void()> {
            const osc::Network network = osc::random_network(n, 1, 2.0);
            const Array theta0 = osc::random_phases(n, 2);
            const osc::Options options{.dt = 0.01, .steps = oscillator_steps(n)};
            return [=] { osc::simulate(network, theta0, options); };
          }};
}

// Below this many points the direct O(n²) derivative is the one users run; above, the FFT's.
constexpr std::int64_t kDirectUpTo = 10'000;

DemoWorkload fractional() {
  return {"fractional", kDirectUpTo, 1'000'000,
          [](std::int64_t n) {
            return fmt::format("Caputo derivative of order 0.5 of {} samples, {}", n,
                               n <= kDirectUpTo ? "direct O(n^2)" : "FFT convolution");
          },
          [](std::int64_t n) -> std::function<void()> {
            const Array t = Array::linspace(0, 1, n);
            const Array f = t * t * t;
            const double h = 1.0 / static_cast<double>(n - 1);
            const frac::Method method = n <= kDirectUpTo ? frac::Method::Direct : frac::Method::Fft;
            return [=] {
              frac::derivative(f, 0.5, h, frac::Scheme::Caputo, method).to_vector<double>();
            };
          }};
}

DemoWorkload mlp() {
  return {"mlp", 32, 256,
          [](std::int64_t n) {
            return fmt::format("one SGD training step of a 784-256-10 MLP on a batch of {}", n);
          },
          [](std::int64_t n) -> std::function<void()> {
            const apps::nn::Dataset data = apps::nn::make_classification(n, 784, 10, 3);
            auto trainer = std::make_shared<apps::nn::Trainer>(
                apps::nn::MLP({784, 256, 10}, 4), std::make_shared<apps::nn::SGD>(0.05));
            return [=] { trainer->train_step(data.x, data.labels); };
          }};
}

DemoWorkload field() {
  return {"field", 256, 4096,
          [](std::int64_t n) {
            return fmt::format(
                "{0}x{0} damped spiral wave, 8 animation frames, statistics read back", n);
          },
          [](std::int64_t n) -> std::function<void()> {
            const apps::field::Grid grid{.width = n, .height = n};
            return [=] { apps::field::animate(grid, {}, 8, 0.05); };
          }};
}

DemoWorkload query() {
  return {"query", 100'000, 10'000'000,
          [](std::int64_t n) {
            return fmt::format("{} events: where, map, total, running total, top 10", n);
          },
          [](std::int64_t n) -> std::function<void()> {
            const apps::query::Events events = apps::query::synthetic_events(n, 5);
            return [=] { apps::query::run(events).running_total.to_vector<float>(); };
          }};
}

}  // namespace

std::vector<DemoWorkload> demo_workloads() {
  return {oscillators(), fractional(), field(), mlp(), query()};
}

}  // namespace switchyard::cli
