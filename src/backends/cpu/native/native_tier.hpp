// The CPU's compiled tier. The interpreter (cpu_program.hpp) runs a kernel from its first
// launch; once the kernel has done enough work to repay a compile, its C (codegen, Dialect::C)
// is compiled in the background (native_compiler.hpp), kept in the disk kernel cache like any
// device program; later launches run the native code instead, on the same buffers, where a
// trial finds it faster (Slot).
//
// SWITCHYARD_NATIVE: "on" (the default), "off" (interpreter only), "eager" (compile at the first
// launch and wait: what tests use to check the native code of every kernel they run). A missing
// or broken compiler leaves the interpreter, with the reason in `switchyard info`.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>

#include "backends/backend.hpp"

namespace switchyard::cpu::native {

enum class Mode { Off, On, Eager };
Mode mode();  // SWITCHYARD_NATIVE; throws ConfigError naming the values for any other

// For `switchyard info`: the compiler ("gcc (Debian 12.2.0-14) 12.2.0; libmvec"), that the tier
// is off, or why it is unavailable.
std::string status();

// The tier's state for one kernel: interpreted while it learns whether a compile repays; once
// compiled, a trial that times native and interpreted launches in turn on the program's own
// work; then whichever ran faster, for good. Native code is not faster everywhere: a plain sum
// or max is memory-bound, and the interpreter's wide SIMD folds beat the compiler's loops.
class Slot {
 private:
  friend class Tier;
  enum Stage : int { Learning, Trial, Native, Interpreted };
  std::atomic<int> stage_{Learning};
  std::shared_ptr<Executable> owner_;  // the native program once compiled
  std::atomic<double> work_{0};        // interpreter work so far, in element-cost units
  std::atomic<bool> requested_{false};
  // The trial: launches begun, and for each side (0 native, 1 interpreted) the launches done,
  // their nanoseconds and their work.
  std::atomic<int> trial_begun_{0}, trial_done_{0};
  std::atomic<double> trial_ns_[2] = {0, 0}, trial_work_[2] = {0, 0};
};

class Tier {
 public:
  explicit Tier(DeviceInfo cpu);
  ~Tier();

  // Runs one launch of `kernel` (`work` element-cost units: elements x element cost) natively
  // or through `interpret`, as the slot's stage says, and moves the stage on: requests the
  // compile once the kernel's work repays it (eager: compiles first). Native code runs on the
  // calling thread alone when `single_thread`.
  void launch(const std::shared_ptr<Slot>& slot, const ir::Kernel& kernel, const LaunchArgs& args,
              double work, bool single_thread, const std::function<void()>& interpret);

 private:
  void account(const std::shared_ptr<Slot>& slot, const ir::Kernel& kernel, double work);
  void run_native(Slot& slot, const LaunchArgs& args, bool single_thread);
  // One launch of the trial; decides once every trial launch is done.
  void trial(Slot& slot, const ir::Kernel& kernel, const LaunchArgs& args, double work,
             bool single_thread, const std::function<void()>& interpret);

  struct State;
  std::shared_ptr<State> state_;
};

}  // namespace switchyard::cpu::native
