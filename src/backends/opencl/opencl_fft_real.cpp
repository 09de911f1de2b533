#include "backends/opencl/opencl_fft_real.hpp"

#include <string>

#include "backends/opencl/opencl_compiler.hpp"
#include "backends/opencl/opencl_device.hpp"
#include "backends/opencl/opencl_error.hpp"

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

// Work-items per group: one size for every launch, so PoCL builds each kernel once.
constexpr std::size_t kGroupItems = 64;

KernelHandle kernel(const ProgramHandle& program, const char* name, const Device& device) {
  cl_int err = CL_SUCCESS;
  KernelHandle k(clCreateKernel(program.get(), name, &err));
  check(err, std::string("creating kernel ") + name, device.info());
  return k;
}

template <class T>
void set_arg(cl_kernel k, cl_uint index, const T& value, const Device& device) {
  check(clSetKernelArg(k, index, sizeof value, &value), "setting an fft conversion's argument",
        device.info());
}

}  // namespace

RealComplexKernels::RealComplexKernels(Device& device, DType real) : device_(device) {
  const std::string source = kSource;
  const std::string options =
      device.build_options() + (real == DType::Float64 ? " -DUSE_DOUBLE" : "");
  program_ = cached_program(device, source, options);
  widen_ = kernel(program_, "widen", device);
  extend_ = kernel(program_, "hermitian_extend", device);
  real_parts_ = kernel(program_, "real_parts", device);
}

void RealComplexKernels::widen(cl_mem x, std::int64_t offset, cl_mem z, std::int64_t count) {
  set_arg(widen_.get(), 0, x, device_);
  set_arg(widen_.get(), 1, cl_long{offset}, device_);
  set_arg(widen_.get(), 2, z, device_);
  set_arg(widen_.get(), 3, cl_long{count}, device_);
  run(widen_.get(), count, "widening an fft's real input");
}

void RealComplexKernels::hermitian_extend(cl_mem half, std::int64_t offset, cl_mem full,
                                          std::int64_t planes, std::int64_t m, std::int64_t n) {
  const std::int64_t count = planes * m * n;
  set_arg(extend_.get(), 0, half, device_);
  set_arg(extend_.get(), 1, cl_long{offset}, device_);
  set_arg(extend_.get(), 2, full, device_);
  set_arg(extend_.get(), 3, cl_long{m}, device_);
  set_arg(extend_.get(), 4, cl_long{n}, device_);
  set_arg(extend_.get(), 5, cl_long{count}, device_);
  run(extend_.get(), count, "extending an fft's half spectrum");
}

void RealComplexKernels::real_parts(cl_mem z, cl_mem x, std::int64_t count) {
  set_arg(real_parts_.get(), 0, z, device_);
  set_arg(real_parts_.get(), 1, x, device_);
  set_arg(real_parts_.get(), 2, cl_long{count}, device_);
  run(real_parts_.get(), count, "taking an fft's real parts");
}

void RealComplexKernels::run(cl_kernel k, std::int64_t count, const char* what) {
  const std::size_t global =
      (static_cast<std::size_t>(count) + kGroupItems - 1) / kGroupItems * kGroupItems;
  check(clEnqueueNDRangeKernel(device_.queue(), k, 1, nullptr, &global, &kGroupItems, 0, nullptr,
                               nullptr),
        what, device_.info());
}

}  // namespace switchyard::opencl
