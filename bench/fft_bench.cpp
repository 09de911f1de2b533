// rfft of 2^20 float64 points, as a user calls it, with the result readable on the host (exported
// through DLPack, zero-copy where it already is there): pinned to each device and auto. Prints
// JSON {"n": N, "median_s": {placement: seconds}} and, with --write DIR, the input and cpu:0's
// result as raw little-endian float64 for bench/fft_numpy.py to time NumPy on and check against.
// Usage: fft_bench [--write DIR]

#include <algorithm>
#include <chrono>
#include <complex>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "runtime/background.hpp"
#include "switchyard/dlpack_types.hpp"
#include "switchyard/switchyard.hpp"

namespace sy = switchyard;

namespace {

constexpr std::int64_t kPoints = 1 << 20;
constexpr int kRepeats = 31;

// The transform, its result brought to host memory.
void rfft_to_host(const sy::Array& x) {
  const sy::Array y = sy::fft::rfft(x);
  DLManagedTensor* t = sy::to_dlpack(y);
  t->deleter(t);
}

double median_s(const sy::Array& x, const std::string& placement) {
  std::optional<sy::DeviceScope> scope;
  if (placement != "auto") scope.emplace(placement);
  for (int i = 0; i < 5; ++i) rfft_to_host(x);  // plans, calibration, the scheduler's history
  sy::runtime::Background::instance().wait_idle();
  std::vector<double> times;
  for (int i = 0; i < kRepeats; ++i) {
    const auto start = std::chrono::steady_clock::now();
    rfft_to_host(x);
    times.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::nth_element(times.begin(), times.begin() + kRepeats / 2, times.end());
  return times[kRepeats / 2];
}

template <class T>
void write_raw(const std::string& path, const std::vector<T>& values) {
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(values.data()),
             static_cast<std::streamsize>(values.size() * sizeof(T)));
}

}  // namespace

int main(int argc, char** argv) {
  const sy::Array x = sy::Array::uniform({kPoints}, 7, -1, 1, sy::DType::Float64);
  if (argc == 3 && std::string(argv[1]) == "--write") {
    const sy::DeviceScope cpu("cpu:0");
    std::filesystem::create_directories(argv[2]);
    write_raw(std::string(argv[2]) + "/x.f64", x.to_vector<double>());
    write_raw(std::string(argv[2]) + "/y.c128", sy::fft::rfft(x).to_vector<std::complex<double>>());
    return 0;
  }
  std::vector<std::string> placements{"auto"};
  for (const sy::DeviceInfo& d : sy::devices()) placements.push_back(d.id());
  std::printf("{\"n\": %lld, \"median_s\": {", static_cast<long long>(kPoints));
  for (std::size_t i = 0; i < placements.size(); ++i)
    std::printf("%s\"%s\": %.6e", i ? ", " : "", placements[i].c_str(), median_s(x, placements[i]));
  std::printf("}}\n");
  return 0;
}
