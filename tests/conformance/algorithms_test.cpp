// Scans, sorts, compaction and gathers (algorithms.hpp) against float64 host loops, with views
// (strided, reversed, transposed) as inputs, along every axis and over the flattened array.
#include <algorithm>
#include <cstring>
#include <limits>
#include <numeric>
#include <optional>

#include "conformance/conformance.hpp"

namespace switchyard::conformance {
namespace {

class Algorithms : public OnEveryDevice {
 protected:
  bool skips(DType t) const { return t == DType::Float64 && !device_has_fp64(); }
};

// An input array and its elements as the host computes them, in C order.
struct Input {
  std::string layout;
  Array array;
  std::vector<double> values;
};

// The elements `view` reads from its storage, whose C-order values are `stored`: computed from
// the view's shape, strides and offset alone.
std::vector<double> elements_of(const Array& view, const std::vector<double>& stored) {
  std::vector<double> out;
  out.reserve(static_cast<std::size_t>(view.size()));
  std::vector<std::int64_t> index(view.ndim(), 0);
  for (std::int64_t n = 0; n < view.size(); ++n) {
    std::int64_t at = view.offset();
    for (int i = 0; i < view.ndim(); ++i) at += index[i] * view.strides()[i];
    out.push_back(stored[at]);
    for (int i = view.ndim() - 1; i >= 0 && ++index[i] == view.shape()[i]; --i) index[i] = 0;
  }
  return out;
}

// A rows × cols input in four layouts: contiguous, every other column, rows reversed, transposed.
std::vector<Input> layouts(std::int64_t rows, std::int64_t cols, DType t,
                           const std::vector<double>& pool_values) {
  auto stored = [&](std::int64_t n) {
    return std::vector<double>(pool_values.begin(), pool_values.begin() + n);
  };
  std::vector<Input> out;
  const auto plain = stored(rows * cols);
  out.push_back({"contiguous", host_array(plain, {rows, cols}, t), plain});
  const auto wide = stored(rows * 2 * cols);
  const Array every_other = host_array(wide, {rows, 2 * cols}, t).slice(1, 0, std::nullopt, 2);
  out.push_back({"strided", every_other, elements_of(every_other, wide)});
  const Array reversed =
      host_array(plain, {rows, cols}, t).slice(0, std::nullopt, std::nullopt, -1);
  out.push_back({"negative step", reversed, elements_of(reversed, plain)});
  const Array transposed = host_array(plain, {cols, rows}, t).transpose();
  out.push_back({"transposed", transposed, elements_of(transposed, plain)});
  return out;
}

// Calls f(flat positions of one line) for every line along `axis` of an array of `shape`.
template <class F>
void for_each_line(const Shape& shape, int axis, F&& f) {
  std::int64_t outer = 1, inner = 1;
  for (int i = 0; i < axis; ++i) outer *= shape[i];
  for (int i = axis + 1; i < static_cast<int>(shape.size()); ++i) inner *= shape[i];
  const std::int64_t n = shape[axis];
  std::vector<std::int64_t> line(static_cast<std::size_t>(n));
  for (std::int64_t o = 0; o < outer; ++o)
    for (std::int64_t i = 0; i < inner; ++i) {
      for (std::int64_t j = 0; j < n; ++j) line[j] = (o * n + j) * inner + i;
      f(line);
    }
}

std::string label(const std::string& what, DType t, std::int64_t n) {
  return what + " " + std::string(name(t)) + " n=" + std::to_string(n);
}

// ---- scans

DType scan_result(Accumulate op, DType t) {
  const bool widens = op == Accumulate::Sum || op == Accumulate::Prod;
  return widens && (t == DType::Bool || t == DType::Int32) ? DType::Int64 : t;
}

double identity_of(Accumulate op, DType t) {
  const double inf = std::numeric_limits<double>::infinity();
  const double top = t == DType::Bool    ? 1
                     : t == DType::Int32 ? 2147483647.0
                     : t == DType::Int64 ? 9223372036854775807.0
                                         : inf;
  const double bottom = t == DType::Bool    ? 0
                        : t == DType::Int32 ? -2147483648.0
                        : t == DType::Int64 ? -9223372036854775808.0
                                            : -inf;
  switch (op) {
    case Accumulate::Sum:
      return 0;
    case Accumulate::Prod:
      return 1;
    case Accumulate::Min:
      return top;
    case Accumulate::Max:
      break;
  }
  return bottom;
}

// One step of the fold in the result dtype's semantics: integers wrap, NaN propagates.
double combine(Accumulate op, DType t, double a, double b) {
  if (op == Accumulate::Min || op == Accumulate::Max) {
    if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<double>::quiet_NaN();
    return op == Accumulate::Min ? std::min(a, b) : std::max(a, b);
  }
  if (is_floating(t)) return op == Accumulate::Sum ? a + b : a * b;
  const auto x = static_cast<std::uint64_t>(static_cast<std::int64_t>(a));
  const auto y = static_cast<std::uint64_t>(static_cast<std::int64_t>(b));
  return static_cast<double>(static_cast<std::int64_t>(op == Accumulate::Sum ? x + y : x * y));
}

// The scan's values and, per element, the rounding a float result may carry: a sequential fold
// in float32 drifts like a random walk, about sqrt(i) roundings of the largest partial value.
struct ScanReference {
  std::vector<double> values, tolerances;
};

ScanReference scan_reference(const std::vector<double>& in, const Shape& shape, int axis,
                             Accumulate op, DType t, bool exclusive) {
  const DType r = scan_result(op, t);
  const double unit = r == DType::Float32 ? 0x1p-24 : r == DType::Float64 ? 0x1p-53 : 0;
  ScanReference ref{std::vector<double>(in.size()), std::vector<double>(in.size())};
  for_each_line(shape, axis, [&](const std::vector<std::int64_t>& line) {
    double running = identity_of(op, r), largest = 1;
    for (std::size_t j = 0; j < line.size(); ++j) {
      const double before = running;
      running = combine(op, r, running, in[line[j]]);
      const double value = exclusive ? before : running;
      if (std::isfinite(value)) largest = std::max(largest, std::abs(value));
      ref.values[line[j]] = value;
      const double steps = static_cast<double>(j + 1);
      ref.tolerances[line[j]] = op == Accumulate::Prod ? 4 * unit * steps * std::abs(value)
                                                       : 4 * unit * std::sqrt(steps) * largest;
    }
  });
  return ref;
}

void expect_scan(const Array& got, const std::vector<double>& in, const Shape& shape, int axis,
                 Accumulate op, DType t, bool exclusive, const std::string& what) {
  EXPECT_EQ(got.dtype(), scan_result(op, t)) << what;
  EXPECT_EQ(got.shape(), shape) << what;
  const ScanReference ref = scan_reference(in, shape, axis, op, t, exclusive);
  expect_within(got, ref.values, ref.tolerances, what);
}

TEST_P(Algorithms, InclusiveAndExclusiveScansOfEveryDTypeAndSize) {
  for (DType t : kAllDTypes) {
    if (skips(t)) continue;
    for (std::int64_t n : kSizes) {
      auto values = random_values(n, t, 11 + n);
      if (is_floating(t) && n > 7) values[n / 2] = std::numeric_limits<double>::quiet_NaN();
      const Array a = host_array(values, {n}, t);
      for (Accumulate op : {Accumulate::Sum, Accumulate::Min, Accumulate::Max})
        for (bool exclusive : {false, true}) {
          const std::string what = label("scan op " + std::to_string(static_cast<int>(op)) +
                                             (exclusive ? " exclusive" : " inclusive"),
                                         t, n);
          expect_scan(scan(a, op, std::nullopt, exclusive), values, {n}, 0, op, t, exclusive, what);
        }
    }
  }
}

TEST_P(Algorithms, CumprodWrapsIntegersAndRoundsFloatsAsTheirDType) {
  for (DType t : kAllDTypes) {
    if (skips(t)) continue;
    for (std::int64_t n : kSmallSizes) {
      const double lo = is_floating(t) ? 0.95 : 1, hi = is_floating(t) ? 1.05 : 4;
      const auto values = random_values(n, t, 5 + n, lo, hi);
      expect_scan(cumprod(host_array(values, {n}, t)), values, {n}, 0, Accumulate::Prod, t, false,
                  label("cumprod", t, n));
    }
  }
}

TEST_P(Algorithms, ScansAlongEachAxisOfViews) {
  for (DType t : {DType::Int32, DType::Float32, DType::Float64}) {
    if (skips(t)) continue;
    for (const Input& in : layouts(37, 29, t, random_values(37 * 58, t, 3))) {
      const Shape shape = in.array.shape();
      for (int axis : {0, 1, -1}) {
        const std::string what =
            label("cumsum " + in.layout + " axis " + std::to_string(axis), t, in.array.size());
        expect_scan(cumsum(in.array, axis), in.values, shape, axis < 0 ? axis + 2 : axis,
                    Accumulate::Sum, t, false, what);
      }
      expect_scan(cumsum(in.array), in.values, {in.array.size()}, 0, Accumulate::Sum, t, false,
                  label("cumsum flattened " + in.layout, t, in.array.size()));
    }
  }
}

TEST_P(Algorithms, ScanOfAPendingExpressionAndOfLongRows) {
  // Two rows long enough for the blocked multi-threaded scan, read through a transposed view.
  const std::int64_t n = (1 << 20) + 3;
  const auto values = random_values(2 * n, DType::Float32, 8);
  const Array rows = host_array(values, {n, 2}, DType::Float32).transpose();
  std::vector<double> twice(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) twice[i] = 2 * values[i];
  expect_scan(cumsum(rows * 2.0f, 1), elements_of(rows, twice), {2, n}, 1, Accumulate::Sum,
              DType::Float32, false, "cumsum of a pending transposed float32 expression");
  // Enough rows to be shared among threads whole.
  const auto many = random_values(64 * 1023, DType::Int64, 9);
  expect_scan(scan(host_array(many, {64, 1023}, DType::Int64), Accumulate::Max, 1, true), many,
              {64, 1023}, 1, Accumulate::Max, DType::Int64, true, "exclusive max of 64 rows");
}

// ---- sorting

// Values with many ties, the extremes of integers, and for floats NaN, ±inf, -0.0 and 0.0.
std::vector<double> sort_values(std::int64_t n, DType t, std::uint64_t seed) {
  auto v = random_values(n, t, seed, -5, 5);
  if (!is_floating(t)) {
    const double lowest = t == DType::Int32 ? -2147483648.0 : -0x1p63;
    const double highest = t == DType::Int32 ? 2147483647.0 : 0x1p62;  // 2^63 - 1 is not a double
    for (std::int64_t i = 3; i < n; i += 7) v[i] = (i / 7) % 2 ? lowest : highest;
    return v;
  }
  const double specials[] = {std::numeric_limits<double>::quiet_NaN(),
                             std::numeric_limits<double>::infinity(),
                             -std::numeric_limits<double>::infinity(), -0.0, 0.0};
  for (std::int64_t i = 0; i < n; ++i) {
    if (i % 3 == 0) v[i] = std::floor(v[i]);  // ties
    if (i % 7 == 3) v[i] = specials[(i / 7) % 5];
  }
  return v;
}

// NumPy's order: NaN last, -0.0 equal to 0.0; stable, so ties keep increasing positions.
std::vector<std::int64_t> stable_order(const std::vector<double>& v,
                                       const std::vector<std::int64_t>& line) {
  std::vector<std::int64_t> order(line.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::int64_t x, std::int64_t y) {
    const double a = v[line[x]], b = v[line[y]];
    if (std::isnan(a)) return false;
    return std::isnan(b) || a < b;
  });
  return order;
}

void expect_sorted(const Array& a, const std::vector<double>& v, int axis,
                   const std::string& what) {
  std::vector<double> values(v.size()), positions(v.size());
  for_each_line(a.shape(), axis, [&](const std::vector<std::int64_t>& line) {
    const auto order = stable_order(v, line);
    for (std::size_t j = 0; j < line.size(); ++j) {
      values[line[j]] = v[line[order[j]]];
      positions[line[j]] = static_cast<double>(order[j]);
    }
  });
  const Array sorted = sort(a, axis), permutation = argsort(a, axis);
  EXPECT_EQ(sorted.dtype(), a.dtype()) << what;
  EXPECT_EQ(permutation.dtype(), DType::Int64) << what;
  EXPECT_EQ(permutation.shape(), a.shape()) << what;
  expect_close(sorted, values, false, "sort " + what);
  expect_close(permutation, positions, false, "argsort " + what);
}

TEST_P(Algorithms, SortAndStableArgsortWithTiesNaNInfinitiesAndSignedZeros) {
  for (DType t : {DType::Int32, DType::Int64, DType::Float32, DType::Float64}) {
    if (skips(t)) continue;
    for (std::int64_t n : kSizes) {
      const auto v = sort_values(n, t, 21 + n);
      expect_sorted(host_array(v, {n}, t), v, 0, label("1-D", t, n));
    }
  }
}

// NumPy's order of complex values: no NaN part < a NaN imaginary part < a NaN real part < both,
// then by real part, then by imaginary part. The stable permutation keeps equal ones (-0 and 0,
// NaNs of one group) in place; a boolean mask keeps elements in order.
TEST_P(Algorithms, ComplexSortsAndMasksInNumPysOrder) {
  const std::vector<double> parts = {NAN, -INFINITY, -1.5, -0.0, 0.0, 2.0, INFINITY, 2.0};
  std::vector<double> re, im;
  for (int copy = 0; copy < 2; ++copy)
    for (double r : parts)
      for (double i : parts) re.push_back(r), im.push_back(i);
  const auto n = static_cast<std::int64_t>(re.size());
  const auto group = [&](std::size_t k) { return std::isnan(im[k]) + 2 * std::isnan(re[k]); };
  std::vector<std::int64_t> order(re.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) {
    if (group(a) != group(b)) return group(a) < group(b);
    if (!std::isnan(re[a]) && re[a] != re[b]) return re[a] < re[b];
    return !std::isnan(im[a]) && im[a] < im[b];
  });
  for (DType parts_dtype : {DType::Float32, DType::Float64}) {
    if (skips(parts_dtype)) continue;
    const Array z =
        complex_from(host_array(re, {n}, parts_dtype), host_array(im, {n}, parts_dtype));
    const std::string what = "complex of " + std::string(name(parts_dtype)) + " parts";
    expect_close(argsort(z), std::vector<double>(order.begin(), order.end()), false,
                 "argsort " + what);
    std::vector<double> sorted_re, sorted_im, kept_re, kept_im;
    std::vector<double> mask;
    for (std::int64_t k : order) sorted_re.push_back(re[k]), sorted_im.push_back(im[k]);
    for (std::int64_t k = 0; k < n; ++k) {
      mask.push_back(re[k] > im[k]);
      if (mask.back() != 0) kept_re.push_back(re[k]), kept_im.push_back(im[k]);
    }
    const Array sorted = sort(z);
    expect_close(real(sorted), sorted_re, false, "sort (real parts) " + what);
    expect_close(imag(sorted), sorted_im, false, "sort (imaginary parts) " + what);
    const Array kept = compress(z, host_array(mask, {n}, DType::Bool));
    expect_close(real(kept), kept_re, false, "compress (real parts) " + what);
    expect_close(imag(kept), kept_im, false, "compress (imaginary parts) " + what);
  }
}

TEST_P(Algorithms, SortsAlongEachAxisOfViewsAndFlattened) {
  for (DType t : {DType::Int32, DType::Float32, DType::Float64}) {
    if (skips(t)) continue;
    for (const Input& in : layouts(37, 29, t, sort_values(37 * 58, t, 4))) {
      for (int axis : {0, 1})
        expect_sorted(in.array, in.values, axis,
                      label(in.layout + " axis " + std::to_string(axis), t, in.array.size()));
      const Array flat = argsort(in.array, std::nullopt);
      const auto order = stable_order(in.values, [&] {
        std::vector<std::int64_t> all(in.values.size());
        std::iota(all.begin(), all.end(), 0);
        return all;
      }());
      expect_close(flat, std::vector<double>(order.begin(), order.end()), false,
                   "argsort flattened " + in.layout);
    }
  }
}

TEST_P(Algorithms, SortsManyRows) {
  const auto v = sort_values(64 * 1023, DType::Float32, 10);
  expect_sorted(host_array(v, {64, 1023}, DType::Float32), v, 1, "64 rows of float32");
}

TEST_P(Algorithms, TopKTakesTheExtremesWithTheirPositions) {
  const auto v = sort_values(1023, DType::Float32, 9);
  const Array a = host_array(v, {1023}, DType::Float32);
  std::vector<std::int64_t> line(v.size());
  std::iota(line.begin(), line.end(), 0);
  const auto order = stable_order(v, line);
  for (std::int64_t k : {0, 1, 10, 1023}) {
    std::vector<double> small_values, small_positions, large_values, large_positions;
    for (std::int64_t j = 0; j < k; ++j) {
      small_positions.push_back(order[j]);
      small_values.push_back(v[order[j]]);
      large_positions.push_back(order[order.size() - 1 - j]);
      large_values.push_back(v[order[order.size() - 1 - j]]);
    }
    const TopK smallest = top_k(a, k, -1, false), largest = top_k(a, k);
    expect_close(smallest.values, small_values, false, "top_k smallest k=" + std::to_string(k));
    expect_close(smallest.indices, small_positions, false, "top_k smallest positions");
    expect_close(largest.values, large_values, false, "top_k largest k=" + std::to_string(k));
    expect_close(largest.indices, large_positions, false, "top_k largest positions");
  }
}

// ---- compaction

TEST_P(Algorithms, CompressKeepsMaskedElementsInOrder) {
  for (DType t : kAllDTypes) {
    if (skips(t)) continue;
    for (std::int64_t n : kSizes) {
      const auto v = random_values(n, t, 31 + n), m = random_values(n, DType::Bool, 41 + n);
      std::vector<double> kept;
      for (std::int64_t i = 0; i < n; ++i)
        if (m[i] != 0) kept.push_back(v[i]);
      const Array a = host_array(v, {n}, t), mask = host_array(m, {n}, DType::Bool);
      const Array got = compress(a, mask);
      EXPECT_EQ(got.dtype(), t);
      expect_close(got, kept, false, label("compress", t, n));
      expect_close(a[mask], kept, false, label("a[mask]", t, n));
      expect_close(compress(a, host_array(std::vector<double>(n, 1.0), {n}, DType::Bool)), v, false,
                   label("compress all true", t, n));
      expect_close(compress(a, Array::zeros({n}, DType::Bool)), {}, false,
                   label("compress all false", t, n));
    }
  }
}

TEST_P(Algorithms, CompressAndNonzeroOfViews) {
  for (DType t : {DType::Bool, DType::Int64, DType::Float32}) {
    const auto values = random_values(37 * 58, t, 6, -1, 2);  // a third zeros
    const auto masks = layouts(37, 29, DType::Bool, random_values(37 * 58, DType::Bool, 7));
    const auto inputs = layouts(37, 29, t, values);
    for (std::size_t l = 0; l < inputs.size(); ++l) {
      const Input& in = inputs[l];
      const Input& mask = masks[(l + 1) % masks.size()];  // another layout of the same shape
      ASSERT_EQ(mask.array.shape(), in.array.shape());
      std::vector<double> kept, flat_positions;
      std::vector<std::vector<double>> per_axis(2);
      const std::int64_t cols = in.array.shape()[1];
      for (std::size_t i = 0; i < in.values.size(); ++i) {
        if (mask.values[i] != 0) kept.push_back(in.values[i]);
        if (in.values[i] == 0) continue;
        flat_positions.push_back(static_cast<double>(i));
        per_axis[0].push_back(static_cast<double>(i / cols));
        per_axis[1].push_back(static_cast<double>(i % cols));
      }
      const std::string what = label(in.layout + " with a " + mask.layout + " mask", t, 0);
      expect_close(compress(in.array, mask.array), kept, false, "compress " + what);
      expect_close(flatnonzero(in.array), flat_positions, false, "flatnonzero " + what);
      const std::vector<Array> nz = nonzero(in.array);
      ASSERT_EQ(nz.size(), 2u);
      for (int axis = 0; axis < 2; ++axis) {
        EXPECT_EQ(nz[axis].dtype(), DType::Int64);
        expect_close(nz[axis], per_axis[axis], false,
                     "nonzero axis " + std::to_string(axis) + " " + what);
      }
    }
  }
}

TEST_P(Algorithms, FlatnonzeroOfEverySize) {
  for (std::int64_t n : kSizes) {
    const auto v = random_values(n, DType::Int32, 51 + n, -1, 2);
    std::vector<double> positions;
    for (std::int64_t i = 0; i < n; ++i)
      if (v[i] != 0) positions.push_back(static_cast<double>(i));
    const Array got = flatnonzero(host_array(v, {n}, DType::Int32));
    EXPECT_EQ(got.dtype(), DType::Int64);
    expect_close(got, positions, false, label("flatnonzero", DType::Int32, n));
  }
}

// ---- gathers

// a.take(indices, axis) on the host: the axis replaced by indices' shape.
std::vector<double> take_reference(const std::vector<double>& a, const Shape& shape, int axis,
                                   const std::vector<double>& indices) {
  std::int64_t outer = 1, inner = 1;
  for (int i = 0; i < axis; ++i) outer *= shape[i];
  for (int i = axis + 1; i < static_cast<int>(shape.size()); ++i) inner *= shape[i];
  const std::int64_t n = shape[axis];
  std::vector<double> out;
  for (std::int64_t o = 0; o < outer; ++o)
    for (double index : indices) {
      const auto p = static_cast<std::int64_t>(index < 0 ? index + n : index);
      for (std::int64_t i = 0; i < inner; ++i) out.push_back(a[(o * n + p) * inner + i]);
    }
  return out;
}

TEST_P(Algorithms, TakeAlongEachAxisWithNegativeIndices) {
  const Shape shape{4, 5, 6};
  for (DType t : {DType::Bool, DType::Int32, DType::Float32, DType::Float64}) {
    if (skips(t)) continue;
    const auto v = random_values(120, t, 12);
    const Array a = host_array(v, shape, t);
    for (int axis : {0, 1, 2, -1}) {
      const int ax = axis < 0 ? axis + 3 : axis;
      const std::int64_t n = shape[ax];
      for (DType it : {DType::Int32, DType::Int64}) {
        auto idx = random_values(6, DType::Int64, 13 + ax, static_cast<double>(-n),
                                 static_cast<double>(n));
        idx[0] = static_cast<double>(-n), idx[5] = static_cast<double>(n - 1);
        const Array indices = host_array(idx, {3, 2}, it);
        const Array got = take(a, indices, axis);
        Shape want_shape;
        for (int i = 0; i < 3; ++i) {
          if (i != ax) want_shape.push_back(shape[i]);
          if (i == ax) want_shape.push_back(3), want_shape.push_back(2);
        }
        EXPECT_EQ(got.shape(), want_shape);
        EXPECT_EQ(got.dtype(), t);
        expect_close(got, take_reference(v, shape, ax, idx), false,
                     label("take axis " + std::to_string(axis), t, 120));
        if (ax == 0)
          expect_close(a[indices], take_reference(v, shape, 0, idx), false, "a[int indices]");
      }
    }
    const std::vector<double> flat_idx{-120, 119, 0, 7, -1};
    expect_close(take(a, host_array(flat_idx, {5}, DType::Int64)),
                 take_reference(v, {120}, 0, flat_idx), false, label("take flattened", t, 120));
  }
}

TEST_P(Algorithms, TakeFromViewsAndLongArrays) {
  for (const Input& in :
       layouts(37, 29, DType::Float32, random_values(37 * 58, DType::Float32, 14))) {
    const std::vector<double> idx{0, -1, 3, 3, -7};
    expect_close(take(in.array, host_array(idx, {5}, DType::Int64), 1),
                 take_reference(in.values, in.array.shape(), 1, idx), false,
                 "take axis 1 of " + in.layout);
  }
  for (std::int64_t n : kSizes) {
    if (n == 0) continue;
    const auto v = random_values(n, DType::Int64, 15, -1e6, 1e6);
    const auto idx =
        random_values(1000, DType::Int64, 16, static_cast<double>(-n), static_cast<double>(n));
    expect_close(take(host_array(v, {n}, DType::Int64), host_array(idx, {1000}, DType::Int64)),
                 take_reference(v, {n}, 0, idx), false, label("take", DType::Int64, n));
  }
  const auto rows = random_values(3 * 1023, DType::Float32, 17);
  const auto many = random_values(40000, DType::Int64, 18, -1023, 1023);
  expect_close(
      take(host_array(rows, {3, 1023}, DType::Float32), host_array(many, {40000}, DType::Int64), 1),
      take_reference(rows, {3, 1023}, 1, many), false, "take 40000 along axis 1");
  const Array empty = take(Array::ones({3, 4}), Array::zeros({0}, DType::Int64), 1);
  EXPECT_EQ(empty.shape(), (Shape{3, 0}));
  EXPECT_EQ(empty.dtype(), DType::Float32);
}

TEST_P(Algorithms, EmptyInputsGiveEmptyResultsOfTheRightDType) {
  const Array none = Array::zeros({0, 3}, DType::Int32);
  EXPECT_EQ(cumsum(none, 0).dtype(), DType::Int64);
  EXPECT_EQ(cumsum(none, 0).shape(), (Shape{0, 3}));
  EXPECT_EQ(scan(none, Accumulate::Max, 1).dtype(), DType::Int32);
  EXPECT_EQ(sort(none, 0).shape(), (Shape{0, 3}));
  EXPECT_EQ(argsort(none, 1).dtype(), DType::Int64);
  EXPECT_EQ(compress(none, Array::zeros({0, 3}, DType::Bool)).shape(), (Shape{0}));
  const std::vector<Array> nz = nonzero(none);
  ASSERT_EQ(nz.size(), 2u);
  EXPECT_EQ(nz[1].shape(), (Shape{0}));
  EXPECT_EQ(nz[1].dtype(), DType::Int64);
  EXPECT_EQ(top_k(none, 0, 0).values.shape(), (Shape{0, 3}));
}

SWITCHYARD_ON_EVERY_DEVICE(Algorithms);

}  // namespace
}  // namespace switchyard::conformance
