// The CPU backend through the Device interface: prepare + launch of Kernel IR on host memory,
// compared with float64 (or exact integer) references computed here, independently of the
// backend's own code; reductions, layouts, library ops and the device itself.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "backends/cpu/cpu_backend.hpp"
#include "conformance/reference.hpp"
#include "multi_reduction_cases.hpp"
#include "switchyard/error.hpp"
#include "test_support.hpp"

namespace switchyard {
namespace {

using ir::KernelBuilder;
using ir::Layout;
using ir::OpCode;
using ir::ReduceOp;
using ir::ReduceOver;

using testing_support::kInf;
using testing_support::kNaN;
constexpr DType kAllDTypes[] = {DType::Bool, DType::Int32, DType::Int64, DType::Float32,
                                DType::Float64};

Device& cpu() {
  static const std::unique_ptr<Backend> backend = cpu::make_backend();
  return *backend->devices().front();
}

// Restores the default inline/parallel split when a test that changed it ends.
struct ParallelThreshold {
  explicit ParallelThreshold(std::int64_t elements) { cpu::set_parallel_threshold(elements); }
  ~ParallelThreshold() { cpu::set_parallel_threshold(cpu::kDefaultParallelThreshold); }
};

// Values are held as double (int64 for exact integer work) and converted on the way in and out.
class DeviceArray {
 public:
  DeviceArray(DType t, std::int64_t count)
      : t_(t), count_(count), memory_(cpu().allocate(count * size_of(t))) {}
  ~DeviceArray() { cpu().free(memory_); }
  DeviceArray(const DeviceArray&) = delete;

  void set(std::int64_t i, double v) {
    visit_dtype(t_, [&](auto zero) {
      using T = decltype(zero);
      T x;
      if constexpr (std::is_same_v<T, bool>)
        x = v != 0;
      else
        x = static_cast<T>(v);
      std::memcpy(bytes() + i * sizeof(T), &x, sizeof(T));
    });
  }
  void set_int(std::int64_t i, std::int64_t v) {
    visit_dtype(t_, [&](auto zero) {
      using T = decltype(zero);
      const T x = static_cast<T>(v);
      std::memcpy(bytes() + i * sizeof(T), &x, sizeof(T));
    });
  }
  void fill(const std::vector<double>& values) {
    for (std::size_t i = 0; i < values.size(); ++i) set(i, values[i]);
  }
  double get(std::int64_t i) const {
    return visit_dtype(t_, [&](auto zero) {
      using T = decltype(zero);
      T x;
      std::memcpy(&x, bytes() + i * sizeof(T), sizeof(T));
      return static_cast<double>(x);
    });
  }
  std::int64_t get_int(std::int64_t i) const {
    return visit_dtype(t_, [&](auto zero) {
      using T = decltype(zero);
      T x;
      std::memcpy(&x, bytes() + i * sizeof(T), sizeof(T));
      return static_cast<std::int64_t>(x);
    });
  }

  Operand contiguous(const Shape& shape, std::int64_t offset = 0) const {
    return {memory_, t_, offset, contiguous_strides(shape)};
  }
  Operand strided(Strides strides, std::int64_t offset = 0) const {
    return {memory_, t_, offset, strides};
  }
  DType dtype() const { return t_; }

 private:
  std::byte* bytes() const { return static_cast<std::byte*>(memory_.handle); }
  DType t_;
  std::int64_t count_;
  DeviceMemory memory_;
};

void launch(const ir::Kernel& k, const Shape& shape, std::vector<Operand> inputs,
            std::vector<Operand> outputs, std::vector<ScalarValue> scalars = {}) {
  auto exe = cpu().prepare(k);
  cpu().launch(*exe, LaunchArgs{shape, inputs, scalars, outputs});
}

// ---- references: the IR header's semantics, written out independently

template <class T>
T wrap(__int128 v) {
  if constexpr (std::is_same_v<T, bool>)
    return v != 0;
  else
    return static_cast<T>(static_cast<std::uint64_t>(static_cast<unsigned __int128>(v)));
}

template <class T>
__int128 int_reference(OpCode op, __int128 a, __int128 b) {
  switch (op) {
    case OpCode::Neg:
      return wrap<T>(-a);
    case OpCode::Abs:
      return wrap<T>(a < 0 ? -a : a);
    case OpCode::Sign:
      return (a > 0) - (a < 0);
    case OpCode::Add:
      return wrap<T>(a + b);
    case OpCode::Sub:
      return wrap<T>(a - b);
    case OpCode::Mul:
      return wrap<T>(a * b);
    case OpCode::FloorDiv: {
      if (b == 0) return 0;
      __int128 q = a / b;
      if (a % b != 0 && ((a < 0) != (b < 0))) --q;
      return wrap<T>(q);
    }
    case OpCode::Mod: {
      if (b == 0) return 0;
      __int128 r = a % b;
      if (r != 0 && ((r < 0) != (b < 0))) r += b;
      return r;
    }
    case OpCode::Pow: {
      if (b < 0) return a == 1 ? 1 : a == -1 ? (b % 2 ? -1 : 1) : 0;
      std::uint64_t result = 1, base = static_cast<std::uint64_t>(static_cast<std::int64_t>(a));
      for (__int128 e = b; e > 0; e >>= 1, base *= base)
        if (e & 1) result *= base;
      return wrap<T>(static_cast<std::int64_t>(result));
    }
    case OpCode::Min:
      return std::min(a, b);
    case OpCode::Max:
      return std::max(a, b);
    case OpCode::Eq:
      return a == b;
    case OpCode::Ne:
      return a != b;
    case OpCode::Lt:
      return a < b;
    case OpCode::Le:
      return a <= b;
    case OpCode::Gt:
      return a > b;
    case OpCode::Ge:
      return a >= b;
    case OpCode::And:  // bool's 0 and 1: the bitwise forms are the logical ones
      return a & b;
    case OpCode::Or:
      return a | b;
    case OpCode::Xor:
      return a ^ b;
    case OpCode::Not:
      return std::is_same_v<T, bool> ? !a : ~a;
    case OpCode::ShiftLeft:
      if (b < 0 || b >= static_cast<int>(8 * sizeof(T))) return 0;
      return wrap<T>(a * (__int128{1} << b));
    case OpCode::ShiftRight:
      if (b < 0 || b >= static_cast<int>(8 * sizeof(T))) return a < 0 ? -1 : 0;
      return a >> b;
    default:
      ADD_FAILURE() << "no integer reference for " << ir::name(op);
      return 0;
  }
}

// Exact ops are computed in T (IEEE results are exact roundings); the rest in double.
template <class T>
double float_reference(OpCode op, T a, T b) {
  const double x = a, y = b;
  switch (op) {
    case OpCode::Neg:
      return -a;
    case OpCode::Abs:
      return std::fabs(a);
    case OpCode::Sign:
      return std::isnan(x) ? x : (x > 0) - (x < 0);
    case OpCode::Exp:
      return std::exp(x);
    case OpCode::Log:
      return std::log(x);
    case OpCode::Sqrt:
      return std::sqrt(a);
    case OpCode::Sin:
      return std::sin(x);
    case OpCode::Cos:
      return std::cos(x);
    case OpCode::Tan:
      return std::tan(x);
    case OpCode::Tanh:
      return std::tanh(x);
    case OpCode::Asin:
      return std::asin(x);
    case OpCode::Acos:
      return std::acos(x);
    case OpCode::Atan:
      return std::atan(x);
    case OpCode::Sinh:
      return std::sinh(x);
    case OpCode::Cosh:
      return std::cosh(x);
    case OpCode::Asinh:
      return std::asinh(x);
    case OpCode::Acosh:
      return std::acosh(x);
    case OpCode::Atanh:
      return std::atanh(x);
    case OpCode::Expm1:
      return std::expm1(x);
    case OpCode::Log1p:
      return std::log1p(x);
    case OpCode::Log2:
      return std::log2(x);
    case OpCode::Log10:
      return std::log10(x);
    case OpCode::Hypot:
      return std::hypot(x, y);
    case OpCode::CopySign:
      return std::copysign(a, b);
    case OpCode::NextAfter:
      return std::nextafter(a, b);
    case OpCode::LogAddExp: {  // NumPy's formula in T: a result near 0 cancels as NumPy's does
      if (a == b) return a + static_cast<T>(std::log(2.0));
      const T d = a - b;
      if (std::isnan(d)) return d;
      return std::max(a, b) + std::log1p(std::exp(-std::fabs(d)));
    }
    case OpCode::Floor:
      return std::floor(a);
    case OpCode::Ceil:
      return std::ceil(a);
    case OpCode::Add:
      return static_cast<T>(a + b);
    case OpCode::Sub:
      return static_cast<T>(a - b);
    case OpCode::Mul:
      return static_cast<T>(a * b);
    case OpCode::Div:
      return static_cast<T>(a / b);
    case OpCode::FloorDiv:
      return std::floor(static_cast<T>(a / b));
    case OpCode::Mod: {
      if (b == 0) return kNaN;
      T r = std::fmod(a, b);
      if (r == 0) return std::copysign(T{0}, b);
      return ((r < 0) != (b < 0)) ? static_cast<T>(r + b) : r;
    }
    case OpCode::Pow:
      return std::pow(x, y);
    case OpCode::Atan2:
      return std::atan2(x, y);
    case OpCode::Min:
      return std::isnan(x) ? x : std::isnan(y) ? y : std::min(x, y);
    case OpCode::Max:
      return std::isnan(x) ? x : std::isnan(y) ? y : std::max(x, y);
    case OpCode::Eq:
      return a == b;
    case OpCode::Ne:
      return a != b;
    case OpCode::Lt:
      return a < b;
    case OpCode::Le:
      return a <= b;
    case OpCode::Gt:
      return a > b;
    case OpCode::Ge:
      return a >= b;
    default:
      ADD_FAILURE() << "no float reference for " << ir::name(op);
      return 0;
  }
}

// Transcendentals may differ from libm by a few ulp; everything else must be exact.
template <class T>
void expect_float_near(double got, double want, bool transcendental, const std::string& where) {
  if (std::isnan(want)) {
    EXPECT_TRUE(std::isnan(got)) << where << " got " << got;
    return;
  }
  const double want_t = static_cast<T>(want);
  if (std::isinf(want_t)) {
    EXPECT_EQ(got, want_t) << where;
    return;
  }
  if (!transcendental) {
    EXPECT_EQ(got, want_t) << where;
    return;
  }
  const double eps = std::numeric_limits<T>::epsilon();
  EXPECT_NEAR(got, want_t, 8 * eps * (std::fabs(want) + std::numeric_limits<T>::min())) << where;
}

// ---- inputs that break naive code

std::vector<double> float_values(DType t, std::size_t n, unsigned seed) {
  const double big = t == DType::Float32 ? 3e38 : 1e300;
  std::vector<double> v = {0.0,   -0.0, 1.0,  -1.0, 0.5,   2.5, -2.5, 3.0,    -7.0,  kInf,
                           -kInf, kNaN, big,  -big, 1e-40, 1e5, -3e4, 88.5,   100.0, -100.0,
                           710.0, 1e-5, 3.25, 1e9,  -1e9,  3e9, -3e9, 1.5e19, 0.75,  -0.25};
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-10, 10);
  while (v.size() < n) v.push_back(u(rng));
  std::shuffle(v.begin() + 1, v.end(), rng);
  v.resize(n);
  return v;
}

std::vector<std::int64_t> int_values(DType t, std::size_t n, unsigned seed) {
  const std::int64_t lo = t == DType::Int32 ? INT32_MIN : INT64_MIN;
  const std::int64_t hi = t == DType::Int32 ? INT32_MAX : INT64_MAX;
  std::vector<std::int64_t> v = {0, 1, -1, 2, -2, 7, -7, lo, hi, lo + 1, 3, -3, 31, 63};
  std::mt19937 rng(seed);
  std::uniform_int_distribution<std::int64_t> u(-100, 100);
  if (t == DType::Bool) v = {0, 1};
  while (v.size() < n) v.push_back(t == DType::Bool ? u(rng) & 1 : u(rng));
  std::shuffle(v.begin(), v.end(), rng);
  v.resize(n);
  return v;
}

// ---- every opcode × dtype against the reference

struct OpCase {
  OpCode op;
  std::vector<DType> dtypes;
};

const std::vector<OpCase>& op_cases() {
  const std::vector<DType> num = {DType::Int32, DType::Int64, DType::Float32, DType::Float64};
  const std::vector<DType> flt = {DType::Float32, DType::Float64};
  const std::vector<DType> any(std::begin(kAllDTypes), std::end(kAllDTypes));
  const std::vector<DType> boolean = {DType::Bool};
  const std::vector<DType> integer = {DType::Int32, DType::Int64};
  const std::vector<DType> bits = {DType::Bool, DType::Int32, DType::Int64};
  const std::vector<DType> ordered = {DType::Bool, DType::Int32, DType::Int64, DType::Float32,
                                      DType::Float64};
  static const std::vector<OpCase> cases = {
      {OpCode::Neg, num},
      {OpCode::Abs, num},
      {OpCode::Sign, num},
      {OpCode::Not, boolean},
      {OpCode::Exp, flt},
      {OpCode::Log, flt},
      {OpCode::Sqrt, flt},
      {OpCode::Sin, flt},
      {OpCode::Cos, flt},
      {OpCode::Tan, flt},
      {OpCode::Tanh, flt},
      {OpCode::Floor, flt},
      {OpCode::Ceil, flt},
      {OpCode::Add, num},
      {OpCode::Sub, num},
      {OpCode::Mul, num},
      {OpCode::Div, flt},
      {OpCode::FloorDiv, num},
      {OpCode::Mod, num},
      {OpCode::Pow, num},
      {OpCode::Min, ordered},
      {OpCode::Max, ordered},
      {OpCode::Atan2, flt},
      {OpCode::Eq, any},
      {OpCode::Ne, any},
      {OpCode::Lt, any},
      {OpCode::Le, any},
      {OpCode::Gt, any},
      {OpCode::Ge, any},
      {OpCode::And, bits},
      {OpCode::Or, bits},
      {OpCode::Xor, bits},
      {OpCode::Not, integer},
      {OpCode::ShiftLeft, integer},
      {OpCode::ShiftRight, integer},
      {OpCode::Asin, flt},
      {OpCode::Acos, flt},
      {OpCode::Atan, flt},
      {OpCode::Sinh, flt},
      {OpCode::Cosh, flt},
      {OpCode::Asinh, flt},
      {OpCode::Acosh, flt},
      {OpCode::Atanh, flt},
      {OpCode::Expm1, flt},
      {OpCode::Log1p, flt},
      {OpCode::Log2, flt},
      {OpCode::Log10, flt},
      {OpCode::Hypot, flt},
      {OpCode::CopySign, flt},
      {OpCode::NextAfter, flt},
      {OpCode::LogAddExp, flt},
  };
  return cases;
}

// Two blocks and an odd tail, so full vectors, partial vectors and block edges all run.
constexpr std::int64_t kOpElements = 2 * 2048 + 37;

void check_op(OpCode op, DType t, std::int64_t n) {
  const bool binary = ir::arity(op) == 2;
  const DType result = ir::is_comparison(op) ? DType::Bool : t;
  KernelBuilder b;
  const auto x = b.load(t, Layout::Contiguous);
  const auto y = binary ? b.load(t, Layout::Contiguous) : x;
  b.output(binary ? b.binary(op, x, y, result) : b.unary(op, x, result));
  DeviceArray a(t, n), c(t, n), out(result, n);
  const std::string label = std::string(ir::name(op)) + " " + std::string(name(t));
  if (is_floating(t)) {
    auto xs = float_values(t, n, 1), ys = float_values(t, n, 2);
    if (op == OpCode::Pow) std::reverse(ys.begin(), ys.end());  // pair specials with randoms
    a.fill(xs), c.fill(ys);
  } else {
    auto xs = int_values(t, n, 1), ys = int_values(t, n, 2);
    if (op == OpCode::Pow)
      for (auto& e : ys) e = e % 23;  // exponents from -22 to 22
    for (std::int64_t i = 0; i < n; ++i) a.set_int(i, xs[i]), c.set_int(i, ys[i]);
  }
  const Shape shape{n};
  launch(b.build(), shape,
         binary ? std::vector{a.contiguous(shape), c.contiguous(shape)}
                : std::vector{a.contiguous(shape)},
         {out.contiguous(shape)});
  for (std::int64_t i = 0; i < n; ++i) {
    const std::string where = label + " at " + std::to_string(i) + " (" + std::to_string(a.get(i)) +
                              ", " + std::to_string(c.get(i)) + ")";
    if (!is_floating(t)) {
      const __int128 want = visit_dtype(t, [&](auto zero) {
        return int_reference<decltype(zero)>(op, a.get_int(i), c.get_int(i));
      });
      ASSERT_EQ(out.get_int(i), static_cast<std::int64_t>(want)) << where;
    } else if (t == DType::Float32) {
      const double want = float_reference<float>(op, a.get(i), c.get(i));
      expect_float_near<float>(out.get(i), want, ir::is_transcendental(op), where);
    } else {
      const double want = float_reference<double>(op, a.get(i), c.get(i));
      expect_float_near<double>(out.get(i), want, ir::is_transcendental(op), where);
    }
  }
}

TEST(CpuOps, EveryOpcodeAndDTypeMatchesReference) {
  for (const auto& c : op_cases())
    for (DType t : c.dtypes) check_op(c.op, t, kOpElements);
}

TEST(CpuOps, TinyLaunchesMatchReference) {
  for (std::int64_t n : {1, 3, 16})
    for (const auto& c : op_cases())
      for (DType t : c.dtypes) check_op(c.op, t, n);
}

TEST(CpuOps, CastsFollowTheIrRules) {
  const std::vector<double> floats = {0,     -0.0,         0.5,           -0.5,   2.7,     -2.7,
                                      1e10,  -1e10,        3e9,           -3e9,   kNaN,    kInf,
                                      -kInf, 2147483647.5, -2147483648.9, 9.3e18, -9.3e18, 1};
  const std::vector<std::int64_t> ints = {
      0, 1, -1, INT64_MAX, INT64_MIN, 4294967296 + 5, -4294967296 - 7, 16777217, 9007199254740993};
  for (DType from : kAllDTypes)
    for (DType to : kAllDTypes) {
      if (from == to) continue;
      KernelBuilder b;
      b.output(b.cast(b.load(from, Layout::Contiguous), to));
      const std::int64_t n = is_floating(from) ? floats.size() : ints.size();
      DeviceArray in(from, n), out(to, n);
      for (std::int64_t i = 0; i < n; ++i)
        is_floating(from) ? in.set(i, floats[i]) : in.set_int(i, ints[i]);
      launch(b.build(), {n}, {in.contiguous({n})}, {out.contiguous({n})});
      for (std::int64_t i = 0; i < n; ++i) {
        const std::string where = std::string(name(from)) + "->" + std::string(name(to)) + " of " +
                                  std::to_string(in.get(i));
        if (to == DType::Bool) {
          EXPECT_EQ(out.get_int(i), in.get(i) != 0 || std::isnan(in.get(i))) << where;
        } else if (is_integer(to) && is_floating(from)) {
          // NaN and values whose truncation does not fit give the minimum (NumPy on x86).
          const double v = in.get(i), whole = std::trunc(v);
          const double lo = to == DType::Int32 ? INT32_MIN : -9223372036854775808.0;
          const std::int64_t want = whole >= lo && whole < -lo ? static_cast<std::int64_t>(whole)
                                                               : static_cast<std::int64_t>(lo);
          EXPECT_EQ(out.get_int(i), want) << where;
        } else if (is_integer(to)) {
          const std::int64_t v = in.get_int(i);
          EXPECT_EQ(out.get_int(i), to == DType::Int32 ? static_cast<std::int32_t>(v) : v) << where;
        } else if (is_floating(from)) {
          const double want = to == DType::Float32 ? static_cast<float>(in.get(i)) : in.get(i);
          if (std::isnan(want))
            EXPECT_TRUE(std::isnan(out.get(i))) << where;
          else
            EXPECT_EQ(out.get(i), want) << where;
        } else {
          const std::int64_t v = in.get_int(i);
          const double want = to == DType::Float32 ? static_cast<double>(static_cast<float>(v))
                                                   : static_cast<double>(v);
          EXPECT_EQ(out.get(i), want) << where;
        }
      }
    }
}

TEST(CpuOps, IntegerDivisionNeverTraps) {
  KernelBuilder b;
  const auto x = b.load(DType::Int32, Layout::Contiguous),
             y = b.load(DType::Int32, Layout::Contiguous);
  b.output(b.binary(OpCode::FloorDiv, x, y, DType::Int32));
  b.output(b.binary(OpCode::Mod, x, y, DType::Int32));
  DeviceArray a(DType::Int32, 4), c(DType::Int32, 4), q(DType::Int32, 4), r(DType::Int32, 4);
  const std::int64_t as[] = {INT32_MIN, 5, -7, 7}, cs[] = {-1, 0, 2, -2};
  for (int i = 0; i < 4; ++i) a.set_int(i, as[i]), c.set_int(i, cs[i]);
  launch(b.build(), {4}, {a.contiguous({4}), c.contiguous({4})},
         {q.contiguous({4}), r.contiguous({4})});
  EXPECT_EQ(q.get_int(0), INT32_MIN);
  EXPECT_EQ(r.get_int(0), 0);
  EXPECT_EQ(q.get_int(1), 0);
  EXPECT_EQ(r.get_int(1), 0);
  EXPECT_EQ(q.get_int(2), -4);
  EXPECT_EQ(r.get_int(2), 1);
  EXPECT_EQ(q.get_int(3), -4);
  EXPECT_EQ(r.get_int(3), -1);
}

TEST(CpuOps, UnsupportedOpDTypeIsDTypeError) {
  KernelBuilder b;
  b.output(b.unary(OpCode::Sqrt, b.load(DType::Int32, Layout::Contiguous), DType::Int32));
  EXPECT_THROW(cpu().prepare(b.build()), DTypeError);
  KernelBuilder c;
  const auto x = c.load(DType::Bool, Layout::Contiguous);
  c.output(c.binary(OpCode::Add, x, x, DType::Bool));
  EXPECT_THROW(cpu().prepare(c.build()), DTypeError);
}

// ---- fused chains

// a*b + sin(c)*s - sqrt(abs(a)), s a runtime scalar.
ir::Kernel chain_kernel(DType t) {
  KernelBuilder b;
  const auto a = b.load(t, Layout::Contiguous), bb = b.load(t, Layout::Contiguous),
             c = b.load(t, Layout::Contiguous), s = b.scalar(DType::Float64);
  const auto scaled = b.binary(OpCode::Mul, b.unary(OpCode::Sin, c, t), b.cast(s, t), t);
  const auto root = b.unary(OpCode::Sqrt, b.unary(OpCode::Abs, a, t), t);
  b.output(b.binary(OpCode::Sub, b.binary(OpCode::Add, b.binary(OpCode::Mul, a, bb, t), scaled, t),
                    root, t));
  return b.build();
}

void check_chain(DType t, std::int64_t n) {
  DeviceArray a(t, n), bb(t, n), c(t, n), out(t, n);
  std::mt19937 rng(n);
  std::uniform_real_distribution<double> u(-5, 5);
  for (std::int64_t i = 0; i < n; ++i) a.set(i, u(rng)), bb.set(i, u(rng)), c.set(i, u(rng));
  const Shape shape{n};
  launch(chain_kernel(t), shape, {a.contiguous(shape), bb.contiguous(shape), c.contiguous(shape)},
         {out.contiguous(shape)}, {ScalarValue{DType::Float64, 2.5, 0}});
  const double eps = t == DType::Float32 ? 1e-5 : 1e-12;
  for (std::int64_t i = 0; i < n; ++i) {
    const double want =
        a.get(i) * bb.get(i) + std::sin(c.get(i)) * 2.5 - std::sqrt(std::fabs(a.get(i)));
    ASSERT_NEAR(out.get(i), want, eps * (1 + std::fabs(want))) << "n=" << n << " at " << i;
  }
}

TEST(CpuChains, ChainMakesOneKernelAtEverySize) {
  for (DType t : {DType::Float32, DType::Float64})
    for (std::int64_t n : {0, 1, 7, 2047, 2048, 2049, 100003}) check_chain(t, n);
}

TEST(CpuChains, ParallelAndInlineAgree) {
  ParallelThreshold all_parallel(0);
  for (std::int64_t n : {1, 5000, 100003}) check_chain(DType::Float32, n);
}

TEST(CpuChains, InPlaceOutputAndSeveralOutputs) {
  // out0 = a + b written over a itself; out1 = a * a and out2 = a must still see the old a.
  const std::int64_t n = 5000;
  KernelBuilder b;
  const auto a = b.load(DType::Float64, Layout::Contiguous),
             c = b.load(DType::Float64, Layout::Contiguous);
  b.unary(OpCode::Exp, a, DType::Float64);  // dead: feeds no output
  b.output(b.binary(OpCode::Add, a, c, DType::Float64));
  b.output(b.binary(OpCode::Mul, a, a, DType::Float64));
  b.output(a);
  DeviceArray x(DType::Float64, n), y(DType::Float64, n), sq(DType::Float64, n),
      copy(DType::Float64, n);
  for (std::int64_t i = 0; i < n; ++i) x.set(i, i * 0.5), y.set(i, 1.0);
  launch(b.build(), {n}, {x.contiguous({n}), y.contiguous({n})},
         {x.contiguous({n}), sq.contiguous({n}), copy.contiguous({n})});
  for (std::int64_t i = 0; i < n; ++i) {
    ASSERT_EQ(x.get(i), i * 0.5 + 1.0) << i;
    ASSERT_EQ(sq.get(i), (i * 0.5) * (i * 0.5)) << i;
    ASSERT_EQ(copy.get(i), i * 0.5) << i;
  }
}

TEST(CpuChains, MixedDTypesWhereAndComparisons) {
  // where(i > 10, float(i) * 0.5, -1.0) summed with cast(bool) over int32 input.
  const std::int64_t n = 3001;
  KernelBuilder b;
  const auto i = b.load(DType::Int32, Layout::Contiguous), ten = b.scalar(DType::Int32);
  const auto big = b.binary(OpCode::Gt, i, ten, DType::Bool);
  const auto half =
      b.binary(OpCode::Mul, b.cast(i, DType::Float32), b.scalar(DType::Float32), DType::Float32);
  const auto minus_one = b.cast(b.scalar(DType::Int64), DType::Float32);
  b.output(b.binary(OpCode::Add, b.where(big, half, minus_one), b.cast(big, DType::Float32),
                    DType::Float32));
  DeviceArray in(DType::Int32, n), out(DType::Float32, n);
  for (std::int64_t k = 0; k < n; ++k) in.set_int(k, k - 1000);
  launch(b.build(), {n}, {in.contiguous({n})}, {out.contiguous({n})},
         {ScalarValue{DType::Int64, 0, 10}, ScalarValue{DType::Float64, 0.5, 0},
          ScalarValue{DType::Int64, 0, -1}});
  for (std::int64_t k = 0; k < n; ++k) {
    const double v = k - 1000;
    ASSERT_EQ(out.get(k), v > 10 ? v * 0.5 + 1 : -1.0) << k;
  }
}

// ---- layouts: broadcast, strided, reversed, rank 0

TEST(CpuLayouts, BroadcastTransposedAndReversedInputs) {
  const std::int64_t rows = 37, cols = 53;
  const Shape shape{rows, cols};
  DeviceArray a(DType::Float32, rows * cols), row(DType::Float32, cols), s(DType::Float32, 1),
      t(DType::Float32, rows * cols), r(DType::Float32, rows * cols),
      out(DType::Float32, rows * cols);
  for (std::int64_t i = 0; i < rows * cols; ++i) a.set(i, i), t.set(i, 3 * i), r.set(i, -i);
  for (std::int64_t j = 0; j < cols; ++j) row.set(j, 100 * j);
  s.set(0, 2);
  KernelBuilder b;
  const auto va = b.load(DType::Float32, Layout::Contiguous),
             vrow = b.load(DType::Float32, Layout::Strided),
             vs = b.load(DType::Float32, Layout::Broadcast),
             vt = b.load(DType::Float32, Layout::Strided),
             vr = b.load(DType::Float32, Layout::Strided);
  auto sum =
      b.binary(OpCode::Add, va, b.binary(OpCode::Mul, vrow, vs, DType::Float32), DType::Float32);
  sum = b.binary(OpCode::Sub, sum, vt, DType::Float32);
  b.output(b.binary(OpCode::Add, sum, vr, DType::Float32));
  // t is stored cols x rows and read transposed; r is read backwards from its last element.
  launch(b.build(), shape,
         {a.contiguous(shape), row.strided({0, 1}), s.strided({0, 0}), t.strided({1, rows}),
          r.strided({-cols, -1}, rows * cols - 1)},
         {out.contiguous(shape)});
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t j = 0; j < cols; ++j) {
      const double want =
          (i * cols + j) + 200.0 * j - 3.0 * (j * rows + i) - (rows * cols - 1 - (i * cols + j));
      ASSERT_EQ(out.get(i * cols + j), want) << i << "," << j;
    }
}

TEST(CpuLayouts, StridedGatherCarriesAcrossBlocksInEveryWidth) {
  // A (5, 6, 700) view with steps of 2 in the last axis and 3 in the first, parallel and inline.
  const Shape shape{5, 6, 700};
  const std::int64_t n = 5 * 6 * 700;
  for (std::int64_t threshold : {std::int64_t{0}, cpu::kDefaultParallelThreshold})
    for (DType t : {DType::Bool, DType::Int32, DType::Int64, DType::Float64}) {
      ParallelThreshold split(threshold);
      const Strides strides{3 * 6 * 1400, 1400, 2};
      DeviceArray src(t, 15 * 6 * 1400 + 7), out(t, n);
      for (std::int64_t i = 0; i < 15 * 6 * 1400 + 7; ++i) src.set_int(i, (i * 7919) % 1000);
      KernelBuilder b;
      b.output(b.load(t, Layout::Strided));
      launch(b.build(), shape, {src.strided(strides, 7)}, {out.contiguous(shape)});
      for (std::int64_t i = 0, k = 0; i < 5; ++i)
        for (std::int64_t j = 0; j < 6; ++j)
          for (std::int64_t l = 0; l < 700; ++l, ++k) {
            const std::int64_t at = 7 + i * strides[0] + j * strides[1] + l * strides[2];
            const std::int64_t want = (at * 7919) % 1000;
            ASSERT_EQ(out.get_int(k), t == DType::Bool ? want != 0 : want) << name(t) << " " << k;
          }
    }
}

TEST(CpuLayouts, RankZeroLaunchIsOneElement) {
  DeviceArray a(DType::Float64, 1), out(DType::Float64, 1);
  a.set(0, 4);
  KernelBuilder b;
  b.output(b.unary(OpCode::Sqrt, b.load(DType::Float64, Layout::Contiguous), DType::Float64));
  launch(b.build(), Shape{}, {a.contiguous(Shape{})}, {out.contiguous(Shape{})});
  EXPECT_EQ(out.get(0), 2.0);
}

// ---- reductions

ir::Kernel reduce_kernel(DType t, ReduceOp op, ReduceOver over) {
  KernelBuilder b;
  b.output(b.load(t, Layout::Contiguous));
  b.reduce(op, over);
  return b.build();
}

// Reference fold of one row; arg reductions return the index as a double.
double reference_fold(ReduceOp op, DType t, const DeviceArray& x, std::int64_t begin,
                      std::int64_t n) {
  if (op == ReduceOp::Sum || op == ReduceOp::Prod) {
    if (!is_floating(t)) {
      std::uint64_t acc = op == ReduceOp::Sum ? 0 : 1;
      for (std::int64_t i = 0; i < n; ++i) {
        const auto v = static_cast<std::uint64_t>(x.get_int(begin + i));
        acc = op == ReduceOp::Sum ? acc + v : acc * v;
      }
      return static_cast<double>(static_cast<std::int64_t>(acc));
    }
    long double acc = op == ReduceOp::Sum ? 0 : 1;
    for (std::int64_t i = 0; i < n; ++i)
      acc = op == ReduceOp::Sum ? acc + x.get(begin + i) : acc * x.get(begin + i);
    return static_cast<double>(acc);
  }
  const bool is_max = op == ReduceOp::Max || op == ReduceOp::ArgMax;
  std::int64_t best = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    const double v = x.get(begin + i), m = x.get(begin + best);
    if (std::isnan(m)) break;
    if (std::isnan(v) || (is_max ? v > m : v < m)) best = i;
  }
  if (op == ReduceOp::ArgMin || op == ReduceOp::ArgMax) return best;
  return x.get(begin + best);
}

void expect_reduced(ReduceOp op, DType t, double got, double want, std::int64_t n,
                    const std::string& where) {
  if (std::isnan(want)) {
    EXPECT_TRUE(std::isnan(got)) << where;
    return;
  }
  if (!is_floating(t) || op == ReduceOp::Min || op == ReduceOp::Max || op == ReduceOp::ArgMin ||
      op == ReduceOp::ArgMax) {
    EXPECT_EQ(got, want) << where;
    return;
  }
  // Sums accumulate in float64, so float32 sums are the correctly rounded total.
  if (op == ReduceOp::Sum && t == DType::Float32) {
    EXPECT_NEAR(got, want, 1.5 * std::fabs(static_cast<float>(want)) * 6e-8 + 1e-30) << where;
    return;
  }
  // Float64 sums of n values below 100 (fill_for) and products of n factors, in whatever order
  // the SIMD width gives: within n roundings (reference.hpp).
  const double magnitude = op == ReduceOp::Sum ? 100.0 * n : std::fabs(want);
  EXPECT_NEAR(got, want, conformance::dot_error_bound(t, n, magnitude, want)) << where;
}

void fill_for(ReduceOp op, DType t, DeviceArray& x, std::int64_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-100, 100), near_one(0.999, 1.001);
  std::uniform_int_distribution<int> small(-1000, 1000), sign(0, 5);
  for (std::int64_t i = 0; i < n; ++i) {
    if (op == ReduceOp::Prod && is_floating(t))
      x.set(i, near_one(rng));
    else if (op == ReduceOp::Prod)
      x.set_int(i, sign(rng) == 0 ? -1 : sign(rng) == 1 ? 3 : 1);
    else if (is_floating(t))
      x.set(i, u(rng));
    else
      x.set_int(i, small(rng));
  }
}

class CpuReduceAll : public ::testing::TestWithParam<std::int64_t> {};

TEST_P(CpuReduceAll, EveryOpAndDType) {
  const std::int64_t n = GetParam();
  for (DType t : kAllDTypes)
    for (ReduceOp op : {ReduceOp::Sum, ReduceOp::Prod, ReduceOp::Min, ReduceOp::Max,
                        ReduceOp::ArgMin, ReduceOp::ArgMax}) {
      if (n == 0 && op != ReduceOp::Sum && op != ReduceOp::Prod) continue;
      DeviceArray x(t, n), out(ir::reduce_result(op, t), 1);
      fill_for(op, t, x, n, 7);
      launch(reduce_kernel(t, op, ReduceOver::All), {n}, {x.contiguous({n})},
             {out.contiguous({1})});
      const std::string where =
          std::string(ir::name(op)) + " " + std::string(name(t)) + " n=" + std::to_string(n);
      expect_reduced(op, t, out.get(0), reference_fold(op, t, x, 0, n), n, where);
    }
}

INSTANTIATE_TEST_SUITE_P(Sizes, CpuReduceAll,
                         ::testing::Values(0, 1, 7, 1023, 32768 + 1, (1 << 20) + 3));

TEST(CpuReduce, NaNPropagatesAndArgFindsTheFirstNaN) {
  const std::int64_t n = (1 << 20) + 3;
  for (DType t : {DType::Float32, DType::Float64}) {
    DeviceArray x(t, n);
    fill_for(ReduceOp::Sum, t, x, n, 3);
    x.set(700001, kNaN);  // a later chunk
    x.set(40000, kNaN);   // the second chunk: the index to report
    for (ReduceOp op :
         {ReduceOp::Sum, ReduceOp::Min, ReduceOp::Max, ReduceOp::ArgMin, ReduceOp::ArgMax}) {
      DeviceArray out(ir::reduce_result(op, t), 1);
      launch(reduce_kernel(t, op, ReduceOver::All), {n}, {x.contiguous({n})},
             {out.contiguous({1})});
      if (op == ReduceOp::ArgMin || op == ReduceOp::ArgMax)
        EXPECT_EQ(out.get_int(0), 40000);
      else
        EXPECT_TRUE(std::isnan(out.get(0))) << ir::name(op);
    }
  }
}

TEST(CpuReduce, TiesGiveTheFirstIndex) {
  const std::int64_t n = 300000;
  for (DType t : {DType::Int32, DType::Float32, DType::Float64, DType::Bool}) {
    DeviceArray x(t, n), out(DType::Int64, 1);
    for (std::int64_t i = 0; i < n; ++i) x.set(i, 1);
    for (ReduceOp op : {ReduceOp::ArgMin, ReduceOp::ArgMax}) {
      launch(reduce_kernel(t, op, ReduceOver::All), {n}, {x.contiguous({n})},
             {out.contiguous({1})});
      EXPECT_EQ(out.get_int(0), 0) << name(t);
    }
    // Equal extremes in different chunks and inside one block.
    x.set(5000, 0), x.set(5001, 0), x.set(250000, 0);
    launch(reduce_kernel(t, ReduceOp::ArgMin, ReduceOver::All), {n}, {x.contiguous({n})},
           {out.contiguous({1})});
    EXPECT_EQ(out.get_int(0), 5000) << name(t);
  }
}

TEST(CpuReduce, LastAxisRowsShortLongAndEmpty) {
  const Shape shapes[] = {{1000, 3}, {3, 100003}, {64, 2049}, {2, 3, 5}, {5, 0}, {0, 5}, {1, 1}};
  for (const Shape& shape : shapes)
    for (DType t : {DType::Int32, DType::Float32, DType::Float64})
      for (ReduceOp op : {ReduceOp::Sum, ReduceOp::Prod, ReduceOp::Min, ReduceOp::Max,
                          ReduceOp::ArgMin, ReduceOp::ArgMax}) {
        const std::int64_t length = shape.back(), n = element_count(shape),
                           rows = n ? n / length : 0;
        if (length == 0 && op != ReduceOp::Sum && op != ReduceOp::Prod) continue;
        const std::int64_t row_count = length == 0 ? shape[0] : rows;
        DeviceArray x(t, n), out(ir::reduce_result(op, t), row_count);
        fill_for(op, t, x, n, 11);
        if (n > 100 && is_floating(t)) x.set(n / 2, kNaN);
        launch(reduce_kernel(t, op, ReduceOver::TrailingAxes), shape, {x.contiguous(shape)},
               {out.contiguous({row_count})});
        for (std::int64_t r = 0; r < row_count; ++r) {
          const std::string where = std::string(ir::name(op)) + " " + std::string(name(t)) + " " +
                                    to_string(shape) + " row " + std::to_string(r);
          expect_reduced(op, t, out.get(r), reference_fold(op, t, x, r * length, length), length,
                         where);
        }
      }
}

TEST(CpuReduce, FusedReductionOverTransposedInput) {
  // sum over the last axis of (x^T * 2), x stored 300 x 200 and read as 200 x 300.
  const std::int64_t rows = 200, cols = 300;
  DeviceArray x(DType::Float64, rows * cols), out(DType::Float64, rows);
  for (std::int64_t i = 0; i < rows * cols; ++i) x.set(i, i % 17);
  KernelBuilder b;
  b.output(b.binary(OpCode::Mul, b.load(DType::Float64, Layout::Strided), b.scalar(DType::Float64),
                    DType::Float64));
  b.reduce(ReduceOp::Sum, ReduceOver::TrailingAxes);
  launch(b.build(), {rows, cols}, {x.strided({1, rows})}, {out.contiguous({rows})},
         {ScalarValue{DType::Float64, 2, 0}});
  for (std::int64_t r = 0; r < rows; ++r) {
    double want = 0;
    for (std::int64_t c = 0; c < cols; ++c) want += 2 * ((c * rows + r) % 17);
    ASSERT_EQ(out.get(r), want) << r;
  }
}

TEST(CpuReduce, ResultDoesNotDependOnThreads) {
  const std::int64_t n = (1 << 20) + 3;
  DeviceArray x(DType::Float32, n), inline_sum(DType::Float32, 1), parallel_sum(DType::Float32, 1);
  fill_for(ReduceOp::Sum, DType::Float32, x, n, 5);
  const auto k = reduce_kernel(DType::Float32, ReduceOp::Sum, ReduceOver::All);
  {
    ParallelThreshold never(std::numeric_limits<std::int64_t>::max());
    launch(k, {n}, {x.contiguous({n})}, {inline_sum.contiguous({1})});
  }
  {
    ParallelThreshold always(0);
    launch(k, {n}, {x.contiguous({n})}, {parallel_sum.contiguous({1})});
  }
  EXPECT_EQ(inline_sum.get(0), parallel_sum.get(0));
}

// ---- kernels that fold several outputs (multi_reduction_cases.hpp)

TEST(CpuMultiReduce, EveryCaseMatchesFloat64) {
  for (const auto& c : testing_support::multi_reduction_cases(true))
    testing_support::expect_case_matches(cpu(), c);
}

TEST(CpuMultiReduce, InputsLargerThanTheCachesMatchFloat64) {
  for (const auto& c : testing_support::large_multi_reduction_cases())
    testing_support::expect_case_matches(cpu(), c);
}

TEST(CpuMultiReduce, ResultsDoNotDependOnThreads) {
  auto same = [](double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); };
  for (const auto& c : testing_support::large_multi_reduction_cases()) {
    const auto alone = testing_support::run_case(cpu(), c, Parallelism::Inline);
    const auto spread = testing_support::run_case(cpu(), c, Parallelism::Parallel);
    for (std::size_t o = 0; o < alone.size(); ++o)
      for (std::size_t r = 0; r < alone[o].size(); ++r)
        ASSERT_PRED2(same, alone[o][r], spread[o][r]) << c.name << " output " << o << " row " << r;
  }
}

// ---- library ops

template <class T>
void check_gemm(bool ta, bool tb, std::int64_t m, std::int64_t n, std::int64_t k) {
  const DType t = dtype_of<T>();
  const std::int64_t a_rows = ta ? k : m, a_cols = ta ? m : k, b_rows = tb ? n : k,
                     b_cols = tb ? k : n;
  const std::int64_t lda = a_cols + 3, ldb = b_cols + 1, ldc = n + 2, offset = 5;
  DeviceArray a(t, offset + a_rows * lda), b(t, offset + b_rows * ldb), c(t, offset + m * ldc);
  std::mt19937 rng(3);
  std::uniform_int_distribution<int> u(-4, 4);
  for (std::int64_t i = 0; i < offset + a_rows * lda; ++i) a.set(i, u(rng));
  for (std::int64_t i = 0; i < offset + b_rows * ldb; ++i) b.set(i, u(rng));
  for (std::int64_t i = 0; i < offset + m * ldc; ++i) c.set(i, 99);
  auto exe = cpu().prepare(LibraryOp{LibraryOp::Kind::Gemm, t, ta, tb});
  LibraryArgs args{
      m, n, k, a.strided({}, offset), b.strided({}, offset), c.strided({}, offset), lda, ldb, ldc};
  cpu().launch(*exe, args);
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j) {
      double want = 0;
      for (std::int64_t p = 0; p < k; ++p)
        want += a.get(offset + (ta ? p * lda + i : i * lda + p)) *
                b.get(offset + (tb ? j * ldb + p : p * ldb + j));
      ASSERT_EQ(c.get(offset + i * ldc + j), want) << m << "x" << n << "x" << k << " " << ta << tb;
    }
  EXPECT_EQ(c.get(offset + n), 99) << "padding between rows of C was written";
}

TEST(CpuLibrary, GemmMatchesNaiveLoops) {
  for (bool ta : {false, true})
    for (bool tb : {false, true}) {
      check_gemm<float>(ta, tb, 17, 13, 29);
      check_gemm<double>(ta, tb, 17, 13, 29);
    }
  check_gemm<double>(false, false, 4, 3, 0);  // k = 0: C = 0
}

template <class T>
void check_gemv(bool ta, std::int64_t m, std::int64_t n) {
  const DType t = dtype_of<T>();
  const std::int64_t rows = ta ? n : m, cols = ta ? m : n, lda = cols + 2;
  DeviceArray a(t, rows * lda), x(t, n + 1), y(t, m + 1);
  for (std::int64_t i = 0; i < rows * lda; ++i) a.set(i, (i % 7) - 3);
  for (std::int64_t i = 0; i < n + 1; ++i) x.set(i, (i % 5) - 2);
  auto exe = cpu().prepare(LibraryOp{LibraryOp::Kind::Gemv, t, ta, false});
  cpu().launch(*exe,
               LibraryArgs{m, n, 0, a.strided({}), x.strided({}, 1), y.strided({}, 1), lda, 0, 0});
  for (std::int64_t i = 0; i < m; ++i) {
    double want = 0;
    for (std::int64_t j = 0; j < n; ++j)
      want += a.get(ta ? j * lda + i : i * lda + j) * x.get(1 + j);
    ASSERT_EQ(y.get(1 + i), want) << i;
  }
}

TEST(CpuLibrary, GemvMatchesNaiveLoops) {
  for (bool ta : {false, true}) {
    check_gemv<float>(ta, 23, 41);
    check_gemv<double>(ta, 23, 41);
  }
}

TEST(CpuLibrary, RejectsIntegerDTypesAndBadLeadingDimensions) {
  EXPECT_THROW(cpu().prepare(LibraryOp{LibraryOp::Kind::Gemm, DType::Int32}), DTypeError);
  auto exe = cpu().prepare(LibraryOp{LibraryOp::Kind::Gemm, DType::Float32});
  DeviceArray a(DType::Float32, 16);
  EXPECT_THROW(cpu().launch(*exe, LibraryArgs{2, 2, 4, a.strided({}), a.strided({}), a.strided({}),
                                              3, 2, 2}),
               ValueError);
}

// ---- the device itself

TEST(CpuDevice, DescribesTheHost) {
  auto backend = cpu::make_backend();
  EXPECT_EQ(backend->name(), "cpu");
  EXPECT_TRUE(backend->available());
  ASSERT_EQ(backend->devices().size(), 1u);
  const DeviceInfo& info = backend->devices().front()->info();
  EXPECT_EQ(info.id(), "cpu:0");
  EXPECT_EQ(info.kind, DeviceKind::CPU);
  EXPECT_FALSE(info.name.empty());
  EXPECT_GE(info.compute_units, 1);
  EXPECT_GT(info.global_memory_bytes, 0u);
  ASSERT_TRUE(info.free_memory_bytes.has_value());
  EXPECT_LE(*info.free_memory_bytes, info.global_memory_bytes);
  EXPECT_EQ(info.max_allocation_bytes, info.global_memory_bytes);
  EXPECT_TRUE(info.fp64);
  EXPECT_TRUE(info.unified_memory);
}

TEST(CpuDevice, CopiesRoundTripAndOversizedAllocationIsOutOfMemory) {
  Device& d = cpu();
  const std::vector<int> data = {1, 2, 3, 4, 5, 6, 7, 8};
  DeviceMemory m = d.allocate(64), other = d.allocate(64);
  d.copy_from_host(m, 4, data.data(), 32);
  d.copy_within(other, 0, m, 4, 32);
  std::vector<int> back(8);
  d.copy_to_host(back.data(), other, 0, 32);
  EXPECT_EQ(back, data);
  d.free(m);
  d.free(other);
  EXPECT_THROW(d.allocate(d.info().global_memory_bytes + 1), OutOfMemory);
}

}  // namespace
}  // namespace switchyard
