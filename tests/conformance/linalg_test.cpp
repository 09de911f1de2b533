// matmul for every operand kind: gemm and gemv through each backend's BLAS, batched products with
// broadcast batch axes, the fused dot product and integer and bool products, with views.
#include "conformance/conformance.hpp"
#include "conformance/reference.hpp"

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

// The bound of each element of a·b computed in dtype t: a dot product of length k, summed by
// BLAS in its own order (reference.hpp's dot_error_bound).
std::vector<double> matmul_tolerances(DType t, const std::vector<double>& a,
                                      const std::vector<double>& b, std::int64_t m, std::int64_t k,
                                      std::int64_t n) {
  std::vector<double> abs_a(a.size()), abs_b(b.size());
  for (std::size_t i = 0; i < a.size(); ++i) abs_a[i] = std::abs(a[i]);
  for (std::size_t i = 0; i < b.size(); ++i) abs_b[i] = std::abs(b[i]);
  const std::vector<double> want = naive_matmul(a, b, m, k, n);
  const std::vector<double> magnitude = naive_matmul(abs_a, abs_b, m, k, n);
  std::vector<double> tolerances(want.size());
  for (std::size_t i = 0; i < want.size(); ++i)
    tolerances[i] = dot_error_bound(t, k, magnitude[i], want[i]);
  return tolerances;
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
      const auto product = naive_matmul(va, vb, m, k, n);
      const auto tolerances = matmul_tolerances(t, va, vb, m, k, n);
      expect_within(matmul(a, b), product, tolerances, what);
      // A stored transposed (column-major) is read in place.
      expect_within(matmul(host_array(va, {m, k}, t).transpose().copy().transpose(), b), product,
                    tolerances, what + " with A transposed in memory");
      const auto x = random_values(k, t, 3);
      const auto gemv = naive_matmul(va, x, m, k, 1);
      const auto gemv_tolerances = matmul_tolerances(t, va, x, m, k, 1);
      expect_within(matmul(a, host_array(x, {k}, t)), gemv, gemv_tolerances, what + " gemv");
      expect_within(
          matmul(host_array(va, {m, k}, t).transpose().copy().transpose(), host_array(x, {k}, t)),
          gemv, gemv_tolerances, what + " gemv with A transposed in memory");
    }
  }
}

// Row-major batches of matrices: element (p, i, j) of a batch × rows × cols table.
struct Batch {
  std::vector<double> values;
  std::int64_t batch, rows, cols;
  double at(std::int64_t p, std::int64_t i, std::int64_t j) const {
    return values[(p % batch) * rows * cols + i * cols + j];  // p % batch: broadcast batch
  }
};

// Σ_k a[p, i, k]·b[p, k, j] in float64 (exact for the integers used here).
std::vector<double> batched_matmul(const Batch& a, const Batch& b, std::int64_t batch) {
  std::vector<double> c;
  for (std::int64_t p = 0; p < batch; ++p)
    for (std::int64_t i = 0; i < a.rows; ++i)
      for (std::int64_t j = 0; j < b.cols; ++j) {
        double s = 0;
        for (std::int64_t q = 0; q < a.cols; ++q) s += a.at(p, i, q) * b.at(p, q, j);
        c.push_back(s);
      }
  return c;
}

TEST_P(Linalg, DotOfTwoVectorsIsOneFusedKernel) {
  for (DType t : {DType::Float32, DType::Float64}) {
    if (!device_has_fp64() && t == DType::Float64) continue;
    for (std::int64_t n : kSizes) {
      const auto x = random_values(n, t, 4), y = random_values(n, t, 5);
      const Array a = host_array(x, {n}, t), b = host_array(y, {n}, t);
      std::vector<double> terms(n);
      double want = 0;
      for (std::int64_t i = 0; i < n; ++i) want += terms[i] = x[i] * y[i];
      const Array r = matmul(a, b);
      EXPECT_EQ(r.shape(), Shape{});
      EXPECT_EQ(r.dtype(), t);
      EXPECT_NEAR(r.item<double>(), want, sum_tolerance(t, false, terms)) << "n=" << n;
      // Reversed views are read in place.
      const Array ra = a.slice(0, std::nullopt, std::nullopt, -1);
      const Array rb = b.slice(0, std::nullopt, std::nullopt, -1);
      EXPECT_NEAR(matmul(ra, rb).item<double>(), want, sum_tolerance(t, false, terms));
    }
  }
  const Array a = host_array(random_values(1023, DType::Float32, 6), {1023}, DType::Float32);
  const Array dot = matmul(a * 2, a);
  const Explanation e = explain([&] { eval(dot); });
  EXPECT_EQ(e.kernels.size(), 1u) << e.to_string();
}

TEST_P(Linalg, VectorTimesMatrixIsGemvOfTheTranspose) {
  for (DType t : {DType::Float32, DType::Float64}) {
    if (!device_has_fp64() && t == DType::Float64) continue;
    for (auto [k, n] : {std::pair<std::int64_t, std::int64_t>{1, 1}, {7, 3}, {257, 65}}) {
      const auto x = random_values(k, t, 7), vb = random_values(k * n, t, 8);
      const Array v = host_array(x, {k}, t);
      const auto want = naive_matmul(x, vb, 1, k, n);
      const auto tolerances = matmul_tolerances(t, x, vb, 1, k, n);
      const Array r = matmul(v, host_array(vb, {k, n}, t));
      EXPECT_EQ(r.shape(), (Shape{n}));
      expect_within(r, want, tolerances, "vector times matrix");
      // B stored column-major: its transpose copied, viewed back.
      const Array column_major = host_array(vb, {k, n}, t).transpose().copy().transpose();
      expect_within(matmul(v, column_major), want, tolerances,
                    "vector times a column-major matrix");
    }
  }
}

TEST_P(Linalg, BatchedProductsBroadcastTheirBatchAxes) {
  const DType t = DType::Float32;
  const std::int64_t m = 5, k = 7, n = 3;
  const Batch a{random_values(2 * m * k, t, 9), 2, m, k};
  const Batch b{random_values(3 * k * n, t, 10), 3, k, n};
  const double tol = 40 * std::sqrt(double(k)) * tolerance(t, false) * 8;
  // (2, 1, m, k) · (3, k, n) → (2, 3, m, n): batch p = 3·i + j pairs a[i] with b[j].
  const Array r = matmul(host_array(a.values, {2, 1, m, k}, t), host_array(b.values, {3, k, n}, t));
  ASSERT_EQ(r.shape(), (Shape{2, 3, m, n}));
  std::vector<double> want;
  for (std::int64_t i = 0; i < 2; ++i)
    for (std::int64_t j = 0; j < 3; ++j)
      for (std::int64_t x = 0; x < m; ++x)
        for (std::int64_t y = 0; y < n; ++y) {
          double s = 0;
          for (std::int64_t q = 0; q < k; ++q) s += a.at(i, x, q) * b.at(j, q, y);
          want.push_back(s);
        }
  expect_within(r, want, std::vector<double>(want.size(), tol), "broadcast batch");

  // A batch of transposed views (stored (3, n, k), read as (3, k, n)) times one matrix.
  const Batch bt{random_values(3 * n * k, t, 11), 3, n, k};
  const Array b_views = host_array(bt.values, {3, n, k}, t).permute({0, 2, 1});
  Batch b_logical{{}, 3, k, n};
  for (std::int64_t p = 0; p < 3; ++p)
    for (std::int64_t q = 0; q < k; ++q)
      for (std::int64_t y = 0; y < n; ++y) b_logical.values.push_back(bt.at(p, y, q));
  const Batch one{random_values(m * k, t, 12), 1, m, k};
  expect_within(matmul(host_array(one.values, {m, k}, t), b_views),
                batched_matmul(one, b_logical, 3), std::vector<double>(3 * m * n, tol),
                "matrix times a batch of transposed views");

  // A vector times a batch: (k) · (3, k, n) → (3, n); a batch times a vector → (3, m).
  const Batch row{random_values(k, t, 13), 1, 1, k};
  const Array vr = matmul(host_array(row.values, {k}, t), host_array(b.values, {3, k, n}, t));
  ASSERT_EQ(vr.shape(), (Shape{3, n}));
  expect_within(vr, batched_matmul(row, b, 3), std::vector<double>(3 * n, tol),
                "vector times a batch");
  const Batch a3{random_values(3 * m * k, t, 14), 3, m, k};
  const Batch column{row.values, 1, k, 1};
  const Array bv = matmul(host_array(a3.values, {3, m, k}, t), host_array(row.values, {k}, t));
  ASSERT_EQ(bv.shape(), (Shape{3, m}));
  expect_within(bv, batched_matmul(a3, column, 3), std::vector<double>(3 * m, tol),
                "batch times a vector");

  // A batch against one broadcast matrix reads both in place: one library launch.
  const Array batch_a = host_array(a3.values, {3, m, k}, t);
  const Array shared_b = host_array(random_values(k * n, t, 15), {k, n}, t);
  const Explanation e = explain([&] { eval(matmul(batch_a, shared_b)); });
  EXPECT_EQ(e.kernels.size(), 1u) << e.to_string();
}

TEST_P(Linalg, IntegerAndBoolProductsFollowNumPy) {
  const std::int64_t m = 4, k = 9, n = 6;
  // int32 products and sums that overflow wrap around, as NumPy's int32 matmul.
  const Batch a{random_values(2 * m * k, DType::Int32, 16, -70000, 70000), 2, m, k};
  const Batch b{random_values(k * n, DType::Int32, 17, -70000, 70000), 1, k, n};
  const Array r = matmul(host_array(a.values, {2, m, k}, DType::Int32),
                         host_array(b.values, {k, n}, DType::Int32));
  ASSERT_EQ(r.dtype(), DType::Int32);
  ASSERT_EQ(r.shape(), (Shape{2, m, n}));
  std::vector<double> wrapped;
  for (std::int64_t p = 0; p < 2; ++p)
    for (std::int64_t i = 0; i < m; ++i)
      for (std::int64_t j = 0; j < n; ++j) {
        std::uint32_t s = 0;
        for (std::int64_t q = 0; q < k; ++q)
          s += static_cast<std::uint32_t>(static_cast<std::int64_t>(a.at(p, i, q)) *
                                          static_cast<std::int64_t>(b.at(p, q, j)));
        wrapped.push_back(static_cast<std::int32_t>(s));
      }
  expect_close(r, wrapped, false, "int32 matmul wraps");

  // int64 · int32 is int64; a transposed view; 1-D · 1-D gives shape ().
  const Batch c{random_values(k * m, DType::Int64, 18, -50, 50), 1, k, m};
  const Array ct = host_array(c.values, {k, m}, DType::Int64).transpose();  // (m, k)
  Batch c_logical{{}, 1, m, k};
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t q = 0; q < k; ++q) c_logical.values.push_back(c.at(0, q, i));
  const Batch b_small{random_values(k * n, DType::Int32, 19, -50, 50), 1, k, n};
  const Array r64 = matmul(ct, host_array(b_small.values, {k, n}, DType::Int32));
  EXPECT_EQ(r64.dtype(), DType::Int64);
  expect_close(r64, batched_matmul(c_logical, b_small, 1), false, "int64 of a transposed view");
  const Array dot =
      matmul(host_array({1, 2, 3}, {3}, DType::Int32), host_array({4, -5, 6}, {3}, DType::Int32));
  EXPECT_EQ(dot.shape(), Shape{});
  EXPECT_EQ(dot.item<std::int64_t>(), 1 * 4 - 2 * 5 + 3 * 6);

  // bool: whether any k has both true.
  const auto ba = random_values(m * k, DType::Bool, 20), bb = random_values(k * n, DType::Bool, 21);
  const Array rb = matmul(host_array(ba, {m, k}, DType::Bool), host_array(bb, {k, n}, DType::Bool));
  EXPECT_EQ(rb.dtype(), DType::Bool);
  std::vector<double> any_both = naive_matmul(ba, bb, m, k, n);
  for (double& x : any_both) x = x != 0;
  expect_close(rb, any_both, false, "bool matmul");

  // One kernel for the whole int64 product, the expression producing an operand included.
  const Array ia = host_array(a.values, {2, m, k}, DType::Int64);
  const Array ib = host_array(b.values, {k, n}, DType::Int64);
  const Explanation e = explain([&] { eval(matmul(ia + 1, ib)); });
  EXPECT_EQ(e.kernels.size(), 1u) << e.to_string();
}

TEST_P(Linalg, EmptyExtentsGiveZerosOfTheRightShape) {
  const Array z = matmul(Array::ones({3, 0}), Array::ones({0, 4}));
  EXPECT_EQ(z.shape(), (Shape{3, 4}));
  expect_close(z, std::vector<double>(12, 0), false, "k = 0");
  EXPECT_EQ(matmul(Array::ones({0, 2, 3}), Array::ones({3, 4})).shape(), (Shape{0, 2, 4}));
  EXPECT_EQ(matmul(Array::ones({2, 0}, DType::Int32), Array::ones({0}, DType::Int32)).dtype(),
            DType::Int32);
}

TEST_P(Linalg, BadShapesAreTypedErrors) {
  EXPECT_THROW(matmul(Array::ones({3, 4}), Array::ones({5, 2})), ShapeError);
  EXPECT_THROW(matmul(Array::ones({3}), Array::ones({4})), ShapeError);
  EXPECT_THROW(matmul(Array::full({}, 2), Array::ones({3})), ValueError);
  EXPECT_THROW(matmul(Array::ones({3}), Array::full({}, 2)), ValueError);
  try {
    matmul(Array::ones({2, 3, 4}), Array::ones({5, 4, 2}));
    ADD_FAILURE() << "expected a ShapeError";
  } catch (const ShapeError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("(2, 3, 4)"), std::string::npos) << message;
    EXPECT_NE(message.find("(5, 4, 2)"), std::string::npos) << message;
  }
}

SWITCHYARD_ON_EVERY_DEVICE(Linalg);

}  // namespace
}  // namespace switchyard::conformance
