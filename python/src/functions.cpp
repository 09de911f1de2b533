// The module's functions over arrays: elementwise (from the tables in operations.cpp),
// reductions, joins, linear algebra, scans, sorts, selection, FFT, factories and string
// expressions. Array-API names that differ from these (pow, remainder, ...) are aliases in
// switchyard/__init__.py.
#include <algorithm>
#include <string>

#include "operations.hpp"

namespace switchyard::python {
namespace {

using Axes = std::optional<std::vector<int>>;

// None or one int: an axis argument taken as a Python object, so that one beyond C int raises
// NumPy's OverflowError rather than nanobind's "incompatible function arguments".
std::optional<int> optional_axis(nb::handle h) {
  if (h.is_none()) return std::nullopt;
  return to_axis(h);
}

// NumPy's tuple of axes for squeeze and expand_dims: each in range for `rank`, none twice;
// sorted ascending.
std::vector<int> distinct_axes(const std::vector<int>& axes, int rank, std::string_view fn) {
  std::vector<int> out;
  for (int axis : axes) {
    const int d = normalize_axis(axis, rank);
    if (std::find(out.begin(), out.end(), d) != out.end())
      throw ValueError(std::string(fn) + " repeats axis " + std::to_string(axis) +
                       ": expected each axis at most once");
    out.push_back(d);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// NumPy's reductions take axis=None, an int or a tuple of ints.
template <Array (*One)(const Array&, std::optional<int>, bool),
          Array (*Many)(const Array&, std::span<const int>, bool)>
Array reduce(nb::handle x, nb::handle axis, bool keepdims) {
  const Array a = to_array(x);
  const Axes axes = to_axes(axis);
  if (!axes) return One(a, std::nullopt, keepdims);
  return Many(a, *axes, keepdims);
}

template <Array (*One)(const Array&, std::optional<int>, bool, double),
          Array (*Many)(const Array&, std::span<const int>, bool, double)>
Array spread(nb::handle x, nb::handle axis, bool keepdims, double correction) {
  const Array a = to_array(x);
  const Axes axes = to_axes(axis);
  if (!axes) return One(a, std::nullopt, keepdims, correction);
  return Many(a, *axes, keepdims, correction);
}

std::vector<Array> to_arrays(nb::handle sequence) {
  std::vector<Array> arrays;
  for (nb::handle h : nb::iter(sequence)) arrays.push_back(to_array(h));
  return arrays;
}

void bind_elementwise(nb::module_& m) {
  for (const BinaryOp& op : binary_ops())
    m.def(
        op.name,
        [&op](nb::handle a, nb::handle b) {
          Operand x = to_operand(a);
          const Operand y = to_operand(b, x);
          if (PyComplex_Check(a.ptr())) x = to_operand(a, y);
          return apply(op, x, y);
        },
        nb::arg("x1"), nb::arg("x2"));
  for (const UnaryOp& op : unary_ops())
    m.def(
        op.name, [&op](nb::handle x) { return op.fn(to_array(x)); }, nb::arg("x"));
  m.def(
      "where",
      [](nb::handle cond, nb::handle x1, nb::handle x2) {
        return where(to_array(cond), to_array(x1), to_array(x2));
      },
      nb::arg("condition"), nb::arg("x1"), nb::arg("x2"));
  m.def(
      "clip",
      [](nb::handle x, nb::handle lo, nb::handle hi) {
        // minimum(maximum(x, lo), hi), each bound an array or a weak Python scalar, so that
        // clip(int32_array, 0, int32_array) stays int32 as in NumPy; an absent bound is none.
        const Array a = to_array(x);
        if (lo.is_none() && hi.is_none()) return a.copy();
        Array out = a;
        if (!lo.is_none()) out = apply(binary_op("maximum"), out, to_operand(lo));
        if (!hi.is_none()) out = apply(binary_op("minimum"), out, to_operand(hi));
        return out;
      },
      nb::arg("x"), nb::arg("min") = nb::none(), nb::arg("max") = nb::none());
  m.def("complex_from",
        [](nb::handle re, nb::handle im) { return complex_from(to_array(re), to_array(im)); });
}

void bind_reductions(nb::module_& m) {
#define SWITCHYARD_REDUCTION(fn)                                                        \
  m.def(#fn,                                                                            \
        &reduce<static_cast<Array (*)(const Array&, std::optional<int>, bool)>(&fn),    \
                static_cast<Array (*)(const Array&, std::span<const int>, bool)>(&fn)>, \
        nb::arg("x"), nb::kw_only(), nb::arg("axis") = nb::none(), nb::arg("keepdims") = false)
  SWITCHYARD_REDUCTION(sum);
  SWITCHYARD_REDUCTION(prod);
  SWITCHYARD_REDUCTION(min);
  SWITCHYARD_REDUCTION(max);
  SWITCHYARD_REDUCTION(mean);
  SWITCHYARD_REDUCTION(any);
  SWITCHYARD_REDUCTION(all);
#undef SWITCHYARD_REDUCTION
#define SWITCHYARD_SPREAD(python, fn)                                                           \
  m.def(python,                                                                                 \
        &spread<static_cast<Array (*)(const Array&, std::optional<int>, bool, double)>(&fn),    \
                static_cast<Array (*)(const Array&, std::span<const int>, bool, double)>(&fn)>, \
        nb::arg("x"), nb::kw_only(), nb::arg("axis") = nb::none(), nb::arg("keepdims") = false, \
        nb::arg("correction") = 0.0)
  SWITCHYARD_SPREAD("var", var);
  SWITCHYARD_SPREAD("std", stddev);
#undef SWITCHYARD_SPREAD
  m.def(
      "argmin",
      [](nb::handle x, nb::handle axis, bool keepdims) {
        return argmin(to_array(x), optional_axis(axis), keepdims);
      },
      nb::arg("x"), nb::kw_only(), nb::arg("axis") = nb::none(), nb::arg("keepdims") = false);
  m.def(
      "argmax",
      [](nb::handle x, nb::handle axis, bool keepdims) {
        return argmax(to_array(x), optional_axis(axis), keepdims);
      },
      nb::arg("x"), nb::kw_only(), nb::arg("axis") = nb::none(), nb::arg("keepdims") = false);
}

void bind_library_ops(nb::module_& m) {
  m.def(
      "matmul",
      [](nb::handle a, nb::handle b) {
        const Array x = to_array(a), y = to_array(b);
        return released([&] { return matmul(x, y); });
      },
      nb::arg("x1"), nb::arg("x2"));
  m.def(
      "concat",
      [](nb::handle arrays, nb::handle axis_arg) {
        const auto all = to_arrays(arrays);
        const std::optional<int> axis = optional_axis(axis_arg);
        return released([&] { return concatenate(all, axis); });
      },
      nb::arg("arrays"), nb::arg("axis").none() = 0);
  m.def(
      "stack",
      [](nb::handle arrays, nb::handle axis_arg) {
        const auto all = to_arrays(arrays);
        const int axis = to_axis(axis_arg);
        return released([&] { return stack(all, axis); });
      },
      nb::arg("arrays"), nb::arg("axis") = 0);
  m.def(
      "scan",
      [](nb::handle x, const std::string& op, nb::handle axis_arg, bool exclusive) {
        const Array a = to_array(x);
        const std::optional<int> axis = optional_axis(axis_arg);
        const Accumulate how = to_accumulate(op);
        return released([&] { return scan(a, how, axis, exclusive); });
      },
      nb::arg("x"), nb::arg("op") = "sum", nb::kw_only(), nb::arg("axis") = nb::none(),
      nb::arg("exclusive") = false);
  m.def(
      "sort",
      [](nb::handle x, nb::handle axis_arg) {
        const Array a = to_array(x);
        const std::optional<int> axis = optional_axis(axis_arg);
        return released([&] { return sort(a, axis); });
      },
      nb::arg("x"), nb::arg("axis").none() = -1);
  m.def(
      "argsort",
      [](nb::handle x, nb::handle axis_arg) {
        const Array a = to_array(x);
        const std::optional<int> axis = optional_axis(axis_arg);
        return released([&] { return argsort(a, axis); });
      },
      nb::arg("x"), nb::arg("axis").none() = -1);
  m.def(
      "top_k",
      [](nb::handle x, nb::handle k_arg, nb::handle axis_arg, bool largest) {
        const Array a = to_array(x);
        const std::int64_t k = to_extent(k_arg);
        const int axis = to_axis(axis_arg);
        const TopK r = released([&] { return top_k(a, k, axis, largest); });
        return nb::make_tuple(r.values, r.indices);
      },
      nb::arg("x"), nb::arg("k"), nb::kw_only(), nb::arg("axis") = -1, nb::arg("largest") = true);
  m.def(
      "compress",
      [](nb::handle x, nb::handle mask) {
        const Array a = to_array(x), keep = to_array(mask);
        return released([&] { return compress(a, keep); });
      },
      nb::arg("x"), nb::arg("mask"));
  m.def(
      "nonzero",
      [](nb::handle x) {
        const Array a = to_array(x);
        const auto parts = released([&] { return nonzero(a); });
        nb::list out;
        for (const Array& p : parts) out.append(p);
        return nb::tuple(out);
      },
      nb::arg("x"));
  m.def("flatnonzero", [](nb::handle x) {
    const Array a = to_array(x);
    return released([&] { return flatnonzero(a); });
  });
  m.def(
      "take",
      [](nb::handle x, nb::handle indices, nb::handle axis_arg) {
        const Array a = to_array(x), i = to_array(indices);
        const std::optional<int> axis = optional_axis(axis_arg);
        return released([&] { return take(a, i, axis); });
      },
      nb::arg("x"), nb::arg("indices"), nb::kw_only(), nb::arg("axis") = nb::none());
}

void bind_fft(nb::module_& m) {
  nb::module_ f =
      m.def_submodule("_fft", "Discrete Fourier transforms (numpy.fft's norm='backward').");
#define SWITCHYARD_FFT(fn)                                                               \
  f.def(                                                                                 \
      #fn,                                                                               \
      [](nb::handle x, nb::handle n_arg, nb::handle axis_arg) {                          \
        const Array a = to_array(x);                                                     \
        const auto n = n_arg.is_none() ? std::nullopt : std::optional(to_extent(n_arg)); \
        const int axis = to_axis(axis_arg);                                              \
        return released([&] { return fft::fn(a, n, axis); });                            \
      },                                                                                 \
      nb::arg("x"), nb::arg("n") = nb::none(), nb::arg("axis") = -1)
  SWITCHYARD_FFT(fft);
  SWITCHYARD_FFT(ifft);
  SWITCHYARD_FFT(rfft);
  SWITCHYARD_FFT(irfft);
#undef SWITCHYARD_FFT
#define SWITCHYARD_FFT2(fn)                          \
  f.def(                                             \
      #fn,                                           \
      [](nb::handle x) {                             \
        const Array a = to_array(x);                 \
        return released([&] { return fft::fn(a); }); \
      },                                             \
      nb::arg("x"))
  SWITCHYARD_FFT2(fft2);
  SWITCHYARD_FFT2(ifft2);
  SWITCHYARD_FFT2(rfft2);
#undef SWITCHYARD_FFT2
  f.def(
      "irfft2",
      [](nb::handle x, std::optional<std::pair<std::int64_t, std::int64_t>> s) {
        const Array a = to_array(x);
        std::optional<std::array<std::int64_t, 2>> extents;
        if (s) extents = std::array<std::int64_t, 2>{s->first, s->second};
        return released([&] { return fft::irfft2(a, extents); });
      },
      nb::arg("x"), nb::arg("s") = nb::none());
  f.def("convolve", [](nb::handle a, nb::handle b) {
    const Array x = to_array(a), y = to_array(b);
    return released([&] { return fft::convolve(x, y); });
  });
}

void bind_linalg(nb::module_& m) {
  nb::module_ l = m.def_submodule("_linalg", "numpy.linalg's factorisations (linalg.hpp).");
  l.def(
      "svd",
      [](nb::handle x, bool full_matrices) {
        const Array a = to_array(x);
        const linalg::Svd r = released([&] { return linalg::svd(a, full_matrices); });
        return nb::make_tuple(r.u, r.s, r.vh);
      },
      nb::arg("x"), nb::arg("full_matrices") = true);
  l.def(
      "qr",
      [](nb::handle x, bool complete) {
        const Array a = to_array(x);
        const linalg::Qr r = released([&] {
          return linalg::qr(a, complete ? linalg::QrMode::Complete : linalg::QrMode::Reduced);
        });
        return nb::make_tuple(r.q, r.r);
      },
      nb::arg("x"), nb::arg("complete") = false);
  l.def(
      "eigh",
      [](nb::handle x) {
        const Array a = to_array(x);
        const linalg::Eigh r = released([&] { return linalg::eigh(a); });
        return nb::make_tuple(r.eigenvalues, r.eigenvectors);
      },
      nb::arg("x"));
  l.def(
      "slogdet",
      [](nb::handle x) {
        const Array a = to_array(x);
        const linalg::Slogdet r = released([&] { return linalg::slogdet(a); });
        return nb::make_tuple(r.sign, r.logabsdet);
      },
      nb::arg("x"));
  l.def(
      "cholesky",
      [](nb::handle x, bool upper) {
        const Array a = to_array(x);
        return released([&] { return linalg::cholesky(a, upper); });
      },
      nb::arg("x"), nb::arg("upper") = false);
  l.def("solve", [](nb::handle a, nb::handle b) {
    const Array x = to_array(a), y = to_array(b);
    return released([&] { return linalg::solve(x, y); });
  });
#define SWITCHYARD_LINALG(fn)                           \
  l.def(                                                \
      #fn,                                              \
      [](nb::handle x) {                                \
        const Array a = to_array(x);                    \
        return released([&] { return linalg::fn(a); }); \
      },                                                \
      nb::arg("x"))
  SWITCHYARD_LINALG(svdvals);
  SWITCHYARD_LINALG(inv);
  SWITCHYARD_LINALG(eigvalsh);
  SWITCHYARD_LINALG(det);
#undef SWITCHYARD_LINALG
}

void bind_factories(nb::module_& m) {
  m.def("_promote_types", &promote_types);
  m.def("_to_dtype", [](nb::handle h) { return to_dtype(h); });
  m.def(
      "zeros",
      [](nb::handle shape, nb::handle dtype) {
        return Array::zeros(to_shape(shape), to_dtype(dtype));
      },
      nb::arg("shape"), nb::arg("dtype"));
  m.def(
      "ones",
      [](nb::handle shape, nb::handle dtype) {
        return Array::ones(to_shape(shape), to_dtype(dtype));
      },
      nb::arg("shape"), nb::arg("dtype"));
  m.def(
      "full",
      [](nb::handle shape, nb::handle value, nb::handle dtype) {
        const auto s = to_scalar(value);
        if (!s) throw nb::type_error("full() takes a Python bool, int or float fill value");
        // A float goes through Array::full, which rejects NaN and out-of-range values for
        // integer dtypes; ints and bools are written exactly (beyond 2^53 too) by fill.
        if (s->kind == ScalarKind::Float)
          return Array::full(to_shape(shape), s->f, to_dtype(dtype));
        Array a = Array::zeros(to_shape(shape), to_dtype(dtype));
        a.fill(*s);
        return a;
      },
      nb::arg("shape"), nb::arg("fill_value"), nb::arg("dtype"));
  m.def("_arange_float", [](double start, double stop, double step, nb::handle dtype) {
    return Array::arange(start, stop, step, to_dtype(dtype));
  });
  m.def("_arange_int",
        [](std::int64_t start, std::int64_t stop, std::int64_t step, nb::handle dtype) {
          return Array::arange(start, stop, step, to_dtype(dtype));
        });
  m.def(
      "linspace",
      [](double start, double stop, nb::handle num, nb::handle dtype) {
        return Array::linspace(start, stop, to_extent(num), to_dtype(dtype));
      },
      nb::arg("start"), nb::arg("stop"), nb::arg("num"), nb::arg("dtype"));
  m.def(
      "uniform",
      [](nb::handle shape, std::uint64_t seed, double low, double high, nb::handle dtype) {
        return Array::uniform(to_shape(shape), seed, low, high, to_dtype(dtype));
      },
      nb::arg("shape"), nb::kw_only(), nb::arg("seed"), nb::arg("low") = 0.0, nb::arg("high") = 1.0,
      nb::arg("dtype"));
  m.def(
      "normal",
      [](nb::handle shape, std::uint64_t seed, double mean, double stddev, nb::handle dtype) {
        return Array::normal(to_shape(shape), seed, mean, stddev, to_dtype(dtype));
      },
      nb::arg("shape"), nb::kw_only(), nb::arg("seed"), nb::arg("mean") = 0.0, nb::arg("std") = 1.0,
      nb::arg("dtype"));
  m.def(
      "broadcast_to",
      [](nb::handle x, nb::handle shape) { return to_array(x).broadcast_to(to_shape(shape)); },
      nb::arg("x"), nb::arg("shape"));
  m.def(
      "permute_dims",
      [](nb::handle x, nb::handle axes) { return to_array(x).permute(*to_axes(axes)); },
      nb::arg("x"), nb::arg("axes"));
  m.def(
      "reshape",
      [](nb::handle x, nb::handle shape, std::optional<bool> copy) {
        const Array a = to_array(x);
        const Array r = a.reshape(to_shape(shape));
        if (copy == true) return r.copy();
        // A stored array whose strides allow no view of the new shape came back copied.
        if (copy == false && a.buffer() && r.buffer() != a.buffer())
          throw ValueError("reshape(copy=False) of an array of shape " + to_string(a.shape()) +
                           " to " + to_string(r.shape()) +
                           ": its strides allow no view of that shape; expected copy=None or "
                           "copy=True");
        return r;
      },
      nb::arg("x"), nb::arg("shape"), nb::kw_only(), nb::arg("copy") = nb::none());
  m.def(
      "expand_dims",
      [](nb::handle x, nb::handle axis) {
        Array a = to_array(x);
        if (axis.is_none()) throw nb::type_error("expand_dims needs an int or a tuple of ints");
        const std::vector<int> axes = *to_axes(axis);
        // Ascending, each axis is where it ends up in the result.
        for (int d : distinct_axes(axes, a.ndim() + static_cast<int>(axes.size()), "expand_dims"))
          a = a.expand_dims(d);
        return a;
      },
      nb::arg("x"), nb::kw_only(), nb::arg("axis") = 0);
  m.def(
      "squeeze",
      [](nb::handle x, nb::handle axis) {
        Array a = to_array(x);
        const Axes axes = to_axes(axis);
        if (!axes) return a.squeeze();
        // Descending, so that removing one axis leaves the lower ones where they were.
        const std::vector<int> sorted = distinct_axes(*axes, a.ndim(), "squeeze");
        for (auto d = sorted.rbegin(); d != sorted.rend(); ++d) a = a.squeeze(*d);
        return a;
      },
      nb::arg("x"), nb::arg("axis") = nb::none());
  m.def(
      "eval",
      [](nb::args arrays) {
        std::vector<Array> all;
        for (nb::handle h : arrays) all.push_back(nb::cast<Array>(h));
        released([&] { eval(all); });
      },
      "Computes every pending array given together: one kernel per shape, inputs read once.");
}

void bind_expressions(nb::module_& m) {
  m.def(
      "evaluate",
      [](const std::string& text, nb::kwargs arrays) {
        NamedArrays named;
        for (auto [key, value] : arrays) named.emplace(nb::cast<std::string>(key), to_array(value));
        return evaluate(text, named);
      },
      "Evaluates a string expression over named arrays as one fused kernel: "
      "evaluate('a*b + sin(c)', a=x, b=y, c=z).");
}

}  // namespace

void bind_functions(nb::module_& m) {
  bind_elementwise(m);
  bind_reductions(m);
  bind_library_ops(m);
  bind_fft(m);
  bind_linalg(m);
  bind_factories(m);
  bind_expressions(m);
}

}  // namespace switchyard::python
