// The array API a NumPy user expects: writing into views (assign, fill, in-place operators) on
// every device, operators, arange's dtypes, and telling the runtime about outside writes.
// Expectations are worked out here element by element, as NumPy gives them.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <numeric>
#include <type_traits>

#include "switchyard/dlpack_types.hpp"
#include "switchyard/switchyard.hpp"
#include "test_support.hpp"

namespace switchyard {
namespace {

using testing_support::device_ids;
using testing_support::error_message;
using testing_support::expect_mentions;

// `a[0] = b` would rebind a temporary handle and change nothing: it must not compile.
template <class T>
concept element_rebindable = requires(T a, T b) {
  a[0] = b;
};
static_assert(!element_rebindable<Array>);
static_assert(!std::is_assignable_v<Array&&, const Array&>);
static_assert(!std::is_assignable_v<Array&&, Array&&>);
static_assert(std::is_assignable_v<Array&, const Array&>);

std::vector<double> iota(std::size_t n) {
  std::vector<double> v(n);
  std::iota(v.begin(), v.end(), 0.0);
  return v;
}

Array vector(const std::vector<double>& v) {
  return Array::from_vector(v);
}

// Where a kernel pinned to `id` leaves its results.
std::string location_of(const std::string& id) {
  return testing_support::find_device(id)->host_addressable ? "host" : id;
}

TEST(ArrayAssign, IntoSlicesWithStepsAndNegativeSteps) {
  const Array a = vector(iota(10));
  a.slice(0, 1, 8, 3).assign(vector({-1, -2, -3}));     // elements 1, 4, 7
  a.slice(0, std::nullopt, std::nullopt, -4).fill(50);  // elements 9, 5, 1
  a.slice(0, 8, 2, -3).assign(vector({100, 200}));      // elements 8, 5
  EXPECT_EQ(a.to_vector<double>(), (std::vector<double>{0, 50, 2, 3, -2, 200, 6, -3, 100, 50}));
}

TEST(ArrayAssign, IntoTransposedViewsAndWithBroadcasting) {
  const Array m = Array::zeros({2, 3});
  m.transpose().assign(Array::from_vector(std::vector<float>{0, 1, 2, 3, 4, 5}, {3, 2}));
  EXPECT_EQ(m.to_vector<float>(), (std::vector<float>{0, 2, 4, 1, 3, 5}));
  m.assign(Array::from_vector(std::vector<float>{7, 8, 9}));  // each row
  EXPECT_EQ(m.to_vector<float>(), (std::vector<float>{7, 8, 9, 7, 8, 9}));
  m.slice(1, 1, 2).assign(Array::from_vector(std::vector<float>{-1, -2}, {2, 1}));
  EXPECT_EQ(m.to_vector<float>(), (std::vector<float>{7, -1, 9, 7, -2, 9}));
  m[1].fill(0);
  m.transpose()[2].assign(Array::full({}, 4));  // column 2
  EXPECT_EQ(m.to_vector<float>(), (std::vector<float>{7, -1, 4, 0, 0, 4}));
}

TEST(ArrayAssign, ConvertsAsNumPyAssignmentDoes) {
  const Array i = Array::zeros({3}, DType::Int32);
  i.assign(vector({2.7, -2.7, 1e12}));  // truncates; out of range gives the minimum (x86)
  EXPECT_EQ(i.to_vector<std::int32_t>(), (std::vector<std::int32_t>{2, -2, -2147483647 - 1}));
  i.fill(3.9);
  EXPECT_EQ(i.to_vector<std::int32_t>(), (std::vector<std::int32_t>{3, 3, 3}));
  const Array b = Array::zeros({2}, DType::Bool);
  b[1].fill(5);
  EXPECT_EQ(b.to_vector<bool>(), (std::vector<bool>{false, true}));
  const Array f = Array::zeros({2}, DType::Float64);
  f.assign(vector({1, 0}) != 0);
  EXPECT_EQ(f.to_vector<double>(), (std::vector<double>{1, 0}));
}

TEST(ArrayAssign, RejectsWhatNumPyRejects) {
  const Array a = Array::zeros({2, 3});
  EXPECT_THROW(a.assign(Array::zeros({2})), ShapeError);
  EXPECT_THROW(a.assign(Array()), ValueError);
  EXPECT_THROW(Array().fill(1), ValueError);
  const std::string broadcast = error_message<ValueError>([&] {
    a[0].broadcast_to({4, 3}).fill(1);
  });
  expect_mentions(broadcast, {"broadcast view", "(4, 3)"});
  const std::string overflow =
      error_message<ValueError>([] { Array::zeros({2}, DType::Int32).fill(1LL << 40); });
  expect_mentions(overflow, {"1099511627776", "int32"});
}

TEST(ArrayInPlace, UpdatesTheStorageEveryViewSees) {
  const Array a = Array::zeros({3, 4});
  const Array rows = a.slice(0, 1, 3);
  const Array column = a.transpose()[0];
  rows += 1;
  column *= 10;  // strided: element 0 of every row
  a.slice(1, 3, 4) -= 5;
  EXPECT_EQ(a.to_vector<float>(), (std::vector<float>{0, 0, 0, -5, 10, 1, 1, -4, 10, 1, 1, -4}));
  EXPECT_EQ(rows.to_vector<float>(), (std::vector<float>{10, 1, 1, -4, 10, 1, 1, -4}));
  EXPECT_EQ(column.to_vector<float>(), (std::vector<float>{0, 10, 10}));
  const Array i = Array::arange(1, 7);
  i.slice(0, 0, 6, 2) %= 2;
  EXPECT_EQ(i.to_vector<std::int64_t>(), (std::vector<std::int64_t>{1, 2, 1, 4, 1, 6}));
}

TEST(ArrayInPlace, FollowsNumPysSameKindRule) {
  const Array i = Array::arange(0, 4);
  const std::string message = error_message<DTypeError>([&] { i += 1.5; });
  expect_mentions(message, {"Cannot cast ufunc 'add' output from float64 to int64", "'same_kind'"});
  EXPECT_THROW(i /= 2, DTypeError);
  EXPECT_THROW(Array::zeros({2}, DType::Bool) += 1, DTypeError);
  EXPECT_THROW(i += Array::zeros({2, 4}, DType::Int64), ShapeError);
  EXPECT_EQ(i.to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 1, 2, 3}));

  const Array small = Array::full({2}, 2147483647, DType::Int32);
  small += Array::ones({2}, DType::Int64);  // int64 result, cast back to int32: wraps
  EXPECT_EQ(small.to_vector<std::int32_t>(),
            (std::vector<std::int32_t>{-2147483647 - 1, -2147483647 - 1}));
  const Array f = Array::ones({2});
  f += vector({0.5, 0.25});  // float64 into float32: same kind
  EXPECT_EQ(f.dtype(), DType::Float32);
  EXPECT_EQ(f.to_vector<float>(), (std::vector<float>{1.5f, 1.25f}));
  const Array b = Array::zeros({2}, DType::Bool);
  b |= vector({0, 1}) != 0;
  b ^= true;
  EXPECT_EQ(b.to_vector<bool>(), (std::vector<bool>{true, false}));
  i &= 1;  // bitwise on integers, as NumPy
  EXPECT_EQ(i.to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 1, 0, 1}));
  EXPECT_THROW(f &= 1, DTypeError);  // floats have no bitwise operations
}

TEST(ArrayInPlace, ExpressionIsOneKernelWritingTheDestination) {
  const std::int64_t n = 1000;
  const Array a = Array::full({n}, 1), b = Array::full({n}, 2), c = Array::full({n}, 3);
  const auto storage = a.buffer();
  const Explanation e = explain([&] { a += b * c; });
  EXPECT_EQ(e.kernels.size(), 1u) << e.to_string();
  EXPECT_EQ(a.buffer(), storage);
  EXPECT_EQ(a.to_vector<float>(), std::vector<float>(n, 7));
  const Explanation slice =
      explain([&] { a.slice(0, 10, 20) -= sin(b.slice(0, 0, 10)) * 0 + c.slice(0, 5, 15); });
  EXPECT_EQ(slice.kernels.size(), 1u) << slice.to_string();
  auto expected = std::vector<float>(n, 7);
  for (int i = 10; i < 20; ++i) expected[i] = 4;
  EXPECT_EQ(a.to_vector<float>(), expected);
}

TEST(ArrayInPlace, OverlappingOperandsGiveNumPysResult) {
  const std::int64_t n = 10;
  const auto old = iota(n);
  const Array a = vector(old);
  a.slice(0, 1, n) += a.slice(0, 0, n - 1);  // NumPy: as if computed into a temporary
  std::vector<double> expected = old;
  for (int i = 1; i < n; ++i) expected[i] = old[i] + old[i - 1];
  EXPECT_EQ(a.to_vector<double>(), expected);

  const Array r = vector(old);
  r.assign(r.slice(0, std::nullopt, std::nullopt, -1));
  EXPECT_EQ(r.to_vector<double>(), std::vector<double>(old.rbegin(), old.rend()));
  const Array s = vector(old);
  s.slice(0, 0, n - 1).assign(s.slice(0, 1, n));
  expected = old;
  for (int i = 0; i + 1 < n; ++i) expected[i] = old[i + 1];
  EXPECT_EQ(s.to_vector<double>(), expected);
  const Array t = vector(old);
  t -= t[0] + t[n - 1];  // every element reads the first and last, which the write changes
  for (int i = 0; i < n; ++i) expected[i] = old[i] - (old[0] + old[n - 1]);
  EXPECT_EQ(t.to_vector<double>(), expected);
}

TEST(ArrayInPlace, PendingArraysAreRealisedThenWritten) {
  const Array x = vector({1, 2, 3});
  const Array c = x * 2;
  ASSERT_TRUE(c.pending());
  c[1].fill(100);  // a view of a pending array writes into that array's result
  c.slice(0, 0, 2) += 1;
  EXPECT_EQ(c.to_vector<double>(), (std::vector<double>{3, 101, 6}));
  EXPECT_EQ(x.to_vector<double>(), (std::vector<double>{1, 2, 3}));

  const Array v = (x + 1).slice(0, 0, 2);
  EXPECT_EQ(v.to_vector<double>(), (std::vector<double>{2, 3}));  // computed into the vector
  eval(v);
  EXPECT_THROW(v.fill(0), ValueError) << "eval made the view a copy the write cannot reach";

  // A pending result has the value it had when it was written, as an evaluated one does.
  const Array later = x * 10, now = x * 10;
  eval(now);
  x += 1;
  EXPECT_EQ(later.to_vector<double>(), (std::vector<double>{10, 20, 30}));
  EXPECT_EQ(now.to_vector<double>(), (std::vector<double>{10, 20, 30}));
}

std::vector<float> iota_f(std::int64_t n) {
  std::vector<float> v(static_cast<std::size_t>(n));
  std::iota(v.begin(), v.end(), 0.0f);
  return v;
}

// Writes run on every device, into storage valid on any device, and keep every element outside
// the view: a kernel writing part of a buffer brings the rest along.
TEST(ArrayInPlace, WritesOnEveryDeviceKeepTheRestOfTheStorage) {
  const std::int64_t n = 64;
  for (const std::string& maker : device_ids()) {
    for (const std::string& writer : device_ids()) {
      SCOPED_TRACE(maker + " made the storage, " + writer + " writes");
      Array a;
      {
        DeviceScope on(maker);
        a = Array::arange(0, n, 1, DType::Float32) + 0;
        eval(a);
      }
      ASSERT_EQ(a.locations(), std::vector<std::string>{location_of(maker)});
      {
        DeviceScope on(writer);
        a.slice(0, 8, 24) += 1000;
      }
      EXPECT_EQ(a.locations(), std::vector<std::string>{location_of(writer)});
      {
        DeviceScope on(writer);
        a.slice(0, 1, n, 16).fill(-1);  // strided: written through the host copy
      }
      std::vector<float> expected = iota_f(n);
      for (int i = 8; i < 24; ++i) expected[i] += 1000;
      for (int i = 1; i < n; i += 16) expected[i] = -1;
      EXPECT_EQ(a.to_vector<float>(), expected);
    }
  }
}

TEST(ArrayInPlace, AWriteMakesOtherCopiesStale) {
  const Array a = Array::from_vector(iota_f(100));
  const std::vector<std::string> ids = device_ids();
  for (const std::string& reader : ids) {
    DeviceScope on(reader);
    (void)sum(a).item<float>();  // leaves a copy of `a` on the reader
  }
  for (std::size_t w = 0; w < ids.size(); ++w) {
    {
      DeviceScope on(ids[w]);
      a += 1;
      EXPECT_EQ(a.locations(), std::vector<std::string>{location_of(ids[w])});
    }
    for (const std::string& reader : ids) {
      DeviceScope on(reader);
      EXPECT_EQ(sum(a).item<float>(), 4950 + 100.0f * (w + 1))
          << ids[w] << " wrote, " << reader << " read";
    }
  }
}

TEST(ArrayOperators, ComparisonsAndModuloWithScalarsOnEitherSide) {
  const Array a = Array::arange(0, 6);
  const Array b = Array::from_vector(std::vector<std::int64_t>{5, 4, 3, 2, 1, 0});
  EXPECT_EQ((a < 2).dtype(), DType::Bool);
  EXPECT_EQ((a < 2).to_vector<bool>(), (std::vector<bool>{1, 1, 0, 0, 0, 0}));
  EXPECT_EQ((2 < a).to_vector<bool>(), (std::vector<bool>{0, 0, 0, 1, 1, 1}));
  EXPECT_EQ((a <= b).to_vector<bool>(), (std::vector<bool>{1, 1, 1, 0, 0, 0}));
  EXPECT_EQ((a > b).to_vector<bool>(), (std::vector<bool>{0, 0, 0, 1, 1, 1}));
  EXPECT_EQ((a >= 3.5).to_vector<bool>(), (std::vector<bool>{0, 0, 0, 0, 1, 1}));
  EXPECT_EQ((3 == a).to_vector<bool>(), (std::vector<bool>{0, 0, 0, 1, 0, 0}));
  EXPECT_EQ((a != 3).to_vector<bool>(), (std::vector<bool>{1, 1, 1, 0, 1, 1}));
  EXPECT_EQ((a == b).to_vector<bool>(), (std::vector<bool>(6, false)));
  EXPECT_EQ((a % 4).to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 1, 2, 3, 0, 1}));
  EXPECT_EQ((7 % (a + 1)).to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 1, 1, 3, 2, 1}));
  EXPECT_EQ((a % -4).to_vector<std::int64_t>(),
            (std::vector<std::int64_t>{0, -3, -2, -1, 0, -3}));  // sign of the divisor
}

TEST(ArrayOperators, LogicalOnBoolBitwiseOnIntegersAndAnErrorOnFloats) {
  const Array a = Array::arange(0, 6);
  const Array low = a < 4, odd = a % 2 == 1;
  EXPECT_EQ((low & odd).to_vector<bool>(), (std::vector<bool>{0, 1, 0, 1, 0, 0}));
  EXPECT_EQ((low | odd).to_vector<bool>(), (std::vector<bool>{1, 1, 1, 1, 0, 1}));
  EXPECT_EQ((low ^ odd).to_vector<bool>(), (std::vector<bool>{1, 0, 1, 0, 0, 1}));
  EXPECT_EQ((~low).to_vector<bool>(), (std::vector<bool>{0, 0, 0, 0, 1, 1}));
  EXPECT_EQ((true & low).to_vector<bool>(), low.to_vector<bool>());
  EXPECT_EQ((odd | false).to_vector<bool>(), odd.to_vector<bool>());
  EXPECT_EQ((true ^ odd).to_vector<bool>(), (~odd).to_vector<bool>());
  using I = std::vector<std::int64_t>;
  EXPECT_EQ((a & 3).to_vector<std::int64_t>(), (I{0, 1, 2, 3, 0, 1}));
  EXPECT_EQ((a | 8).to_vector<std::int64_t>(), (I{8, 9, 10, 11, 12, 13}));
  EXPECT_EQ((a ^ a).to_vector<std::int64_t>(), (I{0, 0, 0, 0, 0, 0}));
  EXPECT_EQ((~a).to_vector<std::int64_t>(), (I{-1, -2, -3, -4, -5, -6}));
  EXPECT_EQ((a << 2).to_vector<std::int64_t>(), (I{0, 4, 8, 12, 16, 20}));
  EXPECT_EQ((-a >> 1).to_vector<std::int64_t>(), (I{0, -1, -1, -2, -2, -3}));  // arithmetic
  EXPECT_EQ((1 << a).to_vector<std::int64_t>(), (I{1, 2, 4, 8, 16, 32}));
  const Array lowered = (low | 2);  // a Python int makes it an integer operation
  EXPECT_EQ(lowered.dtype(), DType::Int64);
  EXPECT_EQ(lowered.to_vector<std::int64_t>(), (I{3, 3, 3, 3, 2, 2}));
  const Array f = Array::arange(0.0, 3);
  const std::string message = error_message<DTypeError>([&] { (void)(f & f); });
  expect_mentions(message, {"bitwise_and", "float64", "logical_and"});
  EXPECT_THROW((void)(~f), DTypeError);
  EXPECT_THROW((void)(a << 1.5), DTypeError);
  EXPECT_THROW((void)(low << low), DTypeError);  // shifts take integers only
}

TEST(ArrayOperators, ShiftsInPlace) {
  const Array a = Array::arange(0, 4, 1, DType::Int32);
  a <<= 3;
  EXPECT_EQ(a.to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 8, 16, 24}));
  a >>= 2;
  EXPECT_EQ(a.to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 2, 4, 6}));
  a &= 4;
  EXPECT_EQ(a.to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 0, 4, 4}));
}

TEST(ArrayFactories, ArangeDTypeFollowsItsArguments) {
  EXPECT_EQ(Array::arange(10).dtype(), DType::Int64);
  EXPECT_EQ(Array::arange(0, 10).dtype(), DType::Int64);
  EXPECT_EQ(Array::arange(0, std::int64_t{10}, 3).to_vector<std::int64_t>(),
            (std::vector<std::int64_t>{0, 3, 6, 9}));
  EXPECT_EQ(Array::arange(5, 0, -2).to_vector<std::int64_t>(),
            (std::vector<std::int64_t>{5, 3, 1}));
  EXPECT_EQ(Array::arange(3, 3).size(), 0);
  EXPECT_EQ(Array::arange(0, 4, 1, DType::Int32).dtype(), DType::Int32);
  EXPECT_EQ(Array::arange(5.0).dtype(), DType::Float64);
  EXPECT_EQ(Array::arange(0, 2, 0.5).to_vector<double>(), (std::vector<double>{0, 0.5, 1, 1.5}));
  EXPECT_EQ(Array::arange(0.0, 3).dtype(), DType::Float64);
  constexpr std::int64_t top = std::numeric_limits<std::int64_t>::max();
  EXPECT_EQ(Array::arange(top - 2, top).to_vector<std::int64_t>(),
            (std::vector<std::int64_t>{top - 2, top - 1}));  // exact, beyond double's 2^53
  EXPECT_EQ(Array::arange(-top, top, top).to_vector<std::int64_t>(),
            (std::vector<std::int64_t>{-top, 0}));
  EXPECT_THROW(Array::arange(0, 5, 0), ValueError);
}

TEST(ArrayOutsideWrites, MarkModifiedMakesBorrowedMemoryCurrentOnEveryDevice) {
  std::vector<float> data(1000, 1);
  const Array a = Array::borrow(data.data(), data.size() * sizeof(float), {1000}, DType::Float32);
  for (const std::string& id : device_ids()) {
    DeviceScope on(id);
    EXPECT_EQ(sum(a).item<float>(), 1000);
  }
  std::fill(data.begin(), data.end(), 2.0f);
  a.mark_modified();
  EXPECT_EQ(a.locations(), std::vector<std::string>{"host"});
  for (const std::string& id : device_ids()) {
    DeviceScope on(id);
    EXPECT_EQ(sum(a).item<float>(), 2000) << id;
  }
}

TEST(ArrayOutsideWrites, MarkModifiedAfterWritingThroughDLPack) {
  const Array a = Array::arange(0, 100, 1, DType::Float32);
  DLManagedTensor* t = to_dlpack(a);
  for (const std::string& id : device_ids()) {
    DeviceScope on(id);
    EXPECT_EQ(sum(a).item<float>(), 4950);
  }
  auto* values = static_cast<float*>(t->dl_tensor.data);
  for (int i = 0; i < 100; ++i) values[i] = 1;
  a.mark_modified();
  for (const std::string& id : device_ids()) {
    DeviceScope on(id);
    EXPECT_EQ(sum(a).item<float>(), 100) << id;
  }
  t->deleter(t);
}

}  // namespace
}  // namespace switchyard
