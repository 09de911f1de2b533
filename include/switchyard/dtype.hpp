// Element types and NumPy type promotion.
#pragma once

#include <complex>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "switchyard/error.hpp"

namespace switchyard {

// Complex dtypes store (re, im) pairs of their float dtype. Elementwise kernels take the real
// dtypes only; complex arrays are read and written through views of their parts (complex.hpp).
enum class DType : std::uint8_t { Bool, Int32, Int64, Float32, Float64, Complex64, Complex128 };

inline constexpr int kDTypeCount = 7;

constexpr std::size_t size_of(DType t) {
  switch (t) {
    case DType::Bool:
      return 1;
    case DType::Int32:
      return 4;
    case DType::Int64:
      return 8;
    case DType::Float32:
      return 4;
    case DType::Float64:
      return 8;
    case DType::Complex64:
      return 8;
    case DType::Complex128:
      return 16;
  }
  return 0;
}

constexpr bool is_floating(DType t) {
  return t == DType::Float32 || t == DType::Float64;
}
constexpr bool is_integer(DType t) {
  return t == DType::Int32 || t == DType::Int64;
}
constexpr bool is_complex(DType t) {
  return t == DType::Complex64 || t == DType::Complex128;
}

// The dtype of a complex dtype's parts (complex64 → float32); other dtypes are their own.
constexpr DType component_dtype(DType t) {
  if (t == DType::Complex64) return DType::Float32;
  if (t == DType::Complex128) return DType::Float64;
  return t;
}
// The complex dtype whose parts are the float dtype t (float32 → complex64, float64 → complex128).
constexpr DType complex_dtype(DType t) {
  return t == DType::Float32 ? DType::Complex64 : DType::Complex128;
}

std::string_view name(DType t);

// Parses "float32", "f32", "int64", "bool", ...; throws DTypeError listing the valid names.
DType parse_dtype(std::string_view text);

// NumPy's result_type for two arrays: bool < int32 < int64, float32 < float64 < complex, an
// integer meeting a float32 widens to float64 (as NumPy does for int32/int64 with float32), and
// complex64 meeting float64 or an integer widens to complex128.
DType promote_types(DType a, DType b);

// The kind of a Python-style scalar: it is "weak" in promotion (NumPy 2 rule), so
// float32_array * 2.5 stays float32 and int32_array + 1 stays int32.
enum class ScalarKind : std::uint8_t { Bool, Int, Float };

DType promote_with_scalar(DType array, ScalarKind scalar);

// The dtype a floating-point function (sin, exp, sqrt, true division) computes in for an input
// of dtype t: floats keep their width, integers become float64, bool becomes float32.
DType floating_result(DType t);

template <class T>
constexpr DType dtype_of();
template <>
constexpr DType dtype_of<bool>() {
  return DType::Bool;
}
template <>
constexpr DType dtype_of<std::int32_t>() {
  return DType::Int32;
}
template <>
constexpr DType dtype_of<std::int64_t>() {
  return DType::Int64;
}
template <>
constexpr DType dtype_of<float>() {
  return DType::Float32;
}
template <>
constexpr DType dtype_of<double>() {
  return DType::Float64;
}
template <>
constexpr DType dtype_of<std::complex<float>>() {
  return DType::Complex64;
}
template <>
constexpr DType dtype_of<std::complex<double>>() {
  return DType::Complex128;
}

// What complex arrays take (complex.hpp), named by the errors for what they do not.
inline constexpr std::string_view kComplexOperations =
    "add, subtract, multiply, divide, power, negative, equal, not_equal, where, sum, prod, mean, "
    "var, stddev, any, all, exp, expm1, log, log1p, log2, log10, sqrt, sin, cos, tan, sinh, "
    "cosh, tanh, arcsin, arccos, arctan, arcsinh, arccosh, arctanh, sign, round, isnan, isinf, "
    "isfinite, real, imag, conj, abs, astype, complex_from, sort, argsort, take, compress "
    "(boolean masks) and the fft functions (complex.hpp, algorithms.hpp, fft.hpp)";

// Calls f(T{}) with the C++ type of a real dtype t; the one place a dtype becomes a type. Throws
// DTypeError for a complex t, which no elementwise kernel takes.
template <class F>
decltype(auto) visit_dtype(DType t, F&& f) {
  switch (t) {
    case DType::Bool:
      return f(bool{});
    case DType::Int32:
      return f(std::int32_t{});
    case DType::Int64:
      return f(std::int64_t{});
    case DType::Float32:
      return f(float{});
    case DType::Float64:
      break;
    case DType::Complex64:
    case DType::Complex128:
      throw DTypeError(std::string("no elementwise kernel takes ") +
                       (t == DType::Complex64 ? "complex64" : "complex128") +
                       " elements: complex arrays take " + std::string(kComplexOperations));
  }
  return f(double{});
}

}  // namespace switchyard
