// Complex arrays computed through their float parts: a complex array of shape S is a float array
// of shape S + {2} holding (re, im) along its last axis, over the same storage. Each operation
// is one fused kernel over those views writing a fresh interleaved result.
#pragma once

#include "switchyard/array.hpp"
#include "switchyard/scalar.hpp"

namespace switchyard::complex_parts {

// The (re, im) view of a complex array: shape + {2}, strides doubled, last stride 1. Zero-copy.
Array pairs_of(const Array& c);

// The complex array whose (re, im) pairs lie along the last axis (extent 2) of `pairs`, a float
// array: computed and reinterpreted in place, without a copy when it is contiguous storage.
Array from_pairs(const Array& pairs);

// astype() where either side is complex.
Array astype(const Array& a, DType dtype);

// abs(): sqrt(re² + im²), pending (it fuses with what reads it).
Array abs(const Array& c);

// multiply() where an operand is complex; the other may be real, or a scalar.
Array multiply(const Array& a, const Array& b);
Array multiply(const Array& c, Scalar s);

}  // namespace switchyard::complex_parts
