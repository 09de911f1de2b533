// Trailing reductions of a kernel: how one block of a folded output's values is folded into
// a running Partial, how Partials of consecutive parts of a row combine, and how the result is
// stored. The executor (cpu_launch.cpp) decides which parts of which rows go to which thread.
#pragma once

#include <cstdint>

#include "ir/kernel_ir.hpp"

namespace switchyard::cpu {

// A reduction over some consecutive elements of one row.
struct Partial {
  double f = 0;            // value for float dtypes
  std::int64_t i = 0;      // value for bool and integer dtypes
  std::int64_t index = 0;  // arg reductions: position of the value within the row
  bool empty = true;
};

struct Fold {
  // Folds n values (the kernel output's dtype) at positions first.. of their row into acc.
  void (*block)(const void* values, std::int64_t n, std::int64_t first, Partial& acc);
  // Appends `later`, which covers positions after those of `acc`.
  void (*combine)(Partial& acc, const Partial& later);
  // Writes the result as reduce_result(op, t); empty sums give 0 and empty products 1.
  void (*store)(const Partial& acc, void* out);
};

Fold fold_for(ir::ReduceOp op, DType t);

}  // namespace switchyard::cpu
