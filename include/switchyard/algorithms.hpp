// Scans, sorts, compaction and gathers: NumPy's cumulative folds, sort/argsort, boolean
// selection, nonzero and take. Each runs as one library operation on the device the runtime
// chooses; pending operands are computed first (their fusion ends here). Axis arguments may be
// negative (counting from the end); an axis outside the array is an IndexError.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "switchyard/array.hpp"

namespace switchyard {

// ---- scans
enum class Accumulate : std::uint8_t { Sum, Prod, Min, Max };
// NumPy's cumsum/cumprod (and minimum/maximum.accumulate): along `axis`, or over the flattened
// array when absent; bool and int32 sums/products give int64 (NumPy on Linux). Exclusive: element
// i folds the elements before it, starting from the fold's identity. Min and max propagate NaN.
// Complex arrays take Sum (each part summed) and Prod.
Array scan(const Array& a, Accumulate op, std::optional<int> axis = std::nullopt,
           bool exclusive = false);
Array cumsum(const Array& a, std::optional<int> axis = std::nullopt);
Array cumprod(const Array& a, std::optional<int> axis = std::nullopt);

// ---- sorting (numeric dtypes: bool is a DTypeError)
// Sorted copy / stable sorting permutation (int64) along `axis` (nullopt: flattened), NaN last;
// -0.0 and 0.0 are equal. Complex elements in NumPy's order: R + Rj < R + nanj < nan + Rj <
// nan + nanj, each group by real part, then imaginary part.
Array sort(const Array& a, std::optional<int> axis = -1);
Array argsort(const Array& a, std::optional<int> axis = -1);
// The k largest (or smallest) along `axis`, ordered from the extreme, with their int64 positions.
// Ties: smallest keeps increasing positions, largest decreasing ones (the stable ascending order
// read backwards); NaN counts as the largest value. k outside [0, extent] is a ValueError.
struct TopK {
  Array values, indices;
};
TopK top_k(const Array& a, std::int64_t k, int axis = -1, bool largest = true);

// ---- selection
// a[mask] (mask bool, a's shape): the selected elements, 1-D, in row-major order.
Array compress(const Array& a, const Array& mask);
// NumPy's nonzero: one int64 array per axis; flatnonzero: positions in the flattened array.
// nonzero of a 0-d array is a ValueError, as in NumPy 2.
std::vector<Array> nonzero(const Array& a);
Array flatnonzero(const Array& a);
// NumPy's take: elements at int `indices` (negative count from the end) along `axis`, or from
// the flattened array when absent; the result's shape replaces the axis with indices' shape. An
// index outside [-extent, extent) is an IndexError naming it and the extent.
Array take(const Array& a, const Array& indices, std::optional<int> axis = std::nullopt);

}  // namespace switchyard
