#include "backends/driver_calls.hpp"

#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <mutex>

namespace switchyard {
namespace {

struct Gate {
  // Both sequentially consistent: a call counts itself in, then reads `stopped`; stopping sets
  // `stopped`, then reads the count. One of the two always sees the other.
  std::atomic<bool> stopped{false};
  std::atomic<int> in_flight{0};  // threads inside a driver call (outermost calls only)
  std::mutex mutex;               // for call_left
  std::condition_variable call_left;
};

// Never destroyed: parked threads, and threads the program left running, still reach it after
// static destruction has begun.
Gate& gate() {
  static Gate* g = new Gate;
  return *g;
}

// Plain values: they stay readable after the thread's thread_local destructors ran (exit runs
// those of the exiting thread first).
thread_local int depth = 0;          // driver calls this thread is inside, nested
thread_local int waited_for = 0;     // WaitedForAtExit scopes this thread is inside
thread_local bool stopping = false;  // this thread called stop_driver_calls()

// Whether this thread's calls run after stop_driver_calls(): exit's own, and those of work exit
// waits for anyway.
bool exempt() {
  return stopping || waited_for > 0;
}

void count_out(Gate& g) {
  g.in_flight.fetch_sub(1);
  if (!g.stopped.load()) return;
  std::lock_guard lock(g.mutex);
  g.call_left.notify_all();
}

[[noreturn]] void park() {
  for (;;) ::pause();
}

}  // namespace

DriverCall::DriverCall() {
  if (depth++ > 0) return;
  Gate& g = gate();
  g.in_flight.fetch_add(1);
  if (!g.stopped.load() || exempt()) return;
  count_out(g);
  park();
}

DriverCall::~DriverCall() {
  if (--depth > 0) return;
  Gate& g = gate();
  count_out(g);
  if (g.stopped.load() && !exempt()) park();
}

void stop_driver_calls() {
  Gate& g = gate();
  stopping = true;
  g.stopped.store(true);
  // The caller may itself be inside a call (exit from a driver callback): that one is not waited.
  const int own = depth > 0 ? 1 : 0;
  std::unique_lock lock(g.mutex);
  g.call_left.wait(lock, [&] { return g.in_flight.load() <= own; });
}

WaitedForAtExit::WaitedForAtExit() {
  ++waited_for;
}

WaitedForAtExit::~WaitedForAtExit() {
  --waited_for;
}

}  // namespace switchyard
