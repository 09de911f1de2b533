// matmul (gemm and gemv) through each backend's BLAS, with transposed and sliced operands.
#include "conformance/conformance.hpp"

namespace switchyard::conformance {
namespace {

class Linalg : public OnEveryDevice {};

std::vector<double> naive_matmul(const std::vector<double>& a, const std::vector<double>& b,
                                 std::int64_t m, std::int64_t k, std::int64_t n) {
  std::vector<double> c(m * n, 0.0);
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t p = 0; p < k; ++p)
      for (std::int64_t j = 0; j < n; ++j) c[i * n + j] += a[i * k + p] * b[p * n + j];
  return c;
}

TEST_P(Linalg, GemmAndGemvMatchNaiveLoops) {
  for (DType t : {DType::Float32, DType::Float64}) {
    if (!device_has_fp64() && t == DType::Float64) continue;
    for (auto [m, k, n] : {std::tuple<std::int64_t, std::int64_t, std::int64_t>{1, 1, 1},
                           {7, 5, 3},
                           {64, 33, 17},
                           {130, 257, 65}}) {
      const auto va = random_values(m * k, t, 1), vb = random_values(k * n, t, 2);
      const Array a = host_array(va, {m, k}, t), b = host_array(vb, {k, n}, t);
      const std::string what = "matmul " + std::string(name(t)) + " " + std::to_string(m) + "x" +
                               std::to_string(k) + "x" + std::to_string(n);
      // BLAS accumulates k products in its own order: the error grows with k.
      const double scale = 10 * std::sqrt(double(k));
      auto near = [&](const Array& got, const std::vector<double>& want, const std::string& w) {
        const auto g = got.to_vector<double>();
        ASSERT_EQ(g.size(), want.size()) << w;
        for (std::size_t i = 0; i < g.size(); ++i)
          ASSERT_NEAR(g[i], want[i],
                      scale * tolerance(t, false) * std::max(1.0, std::abs(want[i])) * 4)
              << w << " element " << i;
      };
      near(matmul(a, b), naive_matmul(va, vb, m, k, n), what);
      // A stored transposed (column-major) is read in place.
      near(matmul(host_array(va, {m, k}, t).transpose().copy().transpose(), b),
           naive_matmul(va, vb, m, k, n), what + " with A transposed in memory");
      const auto x = random_values(k, t, 3);
      near(matmul(a, host_array(x, {k}, t)), naive_matmul(va, x, m, k, 1), what + " gemv");
      near(matmul(host_array(va, {m, k}, t).transpose().copy().transpose(), host_array(x, {k}, t)),
           naive_matmul(va, x, m, k, 1), what + " gemv with A transposed in memory");
    }
  }
}

TEST_P(Linalg, MismatchedShapesAndIntegerOperandsAreTypedErrors) {
  const Array a = Array::ones({3, 4}), b = Array::ones({5, 2});
  EXPECT_THROW(matmul(a, b), ShapeError);
  EXPECT_THROW(matmul(Array::ones({3, 4}, DType::Int32), Array::ones({4, 2}, DType::Int32)),
               DTypeError);
  EXPECT_THROW(matmul(Array::ones({3}), Array::ones({3})), ShapeError);
}

SWITCHYARD_ON_EVERY_DEVICE(Linalg);

}  // namespace
}  // namespace switchyard::conformance
