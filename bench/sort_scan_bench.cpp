// Sorting and scanning 1e7 float32 on the CPU, against the yardsticks they are held to, in one
// run (medians over repeats, the two sides of each comparison timed in alternation):
//   sort     switchyard::sort pinned to the CPU vs std::sort of the same values (target >= 5x)
//   cumsum   switchyard::cumsum pinned to the CPU vs a triad (a = b + 2.5*c) over all cores:
//            cumsum's bandwidth counts its bytes read and written (8 per element), the triad's
//            its three arrays (target >= 60% of the triad's bandwidth)
// Usage: sort_scan_bench [repeats]   (default 7)
#include <tbb/task_arena.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "runtime/background.hpp"
#include "switchyard/switchyard.hpp"
#include "triad.hpp"

namespace sy = switchyard;

namespace {

constexpr std::int64_t kElements = 10'000'000;

using Clock = std::chrono::steady_clock;

double seconds_of(const std::function<void()>& work) {
  const auto start = Clock::now();
  work();
  return std::chrono::duration<double>(Clock::now() - start).count();
}

double median(std::vector<double> v) {
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  return v[v.size() / 2];
}

// Median seconds of `baseline` and of `measured`, timed in alternation so that both see the same
// machine (other processes come and go); `setup` runs untimed before each.
std::pair<double, double> alternating_medians(int repeats, const std::function<void()>& setup,
                                              const std::function<void()>& baseline,
                                              const std::function<void()>& measured) {
  std::vector<double> base_s, measured_s;
  for (int r = 0; r < repeats; ++r) {
    setup();
    base_s.push_back(seconds_of(baseline));
    setup();
    measured_s.push_back(seconds_of(measured));
  }
  return {median(base_s), median(measured_s)};
}

std::string cpu_device_id() {
  for (const sy::DeviceInfo& d : sy::devices())
    if (d.backend == "cpu") return d.id();
  std::fprintf(stderr, "no CPU device\n");
  std::exit(1);
}

}  // namespace

int main(int argc, char** argv) {
  const int repeats = argc > 1 ? std::max(1, std::atoi(argv[1])) : 7;
  const sy::DeviceScope on_cpu(cpu_device_id());
  const sy::Array x = sy::Array::uniform({kElements}, 1, -1, 1);
  const std::vector<float> values = x.to_vector<float>();
  // A long-running program's steady state: each op run once, and the calibration and compiles
  // the runtime starts in the background finished before anything is timed.
  (void)sy::sort(x), (void)sy::cumsum(x);
  sy::runtime::Background::instance().wait_idle();
  std::printf("1e7 float32, %d threads, median of %d\n", tbb::this_task_arena::max_concurrency(),
              repeats);

  std::vector<float> scratch;
  sy::Array sorted;
  const auto [std_sort_s, sy_sort_s] = alternating_medians(
      repeats, [&] { scratch = values, sorted = sy::Array(); },
      [&] { std::sort(scratch.begin(), scratch.end()); }, [&] { sorted = sy::sort(x); });
  std::printf("sort     std::sort %8.2f ms   switchyard::sort %8.2f ms   speed-up %5.2fx\n",
              std_sort_s * 1e3, sy_sort_s * 1e3, std_sort_s / sy_sort_s);

  std::vector<float> a(kElements), b(values), c(values);
  std::size_t triad_bytes = 0;
  sy::Array sums;
  const auto [triad_s, cumsum_s] = alternating_medians(
      repeats, [&] { sums = sy::Array(); },
      [&] { triad_bytes = sy::bench::triad(a.data(), b.data(), c.data(), a.size(), 2.5f); },
      [&] { sums = sy::cumsum(x); });
  const double triad_gbs = triad_bytes / triad_s * 1e-9;
  const double cumsum_gbs = 2.0 * kElements * sizeof(float) / cumsum_s * 1e-9;
  std::printf(
      "cumsum   triad %8.2f ms %6.2f GB/s   cumsum %8.2f ms %6.2f GB/s   %5.1f%% of triad\n",
      triad_s * 1e3, triad_gbs, cumsum_s * 1e3, cumsum_gbs, 100 * cumsum_gbs / triad_gbs);
  return 0;
}
