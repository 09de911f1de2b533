// The CPU's scan, sort, compaction and gather (backend.hpp's LibraryOp contract), each for every
// dtype and spread over oneTBB's threads where the work is large enough to pay for them.
#pragma once

#include "backends/cpu/cpu_library.hpp"

namespace switchyard::cpu {

// Rows in parallel; a long row alone is scanned in blocks by every thread (cpu_scan.cpp).
class ScanRoutine final : public LibraryRoutine {
 public:
  explicit ScanRoutine(const LibraryOp& op);  // throws ValueError for an op other than a fold
  void run(const LibraryArgs& args) const override;

 private:
  LibraryOp op_;
};

// Highway's vqsort per row, rows in parallel; argsort sorts (key, position) composites.
class SortRoutine final : public LibraryRoutine {
 public:
  explicit SortRoutine(const LibraryOp& op) : op_(op) {}
  void run(const LibraryArgs& args) const override;

 private:
  LibraryOp op_;
};

// Count per block, prefix of the counts, then each block writes its kept elements.
class CompactRoutine final : public LibraryRoutine {
 public:
  explicit CompactRoutine(const LibraryOp& op) : op_(op) {}
  void run(const LibraryArgs& args) const override;

 private:
  LibraryOp op_;
};

// Output rows in parallel; positions are trusted to be in range (the caller checked them).
class GatherRoutine final : public LibraryRoutine {
 public:
  explicit GatherRoutine(const LibraryOp& op) : op_(op) {}
  void run(const LibraryArgs& args) const override;

 private:
  LibraryOp op_;
};

}  // namespace switchyard::cpu
