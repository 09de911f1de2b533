#include "switchyard/shape.hpp"

#include "core/checked.hpp"
#include "switchyard/error.hpp"

namespace switchyard {

Dims::Dims(std::initializer_list<std::int64_t> values) {
  for (auto v : values) push_back(v);
}

Dims Dims::filled(int rank, std::int64_t value) {
  Dims d;
  for (int i = 0; i < rank; ++i) d.push_back(value);
  return d;
}

void Dims::push_back(std::int64_t v) {
  if (rank_ == kMaxRank)
    throw ShapeError("rank exceeds the maximum: expected at most " + std::to_string(kMaxRank) +
                     " dimensions, given more");
  values_[rank_++] = v;
}

void Dims::insert(int position, std::int64_t v) {
  push_back(0);
  for (int i = rank_ - 1; i > position; --i) values_[i] = values_[i - 1];
  values_[position] = v;
}

void Dims::erase(int position) {
  for (int i = position; i + 1 < rank_; ++i) values_[i] = values_[i + 1];
  --rank_;
}

std::string to_string(const Dims& d) {
  std::string s = "(";
  for (int i = 0; i < d.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(d[i]);
  }
  if (d.size() == 1) s += ",";
  return s + ")";
}

std::int64_t element_count(const Shape& shape) {
  std::int64_t n = 1;
  for (auto e : shape) {
    if (e < 0)
      throw ValueError("negative extent in shape " + to_string(shape) +
                       ": expected every extent >= 0");
    if (__builtin_mul_overflow(n, e, &n))
      throw ValueError("shape " + to_string(shape) +
                       " has more elements than int64 can count: expected a product below 2^63");
  }
  return n;
}

std::optional<ElementSpan> element_span(const Shape& shape, const Strides& strides,
                                        std::int64_t offset) {
  ElementSpan span{offset, offset};
  for (int i = 0; i < shape.size(); ++i) {
    const auto reach = checked::mul<std::int64_t>(shape[i] - 1, strides[i]);
    if (!reach) return std::nullopt;
    std::int64_t& end = *reach < 0 ? span.lo : span.hi;
    const auto moved = checked::add(end, *reach);
    if (!moved) return std::nullopt;
    end = *moved;
  }
  return span;
}

std::size_t byte_count(const Shape& shape, DType dtype) {
  const auto bytes =
      checked::mul<std::int64_t>(element_count(shape), static_cast<std::int64_t>(size_of(dtype)));
  if (!bytes)
    throw ValueError("shape " + to_string(shape) + " of " + std::string(name(dtype)) +
                     " needs more bytes than int64 can count: expected at most 2^63 - 1 bytes; "
                     "use fewer elements or a narrower dtype");
  return static_cast<std::size_t>(*bytes);
}

Strides contiguous_strides(const Shape& shape) {
  // Extents of 0 count as 1, so the strides of an empty shape can overflow where its size cannot.
  Strides s = Dims::filled(shape.size(), 1);
  for (int i = shape.size() - 2; i >= 0; --i) {
    const auto stride = checked::mul(s[i + 1], std::max<std::int64_t>(shape[i + 1], 1));
    if (!stride)
      throw ValueError("the C-order strides of shape " + to_string(shape) +
                       " do not fit int64: expected the product of the non-zero extents below "
                       "2^63");
    s[i] = *stride;
  }
  return s;
}

Shape broadcast_shapes(const Shape& a, const Shape& b) {
  const int rank = std::max(a.size(), b.size());
  Shape out = Dims::filled(rank, 1);
  for (int i = 0; i < rank; ++i) {
    const int ia = a.size() - rank + i, ib = b.size() - rank + i;
    const std::int64_t ea = ia >= 0 ? a[ia] : 1, eb = ib >= 0 ? b[ib] : 1;
    if (ea != eb && ea != 1 && eb != 1)
      throw ShapeError("shapes " + to_string(a) + " and " + to_string(b) +
                       " do not broadcast: axis " + std::to_string(i) + " has extents " +
                       std::to_string(ea) + " and " + std::to_string(eb) +
                       ", expected equal extents or one of them 1");
    out[i] = ea == 1 ? eb : ea;
  }
  return out;
}

Strides broadcast_strides(const Shape& from, const Strides& strides, const Shape& to) {
  if (from.size() > to.size())
    throw ShapeError("cannot broadcast shape " + to_string(from) + " to " + to_string(to) +
                     ": the target has fewer dimensions");
  Strides out = Dims::filled(to.size(), 0);
  const int lead = to.size() - from.size();
  for (int i = 0; i < from.size(); ++i) {
    if (from[i] == to[lead + i]) {
      out[lead + i] = from[i] == 1 ? 0 : strides[i];
    } else if (from[i] != 1) {
      throw ShapeError("cannot broadcast shape " + to_string(from) + " to " + to_string(to) +
                       ": axis " + std::to_string(lead + i) + " has extent " +
                       std::to_string(from[i]) + ", expected " + std::to_string(to[lead + i]) +
                       " or 1");
    }
  }
  return out;
}

int normalize_axis(int axis, int rank) {
  if (axis < -rank || axis >= rank)
    throw AxisError("axis " + std::to_string(axis) + " is out of bounds for array of dimension " +
                    std::to_string(rank) + ": expected -" + std::to_string(rank) + " <= axis < " +
                    std::to_string(rank));
  return axis < 0 ? axis + rank : axis;
}

}  // namespace switchyard
