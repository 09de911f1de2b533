// Every user mistake gets a typed error whose message names what was expected and what was given.
#include <gtest/gtest.h>

#include "switchyard/switchyard.hpp"
#include "test_support.hpp"

namespace switchyard {
namespace {

// Runs f, expects exception E, and checks the message mentions every fragment.
template <class E, class F>
void expect_error(F&& f, std::initializer_list<const char*> fragments) {
  const std::string message = testing_support::error_message<E>(std::forward<F>(f));
  testing_support::expect_mentions(message, fragments);
  EXPECT_NE(message.find("expected"), std::string::npos) << message;
}

TEST(Errors, MismatchedShapesNameBothShapes) {
  expect_error<ShapeError>([] { add(Array::ones({3}), Array::ones({4})); }, {"(3,)", "(4,)"});
  expect_error<ShapeError>([] { Array::ones({2, 3}).broadcast_to({3, 3}); }, {"(2, 3)", "(3, 3)"});
  expect_error<ShapeError>([] { Array::ones({6}).reshape({4, 2}); }, {"(6,)", "(4, 2)"});
}

TEST(Errors, UnsupportedDTypesNameTheDType) {
  const Array b = Array::ones({2}, DType::Bool);
  expect_error<DTypeError>([&] { subtract(b, b); }, {"bool"});
  expect_error<DTypeError>([&] { negative(b); }, {"bool"});
  expect_error<DTypeError>([] { parse_dtype("float16"); }, {"float16"});
}

TEST(Errors, OutOfRangeAxesAndIndices) {
  const Array a = Array::ones({2, 3});
  expect_error<AxisError>([&] { sum(a, 2); }, {"axis 2", "dimension 2"});
  expect_error<IndexError>([&] { sum(a, -3); }, {"axis -3"});
  expect_error<IndexError>([&] { a[5]; }, {"index 5"});
  expect_error<IndexError>([&] { a.expand_dims(4); }, {"axis 4"});
  expect_error<ValueError>([&] { a.slice(0, 0, 1, 0); }, {"step"});
}

TEST(Errors, SortingAndSelectionArgumentsAreChecked) {
  const Array a = Array::ones({2, 3}), flags = Array::ones({3}, DType::Bool);
  expect_error<DTypeError>([&] { sort(flags); }, {"sort", "bool", "numeric"});
  expect_error<DTypeError>([&] { argsort(flags); }, {"argsort", "bool"});
  expect_error<DTypeError>([&] { top_k(flags, 1); }, {"top_k", "bool"});
  expect_error<DTypeError>(
      [&] {
        compress(a, Array::ones({2, 3}, DType::Int32));
      },
      {"int32", "bool"});
  expect_error<IndexError>(  // a[mask] of another shape: NumPy's IndexError
      [&] {
        compress(a, Array::ones({3, 2}, DType::Bool));
      },
      {"(2, 3)", "(3, 2)"});
  expect_error<DTypeError>([&] { take(a, Array::ones({1})); }, {"float32", "int"});
  expect_error<ValueError>([&] { nonzero(Array::full(Shape{}, 1)); }, {"0-d"});
}

TEST(Errors, AlgorithmAxesIndicesAndCountsOutOfRange) {
  const Array a = Array::ones({2, 3});
  expect_error<AxisError>([&] { cumsum(a, 2); }, {"axis 2", "dimension 2"});
  expect_error<IndexError>([&] { sort(a, -3); }, {"axis -3"});
  expect_error<ValueError>([&] { top_k(a, 4); }, {"k = 4", "extent 3"});
  expect_error<ValueError>([&] { top_k(a, -1, 0); }, {"k = -1", "extent 2"});
  const Array three = Array::from_vector<std::int64_t>({0, 3});
  expect_error<IndexError>([&] { take(a, three, 1); }, {"index 3", "axis 1", "size 3"});
  expect_error<IndexError>([&] { take(a, Array::from_vector<std::int64_t>({-7})); },
                           {"index -7", "size 6"});
  expect_error<IndexError>([&] { a[Array::from_vector<std::int32_t>({2})]; },
                           {"index 2", "axis 0", "size 2"});
}

TEST(Errors, NegativeAndOverflowingSizes) {
  expect_error<ValueError>([] { Array::zeros({-1, 3}); }, {"negative", "(-1, 3)"});
  expect_error<ValueError>([] { Array::zeros({1ll << 40, 1ll << 40}); }, {"int64"});
  expect_error<ValueError>([] { Array::linspace(0, 1, -2); }, {"-2"});
  expect_error<ValueError>([] { Array::arange(0, 1, 0); }, {"step"});
}

TEST(Errors, FailedAllocationIsOutOfMemoryWithTheSize) {
  // 2^49 float32 elements = 2 PiB: more than any machine has.
  expect_error<OutOfMemory>([] { Array::zeros({1ll << 49}); }, {"2251799813685248"});
}

TEST(Errors, ViewPastTheEndOfItsBuffer) {
  std::vector<float> data(4);
  expect_error<IndexError>([&] { Array::borrow(data.data(), 16, {5}, DType::Float32); },
                           {"(5,)", "4 float32"});
}

TEST(Errors, EmptyReductionsWithoutIdentity) {
  expect_error<ValueError>([] { max(Array::zeros({0})); }, {"empty", "(0,)"});
  expect_error<ValueError>([] { argmin(Array::zeros({3, 0}), 1); }, {"empty"});
}

TEST(Errors, AFailedOperationLeavesItsInputsIntact) {
  const Array a = Array::arange(0, 4, 1, DType::Float32);
  EXPECT_THROW(add(a, Array::ones({3})), ShapeError);
  EXPECT_EQ(a.to_vector<float>(), (std::vector<float>{0, 1, 2, 3}));
}

TEST(Errors, NullArraysAreRejected) {
  const Array null;
  EXPECT_THROW(null.transpose(), ValueError);
  EXPECT_THROW(sum(null), ValueError);
}

TEST(Errors, AllDeriveFromOneBase) {
  EXPECT_THROW(Array::zeros({-1}), Error);
  EXPECT_THROW(sum(Array::ones({2}), 3), Error);
}

}  // namespace
}  // namespace switchyard
