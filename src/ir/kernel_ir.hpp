// Kernel IR: the one description of elementwise work that every backend executes.
//
// A kernel runs over an iteration space (a shape given at launch). Each instruction computes one
// value per element, in SSA form: an instruction's operands are indices of earlier instructions.
// `Load` reads an input at the current element through that input's strides (zero strides
// broadcast, so views and broadcasting need no copies); `Scalar` reads a runtime scalar argument
// (so `x * 2.5` and `x * 3.0` share one compiled kernel). Outputs store chosen values, or, in a
// kernel with reductions, every output is folded by its own reduction: all of them over all
// elements or all over the same number of trailing axes (axis reductions are launched with the
// reduced axes moved last, so the IR never names an axis). Folding several outputs in one kernel
// (a sum and a sum of squares, a min and a max) reads the inputs once for all of them.
//
// Semantics every backend implements identically (the conformance suite checks them):
//  - Operands of arithmetic, min/max and comparisons have the instruction's dtype (comparisons:
//    both operands share one dtype, result bool). The builder inserts every cast explicitly.
//  - Div, Exp, Log, Sqrt, Sin, Cos, Tan, Tanh, Asin, Acos, Atan, Sinh, Cosh, Asinh, Acosh,
//    Atanh, Expm1, Log1p, Log2, Log10, Atan2, Hypot, CopySign, NextAfter, LogAddExp, Floor, Ceil,
//    Round, Trunc: float dtypes only, with C's special values (atanh(±1) = ±inf, log1p(-1) = -inf,
//    acosh(x < 1) = NaN, ...). Round rounds half to even (NumPy's round and rint), Trunc toward
//    zero; both give NaN and infinities back unchanged.
//  - LogAddExp: log(exp(a) + exp(b)) without overflow, as NumPy computes it: a == b gives
//    a + log(2) (so inf, inf gives inf and -inf, -inf gives -inf), otherwise
//    max(a, b) + log1p(exp(-|a - b|)); a NaN operand gives NaN.
//  - NextAfter: C's nextafter, exactly: the neighbour of a toward b (a NaN operand gives NaN,
//    a == b gives b, ±0 toward a nonzero gives the smallest subnormal of b's sign).
//  - IsNan, IsInf, IsFinite, SignBit: a float operand, a bool result (IsInf is true for either
//    sign; SignBit is std::signbit: true for -0.0 and for NaNs with the sign bit set).
//  - FloorDiv: floor(a / b); integers: rounds toward minus infinity, x // 0 == 0, and
//    INT_MIN // -1 wraps to INT_MIN (never a trap).
//  - Mod: a - floor(a / b) * b, sign of the divisor (Python); integers: x % 0 == 0;
//    floats: fmod corrected to the divisor's sign, x % 0 == NaN.
//  - Pow: floats: pow(); integers: exact repeated squaring, negative exponent gives 0 unless the
//    base is 1 or -1.
//  - Min, Max: a NaN operand gives NaN. Sign: -1, 0, 1 (NaN for NaN).
//  - And, Or, Xor, Not: bool operands, logical; int32/int64 operands, bitwise on two's
//    complement (for bool's 0/1 bytes the two agree, except Not, which flips only bit 0).
//  - ShiftLeft, ShiftRight: integer dtypes only, as NumPy: a shift count below 0 or at least the
//    bit width gives 0 (ShiftRight of a negative value: -1); ShiftLeft wraps (bits shifted out
//    are lost), ShiftRight is arithmetic (copies the sign bit). Never undefined behaviour.
//  - Cast: to bool is (x != 0), NaN gives true; float to integer truncates toward zero, and
//    NaN or a value beyond the integer's range gives its minimum (NumPy on x86); bool to number
//    is 0 or 1.
//  - Integer Add/Sub/Mul/Neg/Abs wrap around (two's complement), as NumPy does.
//  - Reduction i folds outputs[i] (dtype T) into reduce_result(op, T): Sum and Prod accumulate in
//    the result dtype (float32 sums at least as accurately as pairwise summation); Min/Max
//    propagate NaN; ArgMin/ArgMax give the first index of the extreme (or of the first NaN),
//    counted in row-major order over the reduced elements. Sum of nothing is 0, Prod is 1;
//    callers reject empty Min/Max/Arg reductions before launching.
//
// The IR holds no shapes, strides or pointers: those are launch arguments. Its hash is therefore
// a stable key for compiled programs.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "switchyard/dtype.hpp"
#include "switchyard/shape.hpp"

namespace switchyard::ir {

enum class OpCode : std::uint8_t {
  // sources
  Load,    // a = input index
  Scalar,  // a = scalar argument index
  // unary
  Neg,
  Abs,
  Sign,
  Not,
  Exp,
  Log,
  Sqrt,
  Sin,
  Cos,
  Tan,
  Tanh,
  Asin,
  Acos,
  Atan,
  Sinh,
  Cosh,
  Asinh,
  Acosh,
  Atanh,
  Expm1,
  Log1p,
  Log2,
  Log10,
  Floor,
  Ceil,
  Round,
  Trunc,
  IsNan,
  IsInf,
  IsFinite,
  SignBit,
  Cast,
  // binary
  Add,
  Sub,
  Mul,
  Div,
  FloorDiv,
  Mod,
  Pow,
  Min,
  Max,
  Atan2,
  Hypot,
  CopySign,
  NextAfter,
  LogAddExp,
  Eq,
  Ne,
  Lt,
  Le,
  Gt,
  Ge,
  And,
  Or,
  Xor,
  ShiftLeft,
  ShiftRight,
  // ternary
  Where,  // a ? b : c
};

inline constexpr int kOpCodeCount = static_cast<int>(OpCode::Where) + 1;

std::string_view name(OpCode op);
int arity(OpCode op);  // operands read from earlier instructions (0 for Load and Scalar)
bool is_comparison(OpCode op);
// IsNan, IsInf, IsFinite, SignBit: a float operand, a bool result
bool is_classification(OpCode op);
// exp, log, the trigonometric and hyperbolic functions and their inverses, pow, atan2, hypot,
// logaddexp, ...: costly per element
bool is_transcendental(OpCode op);

// How an input is laid out over the iteration space; lets code generators and the CPU executor
// take a fast path without looking at the strides.
enum class Layout : std::uint8_t {
  Contiguous,  // strides are the row-major strides of the iteration shape
  Broadcast,   // every stride is zero: one element read everywhere
  Strided,     // anything else
};

struct Input {
  DType dtype;
  Layout layout;
};

struct Instr {
  OpCode op;
  DType dtype;  // dtype of the value this instruction produces
  std::int32_t a = -1, b = -1, c = -1;
};

struct Output {
  std::int32_t value;  // instruction index
  DType dtype;         // stored dtype (equals the value's dtype; casts are explicit instructions)
};

enum class ReduceOp : std::uint8_t { Sum, Prod, Min, Max, ArgMin, ArgMax };
enum class ReduceOver : std::uint8_t { All, TrailingAxes };

std::string_view name(ReduceOp op);

// The dtype a reduction produces from values of dtype t (NumPy: sums of bool and int32 are int64;
// arg reductions give int64 indices).
DType reduce_result(ReduceOp op, DType t);

struct Reduction {
  ReduceOp op;
  ReduceOver over;
  // With TrailingAxes: how many trailing axes of the launch shape are folded (>= 1).
  std::int32_t axes = 1;
};

// A reduction's launch seen as `rows` results, each folding `length` consecutive row-major
// elements: All is one row of every element; TrailingAxes folds the last `axes` axes (every axis
// of a launch with fewer), one row per element of the leading axes.
struct FoldedRows {
  std::int64_t rows, length;
};
FoldedRows folded_rows(const Reduction& reduction, const Shape& shape);

struct Kernel {
  std::vector<Input> inputs;
  std::vector<DType> scalars;  // dtypes of the scalar arguments
  std::vector<Instr> body;
  std::vector<Output> outputs;
  bool has_reduction = false;
  // When has_reduction: reductions[i] folds outputs[i]; every output is folded, all with the same
  // `over` and `axes` (ops may differ, e.g. Sum of x and Sum of x*x, or Min and Max of x).
  std::vector<Reduction> reductions;

  // Stable across processes and builds: a key for on-disk caches (xxHash64 of a canonical
  // byte encoding, not of the struct's memory).
  std::uint64_t hash() const;

  // Throws switchyard::Error when operands are out of order, dtypes disagree, or the
  // reductions are not one per output over one common set of elements.
  void validate() const;

  int transcendental_count() const;
  int arithmetic_count() const;
  // Whether an input, scalar or instruction is float64: what a device without it cannot run.
  bool uses_float64() const;
};

// Builds kernels one instruction at a time, inserting nothing implicitly: callers cast first.
class KernelBuilder {
 public:
  std::int32_t load(DType dtype, Layout layout);
  std::int32_t scalar(DType dtype);
  std::int32_t unary(OpCode op, std::int32_t a, DType result);
  std::int32_t cast(std::int32_t a, DType to);
  std::int32_t binary(OpCode op, std::int32_t a, std::int32_t b, DType result);
  std::int32_t where(std::int32_t cond, std::int32_t a, std::int32_t b);
  void output(std::int32_t value);
  // Folds the next output not yet folded, in output order.
  void reduce(ReduceOp op, ReduceOver over, std::int32_t axes = 1);
  DType dtype(std::int32_t value) const { return kernel_.body[value].dtype; }
  Kernel build();  // validates

 private:
  Kernel kernel_;
};

}  // namespace switchyard::ir
