// Python values to the C++ API's types, in one place: dtypes, weak scalars, shapes, axes, and
// any array-like operand to an Array.
#pragma once

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "bindings.hpp"
#include "gil.hpp"

namespace switchyard::python {

// A dtype given as switchyard.float32, "float32", numpy.float32, numpy.dtype(...) or a Python
// type (float, int, bool, complex). Throws DTypeError (TypeError in Python) for anything else.
DType to_dtype(nb::handle h);

// A Python bool, int or float as a weak scalar (NumPy 2's rule); nullopt for anything else. An
// int beyond int64 raises OverflowError, as NumPy does.
std::optional<Scalar> to_scalar(nb::handle h);

// An operand of an operation: an Array as it is, a Python scalar as a weak Scalar, anything else
// through switchyard.asarray (NumPy arrays and DLPack producers without a copy).
using Operand = std::variant<Array, Scalar>;
Operand to_operand(nb::handle h);
// The same beside `other`, where a Python complex is weak as NumPy 2's: complex64 beside float32
// and complex64 arrays, complex128 beside any other.
Operand to_operand(nb::handle h, const Operand& other);
// An array operand: Python scalars become 0-d arrays of their default dtype.
Array to_array(nb::handle h);

// A 0-d array of dtype t holding s (converted as NumPy's assignment converts).
Array zero_d(Scalar s, DType t);
// The dtype NumPy 2 gives a Python scalar on its own: bool, int64 or float64.
DType default_dtype(Scalar s);

// Runs f with the GIL released: for calls that compute or wait (kernels, library ops, reading
// values), so other Python threads run meanwhile.
template <class F>
decltype(auto) released(F&& f) {
  GilRelease release;
  return f();
}

// "sum", "prod", "min" or "max" (a scan's or aggregate's fold); ValueError otherwise.
Accumulate to_accumulate(const std::string& op);

// A Python integer (anything with __index__) as int64; nullopt when it does not fit.
std::optional<std::int64_t> to_int64(nb::handle h);
// An extent or count: beyond int64 it is NumPy's ValueError "Maximum allowed dimension exceeded".
std::int64_t to_extent(nb::handle h);
// An int or a sequence of ints.
Shape to_shape(nb::handle h);
// None, an int or a tuple/list of ints. An axis beyond C int raises NumPy's OverflowError.
std::optional<std::vector<int>> to_axes(nb::handle h);
int to_axis(nb::handle h);

// Tuples of Python ints from shapes.
nb::tuple to_tuple(const Dims& dims);

}  // namespace switchyard::python
