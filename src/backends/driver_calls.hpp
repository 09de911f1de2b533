// Calls into device drivers, counted so that exit can wait for them. Every driver call passes
// through Device's public methods, which hold a DriverCall while they run.
//
// A program may still have threads running device work when it exits (Python's daemon threads,
// detached std::threads). Exit calls stop_driver_calls() before anything a driver uses is
// destroyed (PoCL's and LLVM's statics, TBB's): it waits for the calls in flight to return, and
// from then on such a thread is parked (blocked for good, using no CPU) as it enters or leaves a
// driver call; the process ends with it. Parking, not an error: an exception such a thread does
// not expect would end a C++ program in std::terminate, and it would be freed only to touch
// statics being destroyed.
#pragma once

namespace switchyard {

class DriverCall {
 public:
  DriverCall();   // parks the thread once calls have stopped
  ~DriverCall();  // parks the thread when calls stopped while it ran
  DriverCall(const DriverCall&) = delete;
  DriverCall& operator=(const DriverCall&) = delete;
};

// Waits until no other thread is inside a driver call; from then on only the calling thread's
// calls run (exit's own work: destructors that free device memory). Idempotent.
void stop_driver_calls();

// Work that exit waits for by other means (the runtime's background tasks, which exit cancels
// and joins before any static is destroyed) is never parked: within this scope a thread's driver
// calls always run. Scopes nest.
class WaitedForAtExit {
 public:
  WaitedForAtExit();
  ~WaitedForAtExit();
  WaitedForAtExit(const WaitedForAtExit&) = delete;
  WaitedForAtExit& operator=(const WaitedForAtExit&) = delete;
};

}  // namespace switchyard
