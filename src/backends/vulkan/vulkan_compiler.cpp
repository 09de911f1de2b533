#include "backends/vulkan/vulkan_compiler.hpp"

#include <shaderc/shaderc.h>

#include <cstring>
#include <memory>
#include <type_traits>

#include "switchyard/error.hpp"

namespace switchyard::vulkan {
namespace {

template <class T, void (*Release)(T)>
struct Releaser {
  void operator()(T p) const { Release(p); }
};
template <class T, void (*Release)(T)>
using Owned = std::unique_ptr<std::remove_pointer_t<T>, Releaser<T, Release>>;

}  // namespace

std::string compiler_version() {
  unsigned version = 0, revision = 0;
  shaderc_get_spv_version(&version, &revision);
  return "shaderc spv " + std::to_string(version) + "." + std::to_string(revision);
}

std::vector<std::uint32_t> compile(const std::string& source, std::string_view define) {
  const Owned<shaderc_compiler_t, shaderc_compiler_release> compiler(shaderc_compiler_initialize());
  const Owned<shaderc_compile_options_t, shaderc_compile_options_release> options(
      shaderc_compile_options_initialize());
  if (!compiler || !options) throw CompileError("shaderc could not start a compiler");
  shaderc_compile_options_add_macro_definition(options.get(), define.data(), define.size(), "1", 1);
  shaderc_compile_options_set_target_env(options.get(), shaderc_target_env_vulkan,
                                         shaderc_env_version_vulkan_1_2);
  shaderc_compile_options_set_optimization_level(options.get(),
                                                 shaderc_optimization_level_performance);
  const Owned<shaderc_compilation_result_t, shaderc_result_release> result(
      shaderc_compile_into_spv(compiler.get(), source.data(), source.size(),
                               shaderc_glsl_compute_shader, "kernel.comp", "main", options.get()));
  if (!result) throw CompileError("shaderc returned no result");
  if (shaderc_result_get_compilation_status(result.get()) != shaderc_compilation_status_success)
    throw CompileError("shaderc_compilation_status_compilation_error: GLSL (" +
                       std::string(define) + ") did not compile; compiler log:\n" +
                       shaderc_result_get_error_message(result.get()));
  std::vector<std::uint32_t> words(shaderc_result_get_length(result.get()) / 4);
  std::memcpy(words.data(), shaderc_result_get_bytes(result.get()), words.size() * 4);
  return words;
}

}  // namespace switchyard::vulkan
