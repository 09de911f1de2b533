// Writing into arrays: assign, fill, the in-place operators and mark_modified. The value to
// write is a lazy expression realised straight into the destination's storage, one kernel with
// the computation (a += b * c reads a, b and c and writes a once). Where no kernel can write
// there, the value is computed into new storage and copied in: kernels write C-contiguous
// outputs only, and one reading elements it overwrites at other positions would read some
// after they were written.
#include <cstdint>
#include <string>

#include "api/fill_value.hpp"
#include "expr/node.hpp"
#include "expr/realize.hpp"
#include "expr/writes.hpp"
#include "ops/complex_parts.hpp"
#include "ops/nodes.hpp"
#include "runtime/buffer.hpp"
#include "switchyard/complex.hpp"
#include "switchyard/ops.hpp"

namespace switchyard {
namespace {

// NumPy's casting kinds, in the order same_kind casting may go: bool, integer, floating, complex.
int kind_rank(DType t) {
  return t == DType::Bool ? 0 : is_integer(t) ? 1 : is_complex(t) ? 3 : 2;
}

// `value` converted to `dtype` as a new node: the node realised into existing storage is never
// one an array holds, which would then name that storage as its own result. The handle is
// dropped, so what only it held counts as the write's own (expr/writes.hpp).
expr::NodePtr private_value(Array value, DType dtype) {
  expr::NodePtr source = node_of(value);
  const Shape shape = value.shape();
  value = Array();
  return expr::make_op(ir::OpCode::Cast, dtype, shape, std::move(source));
}

// Copies the contiguous `source` into the strided `target` of the same shape, on the host. The
// target's host copy is brought up to date first, so the elements outside the view keep their
// values; every device copy is stale after.
void copy_on_host(const Array& source, const Array& target) {
  Buffer& storage = *target.buffer();
  visit_dtype(target.dtype(), [&](auto zero) {
    using T = decltype(zero);
    const T* from = reinterpret_cast<const T*>(source.buffer()->host_data()) + source.offset();
    T* to = reinterpret_cast<T*>(storage.host_data()) + target.offset();
    const Shape& shape = target.shape();
    const Strides& strides = target.strides();
    Dims index = Dims::filled(shape.size(), 0);
    std::int64_t at = 0;
    for (std::int64_t i = 0, n = target.size(); i < n; ++i) {
      to[at] = from[i];
      for (int d = shape.size() - 1; d >= 0; --d) {
        if (++index[d] < shape[d]) {
          at += strides[d];
          break;
        }
        at -= strides[d] * (shape[d] - 1);
        index[d] = 0;
      }
    }
  });
  storage.mark_host_written();
}

// Writes `value`, a private node of the destination's shape and dtype, into the destination.
// Pending work that reads the destination's storage is computed first, with the values it had
// when it was written.
void write(const Array& destination, expr::NodePtr value) {
  const Array target =
      destination.node() ? array_of(expr::storage_of(destination.node())) : destination;
  if (target.size() == 0) return;  // nothing to write, whatever its strides say
  for (int i = 0; i < target.ndim(); ++i)
    if (target.shape()[i] > 1 && target.strides()[i] == 0)
      throw ValueError("cannot write into a broadcast view of shape " + to_string(target.shape()) +
                       " (strides " + to_string(target.strides()) +
                       "): its elements share memory; expected a view whose elements are "
                       "distinct, such as the array it was broadcast from");
  // Computed already (it read shared storage): copied in by a kernel of its own.
  if (value->ready()) value = expr::make_op(ir::OpCode::Cast, value->dtype, value->shape, value);
  expr::realize_readers(*target.buffer(), value);
  const runtime::View view{target.buffer(), target.dtype(), target.shape(), target.strides(),
                           target.offset()};
  const bool contiguous = runtime::classify(view.shape, view.strides) != ir::Layout::Strided;
  if (contiguous && expr::realize_into(value, view)) return;
  // No kernel can write the value in place: it goes through new storage.
  const Array result(std::move(value));
  eval(result);
  if (contiguous)
    expr::realize_into(private_value(result, result.dtype()), view);
  else
    copy_on_host(result, target);
}

}  // namespace

void Array::assign(Array value) const {
  require();
  if (!value) throw ValueError("assign of a null Array: expected an array to write");
  // Complex elements are written as their (re, im) pairs; a complex value written into a real
  // array gives its real part, as NumPy's assignment does.
  if (is_complex(dtype_))
    return complex_parts::pairs_of(*this).assign(
        complex_parts::pairs_of(value.astype(dtype_).broadcast_to(shape_)));
  if (is_complex(value.dtype())) return assign(real(value));
  if (value.shape() != shape_) value = value.broadcast_to(shape_);
  write(*this, private_value(std::move(value), dtype_));
}

void Array::assign(Scalar value) const {
  require();
  if (is_complex(dtype_)) {
    real(*this).assign(value);
    return imag(*this).assign(0);
  }
  if (dtype_ == DType::Int32 && value.kind == ScalarKind::Int &&
      (value.i < INT32_MIN || value.i > INT32_MAX))
    throw ValueError("Python integer " + std::to_string(value.i) +
                     " out of bounds for int32: expected a value in [-2147483648, 2147483647] "
                     "to write into an int32 array");
  if (value.kind == ScalarKind::Float) check_fill_value(value.f, dtype_);
  const ScalarValue scalar = value.kind == ScalarKind::Float ? ScalarValue{DType::Float64, value.f}
                             : value.kind == ScalarKind::Int ? ScalarValue{DType::Int64, 0, value.i}
                                                             : ScalarValue{DType::Bool, 0, value.i};
  write(*this, expr::make_op(ir::OpCode::Cast, dtype_, shape_, expr::make_scalar(scalar)));
}

void Array::mark_modified() const {
  require();
  buffer()->mark_borrowed_written();
}

namespace detail {

const Array& update(const Array& a, Array result, std::string_view ufunc) {
  if (result.shape() != a.shape())
    throw ShapeError("non-broadcastable output operand with shape " + to_string(a.shape()) +
                     " doesn't match the broadcast shape " + to_string(result.shape()) + " of " +
                     std::string(ufunc) +
                     ": an in-place operation keeps its array's shape; expected an operand that "
                     "broadcasts to it");
  if (kind_rank(result.dtype()) > kind_rank(a.dtype()))
    throw DTypeError("Cannot cast ufunc '" + std::string(ufunc) + "' output from " +
                     std::string(name(result.dtype())) + " to " + std::string(name(a.dtype())) +
                     " with casting rule 'same_kind': expected a result of the array's kind; "
                     "compute into a new array instead, or convert the operand with astype");
  // A complex result is in storage of its own already: its (re, im) pairs are copied in.
  if (is_complex(a.dtype())) {
    a.assign(std::move(result));
    return a;
  }
  write(a, private_value(std::move(result), a.dtype()));
  return a;
}

}  // namespace detail
}  // namespace switchyard
