// Array properties and views: checked here, at the edge, so the layers below trust their inputs.
#include "switchyard/array.hpp"

#include <cstring>
#include <numeric>

#include "api/view_bounds.hpp"
#include "core/checked.hpp"
#include "core/geometry.hpp"
#include "expr/realize.hpp"
#include "ops/complex_parts.hpp"
#include "ops/nodes.hpp"
#include "runtime/buffer.hpp"
#include "switchyard/ops.hpp"

namespace switchyard {

void check_view_bounds(const Shape& shape, const Strides& strides, std::int64_t offset, DType dtype,
                       std::size_t bytes) {
  if (strides.size() != shape.size())
    throw ShapeError("strides " + to_string(strides) + " do not match shape " + to_string(shape) +
                     ": expected one stride per axis");
  if (element_count(shape) == 0) return;
  const auto span = element_span(shape, strides, offset);
  if (!span)
    throw IndexError("view of shape " + to_string(shape) + " with strides " + to_string(strides) +
                     " and offset " + std::to_string(offset) +
                     " reaches elements further apart than int64 can count: expected every "
                     "element inside a buffer of " +
                     std::to_string(bytes) + " bytes; check the strides");
  const auto [lo, hi] = *span;
  const auto capacity = static_cast<std::int64_t>(bytes / size_of(dtype));
  if (lo < 0 || hi >= capacity)
    throw IndexError("view of shape " + to_string(shape) + " with strides " + to_string(strides) +
                     " and offset " + std::to_string(offset) + " reaches elements [" +
                     std::to_string(lo) + ", " + std::to_string(hi) + "] of a buffer holding " +
                     std::to_string(capacity) + " " + std::string(name(dtype)) +
                     " elements: expected every element inside the buffer");
}

Array::Array(std::shared_ptr<Buffer> buffer, DType dtype, Shape shape, Strides strides,
             std::int64_t offset)
    : buffer_(std::move(buffer)), dtype_(dtype), shape_(shape), strides_(strides), offset_(offset) {
  check_view_bounds(shape_, strides_, offset_, dtype_, buffer_->bytes());
}

Array::Array(std::shared_ptr<expr::Node> pending)
    : dtype_(pending->dtype),
      shape_(pending->shape),
      strides_(contiguous_strides(pending->shape)),
      node_(std::move(pending)) {}

void Array::require() const {
  if (!buffer_ && !node_)
    throw ValueError("operation on a null Array: expected an array made by a factory");
}

bool Array::pending() const {
  return node_ && !node_->ready();
}

const std::shared_ptr<Buffer>& Array::buffer() const {
  if (!node_) return buffer_;
  if (!node_->ready()) expr::realize({node_});
  return node_->value().buffer;
}

// A view of a pending array is a pending view node: the fusion pass applies the same geometry to
// the inputs the value is computed from, so viewing costs no pass over memory either.
template <class G>
Array Array::view_with(G geometry) const {
  require();
  Geometry v = geometry(Geometry{shape_, strides_, offset_});
  if (pending()) return Array(expr::make_view(node_, v.shape, std::move(geometry)));
  return Array(buffer(), dtype_, std::move(v.shape), std::move(v.strides), v.offset);
}

std::int64_t Array::size() const {
  return element_count(shape_);
}

std::size_t Array::nbytes() const {
  return byte_count(shape_, dtype_);
}

bool Array::is_contiguous() const {
  if (size() == 0) return true;  // nothing to read; the partial products below may overflow
  std::int64_t expected = 1;
  for (int i = shape_.size() - 1; i >= 0; --i) {
    if (shape_[i] != 1 && strides_[i] != expected) return false;
    expected *= shape_[i];
  }
  return true;
}

std::vector<std::string> Array::locations() const {
  require();
  return buffer()->valid_locations();
}

Array Array::slice(int axis, std::optional<std::int64_t> start, std::optional<std::int64_t> stop,
                   std::int64_t step) const {
  require();
  axis = normalize_axis(axis, ndim());
  if (step == 0) throw ValueError("slice step is 0: expected a non-zero step");
  return view_with([axis, start, stop, step](Geometry g) {
    const std::int64_t n = g.shape[axis];
    // Python's slice.indices(): clamp negative and out-of-range bounds.
    auto clamp = [n, step](std::optional<std::int64_t> v, bool is_start) {
      if (!v) return step > 0 ? (is_start ? 0 : n) : (is_start ? n - 1 : std::int64_t{-1});
      std::int64_t x = *v < 0 ? *v + n : *v;
      if (step > 0) return std::clamp<std::int64_t>(x, 0, n);
      return std::clamp<std::int64_t>(x, -1, n - 1);
    };
    const std::int64_t first = clamp(start, true), last = clamp(stop, false);
    // ceil(span / |step|) without forming span + |step| - 1 or -step, which overflow for steps
    // near the int64 limits.
    const std::int64_t span = step > 0 ? last - first : first - last;
    const std::uint64_t magnitude =
        step > 0 ? static_cast<std::uint64_t>(step) : static_cast<std::uint64_t>(-(step + 1)) + 1;
    const std::int64_t count =
        span <= 0
            ? 0
            : static_cast<std::int64_t>((static_cast<std::uint64_t>(span) - 1) / magnitude) + 1;
    const std::int64_t stride = g.strides[axis];
    g.shape[axis] = count;
    // With one element or none the stride is never used to step; keep it from overflowing.
    if (count > 1) g.strides[axis] = *checked::mul(stride, step);
    if (count) g.offset += first * stride;
    return g;
  });
}

Array Array::operator[](std::int64_t index) const {
  require();
  if (ndim() == 0) throw IndexError("cannot index a 0-d array: expected an array with an axis");
  const std::int64_t n = shape_[0];
  if (index < -n || index >= n)
    throw IndexError("index " + std::to_string(index) + " is out of range for axis 0 of extent " +
                     std::to_string(n) + ": expected -" + std::to_string(n) + " <= index < " +
                     std::to_string(n));
  if (index < 0) index += n;
  return view_with([index](Geometry g) {
    g.offset += index * g.strides[0];
    g.shape.erase(0);
    g.strides.erase(0);
    return g;
  });
}

Array Array::transpose() const {
  require();
  std::vector<int> axes(ndim());
  std::iota(axes.rbegin(), axes.rend(), 0);
  return permute(axes);
}

Array Array::permute(std::span<const int> axes) const {
  require();
  if (static_cast<int>(axes.size()) != ndim())
    throw ShapeError("permute got " + std::to_string(axes.size()) + " axes for an array of rank " +
                     std::to_string(ndim()) + ": expected one entry per axis");
  std::vector<int> order;
  bool seen[kMaxRank] = {};
  for (int a : axes) {
    const int axis = normalize_axis(a, ndim());
    if (seen[axis])
      throw ValueError("permute repeats axis " + std::to_string(a) +
                       ": expected each axis exactly once");
    seen[axis] = true;
    order.push_back(axis);
  }
  return view_with([order](const Geometry& g) { return permuted(g, order); });
}

Array Array::reshape(const Shape& requested) const {
  require();
  // The result is contiguous, so any reshape of it is a view.
  if (pending()) expr::realize_for(node_, expr::FusionStop::Reshape);
  Shape shape = requested;
  int inferred = -1;
  std::int64_t known = 1;
  for (int i = 0; i < shape.size(); ++i) {
    if (shape[i] == -1) {
      if (inferred >= 0)
        throw ValueError("reshape " + to_string(requested) +
                         " has two -1 extents: expected at most one");
      inferred = i;
    } else {
      const auto product = checked::mul(known, element_count(Shape{shape[i]}));
      if (!product)
        throw ValueError("reshape " + to_string(requested) +
                         " has more elements than int64 can count: expected the size of " +
                         to_string(shape_) + ", " + std::to_string(size()) + " elements");
      known = *product;
    }
  }
  if (inferred >= 0) shape[inferred] = known == 0 ? 0 : size() / known;
  if (element_count(shape) != size())
    throw ShapeError("cannot reshape an array of shape " + to_string(shape_) + " (" +
                     std::to_string(size()) + " elements) to " + to_string(requested) +
                     ": expected the same number of elements");
  if (size() == 0) return Array(buffer(), dtype_, shape, contiguous_strides(shape), 0);
  // NumPy's no-copy rule: each group of old axes that maps onto a group of new axes must be
  // contiguous within itself.
  Strides strides = Dims::filled(shape.size(), 0);
  int oi = 0, ni = 0;
  const int on = ndim(), nn = shape.size();
  bool viewable = true;
  while (oi < on && ni < nn && viewable) {
    std::int64_t np = shape[ni], op = shape_[oi];
    int oj = oi + 1, nj = ni + 1;
    while (np != op) {
      if (np < op)
        np *= shape[nj++];
      else
        op *= shape_[oj++];
    }
    for (int k = oi; k < oj - 1; ++k)
      if (shape_[k] != 1 && strides_[k] != shape_[k + 1] * strides_[k + 1]) viewable = false;
    strides[nj - 1] = strides_[oj - 1];
    for (int k = nj - 1; k > ni; --k) strides[k - 1] = strides[k] * shape[k];
    ni = nj, oi = oj;
  }
  if (!viewable) return copy().reshape(shape);
  for (; ni < nn; ++ni) strides[ni] = 1;  // trailing extents of 1
  return Array(buffer(), dtype_, shape, strides, offset_);
}

Array Array::broadcast_to(const Shape& shape) const {
  require();
  broadcast_strides(shape_, strides_, shape);  // checks before a pending view is recorded
  return view_with([shape](const Geometry& g) { return broadcast(g, shape); });
}

Array Array::expand_dims(int axis) const {
  require();
  axis = normalize_axis(axis, ndim() + 1);
  return view_with([axis](Geometry g) {
    g.shape.insert(axis, 1);
    g.strides.insert(axis, 0);
    return g;
  });
}

Array Array::squeeze(std::optional<int> axis) const {
  require();
  const int only = axis ? normalize_axis(*axis, ndim()) : -1;
  if (axis && shape_[only] != 1)
    throw ShapeError("cannot squeeze axis " + std::to_string(*axis) + " of extent " +
                     std::to_string(shape_[only]) + ": expected extent 1");
  return view_with([only](Geometry g) {
    Geometry s{{}, {}, g.offset};
    for (int i = 0; i < g.shape.size(); ++i) {
      if (g.shape[i] == 1 && (only < 0 || i == only)) continue;
      s.shape.push_back(g.shape[i]);
      s.strides.push_back(g.strides[i]);
    }
    return s;
  });
}

Array Array::copy() const {
  return astype(dtype_);
}

Array Array::astype(DType dtype) const {
  require();
  byte_count(shape_, dtype);  // a broadcast view may be too large to materialise
  if (is_complex(dtype_) || is_complex(dtype)) return complex_parts::astype(*this, dtype);
  // A cast to the array's own dtype is still a new array: an explicit copy node.
  const expr::NodePtr source = node_of(*this);
  return Array(expr::make_op(ir::OpCode::Cast, dtype, shape_, source));
}

void Array::to_host(void* dst, std::size_t bytes) const {
  require();
  if (bytes != nbytes())
    throw ValueError("to_host destination has " + std::to_string(bytes) +
                     " bytes for an array of " + std::to_string(nbytes()) + " bytes (" +
                     to_string(shape_) + " " + std::string(name(dtype_)) +
                     "): expected exactly nbytes()");
  if (bytes == 0) return;
  // A pending array is computed straight into the caller's memory: no result buffer, no copy.
  if (pending()) {
    const auto destination = Buffer::borrow_host(dst, bytes, {});
    if (expr::realize_into(node_, {destination, dtype_, shape_, strides_, 0})) {
      destination->host_data();  // brings a result computed on a device into dst
      return;
    }
  }
  if (!is_contiguous()) return copy().to_host(dst, bytes);
  std::memcpy(dst, buffer()->host_data() + offset_ * itemsize(), bytes);
}

}  // namespace switchyard
