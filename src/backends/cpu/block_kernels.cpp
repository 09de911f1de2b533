#include "backends/cpu/block_kernels.hpp"

#include <string>

#include "switchyard/error.hpp"

namespace switchyard::cpu {

BlockFn block_kernel(ir::OpCode op, DType result, DType operand) {
  if (result == operand) {
    if (BlockFn f = simd_block_kernel(op, result)) return f;
    if (BlockFn f = vector_math_block_kernel(op, result)) return f;
  }
  if (BlockFn f = plain_block_kernel(op, result, operand)) return f;
  throw DTypeError("cpu backend: " + std::string(ir::name(op)) + " is not defined for " +
                   std::string(name(operand)) + " operands giving " + std::string(name(result)) +
                   "; the kernel builder must cast to a dtype the operation accepts");
}

}  // namespace switchyard::cpu
