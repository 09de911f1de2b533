// The cost of the first auto decision on an uncalibrated machine: run with SWITCHYARD_PROFILE
// pointing at a path with no profile. Prints the time of the first operation (which calibrates
// the host before choosing; other devices are calibrated in the background) and of the second.
#include <chrono>
#include <cstdio>

#include "switchyard/switchyard.hpp"

namespace sy = switchyard;

int main() {
  const sy::Array a = sy::Array::ones({1000});
  const auto t0 = std::chrono::steady_clock::now();
  const double first = sy::sum(a).item<double>();
  const auto t1 = std::chrono::steady_clock::now();
  sy::sum(a).item<double>();
  const auto t2 = std::chrono::steady_clock::now();
  std::printf("first auto op: %.3f s (sum = %g); second: %.1f us\n",
              std::chrono::duration<double>(t1 - t0).count(), first,
              std::chrono::duration<double>(t2 - t1).count() * 1e6);
  return 0;
}
