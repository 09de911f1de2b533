// concatenate and stack on every device: shapes, dtype promotion, pending pieces written straight
// into the result, views as pieces, and the errors NumPy raises.
#include "conformance/conformance.hpp"

namespace switchyard::conformance {
namespace {

class Join : public OnEveryDevice {};

// Element (i, j) of a rows × cols row-major table.
double at(const std::vector<double>& v, std::int64_t cols, std::int64_t i, std::int64_t j) {
  return v[i * cols + j];
}

TEST_P(Join, ConcatenateAlongEachAxisOfMatricesAndViews) {
  const std::int64_t rows = 5, c1 = 3, c2 = 4;
  for (DType t : {DType::Int32, DType::Float32}) {
    const auto v1 = random_values(rows * c1, t, 1), v2 = random_values(rows * c2, t, 2);
    const Array a = host_array(v1, {rows, c1}, t), b = host_array(v2, {rows, c2}, t);
    const Array joined = concatenate({a, b}, 1);
    ASSERT_EQ(joined.shape(), (Shape{rows, c1 + c2}));
    EXPECT_EQ(joined.dtype(), t);
    std::vector<double> want;
    for (std::int64_t i = 0; i < rows; ++i) {
      for (std::int64_t j = 0; j < c1; ++j) want.push_back(at(v1, c1, i, j));
      for (std::int64_t j = 0; j < c2; ++j) want.push_back(at(v2, c2, i, j));
    }
    expect_close(joined, want, false, "concatenate along axis 1");
    expect_close(concatenate({a, b}, -1), want, false, "concatenate along axis -1");

    // Transposed views (c × rows) joined along axis 0; a reversed view along axis 1.
    const Array ta = a.transpose(), tb = b.transpose();
    std::vector<double> stacked_rows;
    for (std::int64_t j = 0; j < c1; ++j)
      for (std::int64_t i = 0; i < rows; ++i) stacked_rows.push_back(at(v1, c1, i, j));
    for (std::int64_t j = 0; j < c2; ++j)
      for (std::int64_t i = 0; i < rows; ++i) stacked_rows.push_back(at(v2, c2, i, j));
    expect_close(concatenate({ta, tb}), stacked_rows, false, "concatenate transposed views");
    const Array flipped = a.slice(0, std::nullopt, std::nullopt, -1);
    std::vector<double> side;
    for (std::int64_t i = 0; i < rows; ++i) {
      for (std::int64_t j = 0; j < c1; ++j) side.push_back(at(v1, c1, rows - 1 - i, j));
      for (std::int64_t j = 0; j < c1; ++j) side.push_back(at(v1, c1, i, j));
    }
    expect_close(concatenate({flipped, a}, 1), side, false, "concatenate a reversed view");
  }
}

TEST_P(Join, ConcatenatePromotesFlattensAndWritesPendingPieces) {
  for (std::int64_t n : kSizes) {
    const auto x = random_values(n, DType::Float32, 3);
    const auto y = random_values(7, DType::Int32, 4, -100, 100);
    const Array a = host_array(x, {n}, DType::Float32);
    const Array b = host_array(y, {7}, DType::Int32);
    // float32 with int32 is float64 (NumPy); the pending pieces are computed into the result.
    const Array joined = concatenate({a * 2, b + 1, a});
    const DType want_dtype = DType::Float64;
    EXPECT_EQ(joined.dtype(), want_dtype);
    std::vector<double> want;
    for (double v : x) want.push_back(double(float(v * 2)));
    for (double v : y) want.push_back(v + 1);
    want.insert(want.end(), x.begin(), x.end());
    if (device_has_fp64()) expect_close(joined, want, false, "concatenate n=" + std::to_string(n));
  }
  // axis = nullopt flattens every piece first, 0-D ones included.
  const Array m = host_array({1, 2, 3, 4, 5, 6}, {2, 3}, DType::Int64);
  const Array flat = concatenate({m.transpose(), Array::full({}, 9, DType::Int64)}, std::nullopt);
  expect_close(flat, {1, 4, 2, 5, 3, 6, 9}, false, "flattened concatenate");
  EXPECT_EQ(concatenate({Array::zeros({0, 3}), Array::zeros({0, 3})}).shape(), (Shape{0, 3}));
}

TEST_P(Join, EachPendingPieceIsOneKernelWritingIntoTheResult) {
  const Array a = host_array(random_values(1023, DType::Float32, 7), {3, 341}, DType::Float32);
  const Array b = host_array(random_values(1023, DType::Float32, 8), {3, 341}, DType::Float32);
  // Along axis 1 each piece's part is strided in C order; it is still written directly.
  for (int axis : {0, 1}) {
    const Explanation e = explain([&] { eval(concatenate({a * 2 + b, sin(b)}, axis)); });
    EXPECT_EQ(e.kernels.size(), 2u) << "axis " << axis << "\n" << e.to_string();
  }
}

TEST_P(Join, StackAddsAnAxisAnywhere) {
  const auto v1 = random_values(6, DType::Float32, 5), v2 = random_values(6, DType::Float32, 6);
  const Array a = host_array(v1, {2, 3}, DType::Float32),
              b = host_array(v2, {2, 3}, DType::Float32);
  const Array s0 = stack({a, b}), s1 = stack({a, b}, 1), s2 = stack({a, sin(b)}, -1);
  ASSERT_EQ(s0.shape(), (Shape{2, 2, 3}));
  ASSERT_EQ(s1.shape(), (Shape{2, 2, 3}));
  ASSERT_EQ(s2.shape(), (Shape{2, 3, 2}));
  std::vector<double> w0, w1, w2;
  for (const auto* v : {&v1, &v2}) w0.insert(w0.end(), v->begin(), v->end());
  for (int i = 0; i < 2; ++i)
    for (const auto* v : {&v1, &v2})
      for (int j = 0; j < 3; ++j) w1.push_back((*v)[i * 3 + j]);
  for (int i = 0; i < 6; ++i) w2.push_back(v1[i]), w2.push_back(std::sin(v2[i]));
  expect_close(s0, w0, false, "stack axis 0");
  expect_close(s1, w1, false, "stack axis 1");
  expect_close(s2, w2, true, "stack axis -1 with a pending piece");
}

TEST_P(Join, BadListsAreTypedErrors) {
  const Array a = Array::ones({2, 3}), b = Array::ones({2, 4}), c = Array::ones({2, 3, 1});
  EXPECT_THROW(concatenate(std::span<const Array>{}), ValueError);
  EXPECT_THROW(stack(std::span<const Array>{}), ValueError);
  EXPECT_THROW(concatenate({a, b}, 0), ShapeError);
  EXPECT_THROW(concatenate({a, c}, 0), ShapeError);
  EXPECT_THROW(concatenate({a, b}, 2), IndexError);
  EXPECT_THROW(concatenate({Array::full({}, 1), Array::full({}, 2)}), ValueError);
  EXPECT_THROW(stack({a, b}), ShapeError);
  EXPECT_THROW(stack({a, a}, 3), IndexError);
  try {
    concatenate({a, a, b}, 0);
    ADD_FAILURE() << "expected a ShapeError";
  } catch (const ShapeError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("index 2"), std::string::npos) << message;
    EXPECT_NE(message.find("(2, 4)"), std::string::npos) << message;
    EXPECT_NE(message.find("(2, 3)"), std::string::npos) << message;
  }
}

SWITCHYARD_ON_EVERY_DEVICE(Join);

}  // namespace
}  // namespace switchyard::conformance
