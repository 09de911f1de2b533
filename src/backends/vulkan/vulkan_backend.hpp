// The Vulkan backend: every physical device the loader finds that runs compute shaders with
// buffer device addresses, 64-bit and 8-bit integers (Vulkan 1.2); code is GLSL compiled by
// shaderc. Unavailable, with the reason, when there is no loader or driver.
#pragma once

#include <memory>

#include "backends/backend.hpp"

namespace switchyard::vulkan {

std::unique_ptr<switchyard::Backend> make_backend();

}  // namespace switchyard::vulkan
