#include "backends/cpu/native/native_tier.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

#include "backends/compiled_device.hpp"
#include "backends/cpu/native/native_driver.hpp"
#include "core/config.hpp"
#include "core/log.hpp"
#include "switchyard/error.hpp"

namespace switchyard::cpu::native {
namespace {

// Interpreter work, in element-cost units (elements x the program's element cost, an add being
// 1), after which a kernel is compiled: about 20-40 ms of interpreted time on current cores,
// against a compile of 50-150 ms on one core that runs beside the work, not in its way.
constexpr double kCompileAfterWork = double(1 << 28);
// What one launch costs the interpreter besides its elements, in the same units.
constexpr double kLaunchWork = 2048;
// The trial: this many launches of each side, in turn, so that both meet the same sizes and load.
constexpr int kTrialPairs = 8;

}  // namespace

Mode mode() {
  static const Mode m = [] {
    const char* text = env_value("SWITCHYARD_NATIVE");
    const std::string value = text ? text : "on";
    if (value == "on") return Mode::On;
    if (value == "off") return Mode::Off;
    if (value == "eager") return Mode::Eager;
    throw ConfigError("SWITCHYARD_NATIVE='" + value + "': expected on, off or eager");
  }();
  return m;
}

// Shared with the compile thread, which may outlive the Tier at exit (it is detached: a thread
// parked by stop_driver_calls must never be joined).
struct Tier::State {
  explicit State(DeviceInfo info) : cpu(std::move(info)) {}

  const DeviceInfo cpu;
  std::once_flag started;
  std::shared_ptr<const Compiler> compiler;
  std::unique_ptr<CompiledDevice> device;  // the native driver under the shared layer

  std::mutex mutex;
  std::condition_variable wake;
  std::deque<std::function<void()>> jobs;
  bool thread_started = false;

  // Finds the compiler once; false when there is none that works.
  bool start() {
    std::call_once(started, [&] {
      compiler = std::make_shared<Compiler>();
      if (compiler->available())
        device = std::make_unique<CompiledDevice>(cpu, std::make_unique<Driver>(compiler));
    });
    return device != nullptr;
  }

  // Compiles `kernel` into `slot`, whose stage moves on to `next`; a failure leaves the slot
  // interpreted, logged once.
  void compile(Slot& slot, const ir::Kernel& kernel, Slot::Stage next) {
    try {
      slot.owner_ = device->prepare(kernel);
      slot.stage_.store(next, std::memory_order_release);
    } catch (const Error& e) {
      slot.stage_.store(Slot::Interpreted, std::memory_order_release);
      static std::once_flag logged;
      std::call_once(logged, [&] {
        log(LogLevel::Warn,
            std::string("native code for a CPU kernel failed; it stays interpreted: ") + e.what());
      });
    }
  }

  // Queues `job` for the compile thread, started on first use; the thread holds `self`.
  static void post(const std::shared_ptr<State>& self, std::function<void()> job) {
    std::lock_guard lock(self->mutex);
    self->jobs.push_back(std::move(job));
    if (!self->thread_started) {
      self->thread_started = true;
      std::thread([self] { self->run(); }).detach();
    }
    self->wake.notify_one();
  }

  void run() {
    for (;;) {
      std::function<void()> job;
      {
        std::unique_lock lock(mutex);
        wake.wait(lock, [&] { return !jobs.empty(); });
        job = std::move(jobs.front());
        jobs.pop_front();
      }
      job();
    }
  }
};

Tier::Tier(DeviceInfo cpu) : state_(std::make_shared<State>(std::move(cpu))) {}

Tier::~Tier() = default;

void Tier::launch(const std::shared_ptr<Slot>& slot, const ir::Kernel& kernel,
                  const LaunchArgs& args, double work, bool single_thread,
                  const std::function<void()>& interpret) {
  switch (slot->stage_.load(std::memory_order_acquire)) {
    case Slot::Native:
      return run_native(*slot, args, single_thread);
    case Slot::Trial:
      return trial(*slot, kernel, args, work, single_thread, interpret);
    case Slot::Learning:
      account(slot, kernel, work);
      if (slot->stage_.load(std::memory_order_acquire) == Slot::Native)  // eager
        return run_native(*slot, args, single_thread);
      break;
  }
  interpret();
}

void Tier::account(const std::shared_ptr<Slot>& slot, const ir::Kernel& kernel, double work) {
  if (slot->requested_.load(std::memory_order_relaxed)) return;
  const Mode m = mode();
  if (m == Mode::Off) return;
  if (m == Mode::On) {
    const double total = slot->work_.load(std::memory_order_relaxed) + work + kLaunchWork;
    slot->work_.store(total, std::memory_order_relaxed);
    if (total < kCompileAfterWork) return;
  }
  if (slot->requested_.exchange(true)) return;
  if (!state_->start()) return;
  // Tests ask for eager native code to check it on every kernel: no trial, native always.
  if (m == Mode::Eager) return state_->compile(*slot, kernel, Slot::Native);
  State::post(state_,
              [state = state_.get(), slot, kernel] { state->compile(*slot, kernel, Slot::Trial); });
}

void Tier::run_native(Slot& slot, const LaunchArgs& args, bool single_thread) {
  if (single_thread) {
    const Driver::SingleThread scope;
    return state_->device->launch(*slot.owner_, args);
  }
  state_->device->launch(*slot.owner_, args);
}

void Tier::trial(Slot& slot, const ir::Kernel& kernel, const LaunchArgs& args, double work,
                 bool single_thread, const std::function<void()>& interpret) {
  const int launch = slot.trial_begun_.fetch_add(1);
  if (launch >= 2 * kTrialPairs) return interpret();  // the others are deciding
  const int side = launch % 2;                        // 0 native, 1 interpreted
  const auto start = std::chrono::steady_clock::now();
  if (side == 0)
    run_native(slot, args, single_thread);
  else
    interpret();
  const std::chrono::duration<double, std::nano> took = std::chrono::steady_clock::now() - start;
  slot.trial_ns_[side].fetch_add(took.count());
  slot.trial_work_[side].fetch_add(work + kLaunchWork);
  const int done = slot.trial_done_.fetch_add(1) + 1;
  // Time per unit of work on each side: the same launches' mix of sizes, so a fair comparison.
  const double native_ns = slot.trial_ns_[0].load(), native_work = slot.trial_work_[0].load(),
               interpreted_ns = slot.trial_ns_[1].load(),
               interpreted_work = slot.trial_work_[1].load();
  if (native_work == 0 || interpreted_work == 0) return;
  const double speedup = (interpreted_ns / interpreted_work) / (native_ns / native_work);
  // A side twice as slow over a millisecond or more, where first-run costs are lost in the work,
  // is clear at once: a slow side's run can take seconds, and is not repeated just to confirm.
  const bool clear = (speedup < 0.5 || speedup > 2) && std::min(native_ns, interpreted_ns) > 1e6;
  if (done < 2 * kTrialPairs && !clear) return;
  const bool keep = speedup > 1;
  int trial = Slot::Trial;
  if (!slot.stage_.compare_exchange_strong(trial, keep ? Slot::Native : Slot::Interpreted)) return;
  log(LogLevel::Debug, "native code for a CPU kernel of " + std::to_string(kernel.body.size()) +
                           " instructions ran at " + std::to_string(speedup) +
                           "x the interpreter's speed: " + (keep ? "kept" : "dropped"));
}

std::string status() {
  if (mode() == Mode::Off) return "off (SWITCHYARD_NATIVE=off)";
  const Compiler compiler;
  if (!compiler.available()) return "unavailable: " + compiler.unavailable_reason();
  return compiler.version();
}

}  // namespace switchyard::cpu::native
