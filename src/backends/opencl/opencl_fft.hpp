// FFTs on an OpenCL device through VkFFT's OpenCL path (backends/vkfft_routine.hpp), enqueued on
// the driver's in-order queue.
#pragma once

#include <memory>

#include "backends/library_routine.hpp"

namespace switchyard::opencl {

class Driver;

// Throws DTypeError for parts other than float32/float64, or float64 without device fp64.
std::shared_ptr<LibraryRoutine<switchyard::Device>> make_fft_routine(Driver& driver,
                                                                     switchyard::Device& device,
                                                                     const LibraryOp& op);

}  // namespace switchyard::opencl
