// NumPy's indexing on Array: ints, slices (any step), Ellipsis, None, True/False, a bool mask,
// and one integer array; views where NumPy gives views. Writing (a[key] = value) goes through
// the same key.
#include <cmath>
#include <string>
#include <variant>

#include "convert.hpp"

namespace switchyard::python {
namespace {

struct NewAxis {};
struct Ellipsis {};
struct Slice {
  std::optional<std::int64_t> start, stop;
  std::int64_t step = 1;
};
// An integer index; nullopt when it does not fit int64 (out of bounds for any axis).
struct Integer {
  std::optional<std::int64_t> value;
};
// True or False (a Python bool, numpy.bool_ or a 0-d bool array): NumPy adds an axis of extent
// 1 or 0 there.
struct ScalarMask {
  bool value;
};
// A bool mask (covering as many axes as it has) or an integer array (taking along one axis).
struct ArrayIndex {
  Array index;
};
using Entry = std::variant<NewAxis, Ellipsis, Slice, Integer, ScalarMask, ArrayIndex>;

// What a key selects: a view of the array, and at most one array index still to apply to it at
// the view's axis `axis`.
struct Selection {
  Array view;
  std::optional<Array> index;
  int axis = 0;
};

std::string text(nb::handle h) {
  return nb::cast<std::string>(nb::repr(h));
}

// Slice bounds as Python clamps them: beyond int64 they lie outside every axis anyway.
std::optional<std::int64_t> slice_bound(nb::handle h) {
  if (h.is_none()) return std::nullopt;
  if (const auto v = to_int64(h)) return v;
  return PyObject_RichCompareBool(h.ptr(), nb::int_(0).ptr(), Py_GT) ? INT64_MAX : INT64_MIN;
}

bool is_array_like(nb::handle h) {
  return nb::isinstance<Array>(h) || nb::isinstance<nb::list>(h) || nb::hasattr(h, "__dlpack__") ||
         nb::hasattr(h, "__array_interface__");
}

Entry parse(nb::handle e) {
  if (e.ptr() == Py_Ellipsis) return Ellipsis{};
  if (e.is_none()) return NewAxis{};
  if (PySlice_Check(e.ptr())) {
    const nb::handle step = e.attr("step");
    return Slice{slice_bound(e.attr("start")), slice_bound(e.attr("stop")),
                 step.is_none() ? 1 : slice_bound(step).value()};
  }
  if (PyBool_Check(e.ptr())) return ScalarMask{e.ptr() == Py_True};
  if (PyLong_Check(e.ptr())) return Integer{to_int64(e)};
  if (nb::isinstance<nb::list>(e) && nb::len(e) == 0)  // NumPy: an empty integer index
    return ArrayIndex{Array::zeros(Shape{0}, DType::Int64)};
  // Arrays (and NumPy's scalars, 0-d arrays to it): a 0-d one is a scalar index, as in NumPy.
  if (is_array_like(e)) {
    const Array index = to_array(e);
    if (index.ndim() == 0 && index.dtype() == DType::Bool) return ScalarMask{index.item<bool>()};
    if (index.ndim() == 0 && is_integer(index.dtype())) return Integer{index.item<std::int64_t>()};
    return ArrayIndex{index};
  }
  if (PyIndex_Check(e.ptr())) return Integer{to_int64(e)};
  throw IndexError(
      "only integers, slices (`:`), ellipsis (`...`), None, integer arrays and boolean arrays "
      "are valid indices, given " +
      text(e));
}

// Axes of the array that an entry consumes: Ellipsis, None and True/False consume none.
int consumed_axes(const Entry& e) {
  if (std::holds_alternative<NewAxis>(e) || std::holds_alternative<Ellipsis>(e) ||
      std::holds_alternative<ScalarMask>(e))
    return 0;
  if (const auto* a = std::get_if<ArrayIndex>(&e))
    return a->index.dtype() == DType::Bool ? a->index.ndim() : 1;
  return 1;
}

std::int64_t checked_index(const Integer& i, nb::handle source, std::int64_t extent, int axis) {
  if (!i.value || *i.value < -extent || *i.value >= extent)
    throw IndexError("index " + text(source) + " is out of bounds for axis " +
                     std::to_string(axis) + " with size " + std::to_string(extent));
  return *i.value < 0 ? *i.value + extent : *i.value;
}

// A bool mask must match the axes it covers, extent for extent (NumPy's IndexError).
void check_mask(const Array& mask, const Array& view, int axis) {
  for (int d = 0; d < mask.ndim(); ++d)
    if (mask.shape()[d] != view.shape()[axis + d])
      throw IndexError(
          "boolean index did not match indexed array along axis " + std::to_string(axis + d) +
          "; size of axis is " + std::to_string(view.shape()[axis + d]) +
          " but size of corresponding boolean axis is " + std::to_string(mask.shape()[d]));
}

Selection select(const Array& a, nb::handle key) {
  nb::tuple items =
      nb::isinstance<nb::tuple>(key) ? nb::borrow<nb::tuple>(key) : nb::make_tuple(key);
  std::vector<Entry> entries;
  int needed = 0, ellipses = 0;
  for (nb::handle item : items) {
    entries.push_back(parse(item));
    needed += consumed_axes(entries.back());
    ellipses += std::holds_alternative<Ellipsis>(entries.back());
  }
  if (ellipses > 1) throw IndexError("an index can only have a single ellipsis ('...')");
  if (needed > a.ndim())
    throw IndexError("too many indices for array: array is " + std::to_string(a.ndim()) +
                     "-dimensional, but " + std::to_string(needed) + " were indexed");
  Selection s{a, std::nullopt};
  int axis = 0;  // the view's axis the next entry applies to
  for (std::size_t k = 0; k < entries.size(); ++k) {
    const Entry& e = entries[k];
    if (std::holds_alternative<Ellipsis>(e)) {
      axis += a.ndim() - needed;
    } else if (std::holds_alternative<NewAxis>(e)) {
      s.view = s.view.expand_dims(axis++);
    } else if (const auto* mask = std::get_if<ScalarMask>(&e)) {
      s.view = s.view.expand_dims(axis);
      if (!mask->value) s.view = s.view.slice(axis, 0, 0);
      ++axis;
    } else if (const auto* slice = std::get_if<Slice>(&e)) {
      s.view = s.view.slice(axis++, slice->start, slice->stop, slice->step);
    } else if (const auto* integer = std::get_if<Integer>(&e)) {
      const std::int64_t i = checked_index(*integer, items[k], s.view.shape()[axis], axis);
      s.view = s.view.slice(axis, i, i + 1).squeeze(axis);
    } else {
      if (s.index)
        throw IndexError("only one integer or boolean array per index is supported, given " +
                         text(key));
      const Array& index = std::get<ArrayIndex>(e).index;
      if (index.dtype() == DType::Bool) {
        check_mask(index, s.view, axis);
      } else if (!is_integer(index.dtype())) {
        throw IndexError("arrays used as indices must be of integer or boolean type, given " +
                         std::string(name(index.dtype())));
      }
      s.index = index, s.axis = axis;
      axis += consumed_axes(e);
    }
  }
  return s;
}

// The view with the mask's axes [axis, axis + mask.ndim()) merged into one, and the mask's
// true positions along it: a[mask] is then a take along that axis.
struct MergedMask {
  Array view;
  Array positions;
};

MergedMask merge_mask_axes(const Array& view, const Array& mask, int axis) {
  Shape merged;
  for (int d = 0; d < axis; ++d) merged.push_back(view.shape()[d]);
  merged.push_back(mask.size());
  for (int d = axis + mask.ndim(); d < view.ndim(); ++d) merged.push_back(view.shape()[d]);
  return {view.reshape(merged), flatnonzero(mask)};
}

Array get(const Array& a, nb::handle key) {
  const Selection s = select(a, key);
  if (!s.index) return s.view;
  const Array& index = *s.index;
  GilRelease release;
  if (index.dtype() != DType::Bool) return take(s.view, index, s.axis);
  if (s.axis == 0 && index.ndim() == s.view.ndim()) return compress(s.view, index);
  const MergedMask m = merge_mask_axes(s.view, index, s.axis);
  return take(m.view, m.positions, s.axis);
}

// NumPy's scalar conversion on assignment: NaN and infinity have no integer value, and a float
// beyond the dtype's range does not fit (x.fill(nan) raises, rather than writing INT_MIN).
void check_scalar_write(const Scalar& value, DType dtype) {
  if (value.kind != ScalarKind::Float || !is_integer(dtype)) return;
  if (std::isnan(value.f)) throw ValueError("cannot convert float NaN to integer");
  const double lo = dtype == DType::Int32 ? -0x1p31 : -0x1p63, whole = std::trunc(value.f);
  if (std::isinf(value.f)) {
    PyErr_SetString(PyExc_OverflowError, "cannot convert float infinity to integer");
    throw nb::python_error();
  }
  if (whole < lo || whole >= -lo) {
    PyErr_Format(PyExc_OverflowError, "Python integer %.0f out of bounds for %s", whole,
                 std::string(name(dtype)).c_str());
    throw nb::python_error();
  }
}

// a[mask] = value: NumPy broadcasts the value to the selection's shape (the true elements in
// order, with the axes the mask does not cover) and writes it there. Written as one where()
// over the whole view: the value of true element j is the value's element j along the mask's
// axis, found by counting the true elements before it.
Array masked_write(const Array& view, const Array& mask, int axis, const Array& value) {
  Shape spread = Dims::filled(view.ndim(), 1);  // the mask's shape at its axes, 1 elsewhere
  for (int d = 0; d < mask.ndim(); ++d) spread[axis + d] = mask.shape()[d];
  const Array where_true = mask.reshape(spread);
  const int kept_axes = view.ndim() - mask.ndim() + 1;  // the selection's rank
  if (value.size() == 1 && value.ndim() <= kept_axes)
    return where(where_true, value.reshape(Shape{}).astype(view.dtype()), view);
  const MergedMask m = merge_mask_axes(view, mask, axis);
  Shape selection = m.view.shape();
  selection[axis] = m.positions.size();
  const Array values = value.broadcast_to(selection);
  if (m.positions.size() == 0) return view;
  const Array rank = maximum(cumsum(mask) - 1, 0);  // of each element among the true ones
  const Array spread_values = take(values, rank, axis).reshape(view.shape());
  return where(where_true, spread_values.astype(view.dtype()), view);
}

void set(const Array& a, nb::handle key, nb::handle value) {
  const Selection s = select(a, key);
  const auto scalar = to_scalar(value);
  if (scalar) check_scalar_write(*scalar, a.dtype());
  const Array array_value = scalar ? Array() : to_array(value);
  GilRelease release;
  if (!s.index) {
    if (scalar)
      s.view.assign(*scalar);
    else
      s.view.assign(array_value);
    return;
  }
  if (s.index->dtype() != DType::Bool)
    throw IndexError(
        "assigning through an integer array index is not supported; assign "
        "through a boolean mask or through slices");
  s.view.assign(
      masked_write(s.view, *s.index, s.axis, scalar ? zero_d(*scalar, a.dtype()) : array_value));
}

}  // namespace

void bind_indexing(nb::class_<Array>& array) {
  // None is a key (a new axis), which nanobind refuses for an argument unless told.
  array.def("__getitem__", &get, nb::arg("key").none());
  array.def("__setitem__", &set, nb::arg("key").none(), nb::arg("value").none());
}

}  // namespace switchyard::python
