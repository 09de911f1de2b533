#include "gil.hpp"

#include <pthread.h>
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace switchyard::python {
namespace {

struct Regions {
  // Both sequentially consistent: a thread leaving a region counts itself in `reacquiring`, then
  // reads `exiting`; the exit sets `exiting`, then waits for the count to fall to zero. One of
  // the two always sees the other.
  std::atomic<bool> exiting{false};
  std::atomic<int> reacquiring{0};  // threads that left a region and are taking the GIL back
  // The thread that runs the interpreter's exit, never parked; set before `exiting`.
  std::thread::id exiting_thread;
  std::atomic<bool> forked{false};  // a child of fork(): the parent's other threads are gone
  std::mutex mutex;                 // for `reacquired`
  std::condition_variable reacquired;
};

Regions& regions();

// A child of fork() (os.fork, multiprocessing) has only the forking thread: no other thread is
// taking the GIL back there.
void after_fork_in_child() {
  Regions& r = regions();
  r.reacquiring.store(0);
  r.forked.store(true);
}

// Never destroyed: parked threads hold on to it through the interpreter's and C++'s exit.
Regions& regions() {
  static Regions* r = [] {
    auto* created = new Regions;
    ::pthread_atfork(nullptr, nullptr, after_fork_in_child);
    return created;
  }();
  return *r;
}

bool must_park(const Regions& r) {
  return r.exiting.load() && std::this_thread::get_id() != r.exiting_thread;
}

[[noreturn]] void park() {
  for (;;) ::pause();
}

void count_out(Regions& r) {
  r.reacquiring.fetch_sub(1);
  if (!r.exiting.load()) return;
  std::lock_guard lock(r.mutex);
  r.reacquired.notify_all();
}

// Runs first among the interpreter's exit steps that other threads can notice: non-daemon
// threads were joined before it, and the GIL is still given to the threads that ask.
void stop_regions() {
  Regions& r = regions();
  r.exiting_thread = std::this_thread::get_id();
  r.exiting.store(true);
  // A thread that left its region just before needs the GIL once more: it gets it now, while
  // the interpreter can still give it (and enters its next region, parked).
  PyThreadState* state = PyEval_SaveThread();
  {
    std::unique_lock lock(r.mutex);
    r.reacquired.wait(lock, [&] { return r.reacquiring.load() == 0; });
  }
  PyEval_RestoreThread(state);
  // Threads left running (or left behind by fork) keep the arrays of their frames: that is no
  // reference-counting error of the module, so nanobind should not report them as leaks.
  const nb::object threading = nb::module_::import_("threading");
  if (r.forked.load() || nb::cast<int>(threading.attr("active_count")()) > 1)
    nb::set_leak_warnings(false);
}

}  // namespace

GilRelease::GilRelease() : state_(PyEval_SaveThread()) {
  if (must_park(regions())) park();
}

GilRelease::~GilRelease() {
  Regions& r = regions();
  r.reacquiring.fetch_add(1);
  if (must_park(r)) {
    count_out(r);
    park();
  }
  PyEval_RestoreThread(state_);
  count_out(r);
}

void park_released_threads_at_exit(nb::module_& m) {
  m.def("_stop_released_regions", &stop_regions);
  nb::module_::import_("atexit").attr("register")(m.attr("_stop_released_regions"));
}

}  // namespace switchyard::python
