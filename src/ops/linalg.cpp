// matmul through each backend's BLAS (OpenBLAS, CLBlast, cuBLAS): 2-D·2-D is gemm, 2-D·1-D gemv.
#include <string>

#include "core/checked.hpp"
#include "expr/realize.hpp"
#include "runtime/executor.hpp"
#include "switchyard/ops.hpp"

namespace switchyard {
namespace {

// A matrix operand BLAS can read in place: row-major (no transpose) or column-major (transpose),
// with its leading dimension; anything else is copied to row-major first.
struct MatrixOperand {
  Array array;
  bool transposed;
  std::int64_t leading;
};

MatrixOperand as_blas_matrix(const Array& m) {
  const auto rows = m.shape()[0], cols = m.shape()[1];
  const auto s0 = m.strides()[0], s1 = m.strides()[1];
  if ((s1 == 1 || cols == 1) && s0 >= std::max<std::int64_t>(cols, 1)) return {m, false, s0};
  if ((s0 == 1 || rows == 1) && s1 >= std::max<std::int64_t>(rows, 1)) return {m, true, s1};
  const Array c = m.copy();
  return {c, false, std::max<std::int64_t>(cols, 1)};
}

runtime::View view_of(const Array& a) {
  return {a.buffer(), a.dtype(), a.shape(), a.strides(), a.offset()};
}

Array run_blas(const LibraryOp& op, const LibraryArgs& args, const Array& a, const Array& b,
               const Shape& out_shape) {
  const runtime::View inputs[] = {view_of(a), view_of(b)};
  const runtime::LibraryOutput output{op.dtype, out_shape};
  const runtime::View v = runtime::run_library(op, args, inputs, {&output, 1}).front();
  return Array(v.buffer, v.dtype, v.shape, v.strides, v.offset);
}

// BLAS reads materialised operands: a pending one is realised here, which ends its fusion.
void realize_operands(const Array& a, const Array& b) {
  std::vector<expr::NodePtr> pending;
  for (const Array* x : {&a, &b})
    if (x->pending()) pending.push_back(x->node());
  for (const auto& n : pending) expr::realize_for(n, expr::FusionStop::LibraryOp);
}

}  // namespace

Array matmul(const Array& a_in, const Array& b_in) {
  if (!a_in || !b_in) throw ValueError("matmul of a null Array: expected two arrays");
  if (a_in.ndim() != 2 || (b_in.ndim() != 1 && b_in.ndim() != 2))
    throw ShapeError("matmul of shapes " + to_string(a_in.shape()) + " and " +
                     to_string(b_in.shape()) +
                     ": expected a 2-D matrix times a 2-D matrix or a 1-D vector");
  const DType t = promote_types(a_in.dtype(), b_in.dtype());
  if (!is_floating(t))
    throw DTypeError("matmul of " + std::string(name(a_in.dtype())) + " and " +
                     std::string(name(b_in.dtype())) +
                     ": expected float32 or float64 operands (cast with astype)");
  const Array a = a_in.dtype() == t ? a_in : a_in.astype(t);
  const Array b = b_in.dtype() == t ? b_in : b_in.astype(t);
  const std::int64_t m = a.shape()[0], k = a.shape()[1], kb = b.shape()[0];
  if (k != kb)
    throw ShapeError("matmul of shapes " + to_string(a.shape()) + " and " + to_string(b.shape()) +
                     ": expected the inner extents to match, given " + std::to_string(k) + " and " +
                     std::to_string(kb));

  realize_operands(a, b);
  const MatrixOperand A = as_blas_matrix(a);
  LibraryArgs args;
  if (b.ndim() == 1) {
    const Array x = b.is_contiguous() ? b : b.copy();
    args.m = m, args.n = k, args.lda = A.leading;
    return run_blas({LibraryOp::Kind::Gemv, t, A.transposed}, args, A.array, x, Shape{m});
  }
  const MatrixOperand B = as_blas_matrix(b);
  const std::int64_t n = b.shape()[1];
  byte_count(Shape{m, n}, t);  // broadcast operands can ask for a result no memory holds
  args.m = m, args.n = n, args.k = k, args.lda = A.leading, args.ldb = B.leading, args.ldc = n;
  return run_blas({LibraryOp::Kind::Gemm, t, A.transposed, B.transposed}, args, A.array, B.array,
                  Shape{m, n});
}

}  // namespace switchyard
