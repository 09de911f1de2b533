// Element types and NumPy type promotion.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace switchyard {

enum class DType : std::uint8_t { Bool, Int32, Int64, Float32, Float64 };

inline constexpr int kDTypeCount = 5;

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
  }
  return 0;
}

constexpr bool is_floating(DType t) {
  return t == DType::Float32 || t == DType::Float64;
}
constexpr bool is_integer(DType t) {
  return t == DType::Int32 || t == DType::Int64;
}

std::string_view name(DType t);

// Parses "float32", "f32", "int64", "bool", ...; throws DTypeError listing the valid names.
DType parse_dtype(std::string_view text);

// NumPy's result_type for two arrays: bool < int32 < int64, float32 < float64, and an integer
// meeting a float32 widens to float64 (as NumPy does for int32/int64 with float32).
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

// Calls f(T{}) with the C++ type of t; the one place a dtype becomes a type.
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
  }
  return f(double{});
}

}  // namespace switchyard
