// Complex arrays through the views of their parts (complex_parts.hpp): each result is one fused
// kernel writing float (re, im) pairs into fresh storage, reinterpreted as complex.
#include "ops/complex_parts.hpp"

#include <cstdint>
#include <string>
#include <string_view>

#include "ops/contiguous.hpp"
#include "switchyard/complex.hpp"
#include "switchyard/ops.hpp"

namespace switchyard {
namespace {

using ir::OpCode;

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

// A Python-style scalar operand as a 0-d array of the complex operand's parts dtype (a weak
// scalar: complex64 · 2.0 stays complex64).
Array scalar_operand(Scalar s, const Array& c) {
  const double value = s.kind == ScalarKind::Float ? s.f : static_cast<double>(s.i);
  return Array::full(Shape{}, value, component_dtype(c.dtype()));
}

}  // namespace

namespace complex_parts {

Parts parts_of(const Array& x, DType parts) {
  if (is_complex(x.dtype())) return {real(x).astype(parts), imag(x).astype(parts)};
  return {x.astype(parts), Array::zeros(Shape{}, parts)};
}

DType parts_dtype(const Array& a, const Array& b) {
  const DType t = promote_types(a.dtype(), b.dtype());
  return component_dtype(is_complex(t) ? t : complex_dtype(t));
}

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
  return hypot(real(c), imag(c));
}

Array arithmetic(OpCode op, const Array& a, const Array& b) {
  const std::string_view fn = op == OpCode::Add   ? "add"
                              : op == OpCode::Sub ? "subtract"
                              : op == OpCode::Mul ? "multiply"
                                                  : "divide";
  require(a, fn), require(b, fn);
  const DType parts = parts_dtype(a, b);
  const auto [ar, ai] = parts_of(a, parts);
  const auto [br, bi] = parts_of(b, parts);
  switch (op) {
    case OpCode::Add:
      return complex_from(ar + br, ai + bi);
    case OpCode::Sub:
      return complex_from(ar - br, ai - bi);
    case OpCode::Mul:
      return complex_from(ar * br - ai * bi, ar * bi + ai * br);
    default:
      break;
  }
  // NumPy's division: scaled by the divisor's larger part (Smith's method), and a zero divisor
  // divides each part by zero (inf or NaN parts).
  const Array br_abs = switchyard::abs(br), bi_abs = switchyard::abs(bi);
  const Array by_re = br_abs >= bi_abs, by_zero = logical_and(br_abs == 0, bi_abs == 0);
  const Array rat_r = bi / br, scl_r = 1.0 / (br + bi * rat_r);
  const Array rat_i = br / bi, scl_i = 1.0 / (bi + br * rat_i);
  using switchyard::where;
  const Array re = where(by_re, where(by_zero, ar / br_abs, (ar + ai * rat_r) * scl_r),
                         (ar * rat_i + ai) * scl_i);
  const Array im = where(by_re, where(by_zero, ai / br_abs, (ai - ar * rat_r) * scl_r),
                         (ai * rat_i - ar) * scl_i);
  return complex_from(re, im);
}

Array arithmetic(OpCode op, const Array& c, Scalar s, bool scalar_first) {
  const Array x = scalar_operand(s, c);
  return scalar_first ? arithmetic(op, x, c) : arithmetic(op, c, x);
}

Array negative(const Array& c) {
  require(c, "negative");
  return from_pairs(-pairs_of(c));
}

Array equal(const Array& a, const Array& b, bool equal) {
  const std::string_view fn = equal ? "equal" : "not_equal";
  require(a, fn), require(b, fn);
  const DType parts = parts_dtype(a, b);
  const auto [ar, ai] = parts_of(a, parts);
  const auto [br, bi] = parts_of(b, parts);
  return equal ? logical_and(ar == br, ai == bi) : logical_or(ar != br, ai != bi);
}

Array equal(const Array& c, Scalar s, bool equal) {
  return complex_parts::equal(c, scalar_operand(s, c), equal);
}

Array where(const Array& cond, const Array& a, const Array& b) {
  require(cond, "where"), require(a, "where"), require(b, "where");
  const DType parts = parts_dtype(a, b);
  const auto [ar, ai] = parts_of(a, parts);
  const auto [br, bi] = parts_of(b, parts);
  return complex_from(switchyard::where(cond, ar, br), switchyard::where(cond, ai, bi));
}

Array sum(const Array& c, std::span<const int> axes, bool keepdims) {
  return from_pairs(switchyard::sum(pairs_of(c), axes, keepdims));
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
