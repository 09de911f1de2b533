// Complex arrays (complex64, complex128). Their elements are (re, im) pairs of float32 or float64
// in one storage; elementwise kernels take real dtypes only, so complex arrays are computed
// through views of their parts, each operation one fused kernel on every device. Besides these,
// add, subtract, multiply, divide, power, negative, equal, not_equal, where, sum, prod, mean,
// var, stddev, any, all, abs, sign, round, isnan, isinf, isfinite and the elementwise functions
// exp, expm1, log, log1p, log2, log10, sqrt, sin, cos, tan, sinh, cosh, tanh and their inverses
// (ops.hpp) take complex operands with NumPy 2's results: a real operand is x + 0i, division
// scales by the divisor's larger part as NumPy's, and infinities, NaNs, signed zeros and the
// branch cuts are C99 Annex G's (the standard's special cases), as NumPy gives them. astype()
// converts to and from complex as NumPy does (complex to real keeps the real part), and the fft
// functions (fft.hpp) produce them; scan() takes them for sums and products (algorithms.hpp).
// Comparisons by order, floor, ceil, trunc, the other reductions (min, max, ...) and scans
// (cumulative min and max) of a complex array are a DTypeError: apply them to real(a) and
// imag(a).
#pragma once

#include "switchyard/array.hpp"

namespace switchyard {

// Zero-copy views of a complex array's parts, as float32 (complex64) or float64 (complex128):
// writing into them writes the complex array. Of a real array, real() is the array itself and
// imag() a new array of zeros, as NumPy's.
Array real(const Array& a);
Array imag(const Array& a);

// The complex conjugate (a new array); of a real array, a copy.
Array conj(const Array& a);

// re + i·im, as a new complex array: the parts broadcast together and are promoted as NumPy
// promotes them (float32 parts give complex64, anything wider or integer complex128).
Array complex_from(const Array& re, const Array& im);

}  // namespace switchyard
