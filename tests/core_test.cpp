// dtypes, promotion and shapes.
#include <gtest/gtest.h>

#include "switchyard/dtype.hpp"
#include "switchyard/error.hpp"
#include "switchyard/shape.hpp"

namespace switchyard {
namespace {

TEST(DType, PromotionFollowsNumPy) {
  EXPECT_EQ(promote_types(DType::Bool, DType::Int32), DType::Int32);
  EXPECT_EQ(promote_types(DType::Int32, DType::Int64), DType::Int64);
  EXPECT_EQ(promote_types(DType::Int32, DType::Float32), DType::Float64);
  EXPECT_EQ(promote_types(DType::Int64, DType::Float32), DType::Float64);
  EXPECT_EQ(promote_types(DType::Bool, DType::Float32), DType::Float32);
  EXPECT_EQ(promote_types(DType::Float32, DType::Float64), DType::Float64);
  for (int a = 0; a < kDTypeCount; ++a)
    for (int b = 0; b < kDTypeCount; ++b)
      EXPECT_EQ(promote_types(DType(a), DType(b)), promote_types(DType(b), DType(a)));
}

TEST(DType, PythonScalarsAreWeak) {
  EXPECT_EQ(promote_with_scalar(DType::Float32, ScalarKind::Float), DType::Float32);
  EXPECT_EQ(promote_with_scalar(DType::Int32, ScalarKind::Int), DType::Int32);
  EXPECT_EQ(promote_with_scalar(DType::Int32, ScalarKind::Float), DType::Float64);
  EXPECT_EQ(promote_with_scalar(DType::Bool, ScalarKind::Int), DType::Int64);
  EXPECT_EQ(promote_with_scalar(DType::Float64, ScalarKind::Bool), DType::Float64);
}

TEST(DType, ParseNamesAndRejectUnknown) {
  EXPECT_EQ(parse_dtype("float32"), DType::Float32);
  EXPECT_EQ(parse_dtype("i64"), DType::Int64);
  EXPECT_EQ(parse_dtype("complex64"), DType::Complex64);
  try {
    parse_dtype("float16");
    FAIL();
  } catch (const DTypeError& e) {
    EXPECT_NE(std::string(e.what()).find("float16"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("complex128"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("float32"), std::string::npos);
  }
}

TEST(Shape, BroadcastsLikeNumPy) {
  EXPECT_EQ(broadcast_shapes({3, 1}, {4}), (Shape{3, 4}));
  EXPECT_EQ(broadcast_shapes({}, {2, 3}), (Shape{2, 3}));
  EXPECT_EQ(broadcast_shapes({5, 1, 7}, {1, 6, 1}), (Shape{5, 6, 7}));
  EXPECT_EQ(broadcast_shapes({0}, {1}), (Shape{0}));
  EXPECT_THROW(broadcast_shapes({3}, {4}), ShapeError);
  EXPECT_THROW(broadcast_shapes({2, 3}, {3, 3}), ShapeError);
}

TEST(Shape, BroadcastStridesAreZeroOnNewAndUnitAxes) {
  EXPECT_EQ(broadcast_strides({3, 1}, {1, 1}, {2, 3, 4}), (Strides{0, 1, 0}));
  EXPECT_THROW(broadcast_strides({3}, {1}, {4}), ShapeError);
  EXPECT_THROW(broadcast_strides({2, 3}, {3, 1}, {3}), ShapeError);
}

TEST(Shape, CountsAndRejectsNegativeOrOverflowingSizes) {
  EXPECT_EQ(element_count({}), 1);
  EXPECT_EQ(element_count({2, 0, 5}), 0);
  EXPECT_THROW(element_count({-1, 3}), ValueError);
  EXPECT_THROW(element_count({1ll << 40, 1ll << 40}), ValueError);
}

TEST(Shape, RankIsBounded) {
  Dims d = Dims::filled(kMaxRank, 1);
  EXPECT_THROW(d.push_back(1), ShapeError);
}

TEST(Shape, NormalizesAxes) {
  EXPECT_EQ(normalize_axis(-1, 3), 2);
  EXPECT_EQ(normalize_axis(0, 1), 0);
  EXPECT_THROW(normalize_axis(3, 3), IndexError);
  EXPECT_THROW(normalize_axis(-4, 3), IndexError);
  EXPECT_THROW(normalize_axis(0, 0), IndexError);
}

TEST(Shape, ContiguousStrides) {
  EXPECT_EQ(contiguous_strides({2, 3, 4}), (Strides{12, 4, 1}));
  EXPECT_EQ(to_string(Shape{3}), "(3,)");
  EXPECT_EQ(to_string(Shape{2, 3}), "(2, 3)");
}

}  // namespace
}  // namespace switchyard
