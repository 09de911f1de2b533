// Broadcasting, strided, transposed and reversed views as kernel inputs: no copies, right values.
#include "conformance/conformance.hpp"
#include "conformance/reference.hpp"

namespace switchyard::conformance {
namespace {

class Layouts : public OnEveryDevice {};

TEST_P(Layouts, BroadcastRowAgainstColumn) {
  for (auto [rows, cols] :
       {std::pair<std::int64_t, std::int64_t>{1, 1}, {7, 1}, {7, 13}, {1023, 1025}}) {
    const auto vc = random_values(rows, DType::Float32, 1),
               vr = random_values(cols, DType::Float32, 2);
    const Array column = host_array(vc, {rows, 1}, DType::Float32);
    const Array row = host_array(vr, {cols}, DType::Float32);
    const Array out = column * row + 1.5;
    ASSERT_EQ(out.shape(), (Shape{rows, cols}));
    std::vector<double> expected;
    for (std::int64_t i = 0; i < rows; ++i)
      for (std::int64_t j = 0; j < cols; ++j)
        expected.push_back(as_dtype(as_dtype(vc[i] * vr[j], DType::Float32) + 1.5, DType::Float32));
    expect_close(out, expected, false, "column * row broadcast " + to_string(out.shape()));
  }
}

TEST_P(Layouts, TransposedAndSteppedViews) {
  const std::int64_t rows = 37, cols = 53;
  const auto v = random_values(rows * cols, DType::Float64, 3);
  const Array m = host_array(v, {rows, cols}, DType::Float64);
  if (!device_has_fp64()) return;
  // m.T + m.T[::-1, ::2] style expression over views.
  const Array t = m.transpose();  // (53, 37), strides (1, 53)
  const Array s = m.slice(1, std::nullopt, std::nullopt, -1).transpose();  // reversed columns
  const Array out = sin(t) * s;
  std::vector<double> expected;
  for (std::int64_t i = 0; i < cols; ++i)
    for (std::int64_t j = 0; j < rows; ++j)
      expected.push_back(std::sin(v[j * cols + i]) * v[j * cols + (cols - 1 - i)]);
  expect_close(out, expected, true, "sin(m.T) * m[:, ::-1].T");

  const Array stepped = m.slice(0, 1, std::nullopt, 3).slice(1, -2, 0, -5);
  std::vector<double> expected_stepped;
  for (std::int64_t i = 1; i < rows; i += 3)
    for (std::int64_t j = cols - 2; j > 0; j -= 5) expected_stepped.push_back(v[i * cols + j] * 2);
  expect_close(stepped * 2.0, expected_stepped, false, "m[1::3, -2:0:-5] * 2");
}

TEST_P(Layouts, LargeStridedInput) {
  const std::int64_t n = (1 << 20) + 3;
  const auto v = random_values(2 * n, DType::Float32, 4);
  const Array a = host_array(v, {2 * n}, DType::Float32).slice(0, 1, std::nullopt, 2);
  ASSERT_EQ(a.size(), n);
  std::vector<double> expected(n);
  for (std::int64_t i = 0; i < n; ++i) expected[i] = as_dtype(v[2 * i + 1] + 1, DType::Float32);
  expect_close(a + 1.0f, expected, false, "a[1::2] + 1");
}

TEST_P(Layouts, BroadcastScalarAndZeroDimensional) {
  const Array scalar = host_array({3}, {}, DType::Int64);
  const Array v = host_array({1, 2, 3, 4, 5}, {5}, DType::Int64);
  expect_close(v * scalar, {3, 6, 9, 12, 15}, false, "v * 0-d array");
  expect_close(scalar.broadcast_to({2, 2}) + 1, {4, 4, 4, 4}, false, "broadcast_to + 1");
}

TEST_P(Layouts, ThreeDimensionalPermutedMixedDTypes) {
  const auto va = random_values(2 * 3 * 4, DType::Int32, 5);
  const auto vb = random_values(4 * 3, DType::Float32, 6);
  const Array a = host_array(va, {2, 3, 4}, DType::Int32).permute({2, 0, 1});  // (4, 2, 3)
  const Array b = host_array(vb, {4, 3}, DType::Float32).expand_dims(1);       // (4, 1, 3)
  if (!device_has_fp64()) return;
  const Array out = a + b;
  ASSERT_EQ(out.dtype(), DType::Float64);
  std::vector<double> expected;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 2; ++j)
      for (int k = 0; k < 3; ++k) expected.push_back(va[j * 12 + k * 4 + i] + vb[i * 3 + k]);
  expect_close(out, expected, false, "permuted int32 + expanded float32");
}

SWITCHYARD_ON_EVERY_DEVICE(Layouts);

}  // namespace
}  // namespace switchyard::conformance
