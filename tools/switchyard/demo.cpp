// `switchyard demo`: the same small computation on every usable device, its result and time.
#include <fmt/format.h>

#include <chrono>

#include "commands.hpp"
#include "switchyard/switchyard.hpp"

namespace switchyard::cli {
namespace {

struct Timed {
  double result;
  double seconds;
};

// a*b + sin(c), reduced by sum, on n float32 elements that start on the host.
Timed run_once(const Array& a, const Array& b, const Array& c) {
  const auto start = std::chrono::steady_clock::now();
  const double result = sum(a * b + sin(c)).item<double>();
  return {result, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()};
}

}  // namespace

int demo() {
  info(false);
  constexpr std::int64_t n = 1'000'000;
  const Array a = Array::uniform({n}, 1), b = Array::uniform({n}, 2), c = Array::uniform({n}, 3);
  fmt::print("\nDemo: sum(a*b + sin(c)) over {} float32 elements, inputs on the host\n", n);
  fmt::print("  {:<10} {:>16} {:>14} {:>14}\n", "device", "result", "first run", "best of 5");
  for (const DeviceInfo& d : devices()) {
    DeviceScope scope(d.id());
    const Timed first = run_once(a, b, c);
    double best = first.seconds;
    for (int i = 0; i < 5; ++i) best = std::min(best, run_once(a, b, c).seconds);
    fmt::print("  {:<10} {:>16.6f} {:>11.3f} ms {:>11.3f} ms\n", d.id(), first.result,
               first.seconds * 1e3, best * 1e3);
  }
  fmt::print("\nThe first run includes compiling the kernels for that device; later runs reuse them.\n");
  return 0;
}

}  // namespace switchyard::cli
