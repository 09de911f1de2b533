// Kernels that fold several outputs at once, written once and run on every backend through the
// Device interface: two and three reductions of one kernel (sum of x beside sum of x*x; min, max
// and argmax; a bool count beside a float max), over all elements or 1 to 3 trailing axes of
// 1-D to 4-D launches, with contiguous, transposed, reversed and broadcast inputs, sizes 0, 1,
// odd and above 2^20. Every result is checked against a float64 fold computed here from the
// host copy of the inputs, independently of the backends' code.
#pragma once

#include <functional>
#include <span>
#include <string>
#include <vector>

#include "backends/backend.hpp"

namespace switchyard::testing_support {

// One input: the values of its memory, element by element, and how the launch reads them.
struct HostInput {
  DType dtype;
  ir::Layout layout;
  std::vector<double> storage;
  std::int64_t offset = 0;
  Strides strides;  // over the launch shape, in elements
};

// What one output folds: the value its kernel computes at an element, from the inputs' values
// there, in float64.
struct FoldedValue {
  ir::ReduceOp op;
  DType dtype;  // the output's dtype
  std::function<double(std::span<const double> inputs)> at;
};

struct ReductionCase {
  std::string name;
  ir::Kernel kernel;
  Shape shape;
  std::vector<HostInput> inputs;
  std::vector<FoldedValue> folded;  // one per output
};

// Cases every device runs in well under a second; `fp64`: include float64 ones.
std::vector<ReductionCase> multi_reduction_cases(bool fp64);

// Cases whose inputs (about 40 MiB each) outweigh a host's caches, so a CPU launch streams them
// from memory; rows long and short.
std::vector<ReductionCase> large_multi_reduction_cases();

// Each output's results, one per row, as double (Arg ops: the index): the outputs are written
// at an offset into memory that starts out as garbage.
std::vector<std::vector<double>> run_case(Device& device, const ReductionCase& c,
                                          Parallelism parallelism = Parallelism::Auto);

// Runs the case and compares every row of every output with the float64 reference.
void expect_case_matches(Device& device, const ReductionCase& c);

}  // namespace switchyard::testing_support
