// Integer semantics against NumPy 2, on every device: wrap-around, floor division and modulo
// by zero and by -1 at INT_MIN, exact powers, abs/negative of INT_MIN, out-of-range Python
// integers, negative integer powers, and float-to-integer casts of NaN, infinities and values
// beyond the range. The expected values were taken from NumPy 2.4 (see each table's comment);
// no Python is needed to run the test.
#include <cstdint>
#include <limits>
#include <string_view>

#include "conformance/conformance.hpp"
#include "conformance/reference.hpp"

namespace switchyard::conformance {
namespace {

template <class T>
constexpr T kMin = std::numeric_limits<T>::min();
template <class T>
constexpr T kMax = std::numeric_limits<T>::max();

using BinaryFn = Array (*)(const Array&, const Array&);

struct IntCase {
  DType dtype;
  const char* op;
  BinaryFn fn;
  std::int64_t a, b, expected;
};

// Row {dtype, op, fn, a, b, expected}: expected == np.<op>(np.array([a], dtype),
// np.array([b], dtype))[0] in NumPy 2.4 (which warns, but does not raise, on division by zero
// and overflow). Shifts by a count outside [0, bits) follow npy_lshift/npy_rshift: 0, or -1 for
// a right shift of a negative value.
const IntCase kBinaryCases[] = {
    {DType::Int32, "floor_divide", floor_divide, 7, 2, 3},
    {DType::Int32, "floor_divide", floor_divide, -7, 2, -4},
    {DType::Int32, "floor_divide", floor_divide, 7, -2, -4},
    {DType::Int32, "floor_divide", floor_divide, -7, -2, 3},
    {DType::Int32, "floor_divide", floor_divide, 5, 0, 0},
    {DType::Int32, "floor_divide", floor_divide, -5, 0, 0},
    {DType::Int32, "floor_divide", floor_divide, 0, 0, 0},
    {DType::Int32, "floor_divide", floor_divide, kMin<std::int32_t>, -1, kMin<std::int32_t>},
    {DType::Int32, "floor_divide", floor_divide, kMin<std::int32_t>, 1, kMin<std::int32_t>},
    {DType::Int32, "floor_divide", floor_divide, kMax<std::int32_t>, -1, -2147483647},
    {DType::Int32, "floor_divide", floor_divide, kMin<std::int32_t>, 3, -715827883},
    {DType::Int32, "floor_divide", floor_divide, kMax<std::int32_t>, kMin<std::int32_t>, -1},
    {DType::Int32, "mod", mod, 7, 2, 1},
    {DType::Int32, "mod", mod, -7, 2, 1},
    {DType::Int32, "mod", mod, 7, -2, -1},
    {DType::Int32, "mod", mod, -7, -2, -1},
    {DType::Int32, "mod", mod, 5, 0, 0},
    {DType::Int32, "mod", mod, -5, 0, 0},
    {DType::Int32, "mod", mod, kMin<std::int32_t>, -1, 0},
    {DType::Int32, "mod", mod, kMin<std::int32_t>, 3, 1},
    {DType::Int32, "mod", mod, kMax<std::int32_t>, kMin<std::int32_t>, -1},
    {DType::Int32, "mod", mod, kMin<std::int32_t>, kMin<std::int32_t>, 0},
    {DType::Int32, "mod", mod, -1, kMax<std::int32_t>, 2147483646},
    {DType::Int32, "add", add, kMax<std::int32_t>, 1, kMin<std::int32_t>},
    {DType::Int32, "add", add, kMin<std::int32_t>, -1, kMax<std::int32_t>},
    {DType::Int32, "add", add, kMax<std::int32_t>, kMax<std::int32_t>, -2},
    {DType::Int32, "add", add, kMin<std::int32_t>, kMin<std::int32_t>, 0},
    {DType::Int32, "subtract", subtract, kMin<std::int32_t>, 1, kMax<std::int32_t>},
    {DType::Int32, "subtract", subtract, kMax<std::int32_t>, -1, kMin<std::int32_t>},
    {DType::Int32, "subtract", subtract, 0, kMin<std::int32_t>, kMin<std::int32_t>},
    {DType::Int32, "multiply", multiply, kMax<std::int32_t>, 2, -2},
    {DType::Int32, "multiply", multiply, kMin<std::int32_t>, -1, kMin<std::int32_t>},
    {DType::Int32, "multiply", multiply, kMax<std::int32_t>, kMax<std::int32_t>, 1},
    {DType::Int32, "multiply", multiply, 65536, 65536, 0},
    {DType::Int32, "power", power, 3, 40, 689956897},
    {DType::Int32, "power", power, -3, 41, -2069870691},
    {DType::Int32, "power", power, 0, 0, 1},
    {DType::Int32, "power", power, 2, 31, kMin<std::int32_t>},
    {DType::Int32, "power", power, 2, 63, 0},
    {DType::Int32, "power", power, -1, kMax<std::int32_t>, -1},
    {DType::Int32, "power", power, kMax<std::int32_t>, 2, 1},
    {DType::Int32, "power", power, 0, 5, 0},
    {DType::Int32, "power", power, 7, 0, 1},
    {DType::Int32, "minimum", minimum, kMin<std::int32_t>, kMax<std::int32_t>, kMin<std::int32_t>},
    {DType::Int32, "maximum", maximum, kMin<std::int32_t>, kMax<std::int32_t>, kMax<std::int32_t>},
    {DType::Int32, "bitwise_and", bitwise_and, kMin<std::int32_t>, -1, kMin<std::int32_t>},
    {DType::Int32, "bitwise_and", bitwise_and, -6, 13, 8},
    {DType::Int32, "bitwise_or", bitwise_or, kMin<std::int32_t>, kMax<std::int32_t>, -1},
    {DType::Int32, "bitwise_or", bitwise_or, -8, 5, -3},
    {DType::Int32, "bitwise_xor", bitwise_xor, -1, kMax<std::int32_t>, kMin<std::int32_t>},
    {DType::Int32, "bitwise_xor", bitwise_xor, 12, -4, -16},
    {DType::Int32, "left_shift", left_shift, 1, 31, kMin<std::int32_t>},
    {DType::Int32, "left_shift", left_shift, 1, 32, 0},
    {DType::Int32, "left_shift", left_shift, -1, 31, kMin<std::int32_t>},
    {DType::Int32, "left_shift", left_shift, kMax<std::int32_t>, 1, -2},
    {DType::Int32, "left_shift", left_shift, -3, 2, -12},
    {DType::Int32, "left_shift", left_shift, 5, -1, 0},
    {DType::Int32, "left_shift", left_shift, 5, kMin<std::int32_t>, 0},
    {DType::Int32, "left_shift", left_shift, 5, kMax<std::int32_t>, 0},
    {DType::Int32, "right_shift", right_shift, kMin<std::int32_t>, 31, -1},
    {DType::Int32, "right_shift", right_shift, kMin<std::int32_t>, 32, -1},
    {DType::Int32, "right_shift", right_shift, kMax<std::int32_t>, 30, 1},
    {DType::Int32, "right_shift", right_shift, kMax<std::int32_t>, 32, 0},
    {DType::Int32, "right_shift", right_shift, -7, 1, -4},
    {DType::Int32, "right_shift", right_shift, -1, 100, -1},
    {DType::Int32, "right_shift", right_shift, 7, -1, 0},
    {DType::Int32, "right_shift", right_shift, -7, -5, -1},
    {DType::Int32, "right_shift", right_shift, 1024, 10, 1},
    {DType::Int64, "floor_divide", floor_divide, 7, 2, 3},
    {DType::Int64, "floor_divide", floor_divide, -7, 2, -4},
    {DType::Int64, "floor_divide", floor_divide, 7, -2, -4},
    {DType::Int64, "floor_divide", floor_divide, -7, -2, 3},
    {DType::Int64, "floor_divide", floor_divide, 5, 0, 0},
    {DType::Int64, "floor_divide", floor_divide, -5, 0, 0},
    {DType::Int64, "floor_divide", floor_divide, 0, 0, 0},
    {DType::Int64, "floor_divide", floor_divide, kMin<std::int64_t>, -1, kMin<std::int64_t>},
    {DType::Int64, "floor_divide", floor_divide, kMin<std::int64_t>, 1, kMin<std::int64_t>},
    {DType::Int64, "floor_divide", floor_divide, kMax<std::int64_t>, -1, -9223372036854775807ll},
    {DType::Int64, "floor_divide", floor_divide, kMin<std::int64_t>, 3, -3074457345618258603ll},
    {DType::Int64, "floor_divide", floor_divide, kMax<std::int64_t>, kMin<std::int64_t>, -1},
    {DType::Int64, "mod", mod, 7, 2, 1},
    {DType::Int64, "mod", mod, -7, 2, 1},
    {DType::Int64, "mod", mod, 7, -2, -1},
    {DType::Int64, "mod", mod, -7, -2, -1},
    {DType::Int64, "mod", mod, 5, 0, 0},
    {DType::Int64, "mod", mod, -5, 0, 0},
    {DType::Int64, "mod", mod, kMin<std::int64_t>, -1, 0},
    {DType::Int64, "mod", mod, kMin<std::int64_t>, 3, 1},
    {DType::Int64, "mod", mod, kMax<std::int64_t>, kMin<std::int64_t>, -1},
    {DType::Int64, "mod", mod, kMin<std::int64_t>, kMin<std::int64_t>, 0},
    {DType::Int64, "mod", mod, -1, kMax<std::int64_t>, 9223372036854775806ll},
    {DType::Int64, "add", add, kMax<std::int64_t>, 1, kMin<std::int64_t>},
    {DType::Int64, "add", add, kMin<std::int64_t>, -1, kMax<std::int64_t>},
    {DType::Int64, "add", add, kMax<std::int64_t>, kMax<std::int64_t>, -2},
    {DType::Int64, "add", add, kMin<std::int64_t>, kMin<std::int64_t>, 0},
    {DType::Int64, "subtract", subtract, kMin<std::int64_t>, 1, kMax<std::int64_t>},
    {DType::Int64, "subtract", subtract, kMax<std::int64_t>, -1, kMin<std::int64_t>},
    {DType::Int64, "subtract", subtract, 0, kMin<std::int64_t>, kMin<std::int64_t>},
    {DType::Int64, "multiply", multiply, kMax<std::int64_t>, 2, -2},
    {DType::Int64, "multiply", multiply, kMin<std::int64_t>, -1, kMin<std::int64_t>},
    {DType::Int64, "multiply", multiply, kMax<std::int64_t>, kMax<std::int64_t>, 1},
    {DType::Int64, "multiply", multiply, 65536, 65536, 4294967296ll},
    {DType::Int64, "power", power, 3, 40, -6289078614652622815ll},
    {DType::Int64, "power", power, -3, 41, 420491770248316829ll},
    {DType::Int64, "power", power, 0, 0, 1},
    {DType::Int64, "power", power, 2, 31, 2147483648ll},
    {DType::Int64, "power", power, 2, 63, kMin<std::int64_t>},
    {DType::Int64, "power", power, -1, kMax<std::int64_t>, -1},
    {DType::Int64, "power", power, kMax<std::int64_t>, 2, 1},
    {DType::Int64, "power", power, 0, 5, 0},
    {DType::Int64, "power", power, 7, 0, 1},
    {DType::Int64, "minimum", minimum, kMin<std::int64_t>, kMax<std::int64_t>, kMin<std::int64_t>},
    {DType::Int64, "maximum", maximum, kMin<std::int64_t>, kMax<std::int64_t>, kMax<std::int64_t>},
    {DType::Int64, "bitwise_and", bitwise_and, kMin<std::int64_t>, -1, kMin<std::int64_t>},
    {DType::Int64, "bitwise_and", bitwise_and, -6, 13, 8},
    {DType::Int64, "bitwise_or", bitwise_or, kMin<std::int64_t>, kMax<std::int64_t>, -1},
    {DType::Int64, "bitwise_xor", bitwise_xor, -1, kMax<std::int64_t>, kMin<std::int64_t>},
    {DType::Int64, "bitwise_xor", bitwise_xor, 1ll << 40, (1ll << 40) | 3, 3},
    {DType::Int64, "left_shift", left_shift, 1, 63, kMin<std::int64_t>},
    {DType::Int64, "left_shift", left_shift, 1, 64, 0},
    {DType::Int64, "left_shift", left_shift, 1, 32, 4294967296ll},
    {DType::Int64, "left_shift", left_shift, kMax<std::int64_t>, 1, -2},
    {DType::Int64, "left_shift", left_shift, -3, 2, -12},
    {DType::Int64, "left_shift", left_shift, 5, -1, 0},
    {DType::Int64, "left_shift", left_shift, 5, kMin<std::int64_t>, 0},
    {DType::Int64, "right_shift", right_shift, kMin<std::int64_t>, 63, -1},
    {DType::Int64, "right_shift", right_shift, kMin<std::int64_t>, 64, -1},
    {DType::Int64, "right_shift", right_shift, kMax<std::int64_t>, 62, 1},
    {DType::Int64, "right_shift", right_shift, kMax<std::int64_t>, 64, 0},
    {DType::Int64, "right_shift", right_shift, 4294967296ll, 32, 1},
    {DType::Int64, "right_shift", right_shift, -7, 1, -4},
    {DType::Int64, "right_shift", right_shift, -1, kMax<std::int64_t>, -1},
    {DType::Int64, "right_shift", right_shift, 7, -1, 0},
};

// Repeats one value to an odd length, so vector code and its scalar tail both see it.
constexpr std::int64_t kRepeat = 37;

Array filled(DType dtype, std::int64_t value) {
  if (dtype == DType::Int32)
    return Array::from_vector(std::vector<std::int32_t>(kRepeat, static_cast<std::int32_t>(value)));
  return Array::from_vector(std::vector<std::int64_t>(kRepeat, value));
}

class Integers : public OnEveryDevice {};

TEST_P(Integers, BinaryEdgeValuesMatchNumPy) {
  for (const IntCase& c : kBinaryCases) {
    const Array r = c.fn(filled(c.dtype, c.a), filled(c.dtype, c.b));
    ASSERT_EQ(r.dtype(), c.dtype) << c.op;
    const auto values = r.to_vector<std::int64_t>();
    for (std::int64_t i = 0; i < kRepeat; ++i)
      ASSERT_EQ(values[i], c.expected)
          << c.op << "(" << c.a << ", " << c.b << ") on " << name(c.dtype) << " at " << i;
  }
}

TEST_P(Integers, ScalarOperandsGiveTheSameEdgeValues) {
  using ScalarFn = Array (*)(const Array&, Scalar);
  for (const IntCase& c : kBinaryCases) {
    const std::string_view op = c.op;
    const ScalarFn fn = op == "add"            ? ScalarFn(add)
                        : op == "floor_divide" ? ScalarFn(floor_divide)
                        : op == "mod"          ? ScalarFn(mod)
                        : op == "power"        ? ScalarFn(power)
                        : op == "bitwise_and"  ? ScalarFn(bitwise_and)
                        : op == "left_shift"   ? ScalarFn(left_shift)
                        : op == "right_shift"  ? ScalarFn(right_shift)
                                               : nullptr;
    if (!fn) continue;
    const Array r = fn(filled(c.dtype, c.a), Scalar(static_cast<long long>(c.b)));
    EXPECT_EQ(r.dtype(), c.dtype) << c.op;
    EXPECT_EQ(r.to_vector<std::int64_t>()[kRepeat - 1], c.expected)
        << c.op << "(" << c.a << ", scalar " << c.b << ") on " << name(c.dtype);
  }
}

TEST_P(Integers, UnaryEdgeValuesMatchNumPy) {
  // np.abs / np.negative of np.iinfo(t).min give it back (wrap-around); np.sign gives -1.
  for (const DType t : {DType::Int32, DType::Int64}) {
    const std::int64_t lowest = t == DType::Int32 ? kMin<std::int32_t> : kMin<std::int64_t>;
    EXPECT_EQ(abs(filled(t, lowest)).to_vector<std::int64_t>()[0], lowest) << name(t);
    EXPECT_EQ(negative(filled(t, lowest)).to_vector<std::int64_t>()[0], lowest) << name(t);
    EXPECT_EQ(sign(filled(t, lowest)).to_vector<std::int64_t>()[0], -1) << name(t);
    EXPECT_EQ(abs(filled(t, -(lowest + 1))).to_vector<std::int64_t>()[0], -(lowest + 1)) << name(t);
  }
}

TEST_P(Integers, InvertFlipsEveryBitOfIntegersAndTheTruthOfBools) {
  for (const DType t : {DType::Int32, DType::Int64}) {
    const std::int64_t lowest = t == DType::Int32 ? kMin<std::int32_t> : kMin<std::int64_t>;
    for (const std::int64_t x : {std::int64_t{0}, std::int64_t{5}, std::int64_t{-1}, lowest}) {
      const Array r = invert(filled(t, x));
      ASSERT_EQ(r.dtype(), t);
      EXPECT_EQ(r.to_vector<std::int64_t>()[kRepeat - 1], ~x) << "~" << x << " " << name(t);
    }
  }
  const Array b = host_array({1, 0, 1}, {3}, DType::Bool);
  EXPECT_EQ((~b).dtype(), DType::Bool);
  EXPECT_EQ((~b).to_vector<bool>(), (std::vector<bool>{false, true, false}));
}

// Every dtype pair of bools and integers, with random operands: NumPy's promotion, the bits of
// two's complement (bool: logical), and shift counts across and beyond the bit width.
TEST_P(Integers, BitwiseOperationsOnEveryIntegerDTypePair) {
  using Fn = Array (*)(const Array&, const Array&);
  struct Op {
    const char* name;
    Fn fn;
    bool shift;
  };
  const Op ops[] = {{"bitwise_and", bitwise_and, false},
                    {"bitwise_or", bitwise_or, false},
                    {"bitwise_xor", bitwise_xor, false},
                    {"left_shift", left_shift, true},
                    {"right_shift", right_shift, true}};
  const DType types[] = {DType::Bool, DType::Int32, DType::Int64};
  for (const Op& op : ops)
    for (const DType ta : types)
      for (const DType tb : types) {
        const DType t = numpy_promotion(ta, tb);
        const std::int64_t n = 1023;
        const std::string what =
            std::string(op.name) + "(" + std::string(name(ta)) + ", " + std::string(name(tb)) + ")";
        const auto va = random_values(n, ta, 3, -1000000, 1000000);
        const auto vb = random_values(n, tb, 4, op.shift ? -8 : -1000000, op.shift ? 72 : 1000000);
        const Array a = host_array(va, {n}, ta), b = host_array(vb, {n}, tb);
        if (op.shift && t == DType::Bool) {
          EXPECT_THROW(op.fn(a, b), DTypeError) << what;
          continue;
        }
        const Array r = op.fn(a, b);
        ASSERT_EQ(r.dtype(), t) << what;
        const auto got = r.to_vector<std::int64_t>();
        const int bits = t == DType::Int32 ? 32 : 64;
        for (std::int64_t i = 0; i < n; ++i) {
          const auto x = static_cast<std::int64_t>(va[i]), y = static_cast<std::int64_t>(vb[i]);
          const std::string_view fn = op.name;
          std::int64_t want = 0;
          if (fn == "bitwise_and") want = x & y;
          if (fn == "bitwise_or") want = x | y;
          if (fn == "bitwise_xor") want = x ^ y;
          if (fn == "left_shift" && y >= 0 && y < bits)
            want = static_cast<std::int64_t>(static_cast<std::uint64_t>(x) << y);
          if (fn == "right_shift") want = y >= 0 && y < bits ? x >> y : (x < 0 ? -1 : 0);
          if (t == DType::Int32) want = static_cast<std::int32_t>(want);
          ASSERT_EQ(got[i], want) << what << " of " << x << ", " << y << " at " << i;
        }
      }
}

TEST_P(Integers, BitwiseOperationsRejectFloats) {
  const Array f = host_array({1, 2, 3}, {3}, DType::Float32);
  const Array i = host_array({1, 2, 3}, {3}, DType::Int32);
  EXPECT_THROW(left_shift(f, i), DTypeError);
  EXPECT_THROW(right_shift(i, f), DTypeError);
  EXPECT_THROW(left_shift(i, 1.5), DTypeError);  // a Python float makes it a float operation
  EXPECT_THROW(bitwise_and(f, f), DTypeError);
  EXPECT_THROW(invert(f), DTypeError);
  try {
    (void)right_shift(f, f);
    ADD_FAILURE() << "right_shift of floats did not throw";
  } catch (const DTypeError& e) {
    EXPECT_NE(std::string(e.what()).find("right_shift"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("float32"), std::string::npos) << e.what();
  }
}

TEST_P(Integers, OutOfRangePythonIntegersRaiseForArithmeticAndCompareExactly) {
  const Array a = Array::from_vector(std::vector<std::int32_t>{1, -3});
  const long long big = 1ll << 40;
  // np.array([1, -3], np.int32) + 2**40 -> OverflowError "Python integer 1099511627776 out of
  // bounds for int32" (ours: ValueError); the same for -, *, //, %, **, minimum, maximum.
  for (auto fn : {static_cast<Array (*)(const Array&, Scalar)>(add),
                  static_cast<Array (*)(const Array&, Scalar)>(subtract),
                  static_cast<Array (*)(const Array&, Scalar)>(multiply),
                  static_cast<Array (*)(const Array&, Scalar)>(floor_divide),
                  static_cast<Array (*)(const Array&, Scalar)>(mod),
                  static_cast<Array (*)(const Array&, Scalar)>(power),
                  static_cast<Array (*)(const Array&, Scalar)>(minimum),
                  static_cast<Array (*)(const Array&, Scalar)>(maximum)}) {
    EXPECT_THROW(fn(a, Scalar(big)), ValueError);
    EXPECT_THROW(fn(a, Scalar(-big)), ValueError);
  }
  EXPECT_THROW(add(Scalar(2147483648ll), a), ValueError);
  try {
    add(a, Scalar(big));
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("Python integer 1099511627776 out of bounds for int32"),
              std::string::npos)
        << e.what();
  }
  // The edges of int32 itself fit: np.array([1, -3], np.int32) + (-2**31) -> [-2147483647,
  // 2147483645]
  EXPECT_EQ(add(a, Scalar(-2147483648ll)).to_vector<std::int32_t>(),
            (std::vector<std::int32_t>{-2147483647, 2147483645}));
  EXPECT_EQ(add(a, Scalar(2147483647ll)).dtype(), DType::Int32);
  // Comparisons are exact: a == 2**40 -> [False, False], a < 2**40 -> [True, True],
  // a >= -2**40 -> [True, True], 2**40 > a -> [True, True].
  EXPECT_EQ(equal(a, Scalar(big)).to_vector<bool>(), (std::vector<bool>{false, false}));
  EXPECT_EQ(not_equal(a, Scalar(big)).to_vector<bool>(), (std::vector<bool>{true, true}));
  EXPECT_EQ(less(a, Scalar(big)).to_vector<bool>(), (std::vector<bool>{true, true}));
  EXPECT_EQ(greater_equal(a, Scalar(-big)).to_vector<bool>(), (std::vector<bool>{true, true}));
  EXPECT_EQ(greater(Scalar(big), a).to_vector<bool>(), (std::vector<bool>{true, true}));
  // Operations that do not compute in int32 take the value as it is:
  // a / 2**40 -> [9.094947e-13, -2.728484e-12]; np.logical_and(a, 2**40) -> [True, True].
  EXPECT_EQ(divide(a, Scalar(big)).to_vector<double>()[0], 1.0 / static_cast<double>(big));
  EXPECT_EQ(logical_and(a, Scalar(big)).to_vector<bool>(), (std::vector<bool>{true, true}));
  // np.array([True]) + 2**40 -> [1099511627777] (int64).
  EXPECT_EQ(add(Array::ones({1}, DType::Bool), Scalar(big)).to_vector<std::int64_t>(),
            (std::vector<std::int64_t>{big + 1}));
}

TEST_P(Integers, NegativeIntegerPowersRaise) {
  // np.array([2], np.int32) ** -1, ... ** np.array([3, -1]), 2 ** np.array([-1]) and
  // np.array([True]) ** -1 all raise ValueError "Integers to negative integer powers are not
  // allowed."
  const Array base = Array::from_vector(std::vector<std::int32_t>{2, 1});
  const Array exponents = Array::from_vector(std::vector<std::int64_t>{3, -1});
  EXPECT_THROW(power(base, Scalar(-1)), ValueError);
  EXPECT_THROW(power(base, exponents), ValueError);
  EXPECT_THROW(power(Scalar(2), exponents), ValueError);
  EXPECT_THROW(power(Array::ones({1}, DType::Bool), Scalar(-1)), ValueError);
  try {
    power(base, exponents);
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("Integers to negative integer powers are not allowed"),
              std::string::npos)
        << e.what();
  }
  // Non-negative exponents, empty arrays and float powers are fine:
  // np.array([2, 1], np.int32) ** np.array([3, 0]) -> [8, 1]; np.array([2, 1], np.int32) ** -1.0
  // -> [0.5, 1.0].
  EXPECT_EQ(
      power(base, Array::from_vector(std::vector<std::int64_t>{3, 0})).to_vector<std::int64_t>(),
      (std::vector<std::int64_t>{8, 1}));
  EXPECT_EQ(power(Array::zeros({0}, DType::Int32), Array::zeros({0}, DType::Int32)).size(), 0);
  EXPECT_EQ(power(base, Scalar(-1.0)).to_vector<double>(), (std::vector<double>{0.5, 1.0}));
}

// Float to integer casts follow NumPy on x86 (ir/kernel_ir.hpp), the same on every backend:
// truncate toward zero; NaN, infinities and values whose truncation does not fit give
// np.iinfo(t).min. NumPy leaves these undefined (it warns "invalid value encountered in cast")
// and x86's conversion gives the minimum for every one of them.
TEST_P(Integers, FloatToIntegerCastsGiveTheMinimumOutOfRange) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<double> values = {nan,   inf, -inf, 3e9,  -3e9,         1e19,
                                      -1e19, 2.9, -2.9, -0.5, 2147483520.0, -2147483648.0};
  // The reference: truncate, then the minimum unless the result lies in [lo, hi].
  const auto expected = [](double v, double lo, double hi) -> std::int64_t {
    const double t = std::trunc(v);
    return t >= lo && t <= hi ? static_cast<std::int64_t>(t) : static_cast<std::int64_t>(lo);
  };
  std::vector<DType> sources = {DType::Float32};
  if (device_has_fp64()) sources.push_back(DType::Float64);
  for (const DType from : sources) {
    std::vector<double> repeated;
    for (int r = 0; r < 5; ++r) repeated.insert(repeated.end(), values.begin(), values.end());
    const Array x = Array::from_vector(repeated).astype(from);
    const auto exact = x.astype(DType::Float64).to_vector<double>();  // the values x holds
    const auto i32 = x.astype(DType::Int32).to_vector<std::int64_t>();
    const auto i64 = x.astype(DType::Int64).to_vector<std::int64_t>();
    for (std::size_t i = 0; i < repeated.size(); ++i) {
      EXPECT_EQ(i32[i], expected(exact[i], kMin<std::int32_t>, kMax<std::int32_t>))
          << name(from) << " " << repeated[i];
      // 2^63 - 1 is not a double; every double below 2^63 truncates into range.
      EXPECT_EQ(i64[i], expected(exact[i], -0x1p63, std::nextafter(0x1p63, 0.0)))
          << name(from) << " " << repeated[i];
    }
  }
}

TEST_P(Integers, MixedIntegerPromotionMatchesNumPy) {
  // np.array([1], np.int32) + np.array([1], np.int64) -> int64; int32 with float32 -> float64;
  // int32 + 2.5 -> float64; np.array([2**31 - 1, 1], np.int32).sum() -> 2147483648 (int64).
  const Array i32 = Array::from_vector(std::vector<std::int32_t>{kMax<std::int32_t>, 1});
  const Array i64 = Array::from_vector(std::vector<std::int64_t>{1, 1});
  EXPECT_EQ(add(i32, i64).dtype(), DType::Int64);
  EXPECT_EQ(add(i32, i64).to_vector<std::int64_t>()[0], std::int64_t{kMax<std::int32_t>} + 1);
  EXPECT_EQ(add(i32, Array::ones({2}, DType::Float32)).dtype(), DType::Float64);
  EXPECT_EQ(add(i32, Scalar(2.5)).dtype(), DType::Float64);
  EXPECT_EQ(sum(i32).item<std::int64_t>(), std::int64_t{kMax<std::int32_t>} + 1);
  EXPECT_EQ(sum(i32).dtype(), DType::Int64);
}

SWITCHYARD_ON_EVERY_DEVICE(Integers);

}  // namespace
}  // namespace switchyard::conformance
