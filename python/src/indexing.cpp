// NumPy's indexing on Array: ints, slices (any step), Ellipsis, None, a bool mask, and one integer
// array; views where NumPy gives views. Writing (a[key] = value) goes through the same key.
#include <string>

#include "convert.hpp"

namespace switchyard::python {
namespace {

// One integer-array (or bool-array) index in a key, and the axis of the view it applies to.
struct ArrayIndex {
  Array index;
  int axis = 0;
};

// What a key selects: a view of the array, and at most one array index still to apply to it.
struct Selection {
  Array view;
  std::optional<ArrayIndex> array_index;
};

bool is_array_index(nb::handle h) {
  return nb::isinstance<Array>(h) || nb::isinstance<nb::list>(h) || nb::hasattr(h, "__dlpack__");
}

// Axes of the array that a key entry consumes: Ellipsis and None consume none.
int consumed_axes(nb::handle entry) {
  if (entry.is_none() || entry.ptr() == Py_Ellipsis) return 0;
  if (is_array_index(entry)) {
    const Array index = to_array(entry);
    return index.dtype() == DType::Bool ? std::max(index.ndim(), 1) : 1;
  }
  return 1;
}

std::int64_t checked_index(std::int64_t i, std::int64_t extent, int axis) {
  if (i < -extent || i >= extent)
    throw IndexError("index " + std::to_string(i) + " is out of bounds for axis " +
                     std::to_string(axis) + " with size " + std::to_string(extent));
  return i < 0 ? i + extent : i;
}

Selection select(const Array& a, nb::handle key) {
  nb::tuple entries =
      nb::isinstance<nb::tuple>(key) ? nb::borrow<nb::tuple>(key) : nb::make_tuple(key);
  int needed = 0, ellipses = 0;
  for (nb::handle e : entries) {
    needed += consumed_axes(e);
    ellipses += e.ptr() == Py_Ellipsis;
  }
  if (ellipses > 1) throw IndexError("an index can only have a single ellipsis ('...')");
  if (needed > a.ndim())
    throw IndexError("too many indices for array: array is " + std::to_string(a.ndim()) +
                     "-dimensional, but " + std::to_string(needed) + " were indexed");
  Selection s{a, std::nullopt};
  int axis = 0;  // the view's axis the next entry applies to
  for (nb::handle e : entries) {
    if (e.ptr() == Py_Ellipsis) {
      axis += a.ndim() - needed;
    } else if (e.is_none()) {
      s.view = s.view.expand_dims(axis++);
    } else if (PySlice_Check(e.ptr())) {
      const auto part = [](nb::handle v) {
        return v.is_none() ? std::nullopt : std::optional(nb::cast<std::int64_t>(v));
      };
      const nb::handle step = e.attr("step");
      s.view = s.view.slice(axis++, part(e.attr("start")), part(e.attr("stop")),
                            step.is_none() ? 1 : nb::cast<std::int64_t>(step));
    } else if (is_array_index(e)) {
      if (s.array_index)
        throw IndexError("only one integer or boolean array per index is supported, given " +
                         nb::cast<std::string>(nb::repr(key)));
      s.array_index = ArrayIndex{to_array(e), axis};
      axis += consumed_axes(e);
    } else if (PyIndex_Check(e.ptr()) && !PyBool_Check(e.ptr())) {
      const std::int64_t i = checked_index(nb::cast<std::int64_t>(e), s.view.shape()[axis], axis);
      s.view = s.view.slice(axis, i, i + 1).squeeze(axis);
    } else {
      throw IndexError(
          "only integers, slices (`:`), ellipsis (`...`), None, integer arrays and "
          "boolean arrays are valid indices, given " +
          nb::cast<std::string>(nb::repr(e)));
    }
  }
  return s;
}

Array get(const Array& a, nb::handle key) {
  Selection s = select(a, key);
  if (!s.array_index) return s.view;
  const ArrayIndex& index = *s.array_index;
  GilRelease release;
  if (index.index.dtype() == DType::Bool) {
    if (index.axis != 0 || index.index.ndim() != s.view.ndim())
      throw IndexError("a boolean index must have the shape of the whole array, given shape " +
                       to_string(index.index.shape()) + " for an array of shape " +
                       to_string(s.view.shape()));
    return compress(s.view, index.index);
  }
  if (!is_integer(index.index.dtype()))
    throw IndexError("arrays used as indices must be of integer or boolean type, given " +
                     std::string(name(index.index.dtype())));
  return take(s.view, index.index, index.axis);
}

void set(const Array& a, nb::handle key, nb::handle value) {
  const Selection s = select(a, key);
  const auto scalar = to_scalar(value);
  const Array array_value = scalar ? Array() : to_array(value);
  GilRelease release;
  if (!s.array_index) {
    if (scalar)
      s.view.assign(*scalar);
    else
      s.view.assign(array_value);
    return;
  }
  const ArrayIndex& index = *s.array_index;
  // a[mask] = value for a value that broadcasts to a: where() writes it in one kernel.
  if (index.index.dtype() != DType::Bool || index.axis != 0 || index.index.ndim() != s.view.ndim())
    throw IndexError(
        "assigning through an integer array index is not supported; assign "
        "through a boolean mask of the array's shape or through slices");
  const Array kept = s.view;
  s.view.assign(scalar ? where(index.index, zero_d(*scalar, kept.dtype()), kept)
                       : where(index.index, array_value.astype(kept.dtype()), kept));
}

}  // namespace

void bind_indexing(nb::class_<Array>& array) {
  array.def("__getitem__", &get);
  array.def("__setitem__", &set);
}

}  // namespace switchyard::python
