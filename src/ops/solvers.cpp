// numpy.linalg's factorisations through the Solver library op (launch.hpp): stacks of matrices
// brought to C order and a float dtype here, factorised where a dense solver is, and what NumPy
// computes from the factors (inverse, determinant) composed from them with array operations.
#include "switchyard/linalg.hpp"

#include <string>
#include <vector>

#include "ops/algorithms/library_operands.hpp"
#include "switchyard/error.hpp"
#include "switchyard/ops.hpp"

namespace switchyard::linalg {
namespace {

using algorithms::contiguous_operand;
using algorithms::run_library_op;
using Kind = LibraryOp::SolverKind;

// A stack of m×n matrices in C order, in the float dtype it is factorised in.
struct Stack {
  Array matrices;  // contiguous, shape batch + (m, n)
  Shape batch;
  std::int64_t count = 1, m = 0, n = 0;
  DType dtype = DType::Float64;
};

// NumPy factorises float32 in float32 and everything else real in float64.
DType factor_dtype(DType t, std::string_view fn) {
  if (is_complex(t))
    throw DTypeError(std::string(fn) + " of a " + std::string(name(t)) +
                     " array: complex matrices are not supported yet; expected a real array");
  return t == DType::Float32 ? DType::Float32 : DType::Float64;
}

// The batch axes and matrix extents of `a`, checked (NumPy's LinAlgError for too few axes or a
// matrix that must be square and is not).
Stack shape_of(const Array& a, std::string_view fn, bool square) {
  if (!a) throw ValueError(std::string(fn) + " of a null Array: expected an array");
  if (a.ndim() < 2)
    throw LinAlgError(std::string(fn) + ": " + std::to_string(a.ndim()) +
                      "-dimensional array given; expected an array of at least two dimensions");
  Stack s;
  s.m = a.shape()[a.ndim() - 2], s.n = a.shape()[a.ndim() - 1];
  if (square && s.m != s.n)
    throw LinAlgError(std::string(fn) + ": the last two dimensions must be square, given " +
                      to_string(a.shape()));
  for (int i = 0; i + 2 < a.ndim(); ++i) s.batch.push_back(a.shape()[i]), s.count *= a.shape()[i];
  return s;
}

Stack stack_of(const Array& a, std::string_view fn, bool square, DType dtype) {
  Stack s = shape_of(a, fn, square);
  s.dtype = dtype;
  s.matrices = contiguous_operand(a.dtype() == dtype ? a : a.astype(dtype));
  return s;
}

Stack stack_of(const Array& a, std::string_view fn, bool square) {
  if (!a) throw ValueError(std::string(fn) + " of a null Array: expected an array");
  return stack_of(a, fn, square, factor_dtype(a.dtype(), fn));
}

Shape with(const Shape& batch, std::initializer_list<std::int64_t> tail) {
  Shape s = batch;
  for (std::int64_t d : tail) s.push_back(d);
  return s;
}

LibraryOp solver_op(Kind kind, DType dtype, bool vectors = true, bool complete = false) {
  LibraryOp op{.kind = LibraryOp::Kind::Solver, .dtype = dtype};
  op.solver = kind, op.vectors = vectors, op.complete = complete;
  return op;
}

LibraryArgs args_of(const Stack& s) {
  LibraryArgs args;
  args.m = s.m, args.n = s.n, args.batch = s.count;
  return args;
}

// Results of an empty stack, or of empty matrices, need no factorisation: zeros of their shapes
// (identity matrices where NumPy gives them).
bool nothing_to_factorise(const Stack& s) {
  return s.count == 0 || s.m == 0 || s.n == 0;
}

Array identities(const Shape& batch, std::int64_t n, DType dtype) {
  const Array positions = Array::arange(std::int64_t{0}, n);
  const Array eye = (positions.expand_dims(1) == positions.expand_dims(0)).astype(dtype);
  return eye.broadcast_to(with(batch, {n, n})).copy();
}

// The main diagonal of each matrix of a contiguous batch + (n, n) array: a view.
Array diagonal_of(const Array& m) {
  const int rank = m.ndim();
  const std::int64_t n = m.shape()[rank - 1];
  Shape shape;
  Strides strides;
  for (int i = 0; i + 2 < rank; ++i)
    shape.push_back(m.shape()[i]), strides.push_back(m.strides()[i]);
  shape.push_back(n), strides.push_back(m.strides()[rank - 2] + m.strides()[rank - 1]);
  return Array(m.buffer(), m.dtype(), shape, strides, m.offset());
}

}  // namespace

Svd svd(const Array& a, bool full_matrices) {
  const Stack s = stack_of(a, "svd", false);
  const std::int64_t k = std::min(s.m, s.n);
  const std::int64_t u_cols = full_matrices ? s.m : k, vh_rows = full_matrices ? s.n : k;
  if (nothing_to_factorise(s)) {
    const auto eye_or_zeros = [&](std::int64_t rows, std::int64_t cols) {
      return full_matrices && rows == cols ? identities(s.batch, rows, s.dtype)
                                           : Array::zeros(with(s.batch, {rows, cols}), s.dtype);
    };
    return {eye_or_zeros(s.m, u_cols), Array::zeros(with(s.batch, {k}), s.dtype),
            eye_or_zeros(vh_rows, s.n)};
  }
  auto out =
      run_library_op(solver_op(Kind::Svd, s.dtype, true, full_matrices), args_of(s), {s.matrices},
                     {{s.dtype, with(s.batch, {k})},
                      {s.dtype, with(s.batch, {s.m, u_cols})},
                      {s.dtype, with(s.batch, {vh_rows, s.n})}});
  return {out[1], out[0], out[2]};
}

Array svdvals(const Array& a) {
  const Stack s = stack_of(a, "svdvals", false);
  const std::int64_t k = std::min(s.m, s.n);
  if (nothing_to_factorise(s)) return Array::zeros(with(s.batch, {k}), s.dtype);
  return run_library_op(solver_op(Kind::Svd, s.dtype, false), args_of(s), {s.matrices},
                        {{s.dtype, with(s.batch, {k})}})
      .front();
}

Qr qr(const Array& a, QrMode mode) {
  const Stack s = stack_of(a, "qr", false);
  const bool complete = mode == QrMode::Complete;
  const std::int64_t k = std::min(s.m, s.n);
  const std::int64_t q_cols = complete ? s.m : k, r_rows = complete ? s.m : k;
  if (nothing_to_factorise(s))
    return {complete ? identities(s.batch, s.m, s.dtype)
                     : Array::zeros(with(s.batch, {s.m, q_cols}), s.dtype),
            Array::zeros(with(s.batch, {r_rows, s.n}), s.dtype)};
  auto out = run_library_op(
      solver_op(Kind::Qr, s.dtype, true, complete), args_of(s), {s.matrices},
      {{s.dtype, with(s.batch, {s.m, q_cols})}, {s.dtype, with(s.batch, {r_rows, s.n})}});
  return {out[0], out[1]};
}

Array cholesky(const Array& a, bool upper) {
  const Stack s = stack_of(a, "cholesky", true);
  if (nothing_to_factorise(s)) return Array::zeros(s.matrices.shape(), s.dtype);
  const Array l = run_library_op(solver_op(Kind::Cholesky, s.dtype), args_of(s), {s.matrices},
                                 {{s.dtype, s.matrices.shape()}})
                      .front();
  if (!upper) return l;
  std::vector<int> swap_last;
  for (int i = 0; i < l.ndim(); ++i) swap_last.push_back(i);
  std::swap(swap_last[l.ndim() - 1], swap_last[l.ndim() - 2]);
  return l.permute(swap_last).copy();
}

Array solve(const Array& a, const Array& b) {
  if (!a || !b) throw ValueError("solve of a null Array: expected two arrays");
  const DType dtype = factor_dtype(promote_types(a.dtype(), b.dtype()), "solve");
  const Stack s = shape_of(a, "solve", true);
  // NumPy 2: a 1-D b is one vector; otherwise b is a stack of n×k matrices.
  const bool vector = b.ndim() == 1;
  const Array columns = vector ? b.expand_dims(1) : b;
  if (columns.ndim() < 2 || columns.shape()[columns.ndim() - 2] != s.n)
    throw ValueError("solve: b of shape " + to_string(b.shape()) + " does not match a of shape " +
                     to_string(a.shape()) + ": expected (..., " + std::to_string(s.n) +
                     ") or (..., " + std::to_string(s.n) + ", K)");
  const std::int64_t k = columns.shape()[columns.ndim() - 1];
  Shape b_batch;
  for (int i = 0; i + 2 < columns.ndim(); ++i) b_batch.push_back(columns.shape()[i]);
  const Shape batch = broadcast_shapes(s.batch, b_batch);
  const Stack matrices = stack_of(a.broadcast_to(with(batch, {s.n, s.n})), "solve", true, dtype);
  const Array rhs = contiguous_operand(columns.astype(dtype).broadcast_to(with(batch, {s.n, k})));
  Array x;
  if (nothing_to_factorise(matrices) || k == 0) {
    x = Array::zeros(with(batch, {s.n, k}), dtype);
  } else {
    LibraryArgs args = args_of(matrices);
    args.k = k;
    x = run_library_op(solver_op(Kind::Solve, dtype), args, {matrices.matrices, rhs},
                       {{dtype, with(batch, {s.n, k})}})
            .front();
  }
  return vector ? x.reshape(with(batch, {s.n})) : x;
}

Array inv(const Array& a) {
  const Stack s = stack_of(a, "inv", true);
  return solve(s.matrices, identities(s.batch, s.n, s.dtype));
}

Eigh eigh(const Array& a) {
  const Stack s = stack_of(a, "eigh", true);
  if (nothing_to_factorise(s))
    return {Array::zeros(with(s.batch, {s.n}), s.dtype), Array::zeros(s.matrices.shape(), s.dtype)};
  auto out = run_library_op(solver_op(Kind::Eigh, s.dtype), args_of(s), {s.matrices},
                            {{s.dtype, with(s.batch, {s.n})}, {s.dtype, s.matrices.shape()}});
  return {out[0], out[1]};
}

Array eigvalsh(const Array& a) {
  const Stack s = stack_of(a, "eigvalsh", true);
  if (nothing_to_factorise(s)) return Array::zeros(with(s.batch, {s.n}), s.dtype);
  return run_library_op(solver_op(Kind::Eigh, s.dtype, false), args_of(s), {s.matrices},
                        {{s.dtype, with(s.batch, {s.n})}})
      .front();
}

Slogdet slogdet(const Array& a) {
  const Stack s = stack_of(a, "slogdet", true);
  if (nothing_to_factorise(s))  // the determinant of a 0×0 matrix is 1
    return {Array::full(s.batch, 1.0, s.dtype), Array::zeros(s.batch, s.dtype)};
  auto out = run_library_op(solver_op(Kind::Lu, s.dtype), args_of(s), {s.matrices},
                            {{s.dtype, s.matrices.shape()}, {DType::Int64, with(s.batch, {s.n})}});
  const Array diagonal = diagonal_of(out[0]);
  // Each pivot that is not its own row is a row swap: an odd count flips the sign.
  const Array rows = Array::arange(std::int64_t{1}, s.n + 1);
  const Array swaps = sum((out[1] != rows).astype(DType::Int64), -1);
  const Array permutation_sign = 1 - 2 * (swaps % 2);
  const Array sign = prod(::switchyard::sign(diagonal), -1) * permutation_sign.astype(s.dtype);
  return {sign, sum(log(abs(diagonal)), -1)};
}

Array det(const Array& a) {
  const Slogdet d = slogdet(a);
  return d.sign * exp(d.logabsdet);
}

}  // namespace switchyard::linalg
