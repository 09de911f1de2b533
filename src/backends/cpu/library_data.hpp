// Typed access to an operand's host memory, for the CPU's library routines.
#pragma once

#include "backends/backend.hpp"

namespace switchyard::cpu {

template <class T>
T* data(const Operand& operand) {
  return static_cast<T*>(operand.memory.handle) + operand.offset;
}

}  // namespace switchyard::cpu
