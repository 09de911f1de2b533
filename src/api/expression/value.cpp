#include "api/expression/value.hpp"

#include <cstdint>
#include <limits>
#include <vector>

namespace switchyard::expr {

DType default_dtype(ScalarKind kind) {
  switch (kind) {
    case ScalarKind::Bool:
      return DType::Bool;
    case ScalarKind::Int:
      return DType::Int64;
    case ScalarKind::Float:
      break;
  }
  return DType::Float64;
}

Array scalar_array(Scalar s, DType dtype) {
  // Integers go in as integers, not through full()'s double, so that those above 2**53 stay exact.
  if (dtype == DType::Int64) return Array::from_vector(std::vector<std::int64_t>{s.i}, Shape{});
  if (dtype == DType::Int32) {
    if (s.i < std::numeric_limits<std::int32_t>::min() ||
        s.i > std::numeric_limits<std::int32_t>::max())
      throw ValueError("Python integer " + std::to_string(s.i) +
                       " out of bounds for int32: expected a value in [-2147483648, 2147483647] "
                       "to combine with int32 operands; cast the array with astype(int64) first");
    return Array::from_vector(std::vector<std::int32_t>{static_cast<std::int32_t>(s.i)}, Shape{});
  }
  return Array::full({}, s.kind == ScalarKind::Float ? s.f : static_cast<double>(s.i), dtype);
}

Array array_of(const Value& v) {
  if (const Array* a = std::get_if<Array>(&v)) return *a;
  const Scalar s = std::get<Scalar>(v);
  return scalar_array(s, default_dtype(s.kind));
}

Scalar weak_scalar(const Array& zero_d) {
  switch (zero_d.dtype()) {
    case DType::Bool:
      return zero_d.item<bool>();
    case DType::Int32:
    case DType::Int64:
      return static_cast<long long>(zero_d.item<std::int64_t>());
    case DType::Float32:
    case DType::Float64:
    case DType::Complex64:  // item<double> rejects it with a DTypeError
    case DType::Complex128:
      break;
  }
  return zero_d.item<double>();
}

bool is_bool(const Value& v) {
  if (const Array* a = std::get_if<Array>(&v)) return a->dtype() == DType::Bool;
  return std::get<Scalar>(v).kind == ScalarKind::Bool;
}

std::string type_name(const Value& v) {
  if (const Array* a = std::get_if<Array>(&v)) return std::string(name(a->dtype()));
  switch (std::get<Scalar>(v).kind) {
    case ScalarKind::Bool:
      return "bool scalar";
    case ScalarKind::Int:
      return "int scalar";
    case ScalarKind::Float:
      break;
  }
  return "float scalar";
}

}  // namespace switchyard::expr
