// Real transforms VkFFT cannot plan, done as complex ones: VkFFT (1.2.x) plans no real-to-complex
// or complex-to-real transform of odd length that needs more than one pass over memory (an odd
// length past what one work-group holds: 4097 points on lavapipe). Those run as a complex
// transform of the whole length between the kernels below, at about twice the work. One C text
// for every backend that runs VkFFT, rendered for the driver's dialect.
#pragma once

#include <cstdint>
#include <memory>

#include "backends/driver.hpp"

namespace switchyard {

class RealComplexKernels {
 public:
  // Builds (or loads from the kernel cache) the kernels for `real` (float32 or float64) parts on
  // `driver`'s device, which `info` describes.
  RealComplexKernels(Driver& driver, const DeviceInfo& info, DType real);

  // z[i] = (x[offset + i], 0) for i < count.
  void widen(DeviceMemory x, std::int64_t offset, DeviceMemory z, std::int64_t count);
  // The whole spectrum of each m × n plane from its half (n/2 + 1 columns, from complex element
  // `offset` of half): columns past n/2 are the conjugates of the point-reflected ones, as a real
  // signal's spectrum has them (then the real parts of the inverse are NumPy's irfft2).
  void hermitian_extend(DeviceMemory half, std::int64_t offset, DeviceMemory full,
                        std::int64_t planes, std::int64_t m, std::int64_t n);
  // x[i] = real part of z[i] for i < count.
  void real_parts(DeviceMemory z, DeviceMemory x, std::int64_t count);

 private:
  void run(std::string_view entry, std::int64_t count, const LaunchArguments& args);

  Driver& driver_;
  std::unique_ptr<Module> module_;
};

}  // namespace switchyard
