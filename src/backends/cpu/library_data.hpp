// What the CPU's library routines share: typed access to an operand's host memory and one
// dispatch from a dtype to its element type.
#pragma once

#include <cstdint>
#include <string>

#include "backends/backend.hpp"
#include "switchyard/error.hpp"

namespace switchyard::cpu {

template <class T>
T* data(const Operand& operand) {
  return static_cast<T*>(operand.memory.handle) + operand.offset;
}

// Calls f(T{}) with T the element type of `dtype` (bool as bool: stored as 0 or 1).
template <class F>
decltype(auto) with_element_type(DType dtype, F&& f) {
  switch (dtype) {
    case DType::Bool:
      return f(bool{});
    case DType::Int32:
      return f(std::int32_t{});
    case DType::Int64:
      return f(std::int64_t{});
    case DType::Float32:
      return f(float{});
    case DType::Float64:
      return f(double{});
    default:
      break;
  }
  throw DTypeError(std::string("cpu library op on ") + std::string(name(dtype)) +
                   ": expected bool, int32, int64, float32 or float64");
}

}  // namespace switchyard::cpu
