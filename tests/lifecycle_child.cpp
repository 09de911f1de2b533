// A short program the lifecycle tests run as a child process, the way users run Switchyard:
// do a little work, print the result, return from main (static destructors and exit handlers
// then run for real).
//   lifecycle_child opencl   one operation pinned to opencl:0, prints "result 3 5 7 9"
//   lifecycle_child work K   a kernel of its own (K = 0, 1, 2) run 24 times where the scheduler
//                            places it, prints "done K"
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "switchyard/switchyard.hpp"

namespace sy = switchyard;

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "opencl") {
    sy::DeviceScope scope("opencl:0");
    const auto a = sy::Array::from_vector(std::vector<float>{1, 2, 3, 4});
    const auto r = (a * 2 + 1).to_vector<float>();
    std::printf("result %g %g %g %g\n", r[0], r[1], r[2], r[3]);
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
  std::fprintf(stderr, "usage: lifecycle_child opencl | work 0|1|2\n");
  return 2;
}
