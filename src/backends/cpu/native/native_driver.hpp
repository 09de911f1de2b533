// The driver (backends/driver.hpp) of the CPU's compiled tier: C from codegen built by the
// host's compiler into a shared object, loaded with dlopen, each launch's items run on the
// calling thread or over oneTBB's threads. Memory is host memory, as the CPU device's is, so a
// CompiledDevice over this driver launches on the CPU device's own buffers.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "backends/cpu/native/native_compiler.hpp"
#include "backends/driver.hpp"

namespace switchyard::cpu::native {

class Driver final : public switchyard::Driver {
 public:
  explicit Driver(std::shared_ptr<const Compiler> compiler);

  std::uint64_t allocate(std::size_t bytes) override;
  void release(std::uint64_t block) override;
  std::string refusal_name() const override { return "out of host memory"; }
  void copy_from_host(DeviceMemory dst, std::size_t dst_offset, const void* src,
                      std::size_t bytes) override;
  void copy_to_host(void* dst, DeviceMemory src, std::size_t src_offset,
                    std::size_t bytes) override;
  void copy_within(DeviceMemory dst, std::size_t dst_offset, DeviceMemory src,
                   std::size_t src_offset, std::size_t bytes) override;

  codegen::Target target_for(const ir::Kernel& kernel) const override;
  // One work-group on the caller's thread inside a SingleThread scope, else a few per thread.
  std::int64_t max_groups(const Module& module, std::string_view entry) const override;
  std::string identity() const override;
  std::string versions() const override { return compiler_->version(); }
  std::string build_options() const override { return compiler_->options(); }
  std::vector<std::byte> build(const std::string& source,
                               std::span<const std::string_view> entries) override;
  std::unique_ptr<Module> load(std::span<const std::byte> binary,
                               std::span<const std::string_view> entries) override;
  void launch(Module& module, std::string_view entry, std::int64_t groups, int local_size,
              const LaunchArguments& args) override;
  void synchronize() override {}

  // While one lives, this thread's launches run on it alone (the CPU's inline mode).
  class SingleThread {
   public:
    SingleThread();
    ~SingleThread();
    SingleThread(const SingleThread&) = delete;
    SingleThread& operator=(const SingleThread&) = delete;

   private:
    bool was_;
  };

 private:
  std::shared_ptr<const Compiler> compiler_;
};

}  // namespace switchyard::cpu::native
