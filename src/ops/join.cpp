// Joining arrays, as NumPy's concatenate and stack. The result is allocated once with the joined
// axis outermost in memory, so that each piece's part of it is one contiguous block: the piece's
// pending expression is realised straight into that block (Array::assign), one kernel per piece
// and no intermediate copy. The result is returned as the view that puts the axes back in order.
// Its storage starts unwritten, living nowhere: the first piece's kernel runs where the scheduler
// places it and the storage lives there, so joining data kept on a device does not pull the
// whole result to the host.
#include <string>
#include <vector>

#include "core/checked.hpp"
#include "runtime/buffer.hpp"
#include "switchyard/ops.hpp"

namespace switchyard {
namespace {

void require_pieces(std::span<const Array> arrays, std::string_view fn) {
  if (arrays.empty())
    throw ValueError("need at least one array to " + std::string(fn) +
                     ": expected a non-empty list of arrays");
  for (std::size_t i = 0; i < arrays.size(); ++i)
    if (!arrays[i])
      throw ValueError(std::string(fn) + " given a null Array at index " + std::to_string(i) +
                       ": expected arrays made by a factory");
}

DType joined_dtype(std::span<const Array> arrays) {
  DType t = arrays[0].dtype();
  for (const Array& a : arrays) t = promote_types(t, a.dtype());
  return t;
}

// The axes of an array of rank `rank` with `axis` moved first, and the order that undoes it.
std::vector<int> axis_first(int axis, int rank) {
  std::vector<int> order{axis};
  for (int d = 0; d < rank; ++d)
    if (d != axis) order.push_back(d);
  return order;
}

std::vector<int> inverse(const std::vector<int>& order) {
  std::vector<int> back(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) back[order[i]] = static_cast<int>(i);
  return back;
}

// Joins pieces already checked to agree off `axis` (normalised).
Array join(std::span<const Array> arrays, int axis) {
  const int rank = arrays[0].ndim();
  const DType dtype = joined_dtype(arrays);
  Shape shape = arrays[0].shape();
  shape[axis] = 0;
  for (const Array& a : arrays) shape[axis] += a.shape()[axis];

  const std::vector<int> order = axis_first(axis, rank);
  Shape stored;
  for (int d : order) stored.push_back(shape[d]);
  const Array storage(Buffer::allocate_unwritten(byte_count(stored, dtype)), dtype, stored,
                      contiguous_strides(stored), 0);
  std::int64_t start = 0;
  for (const Array& a : arrays) {
    const std::int64_t stop = start + a.shape()[axis];
    storage.slice(0, start, stop).assign(a.permute(order));
    start = stop;
  }
  return storage.permute(inverse(order));
}

[[noreturn]] void mismatch(std::string_view fn, std::size_t index, const Array& first,
                           const Array& piece, const std::string& expected) {
  throw ShapeError(std::string(fn) + ": the array at index 0 has shape " +
                   to_string(first.shape()) + " and the array at index " + std::to_string(index) +
                   " has shape " + to_string(piece.shape()) + ": expected " + expected);
}

}  // namespace

Array concatenate(std::span<const Array> arrays, std::optional<int> axis) {
  require_pieces(arrays, "concatenate");
  if (!axis) {
    std::vector<Array> flat;
    for (const Array& a : arrays) flat.push_back(a.reshape({-1}));
    return join(flat, 0);
  }
  const Array& first = arrays[0];
  if (first.ndim() == 0)
    throw ValueError(
        "zero-dimensional arrays cannot be concatenated: expected arrays of at least one axis, "
        "or axis=nullopt to join their elements, or stack() to join them along a new axis");
  const int joined = normalize_axis(*axis, first.ndim());
  for (std::size_t i = 1; i < arrays.size(); ++i) {
    const Array& a = arrays[i];
    if (a.ndim() != first.ndim())
      mismatch("concatenate", i, first, a,
               "the same number of dimensions (" + std::to_string(first.ndim()) + "), given " +
                   std::to_string(a.ndim()));
    for (int d = 0; d < first.ndim(); ++d)
      if (d != joined && a.shape()[d] != first.shape()[d])
        mismatch("concatenate", i, first, a,
                 "the same extents off the concatenation axis " + std::to_string(joined) +
                     ", which differ in axis " + std::to_string(d));
  }
  return join(arrays, joined);
}

Array stack(std::span<const Array> arrays, int axis) {
  require_pieces(arrays, "stack");
  const Array& first = arrays[0];
  const int joined = normalize_axis(axis, first.ndim() + 1);
  std::vector<Array> pieces;
  for (std::size_t i = 0; i < arrays.size(); ++i) {
    if (arrays[i].shape() != first.shape())
      mismatch("stack", i, first, arrays[i], "all input arrays to have the same shape");
    pieces.push_back(arrays[i].expand_dims(joined));
  }
  return join(pieces, joined);
}

}  // namespace switchyard
