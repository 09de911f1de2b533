// A short program the lifecycle tests run as a child process, the way users run Switchyard:
// do a little work, print the result, return from main (static destructors and exit handlers
// then run for real).
//   lifecycle_child opencl [SECONDS]
//                            one operation pinned to opencl:0, prints "result 3 5 7 9", then
//                            stays SECONDS more (0 if not given) before it returns
//   lifecycle_child host     the same operation pinned to the host, cpu:0
//   lifecycle_child work K   a kernel of its own (K = 0, 1, 2) run 24 times where the scheduler
//                            places it, prints "done K"
//   lifecycle_child threads DEVICES SECONDS
//                            one detached thread per device of the comma list, each looping
//                            over work there that compiles a kernel never seen before on every
//                            pass; main prints "main returns" after SECONDS and returns while
//                            they run
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "switchyard/switchyard.hpp"

namespace sy = switchyard;

namespace {

// The bits of k choose the operators: a kernel of its own for each k.
sy::Array fresh(const sy::Array& x, int k) {
  sy::Array y = x;
  for (int bit = 0; bit < 8; ++bit) y = (k >> bit) & 1 ? sy::sin(y) : y * 1.5f + 0.25f;
  return y;
}

[[noreturn]] void keep_working(const std::string& device, int seed) {
  const sy::DeviceScope scope(device);
  const auto x = sy::Array::linspace(0.1, 1, 1 << 14, sy::DType::Float32);
  for (int k = seed * 256;; ++k) {
    (void)sy::sum(sy::sin(x) * 2).item<float>();
    (void)sy::sum(fresh(x, k)).item<float>();
  }
}

int threads_left_running(const std::string& devices, double seconds) {
  // A hang at exit ends the child (SIGALRM) rather than the test run.
  ::alarm(60);
  int seed = 0;
  for (std::size_t start = 0; start <= devices.size();) {
    std::size_t end = devices.find(',', start);
    if (end == std::string::npos) end = devices.size();
    std::thread(keep_working, devices.substr(start, end - start), seed++).detach();
    start = end + 1;
  }
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  std::printf("main returns\n");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "threads" && argc > 3) return threads_left_running(argv[2], std::atof(argv[3]));
  if (mode == "opencl" || mode == "host") {
    sy::DeviceScope scope(mode == "opencl" ? "opencl:0" : "cpu:0");
    const auto a = sy::Array::from_vector(std::vector<float>{1, 2, 3, 4});
    const auto r = (a * 2 + 1).to_vector<float>();
    std::printf("result %g %g %g %g\n", r[0], r[1], r[2], r[3]);
    std::fflush(stdout);
    if (argc > 2) std::this_thread::sleep_for(std::chrono::duration<double>(std::atof(argv[2])));
    return 0;
  }
  if (mode == "work" && argc > 2) {
    const int k = std::atoi(argv[2]);
    const auto a = sy::Array::linspace(0.1, 1, 1 << 16, sy::DType::Float32);
    double check = 0;
    for (int i = 0; i < 24; ++i) {
      const sy::Array r = k == 0 ? sy::sin(a) * 2 : k == 1 ? sy::exp(a) + 3 : sy::sqrt(a) * a;
      check += sy::sum(r).item<float>();
    }
    std::printf("done %d %.3g\n", k, check);
    return 0;
  }
  std::fprintf(
      stderr,
      "usage: lifecycle_child opencl [SECONDS] | host | work 0|1|2 | threads DEVICES SECONDS\n");
  return 2;
}
