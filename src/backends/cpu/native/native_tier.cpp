#include "backends/cpu/native/native_tier.hpp"

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

  // Compiles `kernel` into `slot`; a failure leaves the slot interpreted, logged once.
  void compile(Slot& slot, const ir::Kernel& kernel) {
    try {
      slot.owner_ = device->prepare(kernel);
      slot.compiled_.store(slot.owner_.get(), std::memory_order_release);
    } catch (const Error& e) {
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

bool Tier::eligible(const ir::Kernel& kernel) {
  return !kernel.has_reduction;
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
  if (m == Mode::Eager) return state_->compile(*slot, kernel);
  State::post(state_, [state = state_.get(), slot, kernel] { state->compile(*slot, kernel); });
}

void Tier::launch(Executable& compiled, const LaunchArgs& args, bool single_thread) {
  if (single_thread) {
    const Driver::SingleThread scope;
    return state_->device->launch(compiled, args);
  }
  state_->device->launch(compiled, args);
}

std::string status() {
  if (mode() == Mode::Off) return "off (SWITCHYARD_NATIVE=off)";
  const Compiler compiler;
  if (!compiler.available()) return "unavailable: " + compiler.unavailable_reason();
  return compiler.version();
}

}  // namespace switchyard::cpu::native
