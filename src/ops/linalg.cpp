// NumPy's matmul. Float products go to each backend's BLAS (OpenBLAS, CLBlast, cuBLAS): a
// matrix times a vector is gemv, everything else one strided-batch gemm for the whole batch.
// Integer and bool operands, which BLAS does not take, and the dot product of two vectors are
// one fused kernel: the elementwise product of broadcast views, summed over the inner axis.
#include <string>
#include <vector>

#include "core/checked.hpp"
#include "expr/realize.hpp"
#include "runtime/executor.hpp"
#include "switchyard/ops.hpp"

namespace switchyard {
namespace {

// A stack of matrices BLAS can read in place: each row-major (no transpose) or column-major
// (transpose) with its leading dimension, matrix p at offset + p·batch_stride.
struct MatrixOperand {
  Array array;
  bool transposed;
  std::int64_t leading;
  std::int64_t batch_stride;
};

struct MatrixLayout {
  bool transposed;
  std::int64_t leading;
};

std::optional<MatrixLayout> matrix_layout(std::int64_t rows, std::int64_t cols, std::int64_t s0,
                                          std::int64_t s1) {
  if ((s1 == 1 || cols == 1) && s0 >= std::max<std::int64_t>(cols, 1)) return {{false, s0}};
  if ((s0 == 1 || rows == 1) && s1 >= std::max<std::int64_t>(rows, 1)) return {{true, s1}};
  return std::nullopt;
}

// The one stride that steps through every batch axis of `m` in row-major order (zero when they
// are all broadcast), or nullopt when the axes do not collapse into one.
std::optional<std::int64_t> batch_stride(const Array& m) {
  std::optional<std::int64_t> stride;
  std::int64_t inner_extent = 1;
  for (int d = m.ndim() - 3; d >= 0; --d) {
    if (m.shape()[d] == 1) continue;
    if (stride && m.strides()[d] != *stride * inner_extent) return std::nullopt;
    if (!stride) stride = m.strides()[d];
    inner_extent *= m.shape()[d];
  }
  return stride.value_or(0);
}

// `m` broadcast over `batch`, read in place where its strides allow, else copied to row-major.
MatrixOperand as_blas_matrices(const Array& m, const Shape& batch) {
  const int r = m.ndim();
  Shape shape = batch;
  shape.push_back(m.shape()[r - 2]);
  shape.push_back(m.shape()[r - 1]);
  const Array b = m.broadcast_to(shape);
  const int rank = shape.size();
  const auto rows = shape[rank - 2], cols = shape[rank - 1];
  const auto layout = matrix_layout(rows, cols, b.strides()[rank - 2], b.strides()[rank - 1]);
  const auto stride = batch_stride(b);
  if (layout && stride) return {b, layout->transposed, layout->leading, *stride};
  return {b.copy(), false, std::max<std::int64_t>(cols, 1), rows * cols};
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

// y = A·x for a matrix A (m×k) and a vector x (k).
Array gemv(const Array& a, const Array& x) {
  const MatrixOperand A = as_blas_matrices(a, {});
  LibraryArgs args;
  args.m = a.shape()[0], args.n = a.shape()[1], args.lda = A.leading;
  return run_blas({LibraryOp::Kind::Gemv, a.dtype(), A.transposed}, args, A.array,
                  x.is_contiguous() ? x : x.copy(), Shape{args.m});
}

// Every product of the batch in one launch; C is packed (batch, m, n).
Array batched_gemm(const Array& a, const Array& b, const Shape& batch) {
  const MatrixOperand A = as_blas_matrices(a, batch), B = as_blas_matrices(b, batch);
  const std::int64_t m = a.shape()[a.ndim() - 2], k = a.shape()[a.ndim() - 1];
  const std::int64_t n = b.shape()[b.ndim() - 1];
  Shape out = batch;
  out.push_back(m), out.push_back(n);
  LibraryArgs args;
  args.m = m, args.n = n, args.k = k;
  args.lda = A.leading, args.ldb = B.leading, args.ldc = std::max<std::int64_t>(n, 1);
  args.batch = element_count(batch);
  args.stride_a = A.batch_stride, args.stride_b = B.batch_stride, args.stride_c = m * n;
  return run_blas({LibraryOp::Kind::Gemm, a.dtype(), A.transposed, B.transposed}, args, A.array,
                  B.array, out);
}

// Σ_k a[..., m, k]·b[..., k, n] as one kernel: a viewed as (..., m, 1, k) and b as
// (..., 1, n, k) multiply into (..., m, n, k), summed over k; a vector operand (k) takes no added
// axis, so the product's shape is matmul's. Bool products are any(a & b); int32 sums (int64 in
// the IR) are narrowed back to int32 with wrap-around, as NumPy's int32 matmul, in a second
// kernel over the result.
Array product_sum(const Array& a, const Array& b, DType t) {
  const bool a_vector = a.ndim() == 1, b_vector = b.ndim() == 1;
  const Array x = a.dtype() == t ? a : a.astype(t);
  Array y = b.dtype() == t ? b : b.astype(t);
  if (!b_vector) {
    std::vector<int> swap_last(b.ndim());
    for (int d = 0; d < b.ndim(); ++d) swap_last[d] = d;
    std::swap(swap_last[b.ndim() - 2], swap_last[b.ndim() - 1]);
    y = y.permute(swap_last);
  }
  const Array products =
      multiply(b_vector ? x : x.expand_dims(-2), a_vector ? y : y.expand_dims(-3));
  if (t == DType::Bool) return any(products, -1);
  const Array sums = sum(products, -1);
  return sums.dtype() == t ? sums : sums.astype(t);
}

[[noreturn]] void shape_error(const Array& a, const Array& b, const std::string& expected) {
  throw ShapeError("matmul of shapes " + to_string(a.shape()) + " and " + to_string(b.shape()) +
                   ": expected " + expected);
}

Shape leading(const Shape& s, int count) {
  return Shape(s.begin(), s.begin() + count);
}

}  // namespace

Array matmul(const Array& a_in, const Array& b_in) {
  if (!a_in || !b_in) throw ValueError("matmul of a null Array: expected two arrays");
  if (a_in.ndim() == 0 || b_in.ndim() == 0)
    throw ValueError("matmul: input operand " + std::string(a_in.ndim() == 0 ? "0" : "1") +
                     " does not have enough dimensions: given shapes " + to_string(a_in.shape()) +
                     " and " + to_string(b_in.shape()) +
                     ", expected arrays of at least one axis (use multiply for scalars)");
  // NumPy: a 1-D operand is a row on the left, a column on the right; the added axis goes again.
  const bool a_vector = a_in.ndim() == 1, b_vector = b_in.ndim() == 1;
  const Array a = a_vector ? a_in.expand_dims(0) : a_in;
  const Array b = b_vector ? b_in.expand_dims(1) : b_in;
  const int ra = a.ndim(), rb = b.ndim();
  const std::int64_t m = a.shape()[ra - 2], k = a.shape()[ra - 1], kb = b.shape()[rb - 2];
  const std::int64_t n = b.shape()[rb - 1];
  if (k != kb)
    shape_error(
        a_in, b_in,
        "the inner extents to match, given " + std::to_string(k) + " and " + std::to_string(kb));
  Shape batch;
  try {
    batch = broadcast_shapes(leading(a.shape(), ra - 2), leading(b.shape(), rb - 2));
  } catch (const ShapeError&) {
    shape_error(a_in, b_in,
                "batch axes (all but the last two) that broadcast together, given " +
                    to_string(leading(a.shape(), ra - 2)) + " and " +
                    to_string(leading(b.shape(), rb - 2)));
  }
  Shape out = batch;
  if (!a_vector) out.push_back(m);
  if (!b_vector) out.push_back(n);
  const DType t = promote_types(a_in.dtype(), b_in.dtype());
  byte_count(out, t);  // broadcast operands can ask for a result no memory holds
  if (element_count(out) == 0 || k == 0) return Array::zeros(out, t);  // sums of nothing

  if (!is_floating(t) || (a_vector && b_vector)) return product_sum(a_in, b_in, t);
  const Array fa = a.dtype() == t ? a : a.astype(t);
  const Array fb = b.dtype() == t ? b : b.astype(t);
  // The operands realised here, and the strided ones copied when the product reads them, are
  // the product's: made where it will run.
  const runtime::MakingLibraryOperands operands;
  realize_operands(fa, fb);
  if (batch.empty() && b_vector) return gemv(fa, fb.reshape({k}));
  if (batch.empty() && a_vector) return gemv(fb.transpose(), fa.reshape({k}));
  return batched_gemm(fa, fb, batch).reshape(out);
}

}  // namespace switchyard
