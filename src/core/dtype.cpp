#include "switchyard/dtype.hpp"

#include <string>

#include "switchyard/error.hpp"

namespace switchyard {

std::string_view name(DType t) {
  switch (t) {
    case DType::Bool:
      return "bool";
    case DType::Int32:
      return "int32";
    case DType::Int64:
      return "int64";
    case DType::Float32:
      return "float32";
    case DType::Float64:
      return "float64";
    case DType::Complex64:
      return "complex64";
    case DType::Complex128:
      return "complex128";
  }
  return "?";
}

DType parse_dtype(std::string_view text) {
  struct Alias {
    std::string_view text;
    DType dtype;
  };
  static constexpr Alias kAliases[] = {
      {"bool", DType::Bool},       {"int32", DType::Int32},
      {"i32", DType::Int32},       {"int64", DType::Int64},
      {"i64", DType::Int64},       {"float32", DType::Float32},
      {"f32", DType::Float32},     {"float", DType::Float32},
      {"float64", DType::Float64}, {"f64", DType::Float64},
      {"double", DType::Float64},  {"complex64", DType::Complex64},
      {"c64", DType::Complex64},   {"complex128", DType::Complex128},
      {"c128", DType::Complex128}, {"complex", DType::Complex128}};
  for (const auto& a : kAliases)
    if (a.text == text) return a.dtype;
  throw DTypeError("unknown dtype '" + std::string(text) +
                   "': expected one of bool, int32, int64, float32, float64, complex64, "
                   "complex128");
}

DType promote_types(DType a, DType b) {
  if (a == b) return a;
  if (a == DType::Bool) return b;
  if (b == DType::Bool) return a;
  if (is_integer(a) && is_integer(b)) return DType::Int64;
  if (is_complex(a) || is_complex(b)) {
    // The complex dtype wide enough for both: complex64 holds float32 parts, and nothing else.
    const bool narrow = (a == DType::Float32 || a == DType::Complex64) &&
                        (b == DType::Float32 || b == DType::Complex64);
    return narrow ? DType::Complex64 : DType::Complex128;
  }
  if (is_floating(a) && is_floating(b)) return DType::Float64;
  // One integer, one float: float64 unless the integer is narrower than the float's mantissa
  // would need, which for int32/int64 against float32 it never is.
  return DType::Float64;
}

DType promote_with_scalar(DType array, ScalarKind scalar) {
  switch (scalar) {
    case ScalarKind::Bool:
      return array;
    case ScalarKind::Int:
      return array == DType::Bool ? DType::Int64 : array;
    case ScalarKind::Float:
      return is_floating(array) || is_complex(array) ? array : DType::Float64;
  }
  return array;
}

DType floating_result(DType t) {
  if (is_floating(t) || is_complex(t)) return t;
  return t == DType::Bool ? DType::Float32 : DType::Float64;
}

}  // namespace switchyard
