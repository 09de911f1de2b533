// Sorts on the CPU with Highway's vqsort, one row per task. vqsort orders NaN nowhere in
// particular and is not stable, so values sort with their NaNs set apart (and equal values whose
// bits differ put back in the order they came), and
// argsort sorts composites of an order-preserving key and the position: equal keys then order
// by position, which is NumPy's stable order. Keys of 4 bytes or less share a 64-bit word with a
// 32-bit position; 8-byte keys take the high half of a 128-bit word.
#include <hwy/contrib/sort/vqsort.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "backends/cpu/cpu_backend.hpp"
#include "backends/cpu/library_data.hpp"
#include "backends/cpu/library_routines.hpp"

namespace switchyard::cpu {
namespace {

// vqsort's Sorter keeps scratch memory its calls write into: one per thread.
const hwy::Sorter& thread_sorter() {
  thread_local const hwy::Sorter sorter;
  return sorter;
}

template <class T>
using Key = std::conditional_t<sizeof(T) == 8, std::uint64_t, std::uint32_t>;

template <class T>
constexpr Key<T> kSignBit = Key<T>{1} << (8 * sizeof(Key<T>) - 1);

// Float bits as an unsigned key in the floats' order (-0.0 just below 0.0), and back.
template <class T>
Key<T> float_key(T x) {
  const auto bits = std::bit_cast<Key<T>>(x);
  return (bits & kSignBit<T>) ? ~bits : bits | kSignBit<T>;
}
template <class T>
T float_of_key(Key<T> key) {
  return std::bit_cast<T>((key & kSignBit<T>) ? key & ~kSignBit<T> : ~key);
}

// An unsigned key ordered as NumPy orders T: -0.0 equals 0.0, and every NaN is one key above +inf.
template <class T>
Key<T> ordered_key(T x) {
  if constexpr (std::is_same_v<T, bool>) {
    return x ? 1 : 0;
  } else if constexpr (std::is_integral_v<T>) {
    return static_cast<Key<T>>(x) ^ kSignBit<T>;
  } else {
    if (std::isnan(x)) return std::numeric_limits<Key<T>>::max();
    return float_key(x == 0 ? T{0} : x);
  }
}

// Floats sort as unsigned keys: vqsort's float sort (Highway 1.0) turns infinities into the
// largest finite value. NaNs go after the numbers. Keys put -0.0 just below 0.0, but a stable sort
// keeps values that compare equal in the order they came, so the run of zeros and the NaNs are
// written again in the input's order (their bits differ: signs of zero, NaN payloads).
template <class T>
void sort_floats(const T* in, T* out, std::int64_t n) {
  using K = Key<T>;
  std::int64_t numbers = 0, zeros = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    if (std::isnan(in[i])) continue;
    const K key = float_key(in[i]);
    std::memcpy(out + numbers++, &key, sizeof key);
    zeros += in[i] == 0;
  }
  thread_sorter()(reinterpret_cast<K*>(out), static_cast<std::size_t>(numbers),
                  hwy::SortAscending());
  for (std::int64_t i = 0; i < numbers; ++i) {
    K key;
    std::memcpy(&key, out + i, sizeof key);
    out[i] = float_of_key<T>(key);
  }
  if (numbers == n && zeros < 2) return;
  T* zero = std::lower_bound(out, out + numbers, T{0});
  T* nan = out + numbers;
  for (std::int64_t i = 0; i < n; ++i)
    if (std::isnan(in[i]))
      *nan++ = in[i];
    else if (in[i] == 0)
      *zero++ = in[i];
}

template <class T>
void sort_values(const T* in, T* out, std::int64_t n) {
  if constexpr (std::is_same_v<T, bool>) {
    const auto falses = std::count(in, in + n, false);
    std::fill(out, out + falses, false);
    std::fill(out + falses, out + n, true);
  } else if constexpr (std::is_floating_point_v<T>) {
    sort_floats(in, out, n);
  } else {
    std::memcpy(out, in, n * sizeof(T));
    thread_sorter()(out, static_cast<std::size_t>(n), hwy::SortAscending());
  }
}

// Positions fit the low 32 bits of a 64-bit composite when the row has at most 2^32 elements.
constexpr std::int64_t kNarrowPositions = std::int64_t{1} << 32;

template <class T>
void argsort_narrow(const T* in, T* out, std::int64_t* positions, std::int64_t n) {
  std::vector<std::uint64_t> composites(n);
  for (std::int64_t i = 0; i < n; ++i)
    composites[i] = std::uint64_t{ordered_key(in[i])} << 32 | static_cast<std::uint64_t>(i);
  thread_sorter()(composites.data(), composites.size(), hwy::SortAscending());
  for (std::int64_t i = 0; i < n; ++i) {
    positions[i] = static_cast<std::int64_t>(composites[i] & 0xFFFFFFFFu);
    out[i] = in[positions[i]];
  }
}

template <class T>
void argsort_wide(const T* in, T* out, std::int64_t* positions, std::int64_t n) {
  std::vector<hwy::uint128_t> composites(n);
  for (std::int64_t i = 0; i < n; ++i)
    composites[i] = {static_cast<std::uint64_t>(i), std::uint64_t{ordered_key(in[i])}};
  thread_sorter()(composites.data(), composites.size(), hwy::SortAscending());
  for (std::int64_t i = 0; i < n; ++i) {
    positions[i] = static_cast<std::int64_t>(composites[i].lo);
    out[i] = in[positions[i]];
  }
}

template <class T>
void sort_rows(const LibraryOp& op, const LibraryArgs& x) {
  const T* in = data<const T>(x.a);
  T* out = data<T>(x.c);
  const std::int64_t n = x.length;
  auto sort_row = [&](std::int64_t r) {
    const T* row = in + r * n;
    if (!op.indices) return sort_values(row, out + r * n, n);
    std::int64_t* positions = data<std::int64_t>(x.d) + r * n;
    if constexpr (sizeof(T) <= 4)
      if (n <= kNarrowPositions) return argsort_narrow(row, out + r * n, positions, n);
    argsort_wide(row, out + r * n, positions, n);
  };
  if (x.rows == 1 || x.rows * n < parallel_threshold()) {
    for (std::int64_t r = 0; r < x.rows; ++r) sort_row(r);
    return;
  }
  const std::int64_t grain = std::max<std::int64_t>(1, parallel_threshold() / n);
  tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, x.rows, grain), [&](auto range) {
    for (std::int64_t r = range.begin(); r < range.end(); ++r) sort_row(r);
  });
}

}  // namespace

void SortRoutine::launch(const LibraryArgs& args) {
  if (args.rows <= 0 || args.length <= 0) return;
  visit_dtype(op().dtype, [&]<class T>(T) { sort_rows<T>(op(), args); });
}

}  // namespace switchyard::cpu
