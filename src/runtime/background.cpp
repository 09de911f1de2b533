#include "runtime/background.hpp"

#include <oneapi/tbb/task_arena.h>
#include <oneapi/tbb/task_group.h>
#include <pthread.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <vector>

#include "backends/driver_calls.hpp"
#include "backends/registry.hpp"
#include "core/host_info.hpp"
#include "core/kernel_cache.hpp"
#include "core/log.hpp"

namespace switchyard::runtime {

struct Background::State {
  // One worker at most for background work (a compile on 2 cores already takes one from the
  // foreground), one slot kept for the thread that waits at shutdown.
  tbb::task_arena arena{2, 1};
  tbb::task_group group;
  std::atomic<bool> cancelled{false};
  // Tasks count themselves out here (release) and shutdown reads it after the group's wait
  // (acquire): the wait already orders their work before exit's, but inside TBB, where a race
  // detector does not see it; this pair states that order in code it does see.
  std::atomic<int> finished{0};
  std::mutex mutex;  // guards hooks, shut_down, and orders run() against shutdown()
  std::condition_variable shutting_down;  // notified (under mutex) when shutdown begins
  std::vector<std::function<void()>> hooks;
  bool shut_down = false;
};

namespace {

// Set once the service exists: exit stops only what was started (a program that never ran work
// must not start detecting devices at exit).
std::atomic<Background*> started{nullptr};

// A child of fork() has only the forking thread: the parent's other threads, TBB's workers and
// the locks they held came along as they were, mid-flight. Its exit leaves all that alone (the
// parent saves what was measured); waiting for any of it would never end.
std::atomic<bool> forked_child{false};

void shutdown_at_exit() {
  if (forked_child.load()) return;
  if (Background* background = started.load())
    background->shutdown();
  else
    stop_driver_calls();
}

// exit() runs the exiting thread's thread_local destructors before any atexit handler or static
// destructor (glibc's __run_exit_handlers). A guard living in the main thread therefore stops
// background work even before the statics a driver creates lazily in the middle of a compile,
// which no atexit registration can precede: a PoCL build cut off that way aborted in LLVM
// ("Do not know how to split the result of this operator!") in 1 of 50 short programs.
struct MainThreadExitGuard {
  ~MainThreadExitGuard() { shutdown_at_exit(); }
};

void guard_main_thread_exit() {
  // Only in the main thread: another thread's thread_locals die when that thread ends.
  if (::gettid() != ::getpid()) return;
  thread_local MainThreadExitGuard guard;
  (void)guard;
}

// Both when the library loads, which is in the main thread for a program linked with it and for
// most that load it (Python imports it there): the program's other threads may be the ones
// running device work, and its main thread may never call in. The atexit handler covers an exit
// from another thread.
const bool exit_handled = [] {
  guard_main_thread_exit();
  std::atexit(shutdown_at_exit);
  ::pthread_atfork(nullptr, nullptr, [] { forked_child.store(true); });
  return true;
}();

// What the stopped threads queued still runs on the devices, and a driver may compile a launch's
// code on its own threads meanwhile (PoCL does, in LLVM): it ends before exit destroys the
// drivers' statics. A device that fails here has nothing left to finish.
void finish_device_work() {
  for (Device* device : Registry::instance().devices()) {
    try {
      device->synchronize();
    } catch (const std::exception&) {
    }
  }
}

}  // namespace

Background& Background::instance() {
  static Background* background = [] {
    auto* b = new Background;
    started.store(b);
    return b;
  }();
  return *background;
}

Background::Background() : state_(new State) {
  // Statics constructed before the handler is registered are destroyed after it runs.
  (void)Registry::instance();
  (void)KernelCache::instance();
  (void)host_info();
  std::atexit(shutdown_at_exit);
}

bool Background::run(std::function<void()> task) {
  guard_main_thread_exit();
  std::lock_guard lock(state_->mutex);
  if (state_->shut_down) return false;
  State* s = state_;
  s->arena.enqueue(s->group.defer([s, task = std::move(task)] {
    if (s->cancelled.load(std::memory_order_acquire)) return;
    const WaitedForAtExit joined_by_shutdown;
    try {
      task();
    } catch (const std::exception& e) {
      log(LogLevel::Warn, std::string("background task failed: ") + e.what());
    } catch (...) {
      log(LogLevel::Warn, "background task failed");
    }
    s->finished.fetch_add(1, std::memory_order_release);
  }));
  return true;
}

bool Background::cancelled() const {
  return state_->cancelled.load(std::memory_order_acquire);
}

bool Background::wait_unless_cancelled(double seconds) {
  std::unique_lock lock(state_->mutex);
  state_->shutting_down.wait_for(lock, std::chrono::duration<double>(seconds),
                                 [this] { return state_->shut_down; });
  return cancelled();
}

void Background::at_shutdown(std::function<void()> hook) {
  std::lock_guard lock(state_->mutex);
  if (!state_->shut_down) state_->hooks.push_back(std::move(hook));
}

void Background::keep_exit_handler_last() {
  std::lock_guard lock(state_->mutex);
  if (!state_->shut_down)
    std::atexit(shutdown_at_exit);  // shutdown() runs once: extra calls return
}

void Background::wait_idle() {
  state_->arena.execute([this] { state_->group.wait(); });
}

void Background::shutdown() {
  std::vector<std::function<void()>> hooks;
  {
    std::lock_guard lock(state_->mutex);
    if (state_->shut_down) return;
    state_->shut_down = true;
    state_->cancelled.store(true, std::memory_order_release);
    hooks.swap(state_->hooks);
    state_->shutting_down.notify_all();
  }
  if (log_enabled(LogLevel::Debug)) log(LogLevel::Debug, "shutdown: waiting for device work");
  // Foreground threads still running are parked at their next driver call. Queued tasks see the
  // flag and return at once; running ones stop at their next check.
  stop_driver_calls();
  state_->arena.execute([this] { state_->group.wait(); });
  (void)state_->finished.load(std::memory_order_acquire);
  finish_device_work();
  for (auto it = hooks.rbegin(); it != hooks.rend(); ++it) {
    try {
      (*it)();
    } catch (const std::exception& e) {
      log(LogLevel::Warn, std::string("at exit: ") + e.what());
    }
  }
}

}  // namespace switchyard::runtime
