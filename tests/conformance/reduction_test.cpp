// Reductions over all elements and over each axis, every dtype, NaN and ties.
#include <numeric>

#include "conformance/conformance.hpp"
#include "conformance/reference.hpp"
#include "ir/kernel_ir.hpp"

namespace switchyard::conformance {
namespace {

class Reductions : public OnEveryDevice {};

struct Folded {
  double value;
  std::int64_t index;
};

// Reference fold in float64 (long double for sums, so the reference is the more accurate side).
Folded fold(const std::vector<double>& v, ir::ReduceOp op) {
  long double acc = op == ir::ReduceOp::Prod ? 1 : 0;
  Folded best{v.empty() ? 0 : v[0], 0};
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (op == ir::ReduceOp::Sum) acc += v[i];
    if (op == ir::ReduceOp::Prod) acc *= v[i];
    const bool is_min = op == ir::ReduceOp::Min || op == ir::ReduceOp::ArgMin;
    if (std::isnan(best.value)) continue;
    if (std::isnan(v[i]) || (is_min ? v[i] < best.value : v[i] > best.value))
      best = {v[i], static_cast<std::int64_t>(i)};
  }
  if (op == ir::ReduceOp::Sum || op == ir::ReduceOp::Prod) return {static_cast<double>(acc), 0};
  return best;
}

Array run(ir::ReduceOp op, const Array& a, std::optional<int> axis) {
  switch (op) {
    case ir::ReduceOp::Sum:
      return sum(a, axis);
    case ir::ReduceOp::Prod:
      return prod(a, axis);
    case ir::ReduceOp::Min:
      return min(a, axis);
    case ir::ReduceOp::Max:
      return max(a, axis);
    case ir::ReduceOp::ArgMin:
      return argmin(a, axis);
    case ir::ReduceOp::ArgMax:
      return argmax(a, axis);
  }
  return {};
}

constexpr ir::ReduceOp kOps[] = {ir::ReduceOp::Sum, ir::ReduceOp::Prod,   ir::ReduceOp::Min,
                                 ir::ReduceOp::Max, ir::ReduceOp::ArgMin, ir::ReduceOp::ArgMax};

bool is_arg(ir::ReduceOp op) {
  return op == ir::ReduceOp::ArgMin || op == ir::ReduceOp::ArgMax;
}

TEST_P(Reductions, OverAllElements) {
  for (DType t : kAllDTypes) {
    if (!device_has_fp64() && t == DType::Float64) continue;
    for (std::int64_t n : kSizes)
      for (ir::ReduceOp op : kOps) {
        const bool big = n > 2000;
        if (big && op == ir::ReduceOp::Prod) continue;  // overflows to inf either way
        // Products of many values in [-4, 4) overflow; keep them near 1.
        const auto v = op == ir::ReduceOp::Prod ? random_values(n, t, n, 0.5, 1.5)
                                                : random_values(n, t, n + 100);
        const Array a = host_array(v, {n}, t);
        const std::string what =
            std::string(ir::name(op)) + "(" + std::string(name(t)) + ") n=" + std::to_string(n);
        if (n == 0 && op != ir::ReduceOp::Sum && op != ir::ReduceOp::Prod) {
          EXPECT_THROW(run(op, a, std::nullopt), ValueError) << what;
          continue;
        }
        const Array out = run(op, a, std::nullopt);
        ASSERT_EQ(out.dtype(), ir::reduce_result(op, t)) << what;
        ASSERT_EQ(out.shape(), Shape{}) << what;
        const Folded f = fold(v, op);
        if (is_arg(op)) {
          EXPECT_EQ(out.item<std::int64_t>(), f.index) << what;
        } else {
          // Sums within pairwise summation's bound, products within n roundings, in the
          // result's dtype (exact for integers); min and max are one of the values.
          const DType result = ir::reduce_result(op, t);
          double sum_abs = 0;
          for (double x : v) sum_abs += std::abs(x);
          const double tol = op == ir::ReduceOp::Sum ? sum_error_bound(result, n, sum_abs, f.value)
                             : op == ir::ReduceOp::Prod
                                 ? dot_error_bound(result, n, std::abs(f.value), f.value)
                                 : 0;
          EXPECT_NEAR(out.item<double>(), f.value, tol) << what;
        }
      }
  }
}

TEST_P(Reductions, OverEachAxisOfAMatrixAndAView) {
  const std::int64_t rows = 33, cols = 65;
  for (DType t : {DType::Int32, DType::Float32, DType::Float64}) {
    if (!device_has_fp64() && t == DType::Float64) continue;
    const auto v = random_values(rows * cols, t, 77);
    const Array m = host_array(v, {rows, cols}, t);
    for (const bool transposed : {false, true}) {
      const Array a = transposed ? m.transpose() : m;  // (cols, rows) view with strides (1, cols)
      const std::int64_t r = a.shape()[0], c = a.shape()[1];
      auto at = [&](std::int64_t i, std::int64_t j) {
        return transposed ? v[j * cols + i] : v[i * cols + j];
      };
      for (int axis : {0, 1, -1})
        for (ir::ReduceOp op : kOps) {
          if (op == ir::ReduceOp::Prod) continue;
          const Array out = run(op, a, axis);
          const int ax = axis < 0 ? 1 : axis;
          const std::int64_t outer = ax == 0 ? c : r, inner = ax == 0 ? r : c;
          ASSERT_EQ(out.shape(), Shape{outer});
          std::vector<double> expected, sum_tolerances;
          for (std::int64_t o = 0; o < outer; ++o) {
            std::vector<double> line;
            for (std::int64_t i = 0; i < inner; ++i) line.push_back(ax == 0 ? at(i, o) : at(o, i));
            const Folded f = fold(line, op);
            expected.push_back(is_arg(op) ? static_cast<double>(f.index) : f.value);
            double sum_abs = 0;
            for (double x : line) sum_abs += std::abs(x);
            sum_tolerances.push_back(
                sum_error_bound(ir::reduce_result(op, t), inner, sum_abs, f.value));
          }
          const std::string what = std::string(ir::name(op)) + " axis " + std::to_string(axis) +
                                   (transposed ? " of a transposed " : " of a ") +
                                   std::string(name(t)) + " matrix";
          if (op == ir::ReduceOp::Sum)
            expect_within(out, expected, sum_tolerances, what);
          else
            expect_close(out, expected, false, what);
        }
    }
  }
}

TEST_P(Reductions, NaNPropagatesAndArgTakesFirstOccurrence) {
  const Array a = host_array({3, 1, 5, 1, 5, 0, 0}, {7}, DType::Float32);
  EXPECT_EQ(argmin(a).item<std::int64_t>(), 5);
  EXPECT_EQ(argmax(a).item<std::int64_t>(), 2);
  const Array with_nan = host_array({3, NAN, 5, NAN, -1}, {5}, DType::Float32);
  EXPECT_TRUE(std::isnan(min(with_nan).item<double>()));
  EXPECT_TRUE(std::isnan(max(with_nan).item<double>()));
  EXPECT_TRUE(std::isnan(sum(with_nan).item<double>()));
  EXPECT_EQ(argmax(with_nan).item<std::int64_t>(), 1);
  EXPECT_EQ(argmin(with_nan).item<std::int64_t>(), 1);
}

TEST_P(Reductions, SumsPromoteLikeNumPy) {
  const Array b = host_array({1, 0, 1, 1}, {4}, DType::Bool);
  EXPECT_EQ(sum(b).dtype(), DType::Int64);
  EXPECT_EQ(sum(b).item<std::int64_t>(), 3);
  const Array i = host_array({2147483647, 2147483647}, {2}, DType::Int32);
  EXPECT_EQ(sum(i).item<std::int64_t>(), 4294967294);  // int32 sums accumulate in int64
  EXPECT_EQ(sum(Array::zeros({0, 3}), 0).to_vector<float>(), std::vector<float>(3, 0.0f));
  EXPECT_EQ(prod(Array::zeros({2, 0}), 1).to_vector<float>(), std::vector<float>(2, 1.0f));
}

TEST_P(Reductions, MeanOfIntegersIsFloat64) {
  if (!device_has_fp64()) return;
  const Array i = host_array({1, 2, 3, 4}, {2, 2}, DType::Int32);
  EXPECT_EQ(mean(i).dtype(), DType::Float64);
  EXPECT_DOUBLE_EQ(mean(i).item<double>(), 2.5);
  EXPECT_EQ(mean(i, 0).to_vector<double>(), (std::vector<double>{2, 3}));
}

SWITCHYARD_ON_EVERY_DEVICE(Reductions);

}  // namespace
}  // namespace switchyard::conformance
