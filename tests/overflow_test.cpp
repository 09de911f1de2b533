// Sizes, strides and reaches that overflow 64 bits raise (ValueError for sizes, IndexError for
// views) instead of wrapping to a small allocation or a view that passes its bounds check.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "core/host_memory.hpp"
#include "switchyard/switchyard.hpp"
#include "test_support.hpp"

namespace switchyard {
namespace {

constexpr std::int64_t k2to62 = std::int64_t{1} << 62;
constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();

template <class E, class F>
void expect_error(F&& f, std::initializer_list<const char*> fragments) {
  const std::string message = testing_support::error_message<E>(std::forward<F>(f));
  testing_support::expect_mentions(message, fragments);
}

TEST(Overflow, ByteCountsBeyondInt64AreValueErrors) {
  // 2^62 float64 elements are 2^65 bytes, which wrapped to 0 bytes before.
  expect_error<ValueError>([] { Array::zeros({k2to62}, DType::Float64); },
                           {"(4611686018427387904,)", "float64"});
  expect_error<ValueError>(
      [] {
        Array::full({1ll << 61, 2}, 1.0, DType::Int32);
      },
      {"int32", "bytes"});
  expect_error<ValueError>([] { Array::zeros({k2to62, 4}, DType::Bool); }, {"int64"});
}

TEST(Overflow, EmptyShapesWhoseStridesOverflowAreValueErrors) {
  EXPECT_EQ(Array::zeros({0, 1ll << 20, 1ll << 20}).size(), 0);
  expect_error<ValueError>([] { Array::zeros({0, 1ll << 40, 1ll << 40}); }, {"strides", "(0, "});
}

TEST(Overflow, StridesWhoseReachWrapsAreIndexErrors) {
  std::vector<float> data(4);
  // Each axis reaches 2^62 elements; their sum 2^63 wrapped to INT64_MIN and passed the check.
  expect_error<IndexError>(
      [&] {
        Array::borrow(data.data(), 16, {2, 2}, DType::Float32, {}, Strides{k2to62, k2to62});
      },
      {"(2, 2)", "(4611686018427387904, 4611686018427387904)"});
  expect_error<IndexError>(
      [&] { Array::borrow(data.data(), 16, {3}, DType::Float32, {}, Strides{kMax}); }, {"(3,)"});
  expect_error<IndexError>(
      [&] { Array::borrow(data.data(), 16, {2}, DType::Float32, {}, Strides{kMin}); }, {"(2,)"});
  expect_error<IndexError>(
      [&] {
        Array::borrow(data.data(), 16, {1ll << 61, 2}, DType::Float32, {}, Strides{1, 0});
      },
      {"4 float32"});
}

TEST(Overflow, HugeBroadcastViewsExistButCannotBeMaterialised) {
  const Array big = Array::ones({1}, DType::Float64).broadcast_to({k2to62});
  EXPECT_EQ(big.size(), k2to62);
  EXPECT_THROW(big.nbytes(), ValueError);
  EXPECT_THROW(big.copy(), ValueError);
  EXPECT_THROW(big.astype(DType::Int64), ValueError);
  EXPECT_THROW(add(big, 1.0), ValueError);
  EXPECT_THROW(add(big, big), ValueError);
  EXPECT_THROW(negative(big), ValueError);
  EXPECT_THROW(where(Array::ones({1}, DType::Bool), big, big), ValueError);
  const Array wide = Array::ones({1, 1}).broadcast_to({1ll << 61, 2});
  EXPECT_THROW(sum(wide, 1), ValueError);  // 2^61 float32 sums = 2^63 bytes
}

TEST(Overflow, ReshapeWhoseKnownExtentsOverflowIsAValueError) {
  expect_error<ValueError>(
      [] {
        Array::zeros({4}).reshape({1ll << 40, 1ll << 40, -1});
      },
      {"int64"});
  EXPECT_THROW(Array::zeros({4}).reshape({k2to62, 8}), ValueError);
}

TEST(Overflow, SlicesWithStepsNearTheInt64Limits) {
  const Array a = Array::arange(0, 10, 1, DType::Int64);
  EXPECT_EQ(a.slice(0, std::nullopt, std::nullopt, kMax).to_vector<std::int64_t>(),
            (std::vector<std::int64_t>{0}));
  EXPECT_EQ(a.slice(0, std::nullopt, std::nullopt, kMin).to_vector<std::int64_t>(),
            (std::vector<std::int64_t>{9}));
  EXPECT_EQ(a.slice(0, 9, std::nullopt, -k2to62).to_vector<std::int64_t>(),
            (std::vector<std::int64_t>{9}));
  EXPECT_EQ(a.slice(0, 3, kMax, -k2to62).size(), 0);
  EXPECT_EQ(a.slice(0, kMin, kMax, 4).to_vector<std::int64_t>(),
            (std::vector<std::int64_t>{0, 4, 8}));
  EXPECT_EQ(a.slice(0, kMax, kMin, -4).to_vector<std::int64_t>(),
            (std::vector<std::int64_t>{9, 5, 1}));
  EXPECT_EQ(a.slice(0, 5, 2).size(), 0);
  EXPECT_EQ(a.slice(0, 2, 5, -1).size(), 0);
}

TEST(Overflow, NegativeStridesAndZeroSizeDimensionsStillWork) {
  const Array a = Array::arange(0, 12, 1, DType::Int32).reshape({3, 4});
  const Array r =
      a.slice(0, std::nullopt, std::nullopt, -1).slice(1, std::nullopt, std::nullopt, -2);
  EXPECT_EQ(r.strides(), (Strides{-4, -2}));
  EXPECT_EQ(r.to_vector<std::int32_t>(), (std::vector<std::int32_t>{11, 9, 7, 5, 3, 1}));
  const Array e = Array::zeros({3, 0, 5});
  EXPECT_EQ(e.size(), 0);
  EXPECT_EQ(e.nbytes(), 0u);
  EXPECT_EQ(e.reshape({0, 7}).shape(), (Shape{0, 7}));
  EXPECT_EQ(e.reshape({-1, 5}).shape(), (Shape{0, 5}));
  EXPECT_TRUE(e.is_contiguous());
  EXPECT_EQ(add(e, 1.0f).shape(), (Shape{3, 0, 5}));
  // An empty borrow may use any strides and no memory.
  EXPECT_EQ(Array::borrow(nullptr, 0, {0, 3}, DType::Float32, {}, Strides{kMax, kMin}).size(), 0);
}

TEST(Overflow, HostAllocationsNearTwoToThe64AreOutOfMemory) {
  // Rounding these up to a huge page wrapped to a small block before.
  for (const std::size_t bytes :
       {std::numeric_limits<std::size_t>::max(), std::numeric_limits<std::size_t>::max() - 4096})
    EXPECT_THROW(host_memory::allocate(bytes), OutOfMemory);
  EXPECT_THROW(Array::zeros({(1ll << 61) - 1}, DType::Float32), OutOfMemory);
}

}  // namespace
}  // namespace switchyard
