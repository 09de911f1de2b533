// Shapes, strides and NumPy broadcasting. A Dims is a small fixed-capacity vector so that
// building and copying shapes on the eager-op hot path never allocates.
#pragma once

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <string>

namespace switchyard {

inline constexpr int kMaxRank = 8;

class Dims {
 public:
  Dims() = default;
  Dims(std::initializer_list<std::int64_t> values);
  template <class It>
  Dims(It first, It last) {
    for (; first != last; ++first) push_back(static_cast<std::int64_t>(*first));
  }
  static Dims filled(int rank, std::int64_t value);

  int size() const { return rank_; }
  bool empty() const { return rank_ == 0; }
  std::int64_t& operator[](int i) { return values_[i]; }
  std::int64_t operator[](int i) const { return values_[i]; }
  std::int64_t* begin() { return values_; }
  std::int64_t* end() { return values_ + rank_; }
  const std::int64_t* begin() const { return values_; }
  const std::int64_t* end() const { return values_ + rank_; }
  std::int64_t back() const { return values_[rank_ - 1]; }

  void push_back(std::int64_t v);  // throws ShapeError beyond kMaxRank
  void insert(int position, std::int64_t v);
  void erase(int position);

  friend bool operator==(const Dims& a, const Dims& b) {
    return a.rank_ == b.rank_ && std::equal(a.begin(), a.end(), b.begin());
  }

 private:
  std::int64_t values_[kMaxRank] = {};
  int rank_ = 0;
};

using Shape = Dims;
using Strides = Dims;  // in elements, may be zero (broadcast) or negative (reversed views)

std::string to_string(const Dims& d);  // "(2, 3)"

// Product of the extents; throws ValueError on a negative extent or int64 overflow.
std::int64_t element_count(const Shape& shape);

// Row-major (C order) strides in elements; throws ValueError when they do not fit int64.
Strides contiguous_strides(const Shape& shape);

// NumPy broadcasting of two shapes; throws ShapeError naming both shapes and the axis.
Shape broadcast_shapes(const Shape& a, const Shape& b);

// The strides that read an array of shape `from` (with `strides`) as shape `to`: zero in
// broadcast axes. Throws ShapeError when `from` does not broadcast to `to`.
Strides broadcast_strides(const Shape& from, const Strides& strides, const Shape& to);

// Normalises a possibly negative axis against rank; throws IndexError when out of range.
int normalize_axis(int axis, int rank);

}  // namespace switchyard
