// Checked arithmetic for sizes, element counts, byte counts, strides and reaches. User input
// (shapes, strides, DLPack tensors) drives these numbers, and a product or sum that wraps turns a
// huge request into a tiny allocation or a view past its buffer; every such computation goes
// through these helpers and raises instead.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "switchyard/dtype.hpp"
#include "switchyard/shape.hpp"

namespace switchyard {
namespace checked {

// a * b, a + b and a - b, or nullopt when the exact result does not fit T.
template <class T>
std::optional<T> mul(T a, T b) {
  T r;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}
template <class T>
std::optional<T> add(T a, T b) {
  T r;
  if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
  return r;
}

template <class T>
std::optional<T> sub(T a, T b) {
  T r;
  if (__builtin_sub_overflow(a, b, &r)) return std::nullopt;
  return r;
}

}  // namespace checked

// The lowest and highest element offsets a non-empty strided view reaches, `offset` included.
struct ElementSpan {
  std::int64_t lo, hi;
};
// nullopt when a reach (extent - 1) * stride or their sum does not fit int64. Call it only for
// shapes with at least one element and one stride per axis.
std::optional<ElementSpan> element_span(const Shape& shape, const Strides& strides,
                                        std::int64_t offset);

// element_count(shape) * size_of(dtype); throws ValueError naming the shape and dtype when the
// byte count does not fit int64 (NumPy's limit too: "array is too big").
std::size_t byte_count(const Shape& shape, DType dtype);

}  // namespace switchyard
