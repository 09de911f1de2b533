// Background work of the runtime (device calibration, kernel compiles) on TBB tasks, in an arena
// of its own so a foreground thread waiting in a parallel loop never picks up a compile, and an
// orderly end to the process's device work: at exit, before any static the work touches is
// destroyed, device calls stop (driver_calls.hpp: those in flight finish, threads the program
// left running are parked at their next one), pending tasks are abandoned, running ones are asked
// to stop (cancelled() turns true) and waited for, then the shutdown hooks run (saving the
// profile). Shutdown starts from a thread_local guard of the main thread, made when the library
// loads (exit destroys the exiting thread's thread_locals first), and from an atexit handler for
// an exit from another thread.
#pragma once

#include <functional>

namespace switchyard::runtime {

class Background {
 public:
  // The service; its first use registers the exit handler, after the statics that background
  // work uses (registry, backends, kernel cache) exist, so the handler runs before they are
  // destroyed. Never destroyed itself.
  static Background& instance();

  // Runs `task` on a TBB worker. Returns false, running nothing, once shutdown has begun. A task
  // that starts after cancellation is skipped; exceptions it throws are dropped (a task reports
  // its own failures).
  bool run(std::function<void()> task);

  // Whether shutdown has begun: long tasks check it between steps and return early.
  bool cancelled() const;

  // Waits up to `seconds`, or less once shutdown begins; returns cancelled().
  bool wait_unless_cancelled(double seconds);

  // Called at shutdown after every task has finished, newest first (hooks may use what was
  // registered before them). A hook registered after shutdown is never called.
  void at_shutdown(std::function<void()> hook);

  // Cancels, stops device calls, waits for running tasks, runs the hooks. Idempotent; the exit
  // handler calls it.
  void shutdown();

  // Registers the exit handler again, so it runs before the destructors of statics created since
  // (drivers create some lazily: PoCL's compiler at its first build). Called after each device
  // compile and between calibration steps; cheap, and a no-op once shutdown has begun.
  void keep_exit_handler_last();

  // Waits until no task is queued or running (tests; no cancellation).
  void wait_idle();

 private:
  Background();
  struct State;
  State* state_;
};

}  // namespace switchyard::runtime
