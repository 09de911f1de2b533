// The CPU's compiled tier. The interpreter (cpu_program.hpp) runs a kernel from its first
// launch; once the kernel has done enough work to repay a compile, its C (codegen, Dialect::C)
// is compiled in the background (native_compiler.hpp), kept in the disk kernel cache like any
// device program, and later launches run the native code instead, on the same buffers.
//
// SWITCHYARD_NATIVE: "on" (the default), "off" (interpreter only), "eager" (compile at the first
// launch and wait: what tests use to check the native code of every kernel they run). A missing
// or broken compiler leaves the interpreter, with the reason in `switchyard info`.
#pragma once

#include <atomic>
#include <memory>
#include <string>

#include "backends/backend.hpp"

namespace switchyard::cpu::native {

enum class Mode { Off, On, Eager };
Mode mode();  // SWITCHYARD_NATIVE; throws ConfigError naming the values for any other

// For `switchyard info`: the compiler ("gcc (Debian 12.2.0-14) 12.2.0; libmvec"), that the tier
// is off, or why it is unavailable.
std::string status();

// The tier's state for one interpreted kernel.
class Slot {
 public:
  // The native program once compiled, else null; set once.
  Executable* compiled() const { return compiled_.load(std::memory_order_acquire); }

 private:
  friend class Tier;
  std::shared_ptr<Executable> owner_;
  std::atomic<Executable*> compiled_{nullptr};
  std::atomic<double> work_{0};  // interpreter work so far, in element-cost units
  std::atomic<bool> requested_{false};
};

class Tier {
 public:
  explicit Tier(DeviceInfo cpu);
  ~Tier();

  // Whether `kernel` can have native code (no reductions yet), in this mode.
  static bool eligible(const ir::Kernel& kernel);
  // After an interpreted launch of `work` element-cost units (elements x element cost):
  // requests the compile once the kernel's work repays it, or (eager) compiles now.
  void account(const std::shared_ptr<Slot>& slot, const ir::Kernel& kernel, double work);
  // Runs the native program of a slot; on the calling thread alone when `single_thread`.
  void launch(Executable& compiled, const LaunchArgs& args, bool single_thread);

 private:
  struct State;
  std::shared_ptr<State> state_;
};

}  // namespace switchyard::cpu::native
