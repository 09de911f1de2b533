#include "backends/opencl/opencl_fft_real.hpp"

#include <array>
#include <string>

#include "backends/compiled_device.hpp"

namespace switchyard::opencl {
namespace {

// Complex values are (re, im) pairs of `real`; one work-item per complex element.
constexpr const char* kSource = R"CL(
#ifdef USE_DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double real;
#else
typedef float real;
#endif

__kernel void widen(__global const real* x, long offset, __global real* z, long count) {
  const long i = get_global_id(0);
  if (i >= count) return;
  z[2 * i] = x[offset + i];
  z[2 * i + 1] = 0;
}

__kernel void hermitian_extend(__global const real* halves, long offset, __global real* full,
                               long m, long n, long count) {
  const long i = get_global_id(0);
  if (i >= count) return;
  const long columns = n / 2 + 1, k = i % n, row = i / n, j = row % m, plane = row - j;
  const bool stored = k < columns;
  const long source =
      offset + (stored ? row * columns + k : (plane + (m - j) % m) * columns + (n - k));
  full[2 * i] = halves[2 * source];
  full[2 * i + 1] = stored ? halves[2 * source + 1] : -halves[2 * source + 1];
}

__kernel void real_parts(__global const real* z, __global real* x, long count) {
  const long i = get_global_id(0);
  if (i >= count) return;
  x[i] = z[2 * i];
}
)CL";

constexpr std::array<std::string_view, 3> kEntries = {"widen", "hermitian_extend", "real_parts"};

// Work-items per group: one size for every launch, so PoCL builds each kernel once.
constexpr int kGroupItems = 64;

}  // namespace

RealComplexKernels::RealComplexKernels(switchyard::Driver& driver, const DeviceInfo& info,
                                       DType real)
    : driver_(driver),
      // The precision is part of the source, so the kernel cache keys it like any other code.
      module_(cached_module(
          driver, (real == DType::Float64 ? "#define USE_DOUBLE\n" : "") + std::string(kSource),
          kEntries, info)) {}

void RealComplexKernels::widen(DeviceMemory x, std::int64_t offset, DeviceMemory z,
                               std::int64_t count) {
  LaunchArguments args;
  args.memory(x);
  args.value(offset);
  args.memory(z);
  args.value(count);
  run("widen", count, args);
}

void RealComplexKernels::hermitian_extend(DeviceMemory half, std::int64_t offset, DeviceMemory full,
                                          std::int64_t planes, std::int64_t m, std::int64_t n) {
  const std::int64_t count = planes * m * n;
  LaunchArguments args;
  args.memory(half);
  args.value(offset);
  args.memory(full);
  args.value(m);
  args.value(n);
  args.value(count);
  run("hermitian_extend", count, args);
}

void RealComplexKernels::real_parts(DeviceMemory z, DeviceMemory x, std::int64_t count) {
  LaunchArguments args;
  args.memory(z);
  args.memory(x);
  args.value(count);
  run("real_parts", count, args);
}

void RealComplexKernels::run(std::string_view entry, std::int64_t count,
                             const LaunchArguments& args) {
  driver_.launch(*module_, entry, (count + kGroupItems - 1) / kGroupItems, kGroupItems, args);
}

}  // namespace switchyard::opencl
