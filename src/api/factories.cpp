// Array factories. Data is made on the host (in parallel for large arrays); random numbers come
// from a counter-based generator (SplitMix64 of seed and element index), so a seed gives the
// same array on every machine, thread count and backend.
#include <tbb/parallel_for.h>

#include <cmath>
#include <cstring>
#include <numbers>

#include "api/fill_value.hpp"
#include "api/view_bounds.hpp"
#include "core/checked.hpp"
#include "runtime/buffer.hpp"
#include "switchyard/array.hpp"

namespace switchyard {
namespace {

Array empty_host(const Shape& shape, DType dtype) {
  const std::size_t bytes = byte_count(shape, dtype);
  return Array(Buffer::allocate_host(bytes), dtype, shape, contiguous_strides(shape), 0);
}

template <class T>
T* host_data(Array& a) {
  return reinterpret_cast<T*>(a.buffer()->host_data());
}

// Fills element i with value(i), converted to the array's dtype, in parallel for large arrays.
template <class F>
Array generate(const Shape& shape, DType dtype, F value) {
  Array out = empty_host(shape, dtype);
  visit_dtype(dtype, [&](auto zero) {
    using T = decltype(zero);
    T* data = host_data<T>(out);
    tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, out.size(), 1 << 16), [&](auto r) {
      for (auto i = r.begin(); i < r.end(); ++i) data[i] = static_cast<T>(value(i));
    });
  });
  return out;
}

std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// Uniform in [0, 1) with 53 random bits, from stream `stream` at position i.
double unit_uniform(std::uint64_t seed, std::uint64_t stream, std::int64_t i) {
  const std::uint64_t bits =
      splitmix64(splitmix64(seed ^ (stream << 61)) + static_cast<std::uint64_t>(i));
  return static_cast<double>(bits >> 11) * 0x1.0p-53;
}

void check_count(std::int64_t num, const char* what) {
  if (num < 0)
    throw ValueError(std::string(what) + " of " + std::to_string(num) +
                     " elements: expected a count >= 0");
}

}  // namespace

void check_fill_value(double value, DType dtype) {
  if (!is_integer(dtype)) return;
  if (std::isnan(value) || std::isinf(value))
    throw ValueError(std::string("cannot convert float ") +
                     (std::isnan(value) ? "NaN" : "infinity") + " to integer: an " +
                     std::string(name(dtype)) + " array needs a finite value");
  const double lo = dtype == DType::Int32 ? -0x1p31 : -0x1p63, whole = std::trunc(value);
  if (whole < lo || whole >= -lo)
    throw ValueError("fill value " + std::to_string(value) + " out of bounds for " +
                     std::string(name(dtype)) + ": expected a value in [" +
                     std::to_string(static_cast<std::int64_t>(lo)) + ", " +
                     std::to_string(static_cast<std::uint64_t>(-lo) - 1) + "]");
}

Array Array::zeros(const Shape& shape, DType dtype) {
  return full(shape, 0, dtype);
}
Array Array::ones(const Shape& shape, DType dtype) {
  return full(shape, 1, dtype);
}

Array Array::full(const Shape& shape, double value, DType dtype) {
  if (is_complex(dtype)) {
    // value + 0i: (re, im) pairs of the parts' dtype, viewed as complex.
    Shape pairs = shape;
    pairs.push_back(2);
    const Array parts = generate(pairs, component_dtype(dtype),
                                 [value](std::int64_t i) { return i % 2 == 0 ? value : 0.0; });
    return Array(parts.buffer(), dtype, shape, contiguous_strides(shape), 0);
  }
  check_fill_value(value, dtype);
  return generate(shape, dtype, [value](std::int64_t) { return value; });
}

Array Array::arange(double start, double stop, double step, DType dtype) {
  if (step == 0 || !std::isfinite(step))
    throw ValueError("arange step is " + std::to_string(step) +
                     ": expected a finite non-zero step");
  const double count = std::ceil((stop - start) / step);
  if (!(count < 9.2e18))
    throw ValueError("arange would have " + std::to_string(count) +
                     " elements: expected fewer than 2^63");
  const auto n = static_cast<std::int64_t>(std::max(count, 0.0));
  return generate(Shape{n}, dtype,
                  [=](std::int64_t i) { return start + static_cast<double>(i) * step; });
}

Array Array::arange_integers(std::int64_t start, std::int64_t stop, std::int64_t step,
                             DType dtype) {
  if (step == 0) throw ValueError("arange step is 0: expected a non-zero step");
  // In unsigned arithmetic, where the distance between any two int64 values fits and every
  // element start + i * step wraps back to its exact value.
  const bool up = step > 0;
  const auto span = up ? static_cast<std::uint64_t>(stop) - static_cast<std::uint64_t>(start)
                       : static_cast<std::uint64_t>(start) - static_cast<std::uint64_t>(stop);
  const auto magnitude =
      up ? static_cast<std::uint64_t>(step) : static_cast<std::uint64_t>(-(step + 1)) + 1;
  const std::uint64_t count = (up ? stop > start : start > stop) ? (span - 1) / magnitude + 1 : 0;
  if (count > static_cast<std::uint64_t>(INT64_MAX))
    throw ValueError("arange would have " + std::to_string(count) +
                     " elements: expected fewer than 2^63");
  return generate(Shape{static_cast<std::int64_t>(count)}, dtype, [=](std::int64_t i) {
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(start) +
                                     static_cast<std::uint64_t>(i) *
                                         static_cast<std::uint64_t>(step));
  });
}

Array Array::linspace(double start, double stop, std::int64_t num, DType dtype) {
  check_count(num, "linspace");
  const double step = num > 1 ? (stop - start) / static_cast<double>(num - 1) : 0;
  return generate(Shape{num}, dtype, [=](std::int64_t i) {
    return i == num - 1 && num > 1 ? stop : start + static_cast<double>(i) * step;
  });
}

Array Array::uniform(const Shape& shape, std::uint64_t seed, double low, double high, DType dtype) {
  return generate(shape, dtype,
                  [=](std::int64_t i) { return low + (high - low) * unit_uniform(seed, 0, i); });
}

Array Array::normal(const Shape& shape, std::uint64_t seed, double mean, double stddev,
                    DType dtype) {
  // Box–Muller from two independent streams at the same position.
  return generate(shape, dtype, [=](std::int64_t i) {
    const double u1 = 1.0 - unit_uniform(seed, 1, i), u2 = unit_uniform(seed, 2, i);
    return mean + stddev * std::sqrt(-2.0 * std::log(u1)) * std::cos(2 * std::numbers::pi * u2);
  });
}

Array Array::from_host(const void* data, std::size_t bytes, const Shape& shape, DType dtype) {
  Array out = empty_host(shape, dtype);
  if (bytes != out.nbytes())
    throw ValueError("from_host got " + std::to_string(bytes) + " bytes for shape " +
                     to_string(shape) + " " + std::string(name(dtype)) + ": expected " +
                     std::to_string(out.nbytes()) + " bytes");
  if (bytes) std::memcpy(out.buffer()->host_data(), data, bytes);
  return out;
}

Array Array::borrow(void* data, std::size_t bytes, const Shape& shape, DType dtype,
                    std::function<void()> release, std::optional<Strides> strides) {
  element_count(shape);
  if (!data && bytes)
    throw ValueError("borrow of a null pointer with " + std::to_string(bytes) +
                     " bytes: expected memory");
  const Strides s = strides ? *strides : contiguous_strides(shape);
  // Checked before the buffer exists: on bad input the caller keeps ownership, release never runs.
  check_view_bounds(shape, s, 0, dtype, bytes);
  return Array(Buffer::borrow_host(data, bytes, std::move(release)), dtype, shape, s, 0);
}

}  // namespace switchyard
