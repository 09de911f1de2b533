// Block kernels: one Kernel IR instruction applied to a block of elements. The CPU executor
// runs a kernel as a sequence of these calls per block, so every operand is a pointer to `n`
// values (inputs read in place, broadcasts and scalars splatted, strided inputs gathered).
//
// Three providers, asked in this order by block_kernel():
//   simd_block_kernel        Highway, float32/float64 arithmetic, rounding, nextafter and
//                            exp/log/sin/cos/tanh/sqrt
//   vector_math_block_kernel SLEEF, float32/float64 tan, pow, atan2, hypot, copysign,
//                            asin/acos/atan, the hyperbolic functions and their inverses,
//                            expm1, log1p, log2, log10
//   plain_block_kernel       plain loops for everything else (integers, bool, casts, bit
//                            operations, comparisons, where, float mod/sign/signbit/logaddexp),
//                            which gcc vectorises itself
#pragma once

#include <cstdint>

#include "ir/kernel_ir.hpp"

namespace switchyard::cpu {

// Writes n results to `out`; a, b and c are the operands the instruction's arity uses.
using BlockFn = void (*)(const void* a, const void* b, const void* c, void* out, std::int64_t n);

// Each returns nullptr when it does not provide (op, dtype).
BlockFn simd_block_kernel(ir::OpCode op, DType t);
BlockFn vector_math_block_kernel(ir::OpCode op, DType t);
// `operand` is the dtype the instruction reads: the source of a Cast, the compared dtype of a
// comparison, the classified dtype of IsNan/IsInf/IsFinite, the value dtype of Where; otherwise
// the result dtype.
BlockFn plain_block_kernel(ir::OpCode op, DType result, DType operand);

// The fastest provider's kernel; throws DTypeError when no provider has (op, dtype).
BlockFn block_kernel(ir::OpCode op, DType result, DType operand);

// The Highway target chosen for this machine, e.g. "AVX3" (for DeviceInfo and explain).
const char* simd_target_name();

}  // namespace switchyard::cpu
