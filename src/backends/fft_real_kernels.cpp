#include "backends/fft_real_kernels.hpp"

#include <algorithm>
#include <array>
#include <string>

#include "backends/compiled_device.hpp"
#include "codegen/library_glsl.hpp"
#include "codegen/spelling.hpp"

namespace switchyard {
namespace {

// Complex values are (re, im) pairs of sy_real; items stride over the elements, so any number of
// groups covers them. Written in library_glsl.hpp's subset of C, which GLSL is translated from.
constexpr std::string_view kSource = R"(
SY_KERNEL sy_fft_widen(const SY_GLOBAL sy_real* x, sy_index offset, SY_GLOBAL sy_real* z,
                       sy_index count) {
  for (sy_index i = SY_GID; i < count; i += SY_GSIZE) {
    z[2 * i] = x[offset + i];
    z[2 * i + 1] = (sy_real)0;
  }
}

SY_KERNEL sy_fft_hermitian_extend(const SY_GLOBAL sy_real* halves, sy_index offset,
                                  SY_GLOBAL sy_real* full, sy_index m, sy_index n,
                                  sy_index count) {
  const sy_index columns = n / 2 + 1;
  for (sy_index i = SY_GID; i < count; i += SY_GSIZE) {
    const sy_index k = i % n;
    const sy_index row = i / n;
    const sy_index j = row % m;
    const sy_index plane = row - j;
    const sy_index source =
        offset + (k < columns ? row * columns + k : (plane + (m - j) % m) * columns + (n - k));
    full[2 * i] = halves[2 * source];
    full[2 * i + 1] = k < columns ? halves[2 * source + 1] : -halves[2 * source + 1];
  }
}

SY_KERNEL sy_fft_real_parts(const SY_GLOBAL sy_real* z, SY_GLOBAL sy_real* x, sy_index count) {
  for (sy_index i = SY_GID; i < count; i += SY_GSIZE) x[i] = z[2 * i];
}
)";

constexpr std::array<std::string_view, 3> kEntries = {"sy_fft_widen", "sy_fft_hermitian_extend",
                                                      "sy_fft_real_parts"};

// Work-items per group: one size for every launch, so that a device builds each kernel once.
constexpr int kGroupItems = 64;

// kSource for `dialect` with `real` parts. The precision is part of the source, so the kernel
// cache keys it like any other code.
std::string render(codegen::Dialect dialect, DType real) {
  const codegen::DialectTable& t = codegen::table(dialect);
  const std::string typedefs = "#define SY_GID " + std::string(t.global_id) +
                               "\n#define SY_GSIZE " + std::string(t.global_size) + "\ntypedef " +
                               std::string(t.index) + " sy_index;\ntypedef " +
                               std::string(t.types[real == DType::Float64 ? 4 : 3]) + " sy_real;\n";
  if (dialect == codegen::Dialect::Glsl)
    return codegen::glsl_from_library_c(std::string(t.prelude) + "\n", typedefs + kSource.data(),
                                        kGroupItems);
  std::string kernel(t.kernel_fixed_group);
  kernel.replace(kernel.find('@'), 1, std::to_string(kGroupItems));
  const bool cl_fp64 = dialect == codegen::Dialect::OpenCL && real == DType::Float64;
  return (cl_fp64 ? "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" : "") +
         std::string(t.prelude) + "#define SY_KERNEL " + kernel + "\n#define SY_GLOBAL " +
         std::string(t.global) + "\n" + typedefs + kSource.data();
}

}  // namespace

RealComplexKernels::RealComplexKernels(Driver& driver, const DeviceInfo& info, DType real)
    : driver_(driver),
      module_(cached_module(driver, render(driver.target_for(ir::Kernel{}).dialect, real), kEntries,
                            info)) {}

void RealComplexKernels::widen(DeviceMemory x, std::int64_t offset, DeviceMemory z,
                               std::int64_t count) {
  LaunchArguments args;
  args.memory(x);
  args.value(offset);
  args.memory(z);
  args.value(count);
  run(kEntries[0], count, args);
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
  run(kEntries[1], count, args);
}

void RealComplexKernels::real_parts(DeviceMemory z, DeviceMemory x, std::int64_t count) {
  LaunchArguments args;
  args.memory(z);
  args.memory(x);
  args.value(count);
  run(kEntries[2], count, args);
}

void RealComplexKernels::run(std::string_view entry, std::int64_t count,
                             const LaunchArguments& args) {
  const std::int64_t groups =
      std::min((count + kGroupItems - 1) / kGroupItems,
               std::max<std::int64_t>(driver_.max_groups(*module_, entry), 1));
  driver_.launch(*module_, entry, groups, kGroupItems, args);
}

}  // namespace switchyard
