// The median wall time of a piece of work, for the benches that time whole calls by hand.
#pragma once

#include <algorithm>
#include <chrono>
#include <functional>
#include <vector>

namespace switchyard::bench {

// Median seconds of `rounds` calls of `work`, after one untimed call; `before_each` (e.g. a
// barrier between ranks) runs before each timed call, outside the time.
inline double median_s(int rounds, const std::function<void()>& work,
                       const std::function<void()>& before_each = {}) {
  work();
  std::vector<double> times;
  for (int i = 0; i < rounds; ++i) {
    if (before_each) before_each();
    const auto start = std::chrono::steady_clock::now();
    work();
    times.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

}  // namespace switchyard::bench
