// Scan, sort, compaction and gather as library ops on every device the registry finds (the CPU's
// own routines, and the generated kernels of codegen/library_kernels.hpp on OpenCL and CUDA),
// against host loops, std::partial_sum-style folds and std::stable_sort, at sizes that cross
// tile, group and block boundaries and with several rows.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "backends/backend.hpp"
#include "backends/registry.hpp"
#include "switchyard/error.hpp"

namespace switchyard {
namespace {

constexpr std::int64_t kLarge = (1 << 20) + 3;
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Host element type of each dtype (bool as its one byte).
template <class F>
void with_type(DType t, F&& f) {
  switch (t) {
    case DType::Bool:
      return f(std::uint8_t{});
    case DType::Int32:
      return f(std::int32_t{});
    case DType::Int64:
      return f(std::int64_t{});
    case DType::Float32:
      return f(float{});
    case DType::Float64:
      return f(double{});
    case DType::Complex64:
    case DType::Complex128:
      break;  // library kernels take real keys; FFT has its own suite
  }
}

// Rows of `length` elements: one batch of a library op.
struct Extent {
  std::int64_t rows, length;
};

constexpr DType kAllDTypes[] = {DType::Bool, DType::Int32, DType::Int64, DType::Float32,
                                DType::Float64};

// Device memory holding a host vector `offset` elements in, freed with the test.
class Buffer {
 public:
  template <class T>
  Buffer(Device& d, DType dtype, const std::vector<T>& host, std::int64_t offset = 0)
      : device_(d), memory_(d.allocate((host.size() + offset + 1) * sizeof(T))) {
    operand_ = {memory_, dtype, offset, {}};
    if (!host.empty())
      d.copy_from_host(memory_, offset * sizeof(T), host.data(), host.size() * sizeof(T));
  }
  // Room for n elements of dtype.
  Buffer(Device& d, DType dtype, std::int64_t n)
      : device_(d), memory_(d.allocate((n + 1) * size_of(dtype))) {
    operand_ = {memory_, dtype, 0, {}};
  }
  ~Buffer() { device_.free(memory_); }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  const Operand& operand() const { return operand_; }
  template <class T>
  std::vector<T> read(std::int64_t n) const {
    std::vector<T> host(n);
    if (n > 0)
      device_.copy_to_host(host.data(), memory_, operand_.offset * sizeof(T), n * sizeof(T));
    return host;
  }

 private:
  Device& device_;
  DeviceMemory memory_;
  Operand operand_;
};

void run(Device& d, const LibraryOp& op, const LibraryArgs& args) {
  const std::shared_ptr<Executable> exe = d.prepare(op);
  d.launch(*exe, args);
  d.synchronize();
}

// Values of T with many ties; floats add NaN, ±inf, -0.0 and 0.0.
template <class T>
std::vector<T> tie_heavy(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<T> v(n);
  for (T& x : v) {
    const int r = static_cast<int>(rng() % 40);
    if constexpr (std::is_same_v<T, std::uint8_t>) {
      x = static_cast<T>(r & 1);
    } else if constexpr (std::is_floating_point_v<T>) {
      const double special[] = {kNaN, -kNaN, kInf, -kInf, -0.0, 0.0};
      x = static_cast<T>(r < 6 ? special[r] : (r - 20) * 0.5);
    } else {
      // Extremes as well as small values, so every digit of the key matters.
      x = r == 0   ? std::numeric_limits<T>::min()
          : r == 1 ? std::numeric_limits<T>::max()
                   : static_cast<T>(r - 20);
    }
  }
  return v;
}

// NumPy's order: NaN last, -0.0 equal to 0.0.
template <class T>
bool numpy_less(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a)) return false;
    if (std::isnan(b)) return true;
  }
  return a < b;
}

template <class T>
bool same_bits(T a, T b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// Every device of `backend`, or why there is none.
struct DeviceList {
  std::vector<Device*> devices;
  std::string reason;
};

DeviceList devices_of(std::string_view backend) {
  Backend* b = Registry::instance().find(backend);
  if (!b) return {{}, std::string(backend) + " backend is not part of this build"};
  if (!b->available()) return {{}, std::string(backend) + ": " + b->unavailable_reason()};
  std::vector<Device*> out(b->devices().begin(), b->devices().end());
  if (out.empty()) return {{}, std::string(backend) + " backend has no device"};
  return {out, ""};
}

class LibraryKernels : public ::testing::TestWithParam<std::string_view> {
 protected:
  void SetUp() override {
    list_ = devices_of(GetParam());
    if (list_.devices.empty()) GTEST_SKIP() << list_.reason;
  }
  const std::vector<Device*>& devices() const { return list_.devices; }

 private:
  DeviceList list_;
};

// ---- Scan ----

template <class T>
T host_combine(ir::ReduceOp op, T a, T b) {
  if constexpr (std::is_same_v<T, std::uint8_t>) {
    return op == ir::ReduceOp::Sum || op == ir::ReduceOp::Max ? (a | b) : (a & b);
  } else if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    if (op == ir::ReduceOp::Sum) return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
    if (op == ir::ReduceOp::Prod) return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
    return op == ir::ReduceOp::Min ? std::min(a, b) : std::max(a, b);
  } else {
    if (op == ir::ReduceOp::Sum) return a + b;
    if (op == ir::ReduceOp::Prod) return a * b;
    if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<T>::quiet_NaN();
    return op == ir::ReduceOp::Min ? std::min(a, b) : std::max(a, b);
  }
}

template <class T>
T host_identity(ir::ReduceOp op) {
  if (op == ir::ReduceOp::Sum) return T{0};
  if (op == ir::ReduceOp::Prod) return T{1};
  if constexpr (std::is_same_v<T, std::uint8_t>) return op == ir::ReduceOp::Min ? 1 : 0;
  if constexpr (std::is_floating_point_v<T>)
    return op == ir::ReduceOp::Min ? std::numeric_limits<T>::infinity()
                                   : -std::numeric_limits<T>::infinity();
  return op == ir::ReduceOp::Min ? std::numeric_limits<T>::max() : std::numeric_limits<T>::lowest();
}

// Scan inputs: products near 1 stay finite; min/max see NaN now and then.
template <class T>
std::vector<T> scan_input(ir::ReduceOp op, std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<T> v(n);
  for (T& x : v) {
    if constexpr (std::is_same_v<T, std::uint8_t>) {
      x = static_cast<T>(u(rng) <
                         (op == ir::ReduceOp::Prod || op == ir::ReduceOp::Min ? 0.9 : -0.9));
    } else if constexpr (std::is_integral_v<T>) {
      x = op == ir::ReduceOp::Prod ? static_cast<T>(rng() % 3 + 1) * (rng() % 2 ? 1 : -1)
                                   : static_cast<T>(u(rng) * 1e6);
    } else if (op == ir::ReduceOp::Prod) {
      x = static_cast<T>(1 + u(rng) * 1e-3);
    } else {
      const bool nan = (op == ir::ReduceOp::Min || op == ir::ReduceOp::Max) && rng() % 5000 == 0;
      x = nan ? std::numeric_limits<T>::quiet_NaN() : static_cast<T>(u(rng) * 100);
    }
  }
  return v;
}

template <class T>
void check_scan(Device& d, DType dtype, ir::ReduceOp op, bool exclusive, std::int64_t rows,
                std::int64_t length) {
  const std::int64_t n = rows * length;
  const std::vector<T> host = scan_input<T>(op, n, 17 + n);
  const Buffer a(d, dtype, host, 3), c(d, dtype, n);
  LibraryOp lop{.kind = LibraryOp::Kind::Scan, .dtype = dtype};
  lop.scan = op;
  lop.exclusive = exclusive;
  LibraryArgs args;
  args.a = a.operand();
  args.c = c.operand();
  args.rows = rows;
  args.length = length;
  run(d, lop, args);
  const std::vector<T> got = c.read<T>(n);
  const std::string what = d.info().id() + " " + std::string(name(dtype)) + " " +
                           std::string(ir::name(op)) + (exclusive ? " exclusive " : " inclusive ") +
                           std::to_string(rows) + "x" + std::to_string(length);
  // Floats fold in float64 on the host: the device's float32 sums are held to that.
  using R = std::conditional_t<std::is_floating_point_v<T>, double, T>;
  const double eps = std::numeric_limits<T>::epsilon();
  int reported = 0;
  for (std::int64_t r = 0; r < rows; ++r) {
    R run_value = host_identity<R>(op);
    double magnitude = 0;  // sum of |x| so far: the scale of a float sum's rounding
    for (std::int64_t k = 0; k < length; ++k) {
      const std::int64_t i = r * length + k;
      const R next = host_combine<R>(op, run_value, host[i]);
      const R want = exclusive ? run_value : next;
      if constexpr (std::is_floating_point_v<T>) {
        magnitude += std::abs(static_cast<double>(host[i]));
        // Rounding grows with the depth of the fold: a few dozen steps over tiles and items.
        const double tol = op == ir::ReduceOp::Sum ? 64 * eps * (magnitude + 1)
                           : op == ir::ReduceOp::Prod
                               ? 4 * eps * std::sqrt(k + 1.0) * std::abs(want)
                               : 0;
        const double have = got[i];
        const bool ok =
            std::isnan(want) ? std::isnan(have) : (have == want || std::abs(have - want) <= tol);
        if (!ok && reported++ < 3)
          ADD_FAILURE() << what << " at " << i << ": got " << have << ", expected " << want;
      } else if (got[i] != want && reported++ < 3) {
        ADD_FAILURE() << what << " at " << i << ": got " << +got[i] << ", expected " << +want;
      }
      run_value = next;
    }
  }
}

TEST_P(LibraryKernels, ScanMatchesAHostFoldForEveryDTypeAndOp) {
  const Extent shapes[] = {{1, 0}, {1, 1},    {1, 7},  {1, 1023},
                           {4, 0}, {3, 1023}, {50, 7}, {2, 5000}};
  for (Device* d : devices())
    for (DType t : kAllDTypes) {
      if (t == DType::Float64 && !d->info().fp64) continue;
      for (ir::ReduceOp op :
           {ir::ReduceOp::Sum, ir::ReduceOp::Prod, ir::ReduceOp::Min, ir::ReduceOp::Max})
        for (bool exclusive : {false, true})
          for (Extent e : shapes)
            with_type(t, [&](auto zero) {
              check_scan<decltype(zero)>(*d, t, op, exclusive, e.rows, e.length);
            });
    }
}

TEST_P(LibraryKernels, ScanOfAMillionElementsCarriesAcrossTiles) {
  for (Device* d : devices()) {
    check_scan<std::int64_t>(*d, DType::Int64, ir::ReduceOp::Sum, false, 1, kLarge);
    check_scan<float>(*d, DType::Float32, ir::ReduceOp::Sum, true, 1, kLarge);
    check_scan<std::int32_t>(*d, DType::Int32, ir::ReduceOp::Max, false, 2, kLarge / 2);
    check_scan<float>(*d, DType::Float32, ir::ReduceOp::Min, false, 1, kLarge);
  }
}

TEST_P(LibraryKernels, ScanWithAnArgOpIsAValueError) {
  for (Device* d : devices()) {
    LibraryOp op{.kind = LibraryOp::Kind::Scan, .dtype = DType::Float32};
    op.scan = ir::ReduceOp::ArgMax;
    EXPECT_THROW(d->prepare(op), ValueError) << d->info().id();
  }
}

// ---- Sort ----

template <class T>
void check_sort(Device& d, DType dtype, bool indices, std::int64_t rows, std::int64_t length) {
  const std::int64_t n = rows * length;
  const std::vector<T> host = tie_heavy<T>(n, 5 + n);
  const Buffer a(d, dtype, host, 5), c(d, dtype, n), perm(d, DType::Int64, n);
  const LibraryOp op{.kind = LibraryOp::Kind::Sort, .dtype = dtype, .indices = indices};
  LibraryArgs args;
  args.a = a.operand();
  args.c = c.operand();
  if (indices) args.d = perm.operand();
  args.rows = rows;
  args.length = length;
  run(d, op, args);
  const std::vector<T> got = c.read<T>(n);
  const std::vector<std::int64_t> got_perm = perm.read<std::int64_t>(indices ? n : 0);
  const std::string what = d.info().id() + " " + std::string(name(dtype)) +
                           (indices ? " argsort " : " sort ") + std::to_string(rows) + "x" +
                           std::to_string(length);
  int reported = 0;
  for (std::int64_t r = 0; r < rows; ++r) {
    std::vector<std::int64_t> order(length);
    std::iota(order.begin(), order.end(), 0);
    const T* row = host.data() + r * length;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::int64_t x, std::int64_t y) { return numpy_less(row[x], row[y]); });
    for (std::int64_t i = 0; i < length && reported < 3; ++i) {
      const std::int64_t at = r * length + i;
      if (!same_bits(got[at], row[order[i]]))
        ++reported, ADD_FAILURE() << what << " row " << r << " at " << i << ": got " << +got[at]
                                  << ", expected " << +row[order[i]];
      if (indices && got_perm[at] != order[i])
        ++reported, ADD_FAILURE() << what << " row " << r << " at " << i << ": index "
                                  << got_perm[at] << ", expected " << order[i];
    }
  }
}

TEST_P(LibraryKernels, SortIsStableWithNumPysOrderForEveryDType) {
  const Extent shapes[] = {{1, 0}, {1, 1},    {1, 7},   {1, 1023},
                           {3, 0}, {3, 1023}, {100, 7}, {2, 5000}};
  for (Device* d : devices())
    for (DType t : kAllDTypes)
      for (bool indices : {false, true})
        for (Extent e : shapes)
          with_type(
              t, [&](auto zero) { check_sort<decltype(zero)>(*d, t, indices, e.rows, e.length); });
}

TEST_P(LibraryKernels, SortOfAMillionKeys) {
  for (Device* d : devices()) {
    check_sort<float>(*d, DType::Float32, true, 1, kLarge);
    check_sort<std::int64_t>(*d, DType::Int64, false, 1, kLarge);
  }
}

// ---- Compact ----

template <class T>
void check_compact(Device& d, DType dtype, bool indices, std::int64_t n) {
  const std::vector<T> host = tie_heavy<T>(n, 11 + n);
  std::mt19937_64 rng(n);
  std::vector<std::uint8_t> mask(n);
  for (auto& m : mask) m = rng() % 10 < 3;
  const DType out_dtype = indices ? DType::Int64 : dtype;
  // Positions start as -1, which no position is: nothing past the kept ones may be written
  // (blocks written side by side would overwrite each other's first elements).
  const std::vector<std::int64_t> unwritten(n, -1);
  const Buffer a(d, dtype, host, 2), b(d, DType::Bool, mask, 7), count(d, DType::Int64, 1);
  const Buffer c = indices ? Buffer(d, out_dtype, unwritten) : Buffer(d, out_dtype, n);
  const LibraryOp op{.kind = LibraryOp::Kind::Compact, .dtype = dtype, .indices = indices};
  LibraryArgs args;
  args.a = a.operand();
  args.b = b.operand();
  args.c = c.operand();
  args.d = count.operand();
  args.length = n;
  args.rows = 1;
  run(d, op, args);
  std::vector<std::int64_t> kept;
  for (std::int64_t i = 0; i < n; ++i)
    if (mask[i]) kept.push_back(i);
  const std::string what = d.info().id() + " " + std::string(name(dtype)) +
                           (indices ? " nonzero " : " compact ") + std::to_string(n);
  ASSERT_EQ(count.read<std::int64_t>(1)[0], static_cast<std::int64_t>(kept.size())) << what;
  const std::int64_t k = static_cast<std::int64_t>(kept.size());
  if (indices) {
    std::vector<std::int64_t> expected = kept;
    expected.resize(n, -1);
    EXPECT_EQ(c.read<std::int64_t>(n), expected) << what;
    return;
  }
  const std::vector<T> got = c.read<T>(k);
  for (std::int64_t j = 0; j < k; ++j)
    if (!same_bits(got[j], host[kept[j]])) {
      ADD_FAILURE() << what << " at " << j << ": got " << +got[j] << ", expected "
                    << +host[kept[j]];
      return;
    }
}

TEST_P(LibraryKernels, CompactKeepsMaskedElementsInOrder) {
  for (Device* d : devices())
    for (DType t : kAllDTypes)
      for (bool indices : {false, true})
        for (std::int64_t n :
             {std::int64_t{0}, std::int64_t{1}, std::int64_t{7}, std::int64_t{1023}, kLarge})
          with_type(t, [&](auto zero) { check_compact<decltype(zero)>(*d, t, indices, n); });
}

// ---- Gather ----

template <class T>
void check_gather(Device& d, DType dtype, std::int64_t rows, std::int64_t length,
                  std::int64_t inner, std::int64_t count) {
  const std::vector<T> host = tie_heavy<T>(rows * length * inner, 3 + length);
  std::mt19937_64 rng(count);
  std::vector<std::int64_t> positions(count);
  for (auto& p : positions) p = static_cast<std::int64_t>(rng() % length);
  const std::int64_t n = rows * count * inner;
  const Buffer a(d, dtype, host, 1), b(d, DType::Int64, positions, 4), c(d, dtype, n);
  LibraryArgs args;
  args.a = a.operand();
  args.b = b.operand();
  args.c = c.operand();
  args.rows = rows;
  args.length = length;
  args.inner = inner;
  args.count = count;
  run(d, {.kind = LibraryOp::Kind::Gather, .dtype = dtype}, args);
  const std::vector<T> got = c.read<T>(n);
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t j = 0; j < count; ++j)
      for (std::int64_t i = 0; i < inner; ++i) {
        const T want = host[(r * length + positions[j]) * inner + i];
        const T have = got[(r * count + j) * inner + i];
        if (!same_bits(have, want)) {
          ADD_FAILURE() << d.info().id() << " " << name(dtype) << " gather at (" << r << ", " << j
                        << ", " << i << "): got " << +have << ", expected " << +want;
          return;
        }
      }
}

TEST_P(LibraryKernels, GatherTakesPositionsAlongTheMiddleAxis) {
  struct Shape {
    std::int64_t rows, length, inner, count;
  };
  const Shape shapes[] = {{1, 1, 1, 0},    {1, 1, 1, 1}, {1, 7, 1, 7},        {3, 1023, 5, 100},
                          {2, 7, 3, 1023}, {4, 9, 2, 0}, {1, kLarge, 1, 1000}};
  for (Device* d : devices())
    for (DType t : kAllDTypes)
      for (const Shape& s : shapes)
        with_type(t, [&](auto zero) {
          check_gather<decltype(zero)>(*d, t, s.rows, s.length, s.inner, s.count);
        });
}

INSTANTIATE_TEST_SUITE_P(Backends, LibraryKernels,
                         ::testing::Values("cpu", "opencl", "cuda", "vulkan"),
                         [](const auto& info) { return std::string(info.param); });

}  // namespace
}  // namespace switchyard
