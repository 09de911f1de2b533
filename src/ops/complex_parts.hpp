// Complex arrays computed through their float parts: a complex array of shape S is a float array
// of shape S + {2} holding (re, im) along its last axis, over the same storage. Each operation
// is one fused kernel over those views writing a fresh interleaved result.
#pragma once

#include <span>

#include "ir/kernel_ir.hpp"
#include "switchyard/array.hpp"
#include "switchyard/scalar.hpp"

namespace switchyard::complex_parts {

// An operand's parts in float dtype `parts`. A real operand is converted as NumPy converts it
// before complex arithmetic, to x + 0i, so that an infinite or NaN part propagates as NumPy's
// does (inf·(2 + 0i) has a NaN imaginary part: inf·0).
struct Parts {
  Array re, im;
};
Parts parts_of(const Array& x, DType parts);

// The float dtype of the parts of a and b's promoted complex type.
DType parts_dtype(const Array& a, const Array& b);

// The (re, im) view of a complex array: shape + {2}, strides doubled, last stride 1. Zero-copy.
Array pairs_of(const Array& c);

// The complex array whose (re, im) pairs lie along the last axis (extent 2) of `pairs`, a float
// array: computed and reinterpreted in place, without a copy when it is contiguous storage.
Array from_pairs(const Array& pairs);

// astype() where either side is complex.
Array astype(const Array& a, DType dtype);

// abs(): hypot(re, im), pending (it fuses with what reads it).
Array abs(const Array& c);

// add, subtract, multiply or divide (op) where an operand is complex; the other may be real,
// or a scalar (scalar_first: s op c). A real operand is x + 0i, and the results are NumPy's,
// infinities and NaNs included (division scales by the divisor's larger part, as NumPy).
Array arithmetic(ir::OpCode op, const Array& a, const Array& b);
Array arithmetic(ir::OpCode op, const Array& c, Scalar s, bool scalar_first);

Array negative(const Array& c);

// equal (equal true) or not_equal where an operand is complex: both parts compared.
Array equal(const Array& a, const Array& b, bool equal);
Array equal(const Array& c, Scalar s, bool equal);

// where() where a or b is complex.
Array where(const Array& cond, const Array& a, const Array& b);

// sum() of a complex array over `axes` (each in [0, ndim)): the parts summed apart.
Array sum(const Array& c, std::span<const int> axes, bool keepdims);

// ---- complex_functions.cpp: the elementwise functions of a complex argument, NumPy 2's values
// (C99 Annex G's special values), each composed from the real operations on the parts.

// exp, expm1, log, log1p, log2, log10, sqrt, sin, cos, tan, sinh, cosh, tanh, their inverses and
// sign, named by their opcode; another opcode is a DTypeError.
Array function(ir::OpCode op, const Array& c);

// isnan, isinf (either part) and isfinite (both parts), named by their opcode.
Array classify(ir::OpCode op, const Array& c);

// round(): each part rounded half to even.
Array round(const Array& c);

// power where an operand is complex (the other may be real, or a scalar: scalar_first is s ** c),
// as NumPy's: z ** 0 is 1, 0 ** b is 0 for Re b > 0 and NaN otherwise, whole powers below 100
// in magnitude are multiplied out, others are exp(b·log(a)); a scalar exponent 2 is z·z, 0.5
// sqrt(z) and -1 NumPy's reciprocal (NumPy's fast paths).
Array power(const Array& a, const Array& b);
Array power(const Array& c, Scalar s, bool scalar_first);

// prod() of a complex array over `axes` (each in [0, ndim)): one complex multiplication of
// halves per step, log2(n) steps.
Array prod(const Array& c, std::span<const int> axes, bool keepdims);

// The running products of a complex array along `axis` (in [0, ndim)), exclusive or not: in
// log2(n) steps, each multiplying every element by the one 2^k before it (Hillis and Steele).
Array cumulative_prod(const Array& c, int axis, bool exclusive);

}  // namespace switchyard::complex_parts
