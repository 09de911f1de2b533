#include "backends/cuda/cuda_program.hpp"

#include <algorithm>
#include <cstring>

#include "backends/cuda/cuda_error.hpp"
#include "core/log.hpp"

namespace switchyard::cuda {
namespace {

// What NVRTC makes: an ELF CUBIN, or PTX text that cuModuleLoadData reads up to its NUL.
bool is_whole_image(std::span<const std::byte> image) {
  if (image.size() > 4 && std::memcmp(image.data(),
                                      "\x7f"
                                      "ELF",
                                      4) == 0)
    return true;
  return !image.empty() && image.back() == std::byte{0};
}

// The driver's answers for an image that is not a program for this GPU: rebuilt from source.
bool is_rejection(CUresult result) {
  return result == CUDA_ERROR_INVALID_IMAGE || result == CUDA_ERROR_INVALID_PTX ||
         result == CUDA_ERROR_NO_BINARY_FOR_GPU;
}

}  // namespace

std::unique_ptr<Program> Program::load(std::span<const std::byte> image,
                                       std::span<const std::string_view> entries,
                                       std::shared_ptr<const PrimaryContext> context, int block) {
  if (!is_whole_image(image)) return nullptr;
  const std::string& where = context->where();
  const ContextScope scope(*context);
  CUmodule module = nullptr;
  const CUresult loaded = driver().cuModuleLoadData(&module, image.data());
  if (is_rejection(loaded)) {
    log(LogLevel::Debug, "cuda: " + where + " rejected a program image: " + describe(loaded));
    return nullptr;
  }
  check(loaded, "cuModuleLoadData", where);
  std::unique_ptr<Program> program(new Program(module, std::move(context)));
  for (std::string_view name : entries) {
    Entry e;
    const CUresult found =
        driver().cuModuleGetFunction(&e.function, module, std::string(name).c_str());
    if (found == CUDA_ERROR_NOT_FOUND) return nullptr;  // another program's image
    check(found, "cuModuleGetFunction", where);
    int full_grid = 0, block_size = 0;
    check(driver().cuOccupancyMaxPotentialBlockSize(&full_grid, &block_size, e.function, nullptr, 0,
                                                    block),
          "cuOccupancyMaxPotentialBlockSize", where);
    e.full_grid = std::max(full_grid, 1);
    program->entries_.emplace(name, e);
  }
  return program;
}

const Program::Entry* Program::find(std::string_view entry) const {
  const auto found = entries_.find(entry);
  return found == entries_.end() ? nullptr : &found->second;
}

// Errors are ignored: at process exit the driver may already be shutting down.
void Program::Unloader::operator()(CUmodule module) const {
  if (driver().cuCtxPushCurrent(context->get()) != CUDA_SUCCESS) return;
  driver().cuModuleUnload(module);
  CUcontext popped = nullptr;
  driver().cuCtxPopCurrent(&popped);
}

}  // namespace switchyard::cuda
