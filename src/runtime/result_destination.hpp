// Where a kernel's result is read next, learned from what happened to the results of the same
// work before. Eager work does not say whether its result goes back to the host; guessing from
// its inputs alone misleads both ways: a sum over data kept on a device is still read on the host
// when a Python loop tests it, and pricing it as if it stayed there put a 10^5-element query's
// reductions on PoCL, which then paid the read-back in the next kernel.
#pragma once

#include <cstdint>

namespace switchyard::runtime {

// A result written on a device by the work with this signature was read: copied to the host
// (on_host), or read in place by work on that device. Not counted while work pinned to its
// device reads it (below).
void note_result_read(std::uint64_t signature, bool on_host);

// Marks the reads of work the scheduler did not place (pinned by a DeviceScope, or run before any
// model existed) on this thread while it lives: a pinned run keeps its whole chain on its device
// whatever auto would do, so where it reads results says nothing about where auto's are read.
class PinnedReads {
 public:
  explicit PinnedReads(bool pinned);
  ~PinnedReads();
  PinnedReads(const PinnedReads&) = delete;
  PinnedReads& operator=(const PinnedReads&) = delete;

 private:
  bool outer_;
};

// Whether results of the work with this signature have mostly been read on the host lately.
bool result_read_on_host(std::uint64_t signature);

}  // namespace switchyard::runtime
