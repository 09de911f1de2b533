// A device that runs generated code, over a Driver (driver.hpp): the one implementation of
// what every such backend needs above its driver's calls.
//   memory    one size-class pool (core/memory_pool.hpp) with the one out-of-memory retry
//   programs  Kernel IR → codegen source → disk kernel cache (KernelCacheKey::for_source) →
//             build → load; a binary the driver rejects is rebuilt from source
//   launches  codegen's launch plan, its scratch, its arguments packed in the ABI's order
//   library   the driver's routines, on a device whose DeviceInfo says it has them
//   graphs    the driver's launch graphs, where it records them
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "backends/backend.hpp"
#include "backends/driver.hpp"
#include "core/memory_pool.hpp"

namespace switchyard {

class CompiledDevice final : public Device {
 public:
  CompiledDevice(DeviceInfo info, std::unique_ptr<Driver> driver);
  ~CompiledDevice() override;

  Driver& driver() { return *driver_; }

 private:
  DeviceMemory do_allocate(std::size_t bytes) override;
  void do_free(DeviceMemory memory) override;
  void do_copy_from_host(DeviceMemory dst, std::size_t dst_offset, const void* src,
                         std::size_t bytes) override;
  void do_copy_to_host(void* dst, DeviceMemory src, std::size_t src_offset,
                       std::size_t bytes) override;
  void do_copy_within(DeviceMemory dst, std::size_t dst_offset, DeviceMemory src,
                      std::size_t src_offset, std::size_t bytes) override;
  std::shared_ptr<Executable> do_prepare(const ir::Kernel& kernel) override;
  std::shared_ptr<Executable> do_prepare_library(const LibraryOp& op) override;
  void do_launch(Executable& exe, const LaunchArgs& args) override;
  void do_launch_library(Executable& exe, const LibraryArgs& args) override;
  void do_synchronize() override;
  bool do_supports_graphs() const override;
  void do_begin_graph() override;
  std::unique_ptr<LaunchGraph> do_end_graph() override;
  void do_launch_graph(LaunchGraph& graph) override;

  Driver& graph_driver();  // the driver, when it records graphs; else ValueError

  std::unique_ptr<Driver> driver_;
  MemoryPool pool_;
};

// The program for `source` on `driver`: from the disk kernel cache (KernelCacheKey::for_source)
// when an entry exists and the driver loads it, else built (and stored). CompiledDevice's
// programs come from here, and so do a driver's own helper kernels; `info` names the device in
// errors.
std::unique_ptr<Module> cached_module(Driver& driver, const std::string& source,
                                      std::span<const std::string_view> entries,
                                      const DeviceInfo& info);

}  // namespace switchyard
