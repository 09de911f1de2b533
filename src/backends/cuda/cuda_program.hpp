// A program loaded on one GPU (driver.hpp's Module): its CUDA module and, for each entry point,
// the function and the grid that fills the device.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "backends/cuda/cuda_api.hpp"
#include "backends/cuda/cuda_context.hpp"
#include "backends/driver.hpp"

namespace switchyard::cuda {

class Program final : public Module {
 public:
  struct Entry {
    CUfunction function = nullptr;
    std::int64_t full_grid = 1;  // blocks of `block` threads that fill the device at full occupancy
  };

  // Loads `image` (a CUBIN, or NUL-terminated PTX) into `context` and looks up `entries`, each
  // to run in blocks of `block` threads. Null when the driver rejects the image (damaged, or
  // for another GPU) or it lacks an entry; other failures throw DeviceError.
  static std::unique_ptr<Program> load(std::span<const std::byte> image,
                                       std::span<const std::string_view> entries,
                                       std::shared_ptr<const PrimaryContext> context, int block);

  const Entry* find(std::string_view entry) const;
  const PrimaryContext& context() const { return *module_.get_deleter().context; }

 private:
  // Unloads the module in the context it was loaded into, keeping that context alive until then
  // (programs may outlive their device in the runtime's caches).
  struct Unloader {
    std::shared_ptr<const PrimaryContext> context;
    void operator()(CUmodule module) const;
  };

  explicit Program(CUmodule module, std::shared_ptr<const PrimaryContext> context)
      : module_(module, {std::move(context)}) {}

  std::unique_ptr<CUmod_st, Unloader> module_;
  std::map<std::string, Entry, std::less<>> entries_;
};

}  // namespace switchyard::cuda
