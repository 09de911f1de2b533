// The OpenCL backend: every device of every platform the ICD loader (ocl-icd) finds, so any
// vendor's driver works; unavailable, with the reason, when there is none.
#pragma once

#include <memory>

#include "backends/backend.hpp"

namespace switchyard::opencl {

std::unique_ptr<switchyard::Backend> make_backend();

}  // namespace switchyard::opencl
