// The one order in which the reproducible reductions add float64 values, on the host, so that
// the bits of a sum depend on the values and their order alone: never on the device, the CPU
// code path, the compiler's vectorisation or the number of ranks.
#pragma once

#include <span>

namespace switchyard::dist {

// Adds neighbours level by level, (v0 + v1), (v2 + v3), ..., an odd last value carried up
// unchanged, until one value is left; 0 when there are none. The error grows as log2 of the
// count, as for any pairwise sum. Overwrites `values` as it goes.
double fixed_order_sum(std::span<double> values);

}  // namespace switchyard::dist
