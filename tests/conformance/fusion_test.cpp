// Fused kernels on every device: elementwise chains in float32, float64 and int32, several
// outputs of one kernel, reductions run with the expression they reduce, and views of pending
// results, at sizes that break naive code. Each is counted as one kernel on the device under test
// and checked against a float64 host reference.
#include <cstdint>
#include <span>

#include "conformance/conformance.hpp"
#include "conformance/reference.hpp"

namespace switchyard::conformance {
namespace {

const std::vector<std::int64_t> kFusedSizes = {0, 1, 17, (1 << 20) + 3};

class Fused : public OnEveryDevice {
 protected:
  std::vector<DType> float_dtypes() const {
    if (device_has_fp64()) return {DType::Float32, DType::Float64};
    return {DType::Float32};
  }

  // Evaluates the arrays together and expects one kernel on this device (none when there are
  // no elements to compute).
  void expect_one_kernel(std::span<const Array> arrays, bool empty) const {
    const Explanation e = explain([&] { eval(arrays); });
    ASSERT_EQ(e.kernels.size(), empty ? 0u : 1u) << e.to_string();
    for (const KernelReport& k : e.kernels)
      EXPECT_EQ(k.ran_on.rfind(GetParam(), 0), 0u) << k.ran_on;
  }
  void expect_one_kernel(const Array& a, bool empty) const {
    expect_one_kernel(std::span(&a, 1), empty);
  }
};

TEST_P(Fused, FloatChains) {
  for (const DType t : float_dtypes())
    for (const std::int64_t n : kFusedSizes) {
      const auto va = random_values(n, t, 1, -2, 2), vb = random_values(n, t, 2, -2, 2),
                 vc = random_values(n, t, 3, -2, 2);
      const Array a = host_array(va, {n}, t), b = host_array(vb, {n}, t),
                  c = host_array(vc, {n}, t);
      const Array y = where(greater(a, b), sin(a) * b, cos(c)) + sqrt(abs(a - c)) * 0.5 -
                      exp(b * 0.25) + maximum(a, c) * tanh(b);
      ASSERT_EQ(y.dtype(), t);
      expect_one_kernel(y, n == 0);
      std::vector<double> expected;
      for (std::int64_t i = 0; i < n; ++i)
        expected.push_back((va[i] > vb[i] ? std::sin(va[i]) * vb[i] : std::cos(vc[i])) +
                           std::sqrt(std::abs(va[i] - vc[i])) * 0.5 - std::exp(vb[i] * 0.25) +
                           std::max(va[i], vc[i]) * std::tanh(vb[i]));
      expect_close(y, expected, true, std::string(name(t)) + " chain, n = " + std::to_string(n));
    }
}

// int32 arithmetic wraps (two's complement), as NumPy's does.
double wrap32(double x) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(static_cast<std::int64_t>(x)));
}

TEST_P(Fused, Int32Chains) {
  for (const std::int64_t n : kFusedSizes) {
    const auto vk = random_values(n, DType::Int32, 4, -50, 50),
               vj = random_values(n, DType::Int32, 5, -50, 50);
    const Array k = host_array(vk, {n}, DType::Int32), j = host_array(vj, {n}, DType::Int32);
    const Array y = where(greater(k, j), k * 7 - j, mod(j, 5) + floor_divide(k, 3)) * 3 +
                    maximum(abs(k), j) - negative(j) + k * 123456789;
    ASSERT_EQ(y.dtype(), DType::Int32);
    expect_one_kernel(y, n == 0);
    std::vector<double> expected;
    for (std::int64_t i = 0; i < n; ++i) {
      const double chosen = vk[i] > vj[i] ? vk[i] * 7 - vj[i]
                                          : python_mod(vj[i], 5, true) + floor_div(vk[i], 3, true);
      const double rest = chosen * 3 + std::max(std::abs(vk[i]), vj[i]) + vj[i];
      expected.push_back(wrap32(rest + wrap32(vk[i] * 123456789)));
    }
    expect_close(y, expected, false, "int32 chain, n = " + std::to_string(n));
  }
}

TEST_P(Fused, SeveralOutputsOfOneKernel) {
  for (const std::int64_t n : kFusedSizes) {
    const auto va = random_values(n, DType::Float32, 6), vb = random_values(n, DType::Float32, 7);
    const Array a = host_array(va, {n}, DType::Float32), b = host_array(vb, {n}, DType::Float32);
    const Array outputs[] = {a * b + 1.0, sin(a) - b, where(greater(a, b), a, b) * 2.0,
                             greater(a, b)};
    expect_one_kernel(outputs, n == 0);
    std::vector<double> e1, e2, e3, e4;
    for (std::int64_t i = 0; i < n; ++i) {
      e1.push_back(va[i] * vb[i] + 1);
      e2.push_back(std::sin(va[i]) - vb[i]);
      e3.push_back(std::max(va[i], vb[i]) * 2);
      e4.push_back(va[i] > vb[i]);
    }
    const std::string size = ", n = " + std::to_string(n);
    expect_close(outputs[0], e1, false, "a * b + 1" + size);
    expect_close(outputs[1], e2, true, "sin(a) - b" + size);
    expect_close(outputs[2], e3, false, "where(a > b, a, b) * 2" + size);
    expect_close(outputs[3], e4, false, "a > b" + size);
  }
}

// The producer a * b + sin(c) reduced over all of a (rows, cols) matrix, its first or its last
// axis: sum always; max and argmin where there is something to reduce.
TEST_P(Fused, ReductionsWithTheirProducer) {
  const std::vector<Shape> shapes = {{0, 5},      {5, 0}, {1, 1}, {17, 17}, {1, (1 << 20) + 3},
                                     {1025, 1023}};
  for (const DType t : float_dtypes())
    for (const Shape& shape : shapes) {
      const std::int64_t rows = shape[0], cols = shape[1], n = rows * cols;
      const auto va = random_values(n, t, 8), vb = random_values(n, t, 9),
                 vc = random_values(n, t, 10);
      const Array e =
          host_array(va, shape, t) * host_array(vb, shape, t) + sin(host_array(vc, shape, t));
      std::vector<double> ve;
      for (std::int64_t i = 0; i < n; ++i) ve.push_back(va[i] * vb[i] + std::sin(vc[i]));
      const double element_tol = tolerance(t, true);
      for (const std::optional<int> axis :
           {std::optional<int>{}, std::optional<int>{0}, std::optional<int>{-1}}) {
        // Lines of the reduction: each a list of flat indices into the matrix.
        std::vector<std::vector<std::int64_t>> lines;
        if (!axis) lines.emplace_back();
        const std::int64_t count = !axis ? 1 : *axis == 0 ? cols : rows;
        for (std::int64_t l = 0; l < count && axis; ++l) lines.emplace_back();
        for (std::int64_t i = 0; i < rows; ++i)
          for (std::int64_t j = 0; j < cols; ++j)
            lines[!axis ? 0 : *axis == 0 ? j : i].push_back(i * cols + j);
        const std::int64_t length = !axis ? n : *axis == 0 ? rows : cols;
        const std::string what = std::string(name(t)) + " " + to_string(shape) + " axis " +
                                 (axis ? std::to_string(*axis) : "all");
        std::vector<double> sums, sum_tols, highest, highest_tols, lowest;
        for (const auto& line : lines) {
          std::vector<double> terms;
          for (std::int64_t at : line) terms.push_back(ve[at]);
          long double exact = 0;
          for (double x : terms) exact += x;
          sums.push_back(static_cast<double>(exact));
          sum_tols.push_back(sum_tolerance(t, true, terms));
          if (terms.empty()) continue;
          highest.push_back(*std::max_element(terms.begin(), terms.end()));
          highest_tols.push_back(element_tol * std::max(1.0, std::abs(highest.back())));
          lowest.push_back(*std::min_element(terms.begin(), terms.end()));
        }
        const Array total = sum(e, axis);
        expect_one_kernel(total, n == 0);
        expect_within(total, sums, sum_tols, "sum, " + what);
        if (length == 0) continue;
        const Array top = max(e, axis), where_lowest = argmin(e, axis);
        expect_one_kernel(top, n == 0);
        expect_one_kernel(where_lowest, n == 0);
        expect_within(top, highest, highest_tols, "max, " + what);
        // Values closer than the dtype resolves may swap places: any of them is the argmin.
        const auto indices = where_lowest.to_vector<std::int64_t>();
        ASSERT_EQ(indices.size(), lines.size()) << what;
        for (std::size_t l = 0; l < lines.size(); ++l) {
          ASSERT_GE(indices[l], 0) << what;
          ASSERT_LT(indices[l], length) << what;
          const double found = ve[lines[l][indices[l]]];
          EXPECT_LE(found, lowest[l] + 2 * element_tol * std::max(1.0, std::abs(lowest[l])))
              << "argmin, " << what << ", line " << l << ": index " << indices[l];
        }
      }
    }
}

// Views of pending results and of stored data (strided, reversed, transposed, broadcast) inside
// one fused kernel.
TEST_P(Fused, ViewsOfPendingResults) {
  for (const auto& dims : {std::pair<std::int64_t, std::int64_t>{1, 1}, {17, 19}, {1023, 1025}}) {
    const std::int64_t rows = dims.first, cols = dims.second;
    const auto va = random_values(rows * cols * 2, DType::Float32, 11);
    const auto vb = random_values(cols * rows, DType::Float32, 12);
    const auto vx = random_values(rows, DType::Float32, 13);
    // a: every other column of a (rows, 2 cols) matrix; b: a transposed (cols, rows) matrix.
    const Array a =
        host_array(va, {rows, 2 * cols}, DType::Float32).slice(1, std::nullopt, std::nullopt, 2);
    const Array b = host_array(vb, {cols, rows}, DType::Float32).transpose();
    const Array x = host_array(vx, {rows}, DType::Float32);
    const Array p = a * b;  // pending (rows, cols)
    const Array column = (x - 1.0).expand_dims(1);
    auto p_at = [&](std::int64_t i, std::int64_t j) {
      return va[i * 2 * cols + 2 * j] * vb[j * rows + i];
    };
    // p reversed along both axes, then every other row of its transpose, plus a broadcast column.
    const Array reversed =
        p.slice(0, std::nullopt, std::nullopt, -1).slice(1, std::nullopt, std::nullopt, -1);
    const Array y = reversed + column * 0.5;
    const Array z = reversed.transpose().slice(0, std::nullopt, std::nullopt, 2) - 2.0;
    expect_one_kernel(y, false);
    expect_one_kernel(z, false);
    std::vector<double> ey, ez;
    for (std::int64_t i = 0; i < rows; ++i)
      for (std::int64_t j = 0; j < cols; ++j)
        ey.push_back(p_at(rows - 1 - i, cols - 1 - j) + (vx[i] - 1) * 0.5);
    for (std::int64_t i = 0; i < cols; i += 2)
      for (std::int64_t j = 0; j < rows; ++j) ez.push_back(p_at(rows - 1 - j, cols - 1 - i) - 2);
    const std::string shape = " of " + std::to_string(rows) + "x" + std::to_string(cols);
    expect_close(y, ey, false, "p[::-1, ::-1] + (x - 1)[:, None] * 0.5" + shape);
    expect_close(z, ez, false, "p[::-1, ::-1].T[::2] - 2" + shape);
  }
}

SWITCHYARD_ON_EVERY_DEVICE(Fused);

}  // namespace
}  // namespace switchyard::conformance
