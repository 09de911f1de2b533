#include "convert.hpp"

#include <climits>
#include <string>

namespace switchyard::python {

DType to_dtype(nb::handle h) {
  if (nb::isinstance<DType>(h)) return nb::cast<DType>(h);
  if (nb::isinstance<nb::str>(h)) return parse_dtype(nb::cast<std::string>(h));
  if (h.is(reinterpret_cast<PyObject*>(&PyBool_Type))) return DType::Bool;
  if (h.is(reinterpret_cast<PyObject*>(&PyLong_Type))) return DType::Int64;
  if (h.is(reinterpret_cast<PyObject*>(&PyFloat_Type))) return DType::Float64;
  if (h.is(reinterpret_cast<PyObject*>(&PyComplex_Type))) return DType::Complex128;
  // numpy.float32, numpy.dtype('float32') and anything else with a dtype name NumPy knows.
  if (nb::hasattr(h, "dtype") && nb::hasattr(h.attr("dtype"), "name"))
    return parse_dtype(nb::cast<std::string>(h.attr("dtype").attr("name")));
  if (nb::hasattr(h, "name") && nb::hasattr(h, "kind") && nb::hasattr(h, "itemsize"))
    return parse_dtype(nb::cast<std::string>(h.attr("name")));
  throw DTypeError(
      "expected a dtype (switchyard.float32, 'float32', numpy.float32, float, ...), "
      "given " +
      nb::cast<std::string>(nb::repr(h)));
}

std::optional<Scalar> to_scalar(nb::handle h) {
  PyObject* o = h.ptr();
  if (PyBool_Check(o)) return Scalar(o == Py_True);
  if (PyLong_Check(o)) {
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow) {
      PyErr_Format(PyExc_OverflowError, "Python integer %R out of bounds for int64", o);
      throw nb::python_error();
    }
    return Scalar(v);
  }
  if (PyFloat_Check(o)) return Scalar(PyFloat_AS_DOUBLE(o));
  return std::nullopt;
}

Array zero_d(Scalar s, DType t) {
  Array r = Array::zeros(Shape{}, t);
  r.assign(s);
  return r;
}

DType default_dtype(Scalar s) {
  return s.kind == ScalarKind::Bool  ? DType::Bool
         : s.kind == ScalarKind::Int ? DType::Int64
                                     : DType::Float64;
}

namespace {

nb::handle asarray() {
  // Imported on first use: the package imports this extension, not the other way round. Never
  // released: a static nb::object would be decref'd at exit, after the interpreter is gone.
  static nb::handle fn = nb::object(nb::module_::import_("switchyard").attr("asarray")).release();
  return fn;
}

}  // namespace

Operand to_operand(nb::handle h) {
  if (nb::isinstance<Array>(h)) return nb::cast<Array>(h);
  if (auto s = to_scalar(h)) return *s;
  return nb::cast<Array>(asarray()(h));
}

Operand to_operand(nb::handle h, const Operand& other) {
  const Array* beside = std::get_if<Array>(&other);
  if (!beside || !PyComplex_Check(h.ptr())) return to_operand(h);
  const DType t = beside->dtype();
  const DType parts =
      t == DType::Float32 || t == DType::Complex64 ? DType::Float32 : DType::Float64;
  const Py_complex c = PyComplex_AsCComplex(h.ptr());
  return complex_from(Array::full(Shape{}, c.real, parts), Array::full(Shape{}, c.imag, parts));
}

Array to_array(nb::handle h) {
  if (nb::isinstance<Array>(h)) return nb::cast<Array>(h);
  return nb::cast<Array>(asarray()(h));
}

Accumulate to_accumulate(const std::string& op) {
  if (op == "sum") return Accumulate::Sum;
  if (op == "prod") return Accumulate::Prod;
  if (op == "min") return Accumulate::Min;
  if (op == "max") return Accumulate::Max;
  throw ValueError("expected op 'sum', 'prod', 'min' or 'max', given '" + op + "'");
}

std::optional<std::int64_t> to_int64(nb::handle h) {
  const nb::object i = nb::steal(PyNumber_Index(h.ptr()));
  if (!i) throw nb::python_error();
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(i.ptr(), &overflow);
  if (overflow) return std::nullopt;
  return v;
}

std::int64_t to_extent(nb::handle h) {
  const auto v = to_int64(h);
  if (!v)
    throw ValueError("Maximum allowed dimension exceeded: the extent " +
                     nb::cast<std::string>(nb::repr(h)) + " does not fit int64");
  return *v;
}

Shape to_shape(nb::handle h) {
  Shape shape;
  if (PyLong_Check(h.ptr())) {
    shape.push_back(to_extent(h));
    return shape;
  }
  if (!PySequence_Check(h.ptr()))
    throw ValueError("expected a shape (an int or a sequence of ints), given " +
                     nb::cast<std::string>(nb::repr(h)));
  for (nb::handle extent : nb::iter(h)) {
    if (!PyLong_Check(extent.ptr()) && !PyIndex_Check(extent.ptr()))
      throw ValueError("expected a shape of ints, given " + nb::cast<std::string>(nb::repr(h)));
    shape.push_back(to_extent(extent));
  }
  return shape;
}

int to_axis(nb::handle h) {
  const auto v = to_int64(h);
  if (!v || *v < INT_MIN || *v > INT_MAX) {
    PyErr_Format(PyExc_OverflowError, "Python int %R too large to convert to C int", h.ptr());
    throw nb::python_error();
  }
  return static_cast<int>(*v);
}

std::optional<std::vector<int>> to_axes(nb::handle h) {
  if (h.is_none()) return std::nullopt;
  if (PyIndex_Check(h.ptr())) return std::vector<int>{to_axis(h)};
  std::vector<int> axes;
  for (nb::handle a : nb::iter(h)) axes.push_back(to_axis(a));
  return axes;
}

nb::tuple to_tuple(const Dims& dims) {
  nb::object t = nb::steal(PyTuple_New(dims.size()));
  for (int i = 0; i < dims.size(); ++i) PyTuple_SET_ITEM(t.ptr(), i, PyLong_FromLongLong(dims[i]));
  return nb::borrow<nb::tuple>(t);
}

}  // namespace switchyard::python
