#include "gil.hpp"

#include <pthread.h>
#include <unistd.h>

#include <condition_variable>
#include <mutex>
#include <thread>

namespace switchyard::python {
namespace {

struct Regions {
  std::mutex mutex;  // guards the fields below
  std::condition_variable reacquired;
  bool exiting = false;
  std::thread::id exiting_thread;  // runs the interpreter's exit: never parked
  int reacquiring = 0;             // threads that left a region and are taking the GIL back
  bool forked = false;             // a child of fork(): the parent's other threads are gone
};

Regions& regions();

// A child of fork() (os.fork, multiprocessing) has only the forking thread: no other thread is
// taking the GIL back there, and the mutex must not stay locked by a thread that does not exist.
void before_fork() {
  regions().mutex.lock();
}
void after_fork_in_parent() {
  regions().mutex.unlock();
}
void after_fork_in_child() {
  Regions& r = regions();
  r.reacquiring = 0;
  r.forked = true;
  r.mutex.unlock();
}

// Never destroyed: parked threads hold on to it through the interpreter's and C++'s exit.
Regions& regions() {
  static Regions* r = [] {
    auto* created = new Regions;
    ::pthread_atfork(before_fork, after_fork_in_parent, after_fork_in_child);
    return created;
  }();
  return *r;
}

bool must_park(const Regions& r) {
  return r.exiting && std::this_thread::get_id() != r.exiting_thread;
}

[[noreturn]] void park(std::unique_lock<std::mutex> lock) {
  lock.unlock();
  for (;;) ::pause();
}

// Runs first among the interpreter's exit steps that other threads can notice: non-daemon
// threads were joined before it, and the GIL is still given to the threads that ask.
void stop_regions() {
  Regions& r = regions();
  {
    std::lock_guard lock(r.mutex);
    r.exiting = true;
    r.exiting_thread = std::this_thread::get_id();
  }
  // A thread that left its region just before needs the GIL once more: it gets it now, while
  // the interpreter can still give it (and enters its next region, parked).
  PyThreadState* state = PyEval_SaveThread();
  {
    std::unique_lock lock(r.mutex);
    r.reacquired.wait(lock, [&] { return r.reacquiring == 0; });
  }
  PyEval_RestoreThread(state);
  // Threads left running (or left behind by fork) keep the arrays of their frames: that is no
  // reference-counting error of the module, so nanobind should not report them as leaks.
  const nb::object threading = nb::module_::import_("threading");
  if (r.forked || nb::cast<int>(threading.attr("active_count")()) > 1) nb::set_leak_warnings(false);
}

}  // namespace

GilRelease::GilRelease() : state_(PyEval_SaveThread()) {
  Regions& r = regions();
  std::unique_lock lock(r.mutex);
  if (must_park(r)) park(std::move(lock));
}

GilRelease::~GilRelease() {
  Regions& r = regions();
  {
    std::unique_lock lock(r.mutex);
    if (must_park(r)) park(std::move(lock));
    ++r.reacquiring;
  }
  PyEval_RestoreThread(state_);
  std::lock_guard lock(r.mutex);
  if (--r.reacquiring == 0) r.reacquired.notify_all();
}

void park_released_threads_at_exit(nb::module_& m) {
  m.def("_stop_released_regions", &stop_regions);
  nb::module_::import_("atexit").attr("register")(m.attr("_stop_released_regions"));
}

}  // namespace switchyard::python
