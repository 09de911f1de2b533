// How many items and work-groups to launch for the entry points of codegen.hpp's ABI: one
// policy shared by every backend that runs generated code.
#pragma once

#include <cstdint>

#include "codegen/codegen.hpp"
#include "switchyard/shape.hpp"

namespace switchyard::codegen {

struct MapPlan {
  std::int64_t groups = 0;  // work-groups of target.local_size items; 0: nothing to launch
};

struct ReducePlan {
  std::int64_t rows = 0, row_len = 0, parts = 1;
  bool by_rows = false;     // sy_reduce_rows, one item per row; else sy_reduce_partial
  std::int64_t groups = 0;  // work-groups of target.local_size items; 0: nothing to launch
  bool final_pass() const { return !by_rows && parts > 1; }
};

// `max_groups`: how many work-groups keep the device busy (a few per compute unit on CPUs,
// where each group runs on one thread; many more on GPUs).
MapPlan plan_map(std::int64_t n, const Target& target, std::int64_t max_groups);
ReducePlan plan_reduction(const ir::FoldedRows& rows, const Target& target,
                          std::int64_t max_groups);

}  // namespace switchyard::codegen
