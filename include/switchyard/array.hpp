// Array: a reference-counted, strided view of typed data that may live on the host or on any
// device. Views (slices, transposes, broadcasts, reshapes where possible) share storage and never
// copy; operations run where the runtime places them and results stay there until read.
//
// Operations are lazy: they record what to compute, and the whole expression behind an array
// runs as one fused kernel when its value is needed (reading it, eval(), DLPack export, a
// library operation such as matmul). Copies of a pending array share its one result.
//
// Writing (assign, fill, the in-place operators of ops.hpp) changes the elements in the storage
// an array views, so every view of that storage sees the change, as in NumPy. A pending result
// has the value NumPy would have computed when it was written, whatever is written later: a write
// into storage that pending results read computes them first.
//
// Memory shared with code outside (borrow(), from_dlpack, and storage lent out by to_dlpack) may
// be written by its owner at any time. Work that reads it runs when it is written, not later;
// the owner's copy is the one read, so devices refresh theirs from it; and a write into it
// reaches the owner's copy before the write returns.
#pragma once

#include <concepts>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "switchyard/dtype.hpp"
#include "switchyard/error.hpp"
#include "switchyard/scalar.hpp"
#include "switchyard/shape.hpp"

namespace switchyard {

class Buffer;
namespace expr {
struct Node;
}

class Array {
 public:
  Array() = default;  // a null array; most operations reject it
  Array(const Array&) = default;
  Array(Array&&) = default;
  // Rebinds a named handle to another array, as `a = b` does in Python. A temporary cannot be
  // rebound: `a[0] = x` and `a.slice(0, 0, 2) = y` would change nothing, so they do not compile;
  // writing into elements is assign().
  Array& operator=(const Array&) & = default;
  Array& operator=(Array&&) & = default;

  // ---- factories (results on the host)
  static Array zeros(const Shape& shape, DType dtype = DType::Float32);
  static Array ones(const Shape& shape, DType dtype = DType::Float32);
  // An integer dtype needs a value it holds: NaN, infinity or one out of its range is a
  // ValueError (NumPy's "cannot convert float NaN to integer").
  static Array full(const Shape& shape, double value, DType dtype = DType::Float32);
  // NumPy's dtypes: integer arguments give int64, a floating one float64.
  static Array arange(double start, double stop, double step = 1, DType dtype = DType::Float64);
  static Array arange(double stop) { return arange(0.0, stop); }
  template <std::integral Start, std::integral Stop, std::integral Step = std::int64_t>
  static Array arange(Start start, Stop stop, Step step = 1, DType dtype = DType::Int64) {
    return arange_integers(start, stop, step, dtype);
  }
  template <std::integral Stop>
  static Array arange(Stop stop) {
    return arange_integers(0, stop, 1, DType::Int64);
  }
  static Array linspace(double start, double stop, std::int64_t num, DType dtype = DType::Float64);
  // Seeded, reproducible across runs and machines (Philox-free counter hashing per element).
  static Array uniform(const Shape& shape, std::uint64_t seed, double low = 0, double high = 1,
                       DType dtype = DType::Float32);
  static Array normal(const Shape& shape, std::uint64_t seed, double mean = 0, double stddev = 1,
                      DType dtype = DType::Float32);
  // Copies `bytes` bytes of C-contiguous data; throws ValueError if bytes != size * itemsize.
  static Array from_host(const void* data, std::size_t bytes, const Shape& shape, DType dtype);
  template <class T>
  static Array from_vector(const std::vector<T>& values, const Shape& shape) {
    return from_host(values.data(), values.size() * sizeof(T), shape, dtype_of<T>());
  }
  template <class T>
  static Array from_vector(const std::vector<T>& values) {
    return from_vector(values, Shape{static_cast<std::int64_t>(values.size())});
  }
  // Uses the caller's memory in place, shared (see the top of this file). `strides` in elements
  // (default C order); every element must lie inside [data, data + bytes). `release` runs when
  // the last array using the memory is gone.
  static Array borrow(void* data, std::size_t bytes, const Shape& shape, DType dtype,
                      std::function<void()> release = {},
                      std::optional<Strides> strides = std::nullopt);

  // ---- properties
  explicit operator bool() const { return buffer_ || node_; }
  DType dtype() const { return dtype_; }
  const Shape& shape() const { return shape_; }
  const Strides& strides() const { return strides_; }  // in elements
  std::int64_t offset() const { return offset_; }      // first element, in elements
  int ndim() const { return shape_.size(); }
  std::int64_t size() const;
  std::size_t itemsize() const { return size_of(dtype_); }
  std::size_t nbytes() const;  // throws ValueError when it does not fit int64 (broadcast views)
  bool is_contiguous() const;
  // Where valid copies of the data are now: "host", "opencl:0", ...
  std::vector<std::string> locations() const;

  // ---- views (no copies)
  // Python slicing on one axis: start/stop may be negative or absent; step != 0.
  Array slice(int axis, std::optional<std::int64_t> start, std::optional<std::int64_t> stop,
              std::int64_t step = 1) const;
  Array operator[](std::int64_t index) const;  // picks along axis 0, dropping it
  // NumPy's a[index] for an array index: a bool one of this shape selects (compress), an integer
  // one takes along axis 0 (take). A copy, not a view (algorithms.hpp).
  Array operator[](const Array& index) const;
  Array transpose() const;  // reverses the axes
  Array permute(std::span<const int> axes) const;
  Array permute(std::initializer_list<int> axes) const {
    return permute(std::span<const int>(axes.begin(), axes.size()));
  }
  // A view when the strides allow it (NumPy's rule), otherwise a contiguous copy. One extent may
  // be -1 (inferred).
  Array reshape(const Shape& shape) const;
  Array broadcast_to(const Shape& shape) const;
  Array expand_dims(int axis) const;
  Array squeeze(std::optional<int> axis = std::nullopt) const;

  // ---- copies
  Array astype(DType dtype) const;  // always a new array
  Array copy() const;               // contiguous, same dtype

  // ---- data out
  // Copies the elements in C order into `dst`; throws ValueError unless bytes == nbytes(). A
  // pending array is computed straight into `dst` and stays pending (reading it again computes
  // it again): eval() it first to keep its value for later use.
  void to_host(void* dst, std::size_t bytes) const;
  template <class T>
  std::vector<T> to_vector() const {
    const Array a = dtype_ == dtype_of<T>() ? *this : astype(dtype_of<T>());
    std::vector<T> out(static_cast<std::size_t>(a.size()));
    if constexpr (std::is_same_v<T, bool>) {
      std::vector<std::uint8_t> bytes(out.size());
      a.to_host(bytes.data(), bytes.size());
      for (std::size_t i = 0; i < out.size(); ++i) out[i] = bytes[i] != 0;
    } else {
      a.to_host(out.data(), out.size() * sizeof(T));
    }
    return out;
  }
  template <class T>
  T item() const {
    if (size() != 1)
      throw ValueError("item() needs an array of one element, given shape " + to_string(shape_));
    return to_vector<T>()[0];
  }

  // ---- writing into the elements this array views (NumPy's a[...] = value)
  // The write goes into the storage this array shares with its views, wherever that storage is
  // valid; copies of it on other devices become stale. `value` broadcasts to this shape and is
  // converted to this dtype as NumPy's assignment converts (unsafely: 2.7 written into an int
  // array is 2). The value is computed as if into a temporary first, so a value that reads
  // overlapping elements (a.slice(0, 1, n).assign(a.slice(0, 0, n - 1))) gives NumPy's result.
  // A pending array written into is realised first, and a pending view writes into the result
  // of the array it views. Throws ShapeError when `value` does not broadcast to this shape,
  // ValueError for a broadcast view (its elements share memory) and for a view of a pending
  // array that was read before the write (reading made it a copy, which the write would not
  // reach: eval() the array before taking views to write through).
  void assign(Array value) const;
  void assign(Scalar value) const;
  void fill(Scalar value) const { assign(value); }
  // Tells the runtime that the memory behind this array was written outside Switchyard. Shared
  // memory (borrowed, or lent out by an export) needs no call: its owner's copy is the one read.
  // For other storage the host copy becomes the valid one; for an array over device memory
  // imported with from_dlpack, that device memory is the one written and becomes the valid copy.
  void mark_modified() const;

  // Whether the value is still to be computed (see eval() in ops.hpp).
  bool pending() const;

  // ---- internals shared with the expression layer
  Array(std::shared_ptr<Buffer> buffer, DType dtype, Shape shape, Strides strides,
        std::int64_t offset);
  explicit Array(std::shared_ptr<expr::Node> pending);  // a handle to a node's future value
  // The storage, computing the value first when it is pending.
  const std::shared_ptr<Buffer>& buffer() const;
  // The node behind a pending array (also after it was realised); null for materialised ones.
  const std::shared_ptr<expr::Node>& node() const { return node_; }

 private:
  void require() const;  // throws ValueError on a null array
  static Array arange_integers(std::int64_t start, std::int64_t stop, std::int64_t step,
                               DType dtype);
  template <class Transform>  // Geometry(Geometry): core/geometry.hpp
  Array view_with(Transform geometry) const;

  std::shared_ptr<Buffer> buffer_;
  DType dtype_ = DType::Float32;
  Shape shape_;
  Strides strides_;
  std::int64_t offset_ = 0;
  std::shared_ptr<expr::Node> node_;
};

}  // namespace switchyard
