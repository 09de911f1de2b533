// numpy.fft on every device through the Fft library op (backend.hpp): arguments are checked and
// brought to NumPy's shapes here (crop or zero-pad, the transformed axes moved last and made
// contiguous); the backends transform the trailing axes of contiguous rows, unnormalised.
#include "switchyard/fft.hpp"

#include <numeric>
#include <string>
#include <vector>

#include "expr/realize.hpp"
#include "ops/complex_parts.hpp"
#include "ops/contiguous.hpp"
#include "runtime/executor.hpp"
#include "switchyard/complex.hpp"
#include "switchyard/ops.hpp"

namespace switchyard::fft {
namespace {

using FftKind = LibraryOp::FftKind;

// The float dtype a transform of `a` computes in; rejects what NumPy would not transform here.
DType float_dtype(const Array& a, std::string_view fn, bool takes_complex) {
  if (!a) throw ValueError(std::string(fn) + " of a null Array: expected an array");
  const DType t = a.dtype();
  if (t == DType::Bool || is_integer(t))
    throw DTypeError(std::string(fn) + " of a " + std::string(name(t)) +
                     " array: expected float32, float64, complex64 or complex128 input; cast "
                     "to float first (astype(DType::Float64))");
  if (is_complex(t) && !takes_complex)
    throw DTypeError(std::string(fn) + " of a " + std::string(name(t)) +
                     " array: expected real input (float32 or float64); take real(a) first");
  return component_dtype(t);
}

std::int64_t checked_length(std::int64_t n, std::string_view fn) {
  if (n <= 0)
    throw ValueError(std::string(fn) + ": invalid number of data points " + std::to_string(n) +
                     ": expected at least 1 (give n, or transform a non-empty axis)");
  return n;
}

// The transforms over the last two axes need two.
void require_two_axes(const Array& a, std::string_view fn) {
  if (a.ndim() < 2)
    throw ShapeError(std::string(fn) + " of an array of shape " + to_string(a.shape()) +
                     ": expected at least 2 axes");
}

// `a` with `axis` cropped, or padded with zeros, to `length` elements.
Array resized(const Array& a, int axis, std::int64_t length) {
  const std::int64_t have = a.shape()[axis];
  if (have == length) return a;
  if (have > length) return a.slice(axis, 0, length);
  Shape shape = a.shape();
  shape[axis] = length;
  const Array padded = Array::zeros(shape, a.dtype());
  padded.slice(axis, 0, have).assign(a);
  return padded;
}

// The axis order that moves `axis` last, and the one that moves it back.
std::vector<int> axis_last(int rank, int axis) {
  std::vector<int> order;
  for (int i = 0; i < rank; ++i)
    if (i != axis) order.push_back(i);
  order.push_back(axis);
  return order;
}
std::vector<int> inverse_order(const std::vector<int>& order) {
  std::vector<int> inverse(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) inverse[order[i]] = static_cast<int>(i);
  return inverse;
}

// One Fft library call over the trailing `rank` axes of `x`: logical transform shape {m, n} (m
// is 1 for rank 1); the output's last extent is `out_last`.
struct Transform {
  FftKind kind;
  bool inverse;
  int rank;
  DType real;
  std::int64_t m, n, out_last;
};

// An axis of one point transforms to itself: it is dropped from the transform (VkFFT plans no
// length-1 axes), and a transform of one point is a conversion.
Array transform(const Array& x, const Transform& t);

Array without_unit_axes(const Array& x, const Transform& t) {
  const bool to_real = t.kind == FftKind::ComplexToReal;
  if (t.rank == 1) return to_real ? x.astype(t.real) : x.astype(complex_dtype(t.real));
  if (t.m == 1) return transform(x, {t.kind, t.inverse, 1, t.real, 1, t.n, t.out_last});
  // One column (n == 1): its real half spectrum is the whole one, so the transform along m is
  // complex, and C2R keeps its real part.
  Shape columns;
  for (int i = 0; i + 1 < x.ndim(); ++i) columns.push_back(x.shape()[i]);
  const Array c = transform(x.astype(complex_dtype(t.real)).reshape(columns),
                            {FftKind::ComplexToComplex, t.inverse, 1, t.real, 1, t.m, t.m});
  return (to_real ? c.astype(t.real) : c).expand_dims(columns.size());
}

// `a` read at -k (mod its length) along `axis`: element 0, then the rest backwards.
Array mirrored(const Array& a, int axis) {
  const std::int64_t m = a.shape()[axis];
  if (m <= 1) return a;
  const Array parts[] = {a.slice(axis, 0, 1), a.slice(axis, m - 1, 0, -1)};
  return concatenate(parts, axis);
}

// NumPy's inverse real transforms (pocketfft) read the zero-frequency bin of the last axis and,
// for an even length, its Nyquist bin as the real signal they stand for: alone (rank 1) their
// real part; over the other transformed axis (rank 2) the Hermitian part of those columns.
// Library C2R transforms assume the input is already so, and give other values when it is not
// (VkFFT's batched kernels do; cuFFT documents the result as undefined). Input that is not so
// is projected here, so every backend transforms the numbers NumPy does. Spectra of real data
// already are: then the check reads two columns and nothing is copied.
Array hermitian_edges(const Array& x, const Transform& t) {
  const int last = x.ndim() - 1;
  std::vector<std::int64_t> edges{0};
  if (t.n % 2 == 0) edges.push_back(t.n / 2);
  struct Edge {
    std::int64_t at;
    Array re, im;
  };
  std::vector<Edge> projected;
  Array differs;
  for (const std::int64_t e : edges) {
    const Array column = x.slice(last, e, e + 1);
    const Array re = real(column), im = imag(column);
    Edge p{e, re, Array::zeros(im.shape(), im.dtype())};
    if (t.rank == 2) {
      p.re = (re + mirrored(re, last - 1)) * 0.5;
      p.im = (im - mirrored(im, last - 1)) * 0.5;
    }
    const Array d = any((p.re != re) | (p.im != im));
    differs = differs ? (differs | d) : d;
    projected.push_back(std::move(p));
  }
  if (!differs.item<bool>()) return x;
  const Array y = x.copy();
  for (const Edge& p : projected) y.slice(last, p.at, p.at + 1).assign(complex_from(p.re, p.im));
  return y;
}

Array transform(const Array& x_in, const Transform& t) {
  if (t.n == 1 || (t.rank == 2 && t.m == 1)) return without_unit_axes(x_in, t);
  const Array x =
      t.kind == FftKind::ComplexToReal && x_in.size() > 0 ? hermitian_edges(x_in, t) : x_in;
  const DType complex = complex_dtype(t.real);
  const DType out_dtype = t.kind == FftKind::ComplexToReal ? t.real : complex;
  Shape out_shape = x.shape();
  out_shape[out_shape.size() - 1] = t.out_last;
  if (x.size() == 0) return Array::zeros(out_shape, out_dtype);

  if (x.pending()) expr::realize_for(x.node(), expr::FusionStop::LibraryOp);
  const Array input = contiguous_storage(x);
  const std::int64_t in_last = x.shape()[x.ndim() - 1];
  LibraryArgs args;
  args.m = t.m, args.n = t.n, args.rows = x.size() / (t.m * in_last);
  const LibraryOp op{.kind = LibraryOp::Kind::Fft,
                     .dtype = t.real,
                     .fft = t.kind,
                     .inverse = t.inverse,
                     .rank = static_cast<std::int8_t>(t.rank)};
  const runtime::View in{input.buffer(), input.dtype(), input.shape(), input.strides(),
                         input.offset()};
  const runtime::LibraryOutput out{out_dtype, out_shape};
  const runtime::View v = runtime::run_library(op, args, {&in, 1}, {&out, 1}).front();
  return Array(v.buffer, v.dtype, v.shape, v.strides, v.offset);
}

// NumPy's backward normalisation of an inverse transform of `points` points.
Array scaled(const Array& y, std::int64_t points) {
  return y * (1.0 / static_cast<double>(points));
}

// A one-axis transform: `axis` resized to `in_length`, moved last, transformed, moved back.
Array along_axis(const Array& a, int axis, std::int64_t in_length, Transform t) {
  const std::vector<int> order = axis_last(a.ndim(), axis);
  const Array x = resized(a, axis, in_length).permute(order);
  return transform(x, t).permute(inverse_order(order));
}

Array as_complex(const Array& a, DType real) {
  return is_complex(a.dtype()) ? a : a.astype(complex_dtype(real));
}

Array complex_transform(const Array& a, std::optional<std::int64_t> n, int axis, bool inverse) {
  const std::string_view fn = inverse ? "ifft" : "fft";
  const DType real = float_dtype(a, fn, true);
  const int ax = normalize_axis(axis, a.ndim());
  const std::int64_t len = checked_length(n.value_or(a.shape()[ax]), fn);
  const Array y = along_axis(as_complex(a, real), ax, len,
                             {FftKind::ComplexToComplex, inverse, 1, real, 1, len, len});
  return inverse ? scaled(y, len) : y;
}

Array complex_transform2(const Array& a, bool inverse) {
  const std::string_view fn = inverse ? "ifft2" : "fft2";
  const DType real = float_dtype(a, fn, true);
  require_two_axes(a, fn);
  const std::int64_t m = checked_length(a.shape()[a.ndim() - 2], fn);
  const std::int64_t n = checked_length(a.shape()[a.ndim() - 1], fn);
  const Array y =
      transform(as_complex(a, real), {FftKind::ComplexToComplex, inverse, 2, real, m, n, n});
  return inverse ? scaled(y, m * n) : y;
}

// The smallest length >= n whose only prime factors are 2, 3 and 5: every FFT library's fast path.
std::int64_t fast_length(std::int64_t n) {
  for (std::int64_t candidate = n;; ++candidate) {
    std::int64_t rest = candidate;
    for (std::int64_t p : {2, 3, 5})
      while (rest % p == 0) rest /= p;
    if (rest == 1) return candidate;
  }
}

}  // namespace

Array fft(const Array& a, std::optional<std::int64_t> n, int axis) {
  return complex_transform(a, n, axis, false);
}

Array ifft(const Array& a, std::optional<std::int64_t> n, int axis) {
  return complex_transform(a, n, axis, true);
}

Array rfft(const Array& a, std::optional<std::int64_t> n, int axis) {
  const DType real = float_dtype(a, "rfft", false);
  const int ax = normalize_axis(axis, a.ndim());
  const std::int64_t len = checked_length(n.value_or(a.shape()[ax]), "rfft");
  return along_axis(a, ax, len, {FftKind::RealToComplex, false, 1, real, 1, len, len / 2 + 1});
}

Array irfft(const Array& a, std::optional<std::int64_t> n, int axis) {
  const DType real = float_dtype(a, "irfft", true);
  const int ax = normalize_axis(axis, a.ndim());
  const std::int64_t len = checked_length(n.value_or(2 * (a.shape()[ax] - 1)), "irfft");
  return scaled(along_axis(as_complex(a, real), ax, len / 2 + 1,
                           {FftKind::ComplexToReal, true, 1, real, 1, len, len}),
                len);
}

Array fft2(const Array& a) {
  return complex_transform2(a, false);
}

Array ifft2(const Array& a) {
  return complex_transform2(a, true);
}

Array rfft2(const Array& a) {
  const DType real = float_dtype(a, "rfft2", false);
  require_two_axes(a, "rfft2");
  const std::int64_t m = checked_length(a.shape()[a.ndim() - 2], "rfft2");
  const std::int64_t n = checked_length(a.shape()[a.ndim() - 1], "rfft2");
  return transform(a, {FftKind::RealToComplex, false, 2, real, m, n, n / 2 + 1});
}

Array irfft2(const Array& a, std::optional<std::array<std::int64_t, 2>> s) {
  const DType real = float_dtype(a, "irfft2", true);
  require_two_axes(a, "irfft2");
  const int last = a.ndim() - 1;
  const std::int64_t m = checked_length(s ? (*s)[0] : a.shape()[last - 1], "irfft2");
  const std::int64_t n = checked_length(s ? (*s)[1] : 2 * (a.shape()[last] - 1), "irfft2");
  const Array x = resized(resized(as_complex(a, real), last - 1, m), last, n / 2 + 1);
  return scaled(transform(x, {FftKind::ComplexToReal, true, 2, real, m, n, n}), m * n);
}

Array convolve(const Array& a, const Array& b) {
  if (!a || !b) throw ValueError("convolve of a null Array: expected two arrays");
  if (a.ndim() != 1 || b.ndim() != 1)
    throw ShapeError("convolve of shapes " + to_string(a.shape()) + " and " + to_string(b.shape()) +
                     ": expected two 1-D arrays");
  const DType t = promote_types(a.dtype(), b.dtype());
  if (!is_floating(t))
    throw DTypeError("convolve of " + std::string(name(a.dtype())) + " and " +
                     std::string(name(b.dtype())) +
                     ": expected real float arrays (float32 or float64); cast to float first");
  const std::int64_t full = a.size() + b.size() - 1;
  if (a.size() == 0 || b.size() == 0) return Array::zeros(Shape{0}, t);
  const std::int64_t points = fast_length(full);
  const auto as_t = [t](const Array& x) { return x.dtype() == t ? x : x.astype(t); };
  const Array product = rfft(as_t(a), points) * rfft(as_t(b), points);
  return irfft(product, points).slice(0, 0, full);
}

}  // namespace switchyard::fft
