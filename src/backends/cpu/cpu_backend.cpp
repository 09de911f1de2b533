// The CPU as a Switchyard device: memory is host memory from the pool, copies are memcpy,
// kernels run on the calling thread (small) or oneTBB's threads (large), and launches are
// synchronous, so synchronize() has nothing to wait for.
#include "backends/cpu/cpu_backend.hpp"

#include <cstring>
#include <string>
#include <typeinfo>

#include "backends/cpu/cpu_info.hpp"
#include "backends/cpu/cpu_launch.hpp"
#include "backends/cpu/cpu_library.hpp"
#include "backends/cpu/cpu_program.hpp"
#include "backends/cpu/native/native_tier.hpp"
#include "core/host_memory.hpp"
#include "switchyard/error.hpp"

namespace switchyard::cpu {
namespace {

std::byte* bytes_of(DeviceMemory m) {
  return static_cast<std::byte*>(m.handle);
}

// Executables reach a device only from that device's prepare(); a foreign one is a caller bug.
template <class T>
const T& as(const Executable& exe, const char* expected) {
  if (const auto* p = dynamic_cast<const T*>(&exe)) return *p;
  throw DeviceError(std::string("cpu:0 was given an executable of type ") + typeid(exe).name() +
                    ", expected " + expected + " prepared by cpu:0");
}

// A kernel on the CPU: interpreted, then native code once the compiled tier has it.
class Kernel final : public Executable {
 public:
  explicit Kernel(const ir::Kernel& k) : program(k), ir(k) {}
  const Program program;
  const ir::Kernel ir;  // what the tier compiles
  const std::shared_ptr<native::Slot> native = std::make_shared<native::Slot>();
};

class Device final : public switchyard::Device {
 public:
  Device() : switchyard::Device(detect_cpu_info()), tier_(info()) {}

  const native::Tier& tier() const { return tier_; }

 private:
  DeviceMemory do_allocate(std::size_t bytes) override {
    return {host_memory::allocate(bytes), bytes};
  }
  void do_free(DeviceMemory memory) override { host_memory::release(memory.handle, memory.bytes); }

  void do_copy_from_host(DeviceMemory dst, std::size_t dst_offset, const void* src,
                         std::size_t bytes) override {
    std::memcpy(bytes_of(dst) + dst_offset, src, bytes);
  }
  void do_copy_to_host(void* dst, DeviceMemory src, std::size_t src_offset,
                       std::size_t bytes) override {
    std::memcpy(dst, bytes_of(src) + src_offset, bytes);
  }
  void do_copy_within(DeviceMemory dst, std::size_t dst_offset, DeviceMemory src,
                      std::size_t src_offset, std::size_t bytes) override {
    std::memmove(bytes_of(dst) + dst_offset, bytes_of(src) + src_offset, bytes);
  }

  std::shared_ptr<Executable> do_prepare(const ir::Kernel& kernel) override {
    return std::make_shared<Kernel>(kernel);
  }
  std::shared_ptr<Executable> do_prepare_library(const LibraryOp& op) override {
    return prepare_library(*this, op);
  }
  void do_launch(Executable& exe, const LaunchArgs& args) override {
    const Kernel& k = as<Kernel>(exe, "a kernel");
    const std::int64_t n = element_count(args.shape);
    tier_.launch(k.native, k.ir, args, static_cast<double>(n) * k.program.element_cost(),
                 runs_inline(k.program, args, n), [&] { run_program(k.program, args); });
  }
  void do_launch_library(Executable& exe, const LibraryArgs& args) override {
    routine_on<switchyard::Device>(exe, *this).launch(args);
  }
  void do_synchronize() override {}

  native::Tier tier_;
};

class Backend final : public switchyard::Backend {
 public:
  std::string_view name() const override { return "cpu"; }
  std::string unavailable_reason() const override { return ""; }
  std::span<switchyard::Device* const> devices() override { return {&device_pointer_, 1}; }

 private:
  Device device_;
  switchyard::Device* device_pointer_ = &device_;
};

}  // namespace

std::unique_ptr<switchyard::Backend> make_backend() {
  return std::make_unique<Backend>();
}

}  // namespace switchyard::cpu
