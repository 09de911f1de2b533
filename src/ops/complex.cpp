// Complex arrays through the views of their parts (complex_parts.hpp): each result is one fused
// kernel writing float (re, im) pairs into fresh storage, reinterpreted as complex.
#include "ops/complex_parts.hpp"

#include <cstdint>
#include <string>

#include "ops/contiguous.hpp"
#include "switchyard/complex.hpp"
#include "switchyard/ops.hpp"

namespace switchyard {
namespace {

void require(const Array& a, std::string_view fn) {
  if (!a) throw ValueError(std::string(fn) + " of a null Array: expected an array");
}

// Strides in complex elements as strides in their float parts. A stride that reaches nothing (an
// axis of extent 1, or any axis of an empty array) may be anything a DLPack producer wrote, even
// past half the int64 range: it becomes 0, which reaches the same elements.
Strides doubled(const Array& c) {
  Strides out;
  const bool empty = c.size() == 0;
  for (int i = 0; i < c.ndim(); ++i)
    out.push_back(empty || c.shape()[i] == 1 ? 0 : 2 * c.strides()[i]);
  return out;
}

// A view of one part (0: re, 1: im) of a complex array, in its float dtype.
Array part(const Array& c, int which) {
  return Array(c.buffer(), component_dtype(c.dtype()), c.shape(), doubled(c),
               2 * c.offset() + which);
}

// A float array of the given values along one axis of extent 2, to broadcast against pairs.
Array pair_constant(double re_value, double im_value, DType dtype) {
  const double values[] = {re_value, im_value};
  return Array::from_host(values, sizeof values, Shape{2}, DType::Float64).astype(dtype);
}

Array last_axis(const Array& a) {
  return a.expand_dims(a.ndim());
}

}  // namespace

namespace complex_parts {

Array pairs_of(const Array& c) {
  Shape shape = c.shape();
  shape.push_back(2);
  Strides strides = doubled(c);
  strides.push_back(1);
  return Array(c.buffer(), component_dtype(c.dtype()), shape, strides, 2 * c.offset());
}

Array from_pairs(const Array& pairs) {
  Array storage = contiguous_storage(pairs);
  // A complex element starts on an even float: an odd offset is moved to fresh storage.
  if (storage.offset() % 2 != 0) storage = contiguous_storage(storage.copy());
  Shape shape;
  for (int i = 0; i + 1 < storage.ndim(); ++i) shape.push_back(storage.shape()[i]);
  return Array(storage.buffer(), complex_dtype(storage.dtype()), shape, contiguous_strides(shape),
               storage.offset() / 2);
}

Array astype(const Array& a, DType dtype) {
  if (is_complex(a.dtype()) && is_complex(dtype))
    return from_pairs(pairs_of(a).astype(component_dtype(dtype)));
  if (dtype == DType::Bool) return logical_or(real(a) != 0, imag(a) != 0);
  if (is_complex(a.dtype())) return real(a).astype(dtype);  // NumPy drops the imaginary part
  const DType parts = component_dtype(dtype);
  return complex_from(a.astype(parts), Array::zeros(Shape{}, parts));
}

Array abs(const Array& c) {
  const Array re = real(c), im = imag(c);
  return sqrt(re * re + im * im);
}

Array multiply(const Array& a, const Array& b) {
  require(a, "multiply"), require(b, "multiply");
  const DType parts = component_dtype(promote_types(a.dtype(), b.dtype()));
  const Array ar = real(a).astype(parts), br = real(b).astype(parts);
  // A real operand has no imaginary part to multiply: (x)(u + iv) = xu + ixv.
  if (!is_complex(a.dtype())) return complex_from(ar * br, ar * imag(b));
  if (!is_complex(b.dtype())) return complex_from(ar * br, imag(a) * br);
  const Array ai = imag(a).astype(parts), bi = imag(b).astype(parts);
  return complex_from(ar * br - ai * bi, ar * bi + ai * br);
}

Array multiply(const Array& c, Scalar s) {
  require(c, "multiply");
  return from_pairs(pairs_of(c) * s);
}

}  // namespace complex_parts

Array real(const Array& a) {
  require(a, "real");
  return is_complex(a.dtype()) ? part(a, 0) : a;
}

Array imag(const Array& a) {
  require(a, "imag");
  return is_complex(a.dtype()) ? part(a, 1) : Array::zeros(a.shape(), a.dtype());
}

Array conj(const Array& a) {
  require(a, "conj");
  if (!is_complex(a.dtype())) return a.copy();
  const DType parts = component_dtype(a.dtype());
  return complex_parts::from_pairs(complex_parts::pairs_of(a) * pair_constant(1, -1, parts));
}

Array complex_from(const Array& re, const Array& im) {
  require(re, "complex_from"), require(im, "complex_from");
  for (const Array* x : {&re, &im})
    if (is_complex(x->dtype()))
      throw DTypeError("complex_from of a " + std::string(name(x->dtype())) +
                       " part: expected real parts (bool, integer or float arrays)");
  const DType parts = floating_result(promote_types(re.dtype(), im.dtype()));
  const Shape shape = broadcast_shapes(re.shape(), im.shape());
  const Array is_re = pair_constant(1, 0, DType::Bool);
  return complex_parts::from_pairs(where(is_re, last_axis(re.broadcast_to(shape).astype(parts)),
                                         last_axis(im.broadcast_to(shape).astype(parts))));
}

}  // namespace switchyard
