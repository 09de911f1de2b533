// Where a kernel's result is wanted next, learned from the work that read the same work's results
// before: where that work ran, or would have run faster had its inputs been there. Eager work does
// not say where its result goes; guessing from its inputs alone misleads both ways: a sum over data
// kept on a device is still read on the host when a Python loop tests it (pricing it as if it
// stayed there put a 10^5-element query's reductions on PoCL, which then paid the read-back in the
// next kernel), and a matrix assembled on the host from host data is read by a product on the GPU
// (pricing it as if it stayed on the host kept the assembly there, and the product paid the copy
// every run).
#pragma once

#include <cstdint>

#include "backends/backend.hpp"

namespace switchyard::runtime {

// What result_destination() knows: nothing yet, the host, or a device's index in the registry's
// device list (the scheduler's InputPlacement bits).
inline constexpr int kDestinationUnknown = -2;
inline constexpr int kDestinationHost = -1;

// A result of the work with this signature, over this many elements, is read by work that wants it
// on `where` (the host: a host-addressable device, or null for the caller's own reads). Kept per
// size bucket (scheduler::size_bucket), since one kernel serves several ends: a copy assembling a
// matrix for a product on the GPU, and copies of a few thousand values for the host's next step.
// Not counted while work pinned to its device reads it (below).
void note_result_wanted(std::uint64_t signature, std::int64_t elements, const Device* where);

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

// Where results of the work with this signature have mostly been wanted lately: kDestinationHost,
// a device's index, or kDestinationUnknown.
int result_destination(std::uint64_t signature, std::int64_t elements);

}  // namespace switchyard::runtime
