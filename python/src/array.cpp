// switchyard.Array: properties, Python's number protocol, and NumPy's familiar methods. Every
// operator records lazily, as in C++, so a Python expression of arrays becomes one kernel.
#include <string>

#include "operations.hpp"

namespace switchyard::python {
namespace {

// a op other, or other op a when reflected; NotImplemented for operands no array can be made
// of, so that Python tries the other side.
nb::object binary(const BinaryOp& op, const Array& a, nb::handle other, bool reflected) {
  if (nb::isinstance<Array>(other)) {  // the common case, without copying the operand
    const Array& b = *nb::inst_ptr<Array>(other);
    return nb::cast(reflected ? op.arrays(b, a) : op.arrays(a, b), nb::rv_policy::move);
  }
  Operand b;
  try {
    b = to_operand(other, a);
  } catch (const nb::python_error& e) {
    if (!e.matches(PyExc_TypeError)) throw;
    return nb::borrow(Py_NotImplemented);
  }
  return nb::cast(reflected ? apply(op, b, a) : apply(op, a, b), nb::rv_policy::move);
}

// a op= other: the result is written into a's storage (NumPy's same_kind rule, shape kept).
nb::object in_place(const BinaryOp& op, nb::handle self, nb::handle other) {
  const Array& a = nb::cast<const Array&>(self);
  Array result = apply(op, a, to_operand(other, a));
  GilRelease release;
  detail::update(a, std::move(result), op.name);
  return nb::borrow(self);
}

template <class T>
T scalar_value(const Array& a, const char* conversion) {
  if (a.size() != 1)
    throw ValueError(std::string("only arrays of one element convert to Python ") + conversion +
                     ", given shape " + to_string(a.shape()));
  GilRelease release;
  return a.item<T>();
}

nb::object item(const Array& a) {
  switch (a.dtype()) {
    case DType::Bool:
      return nb::bool_(scalar_value<bool>(a, "scalars"));
    case DType::Int32:
    case DType::Int64:
      return nb::int_(scalar_value<std::int64_t>(a, "scalars"));
    case DType::Complex64:
    case DType::Complex128: {
      const Array re = real(a), im = imag(a);
      return nb::steal(PyComplex_FromDoubles(scalar_value<double>(re, "scalars"),
                                             scalar_value<double>(im, "scalars")));
    }
    default:
      return nb::float_(scalar_value<double>(a, "scalars"));
  }
}

const char* const kOperators[][2] = {
    {"add", "add"},         {"sub", "subtract"},          {"mul", "multiply"},
    {"truediv", "divide"},  {"floordiv", "floor_divide"}, {"mod", "mod"},
    {"pow", "power"},       {"and", "bitwise_and"},       {"or", "bitwise_or"},
    {"xor", "bitwise_xor"}, {"lshift", "left_shift"},     {"rshift", "right_shift"},
};

const char* const kComparisons[][2] = {
    {"__eq__", "equal"},      {"__ne__", "not_equal"}, {"__lt__", "less"},
    {"__le__", "less_equal"}, {"__gt__", "greater"},   {"__ge__", "greater_equal"},
};

void bind_operators(nb::class_<Array>& array) {
  for (const auto& [python, numpy] : kOperators) {
    const std::string dunder = std::string("__") + python + "__";
    const BinaryOp* op = &binary_op(numpy);
    array.def(
        dunder.c_str(), [op](const Array& a, nb::handle b) { return binary(*op, a, b, false); },
        nb::arg("other").none());
    array.def(("__r" + std::string(python) + "__").c_str(),
              [op](const Array& a, nb::handle b) { return binary(*op, a, b, true); },
              nb::arg("other").none());
    array.def(("__i" + std::string(python) + "__").c_str(),
              [op](nb::handle a, nb::handle b) { return in_place(*op, a, b); },
              nb::arg("other").none());
  }
  for (const auto& [dunder, numpy] : kComparisons) {
    const BinaryOp* op = &binary_op(numpy);
    array.def(
        dunder, [op](const Array& a, nb::handle b) { return binary(*op, a, b, false); },
        nb::arg("other").none());
  }
  array.attr("__hash__") = nb::none();  // mutable, compared elementwise: unhashable, as NumPy's
  array.def("__matmul__", [](const Array& a, nb::handle b) {
    const Array other = to_array(b);
    GilRelease release;
    return matmul(a, other);
  });
  array.def("__rmatmul__", [](const Array& a, nb::handle b) {
    const Array other = to_array(b);
    GilRelease release;
    return matmul(other, a);
  });
  array.def("__imatmul__", [](nb::handle self, nb::handle b) {
    const Array& a = nb::cast<const Array&>(self);
    const Array other = to_array(b);
    {
      GilRelease release;
      detail::update(a, matmul(a, other), "matmul");
    }
    return nb::borrow(self);
  });
  array.def("__neg__", [](const Array& a) { return negative(a); });
  array.def("__pos__", [](const Array& a) {
    if (a.dtype() == DType::Bool)
      throw DTypeError("unary + is not defined for bool arrays (NumPy raises too): given bool");
    return a;
  });
  array.def("__abs__", [](const Array& a) { return abs(a); });
  array.def("__invert__", [](const Array& a) { return invert(a); });
}

void bind_conversions(nb::class_<Array>& array) {
  array.def("item", &item, "The one element as a Python scalar.");
  array.def("__bool__", [](const Array& a) { return scalar_value<bool>(a, "bool"); });
  // float() and int() of a complex array raise, as Python's own of a complex number do.
  const auto require_real = [](const Array& a, const char* conversion) {
    if (is_complex(a.dtype()))
      throw DTypeError(std::string("can't convert a ") + std::string(name(a.dtype())) +
                       " array to " + conversion +
                       ": expected a real array; take real(x) or abs(x)");
  };
  array.def("__float__", [require_real](const Array& a) {
    require_real(a, "float");
    return scalar_value<double>(a, "float");
  });
  array.def("__int__", [require_real](const Array& a) {
    require_real(a, "int");
    return is_floating(a.dtype()) ? nb::int_(nb::float_(scalar_value<double>(a, "int")))
                                  : nb::int_(scalar_value<std::int64_t>(a, "int"));
  });
  array.def("__index__", [](const Array& a) {
    if (!is_integer(a.dtype()))
      throw DTypeError("only integer arrays are indices: given " + std::string(name(a.dtype())));
    return scalar_value<std::int64_t>(a, "int");
  });
  array.def("__complex__", [](const Array& a) { return nb::cast<std::complex<double>>(item(a)); });
  array.def("__len__", [](const Array& a) {
    if (a.ndim() == 0) throw nb::type_error("len() of a 0-d array");
    return a.shape()[0];
  });
}

void bind_properties(nb::class_<Array>& array) {
  array.def_prop_ro("dtype", &Array::dtype);
  array.def_prop_ro("shape", [](const Array& a) { return to_tuple(a.shape()); });
  array.def_prop_ro("ndim", &Array::ndim);
  array.def_prop_ro("size", &Array::size);
  array.def_prop_ro("itemsize", &Array::itemsize);
  array.def_prop_ro("nbytes", &Array::nbytes);
  // In bytes, as NumPy's.
  array.def_prop_ro("strides", [](const Array& a) {
    Strides bytes = a.strides();
    for (std::int64_t& s : bytes) s *= static_cast<std::int64_t>(a.itemsize());
    return to_tuple(bytes);
  });
  array.def_prop_ro("T", [](const Array& a) {
    if (a.ndim() != 2)
      throw ValueError("x.T needs a 2-D array (the array API standard's rule), given " +
                       std::to_string(a.ndim()) + "-D: use permute_dims or mT");
    return a.transpose();
  });
  array.def_prop_ro("mT", [](const Array& a) {
    if (a.ndim() < 2)
      throw ValueError("x.mT needs at least 2 dimensions, given " + std::to_string(a.ndim()));
    std::vector<int> axes(a.ndim());
    for (int i = 0; i < a.ndim(); ++i) axes[i] = i;
    std::swap(axes[a.ndim() - 1], axes[a.ndim() - 2]);
    return a.permute(axes);
  });
  array.def_prop_ro("real", [](const Array& a) { return real(a); });
  array.def_prop_ro("imag", [](const Array& a) { return imag(a); });
  array.def_prop_ro("pending", &Array::pending,
                    "Whether the value is still to be computed (a lazy expression).");
  array.def("locations", &Array::locations,
            "Where valid copies of the data are now: 'host', 'opencl:0', ...");
  array.def("is_contiguous", &Array::is_contiguous);
}

void bind_methods(nb::class_<Array>& array) {
  array.def(
      "eval",
      [](nb::handle self) {
        {
          const Array& a = nb::cast<const Array&>(self);
          GilRelease release;
          eval(a);
        }
        return nb::borrow(self);
      },
      "Computes a pending array now (in one kernel with the expression behind it); returns it.");
  array.def(
      "astype",
      [](const Array& a, nb::handle dtype, bool copy) {
        const DType t = to_dtype(dtype);
        return !copy && t == a.dtype() ? a : a.astype(t);
      },
      nb::arg("dtype"), nb::kw_only(), nb::arg("copy") = true);
  array.def("copy", &Array::copy);
  array.def("reshape", [](const Array& a, nb::args shape) {
    return a.reshape(to_shape(shape.size() == 1 ? shape[0] : shape));
  });
  array.def("transpose", [](const Array& a, nb::args axes) {
    if (axes.size() == 0) return a.transpose();
    const auto order = to_axes(axes.size() == 1 ? axes[0] : axes);
    return a.permute(*order);
  });
  array.def("flatten", [](const Array& a) { return a.reshape(Shape{-1}).copy(); });
  array.def("ravel", [](const Array& a) { return a.reshape(Shape{-1}); });
  array.def(
      "squeeze", [](const Array& a, std::optional<int> axis) { return a.squeeze(axis); },
      nb::arg("axis") = nb::none());
  array.def("fill", [](const Array& a, nb::handle value) {
    const auto s = to_scalar(value);
    if (!s) throw nb::type_error("fill() takes a Python bool, int or float");
    GilRelease release;
    a.fill(*s);
  });
  array.def("mark_modified", &Array::mark_modified,
            "Says the host memory behind this array was written outside Switchyard (through "
            "NumPy or DLPack): copies on devices are stale from now on.");
}

}  // namespace

void bind_array(nb::class_<Array>& array) {
  bind_properties(array);
  bind_conversions(array);
  bind_operators(array);
  bind_methods(array);
}

}  // namespace switchyard::python
