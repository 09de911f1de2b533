// The query pipeline map(2x + 1) → where(> 0) → sum over float32, side by side in one run with
// its ceilings: a triad (the machine's streaming bandwidth) and the same query written by hand
// as one loop over all cores. Targets: the pipeline at ≥ 60% of the triad's bandwidth (counting
// the 4 bytes it reads per element) and within 1.2x of the hand-written loop.
//
// Method: every contender runs once untimed (compiles and first touches excluded), then rounds
// run each once in turn, interleaved so load on the machine hits all alike; each time is the
// median over the rounds. A pipeline run is what a user writes: from(a).map(...).where(...)
// .sum().item() — building the query, running it, and reading the result back.
//
// Usage: pipeline_bench [N] [ROUNDS]        (defaults 1e7 and 21)
#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "switchyard/pipeline.hpp"
#include "switchyard/switchyard.hpp"
#include "triad.hpp"

namespace sy = switchyard;

namespace {

using Clock = std::chrono::steady_clock;

// The query by hand: 16 independent float lanes per thread (so the compiler vectorises it),
// summed in double at the end.
double hand_written(const float* a, std::size_t n) {
  return tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, n, 1 << 16), 0.0,
      [&](const tbb::blocked_range<std::size_t>& r, double total) {
        constexpr int kLanes = 16;
        float lanes[kLanes] = {};
        std::size_t i = r.begin();
        for (; i + kLanes <= r.end(); i += kLanes)
          for (int k = 0; k < kLanes; ++k) {
            const float y = a[i + k] * 2.0f + 1.0f;
            lanes[k] += y > 0.0f ? y : 0.0f;
          }
        for (; i < r.end(); ++i) {
          const float y = a[i] * 2.0f + 1.0f;
          total += y > 0.0f ? y : 0.0f;
        }
        for (float lane : lanes) total += lane;
        return total;
      },
      std::plus<double>());
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double seconds_of(const std::function<void()>& f) {
  const auto start = Clock::now();
  f();
  return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  const auto n = static_cast<std::size_t>(argc > 1 ? std::atof(argv[1]) : 1e7);
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 21;
  using sy::pipeline::_1;

  const sy::Array a = sy::Array::normal({static_cast<std::int64_t>(n)}, 7, 0, 1);
  const std::vector<float> host = a.to_vector<float>();
  std::vector<float> ta(n), tb(host), tc(host);

  std::vector<std::string> contenders = {"triad", "hand-written", "pipeline auto"};
  std::vector<std::string> pinned;
  for (const sy::DeviceInfo& d : sy::devices()) pinned.push_back(d.id());
  for (const std::string& id : pinned) contenders.push_back("pipeline " + id);

  double checks[2] = {};
  auto run = [&](std::size_t which) {
    if (which == 0) return void(sy::bench::triad(ta.data(), tb.data(), tc.data(), n, 2.5f));
    if (which == 1) return void(checks[0] = hand_written(host.data(), n));
    auto query = [&] {
      return sy::pipeline::from(a).map(_1 * 2 + 1).where(_1 > 0).sum().item<double>();
    };
    if (which == 2) return void(checks[1] = query());
    const sy::DeviceScope scope(pinned[which - 3]);
    checks[1] = query();
  };

  std::vector<std::vector<double>> times(contenders.size());
  for (std::size_t c = 0; c < contenders.size(); ++c) run(c);
  for (int r = 0; r < rounds; ++r)
    for (std::size_t c = 0; c < contenders.size(); ++c)
      times[c].push_back(seconds_of([&] { run(c); }));

  const double triad_s = median(times[0]), hand_s = median(times[1]), auto_s = median(times[2]);
  const double triad_bw = 3.0 * n * sizeof(float) / triad_s;
  std::printf("map(2x+1) -> where(>0) -> sum over %zu float32, median of %d rounds\n", n, rounds);
  std::printf("%-22s %12s %12s\n", "", "time", "GB/s");
  for (std::size_t c = 0; c < contenders.size(); ++c) {
    const double bytes = c == 0 ? 3.0 * n * sizeof(float) : 1.0 * n * sizeof(float);
    std::printf("%-22s %9.3f ms %12.1f\n", contenders[c].c_str(), median(times[c]) * 1e3,
                bytes / median(times[c]) / 1e9);
  }
  const double share = n * sizeof(float) / auto_s / triad_bw;
  std::printf("pipeline auto / triad bandwidth   %5.0f%%  (goal >= 60%%: %s)\n", 100 * share,
              share >= 0.6 ? "met" : "NOT MET");
  std::printf("pipeline auto / hand-written      %5.2fx  (goal <= 1.2x: %s)\n", auto_s / hand_s,
              auto_s / hand_s <= 1.2 ? "met" : "NOT MET");
  const double gap = std::abs(checks[0] - checks[1]) / std::max(1.0, std::abs(checks[0]));
  std::printf("results: hand-written %.6g, pipeline %.6g (relative difference %.2g)\n", checks[0],
              checks[1], gap);
  sy::pipeline::Query query = sy::pipeline::from(a).map(_1 * 2 + 1).where(_1 > 0);
  query.sum();
  std::printf("%s", query.report().to_string().c_str());
  return gap < 1e-3 ? 0 : 1;
}
