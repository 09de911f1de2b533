#include "runtime/executable_cache.hpp"

#include <atomic>
#include <chrono>
#include <future>
#include <mutex>
#include <string>
#include <unordered_map>

#include "core/cancellation.hpp"
#include "core/log.hpp"
#include "runtime/background.hpp"
#include "runtime/fault_injection.hpp"
#include "runtime/trace.hpp"
#include "scheduler/workload.hpp"

namespace switchyard::runtime {
namespace {

struct Key {
  std::uint64_t hash;
  const Device* device;
  bool operator==(const Key&) const = default;
};

struct KeyHash {
  std::size_t operator()(const Key& k) const {
    return k.hash ^ (reinterpret_cast<std::uintptr_t>(k.device) * 0x9e3779b97f4a7c15ull);
  }
};

using Entry = std::shared_future<std::shared_ptr<Executable>>;

struct Cache {
  std::mutex mutex;  // guards entries
  std::unordered_map<Key, Entry, KeyHash> entries;
  std::atomic<std::uint64_t> epoch = 0;  // readiness_epoch()
};

Cache& cache() {
  static Cache* c = new Cache;  // never destroyed: work in static destructors may still look
  return *c;
}

// After anything that may change what ready() answers.
void readiness_changed() {
  cache().epoch.fetch_add(1, std::memory_order_acq_rel);
}

double seconds_since(TraceClock::time_point start) {
  return std::chrono::duration<double>(TraceClock::now() - start).count();
}

// Compiles under a trace span, with injected compile faults, returning what prepare() gave.
template <class Work>
std::shared_ptr<Executable> compile(Device& device, std::string_view label, const Work& work) {
  TraceSpan span(device.info(), TraceStage::Compile, label);
  maybe_inject(device.info(), FaultStage::Compile);
  auto exe = device.prepare(work);
  // A driver's compiler may have created statics just now: exit must stop background work
  // before they are destroyed.
  if (!device.info().host_addressable) Background::instance().keep_exit_handler_last();
  return exe;
}

template <class Work>
Prepared prepare_cached(Device& device, std::uint64_t hash, const Work& work,
                        std::string_view label) {
  const Key key{hash, &device};
  Cache& c = cache();
  Entry entry;
  {
    std::lock_guard lock(c.mutex);
    auto it = c.entries.find(key);
    if (it != c.entries.end()) entry = it->second;
  }
  const auto start = TraceClock::now();
  if (entry.valid()) {
    const bool was_ready = entry.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
    try {
      auto exe = entry.get();
      if (!was_ready)
        logf(LogLevel::Info, "compile: {} for {}: waited {:.1f} ms for the background compile",
             label, device.info().id(), 1e3 * seconds_since(start));
      return {std::move(exe), was_ready, was_ready ? 0 : seconds_since(start)};
    } catch (const Cancelled&) {
      // Abandoned at exit: compiled here instead, where the exit's rules for this thread apply.
      std::lock_guard lock(c.mutex);
      c.entries.erase(key);
      readiness_changed();
    } catch (...) {
      // A failed background compile: forget it so the next call compiles again, and report.
      std::lock_guard lock(c.mutex);
      c.entries.erase(key);
      readiness_changed();
      throw;
    }
  }
  auto exe = compile(device, label, work);
  const double compile_s = seconds_since(start);
  logf(LogLevel::Info, "compile: {} for {}: {:.1f} ms (not in memory)", label, device.info().id(),
       1e3 * compile_s);
  std::promise<std::shared_ptr<Executable>> done;
  done.set_value(exe);
  std::lock_guard lock(c.mutex);
  c.entries.emplace(key, done.get_future().share());
  readiness_changed();
  return {std::move(exe), false, compile_s};
}

}  // namespace

Prepared prepare(Device& device, const ir::Kernel& kernel, std::uint64_t kernel_hash,
                 std::string_view label) {
  return prepare_cached(device, kernel_hash, kernel, label);
}

Prepared prepare(Device& device, const LibraryOp& op, std::string_view label) {
  return prepare_cached(device, scheduler::library_signature(op), op, label);
}

std::uint64_t readiness_epoch() {
  return cache().epoch.load(std::memory_order_acquire);
}

bool ready(const Device& device, std::uint64_t kernel_hash) {
  if (device.info().host_addressable) return true;
  Cache& c = cache();
  std::lock_guard lock(c.mutex);
  auto it = c.entries.find({kernel_hash, &device});
  return it != c.entries.end() &&
         it->second.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
}

namespace {

// A background compile's result, settled on every path (compiled, failed, abandoned at exit:
// the task skipped unrun is destroyed, and Cancelled is its result), so a caller that finds the
// entry never waits forever and knows to compile it itself.
class PendingCompile {
 public:
  Entry entry() { return done_.get_future().share(); }
  void compiled(std::shared_ptr<Executable> exe) {
    done_.set_value(std::move(exe));
    settled_ = true;
    readiness_changed();
  }
  void failed(std::exception_ptr error) {
    done_.set_exception(std::move(error));
    settled_ = true;
    readiness_changed();
  }
  ~PendingCompile() {
    if (settled_) return;
    done_.set_exception(std::make_exception_ptr(Cancelled()));
    readiness_changed();
  }

 private:
  std::promise<std::shared_ptr<Executable>> done_;
  bool settled_ = false;
};

}  // namespace

void compile_in_background(Device& device, const ir::Kernel& kernel, std::string_view label) {
  const Key key{kernel.hash(), &device};
  auto pending = std::make_shared<PendingCompile>();
  {
    Cache& c = cache();
    std::lock_guard lock(c.mutex);
    if (!c.entries.emplace(key, pending->entry()).second) return;
  }
  const bool queued =
      Background::instance().run([pending, &device, kernel, name = std::string(label)] {
        try {
          if (Background::instance().cancelled()) throw Cancelled();
          pending->compiled(compile(device, name, kernel));
        } catch (...) {
          pending->failed(std::current_exception());
        }
      });
  if (!queued) {
    Cache& c = cache();
    std::lock_guard lock(c.mutex);
    c.entries.erase(key);
    readiness_changed();
  }
}

}  // namespace switchyard::runtime
