// The CUDA backend: NVIDIA GPUs through the driver API, NVRTC and cuBLAS, all loaded at run time,
// so that a machine without an NVIDIA driver simply reports the backend unavailable and why.
#pragma once

#include <memory>

#include "backends/backend.hpp"

namespace switchyard::cuda {

std::unique_ptr<Backend> make_backend();

}  // namespace switchyard::cuda
