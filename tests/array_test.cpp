// The array model: factories, views without copies, reshape, host copies in and out.
#include <gtest/gtest.h>

#include <numeric>

#include "runtime/buffer.hpp"
#include "switchyard/switchyard.hpp"

namespace switchyard {
namespace {

std::vector<float> iota(std::size_t n) {
  std::vector<float> v(n);
  std::iota(v.begin(), v.end(), 0.0f);
  return v;
}

TEST(Array, Factories) {
  EXPECT_EQ(Array::zeros({2, 3}).to_vector<float>(), std::vector<float>(6, 0));
  EXPECT_EQ(Array::ones({4}, DType::Int32).to_vector<std::int32_t>(),
            std::vector<std::int32_t>(4, 1));
  EXPECT_EQ(Array::full({2}, 2.5, DType::Float64).to_vector<double>(),
            (std::vector<double>{2.5, 2.5}));
  EXPECT_EQ(Array::arange(0, 5, 2, DType::Int64).to_vector<std::int64_t>(),
            (std::vector<std::int64_t>{0, 2, 4}));
  EXPECT_EQ(Array::arange(5, 0, -2).to_vector<double>(), (std::vector<double>{5, 3, 1}));
  EXPECT_EQ(Array::linspace(0, 1, 5).to_vector<double>(),
            (std::vector<double>{0, 0.25, 0.5, 0.75, 1}));
  EXPECT_EQ(Array::linspace(0, 1, 0).size(), 0);
}

TEST(Array, SeededRandomIsReproducibleAndInRange) {
  const auto a = Array::uniform({1000}, 42, -1, 1).to_vector<float>();
  EXPECT_EQ(a, Array::uniform({1000}, 42, -1, 1).to_vector<float>());
  EXPECT_NE(a, Array::uniform({1000}, 43, -1, 1).to_vector<float>());
  for (float x : a) EXPECT_TRUE(x >= -1 && x < 1);
  const auto n = Array::normal({200000}, 7, 3, 2, DType::Float64).to_vector<double>();
  double mean = 0, var = 0;
  for (double x : n) mean += x;
  mean /= n.size();
  for (double x : n) var += (x - mean) * (x - mean);
  var /= n.size();
  EXPECT_NEAR(mean, 3, 0.02);
  EXPECT_NEAR(var, 4, 0.05);
}

TEST(Array, SliceTransposeAndBroadcastShareStorage) {
  const Array a = Array::from_vector(iota(12), {3, 4});
  const Array s = a.slice(1, 1, std::nullopt, 2);
  EXPECT_EQ(s.buffer(), a.buffer());
  EXPECT_EQ(s.shape(), (Shape{3, 2}));
  EXPECT_EQ(s.to_vector<float>(), (std::vector<float>{1, 3, 5, 7, 9, 11}));
  const Array r = a.slice(0, std::nullopt, std::nullopt, -1);
  EXPECT_EQ(r[0].to_vector<float>(), (std::vector<float>{8, 9, 10, 11}));
  const Array t = a.transpose();
  EXPECT_EQ(t.buffer(), a.buffer());
  EXPECT_EQ(t.shape(), (Shape{4, 3}));
  EXPECT_FALSE(t.is_contiguous());
  EXPECT_EQ(t[1].to_vector<float>(), (std::vector<float>{1, 5, 9}));
  const Array b = a[1].broadcast_to({2, 4});
  EXPECT_EQ(b.buffer(), a.buffer());
  EXPECT_EQ(b.strides(), (Strides{0, 1}));
  EXPECT_EQ(b.to_vector<float>(), (std::vector<float>{4, 5, 6, 7, 4, 5, 6, 7}));
  EXPECT_EQ(a.slice(1, 10, 20).size(), 0);  // clamped like Python
  EXPECT_EQ(a.slice(1, -2, std::nullopt).to_vector<float>(),
            (std::vector<float>{2, 3, 6, 7, 10, 11}));
}

TEST(Array, ExpandSqueezePermute) {
  const Array a = Array::from_vector(iota(6), {2, 3});
  EXPECT_EQ(a.expand_dims(0).shape(), (Shape{1, 2, 3}));
  EXPECT_EQ(a.expand_dims(-1).shape(), (Shape{2, 3, 1}));
  EXPECT_EQ(a.expand_dims(1).squeeze().shape(), (Shape{2, 3}));
  EXPECT_THROW(a.squeeze(0), ShapeError);
  const Array p = a.reshape({1, 2, 3}).permute({2, 0, 1});
  EXPECT_EQ(p.shape(), (Shape{3, 1, 2}));
  EXPECT_EQ(p.to_vector<float>(), (std::vector<float>{0, 3, 1, 4, 2, 5}));
  EXPECT_THROW(a.permute({0, 0}), ValueError);
  EXPECT_THROW(a.permute({0}), ShapeError);
}

TEST(Array, ReshapeIsAViewWhenStridesAllowAndACopyOtherwise) {
  const Array a = Array::from_vector(iota(24), {2, 3, 4});
  const Array v = a.reshape({6, 4});
  EXPECT_EQ(v.buffer(), a.buffer());
  EXPECT_EQ(a.reshape({-1}).buffer(), a.buffer());
  EXPECT_EQ(a.reshape({4, -1}).shape(), (Shape{4, 6}));
  // Slicing the last axis keeps rows mergeable with the middle axis only in one direction.
  const Array s = a.slice(2, 0, 2);  // (2, 3, 2) strides (12, 4, 1)
  EXPECT_EQ(s.reshape({2, 3, 2, 1}).buffer(), a.buffer());
  const Array t = a.transpose();  // (4, 3, 2)
  const Array flat = t.reshape({24});
  EXPECT_NE(flat.buffer(), a.buffer());
  EXPECT_EQ(flat.to_vector<float>()[1], 12.0f);
  EXPECT_THROW(a.reshape({5, 5}), ShapeError);
  EXPECT_THROW(a.reshape({-1, -1}), ValueError);
}

TEST(Array, FromHostCopiesAndBorrowSharesAndReleasesOnce) {
  std::vector<float> data = iota(8);
  const Array copied = Array::from_host(data.data(), data.size() * 4, {8}, DType::Float32);
  data[0] = 100;
  EXPECT_EQ(copied.to_vector<float>()[0], 0.0f);
  int releases = 0;
  {
    const Array borrowed =
        Array::borrow(data.data(), data.size() * 4, {2, 4}, DType::Float32, [&] { ++releases; });
    data[1] = 200;
    EXPECT_EQ(borrowed.to_vector<float>()[1], 200.0f);
    const Array view = borrowed.transpose();
    EXPECT_EQ(releases, 0);
  }
  EXPECT_EQ(releases, 1);
}

TEST(Array, BorrowWithStridesIsCheckedAgainstTheMemory) {
  std::vector<float> data(10);
  int releases = 0;
  EXPECT_THROW(Array::borrow(data.data(), 40, {3, 4}, DType::Float32, [&] { ++releases; }),
               IndexError);
  EXPECT_THROW(Array::borrow(
                   data.data(), 40, {5}, DType::Float32, [&] { ++releases; }, Strides{3}),
               IndexError);
  EXPECT_EQ(releases, 0) << "a rejected borrow leaves the memory with the caller";
  const Array ok = Array::borrow(data.data(), 40, {5}, DType::Float32, {}, Strides{2});
  EXPECT_EQ(ok.size(), 5);
}

TEST(Array, ToHostChecksTheSizeAndGathersViews) {
  const Array a = Array::from_vector(iota(6), {2, 3});
  std::vector<float> out(6);
  a.transpose().to_host(out.data(), 24);
  EXPECT_EQ(out, (std::vector<float>{0, 3, 1, 4, 2, 5}));
  EXPECT_THROW(a.to_host(out.data(), 20), ValueError);
  EXPECT_EQ(a.slice(1, 1, 2).slice(0, 0, 1).item<float>(), 1.0f);
  EXPECT_THROW(a.item<float>(), ValueError);
}

TEST(Array, AstypeConverts) {
  const Array a = Array::from_vector(std::vector<double>{1.7, -1.7, 0, 3e10});
  EXPECT_EQ(a.astype(DType::Int32).to_vector<std::int32_t>(),  // out of range: the minimum (x86)
            (std::vector<std::int32_t>{1, -1, 0, -2147483647 - 1}));
  EXPECT_EQ(a.astype(DType::Bool).to_vector<bool>(), (std::vector<bool>{true, true, false, true}));
}

TEST(Array, ResultsStayOnTheDeviceUntilRead) {
  const Array a = Array::ones({16});
  const Array b = a + a;
  EXPECT_FALSE(b.locations().empty());
  EXPECT_EQ(b.to_vector<float>(), std::vector<float>(16, 2));
  bool on_host = false;
  for (const auto& l : b.locations()) on_host |= l == "host";
  EXPECT_TRUE(on_host);
}

}  // namespace
}  // namespace switchyard
