// The CPU backend: the host's cores as one device with unified memory.
#pragma once

#include <memory>

#include "backends/backend.hpp"

namespace switchyard::cpu {

std::unique_ptr<Backend> make_backend();

}  // namespace switchyard::cpu
