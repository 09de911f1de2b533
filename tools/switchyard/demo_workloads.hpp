// The workloads `switchyard demo` runs: each of the apps/ our users run, at a small and a large
// size, end to end with its result read back to the host.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace switchyard::cli {

struct DemoWorkload {
  std::string name;  // what --workload selects: "oscillators"
  std::int64_t small = 0, large = 0;
  // What size n means for this workload: "80 oscillators, 200 Euler steps".
  std::function<std::string(std::int64_t n)> describe;
  // Makes the inputs for size n and returns the work, which runs on the thread's device scope.
  std::function<std::function<void()>(std::int64_t n)> prepare;
};

std::vector<DemoWorkload> demo_workloads();

}  // namespace switchyard::cli
