// The CPU's scan, sort, compaction and gather (backend.hpp's LibraryOp contract), each for every
// dtype and spread over oneTBB's threads where the work is large enough to pay for them.
#pragma once

#include "backends/cpu/cpu_library.hpp"

namespace switchyard::cpu {

// Rows in parallel; a long row alone is scanned in blocks by every thread (cpu_scan.cpp).
class ScanRoutine final : public Routine {
 public:
  ScanRoutine(switchyard::Device& device,
              const LibraryOp& op);  // throws ValueError for an op other than a fold
  void launch(const LibraryArgs& args) override;
};

// Highway's vqsort per row, rows in parallel; argsort sorts (key, position) composites.
class SortRoutine final : public Routine {
 public:
  SortRoutine(switchyard::Device& device, const LibraryOp& op) : Routine(device, op) {}
  void launch(const LibraryArgs& args) override;
};

// Count per block, prefix of the counts, then each block writes its kept elements.
class CompactRoutine final : public Routine {
 public:
  CompactRoutine(switchyard::Device& device, const LibraryOp& op) : Routine(device, op) {}
  void launch(const LibraryArgs& args) override;
};

// Output rows in parallel; positions are trusted to be in range (the caller checked them).
class GatherRoutine final : public Routine {
 public:
  GatherRoutine(switchyard::Device& device, const LibraryOp& op) : Routine(device, op) {}
  void launch(const LibraryArgs& args) override;
};

}  // namespace switchyard::cpu
