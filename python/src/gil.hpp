// Releasing the GIL around C++ work, safely at interpreter exit.
//
// Python ends its daemon threads when they next take the GIL after finalization began, with
// pthread_exit: the unwinding that follows passes through C++ frames (the destructor that takes
// the GIL back is noexcept, nanobind's dispatch catches everything) and aborts the process. So
// once the interpreter's exit begins (an atexit hook the module registers), a thread leaving a
// GIL-released region, or entering one, stays in it: parked, blocked for good without using the
// CPU, holding no lock. The process ends with it, as Python would have ended the thread.
#pragma once

#include "bindings.hpp"

namespace switchyard::python {

// Use in place of nb::gil_scoped_release (also as nb::call_guard<GilRelease>).
class GilRelease {
 public:
  GilRelease();
  ~GilRelease();
  GilRelease(const GilRelease&) = delete;
  GilRelease& operator=(const GilRelease&) = delete;

 private:
  PyThreadState* state_;
};

// Registers the atexit hook that parks the threads in GIL-released regions (module.cpp).
void park_released_threads_at_exit(nb::module_& m);

}  // namespace switchyard::python
