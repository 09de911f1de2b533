// GLSL → SPIR-V through shaderc, linked in (with glslang and SPIRV-Tools, from Debian's static
// libraries: its libshaderc.so.1 lacks a symbol of the SPIRV-Tools it ships beside).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace switchyard::vulkan {

// Identifies the compiler for the kernel cache key.
std::string compiler_version();

// The SPIR-V of the compute shader `source` with macro `define` set (an entry point's section,
// codegen.hpp's Glsl ABI). A source that does not compile is a CompileError with shaderc's log.
std::vector<std::uint32_t> compile(const std::string& source, std::string_view define);

}  // namespace switchyard::vulkan
