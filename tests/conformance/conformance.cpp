#include "conformance/conformance.hpp"

#include <algorithm>
#include <random>
#include <stdexcept>

#include "conformance/reference.hpp"

namespace switchyard::conformance {

std::vector<std::string> device_ids() {
  std::vector<std::string> ids;
  for (const auto& d : devices()) ids.push_back(d.id());
  return ids;
}

std::string device_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string s = info.param;
  std::replace(s.begin(), s.end(), ':', '_');
  return s;
}

DeviceInfo OnEveryDevice::device_info() const {
  for (const auto& d : devices())
    if (d.id() == GetParam()) return d;
  throw std::invalid_argument("conformance: " + GetParam() + " is not a device here");
}

std::vector<double> random_values(std::int64_t n, DType dtype, std::uint64_t seed, double lo,
                                  double hi) {
  // Made on the host with the standard library, independent of the code under test.
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> uniform(lo, hi);
  std::vector<double> v(static_cast<std::size_t>(n));
  for (auto& x : v) {
    const double u = uniform(rng);
    if (dtype == DType::Bool)
      x = u < (lo + hi) / 2;
    else if (is_integer(dtype))
      x = std::floor(u);
    else if (dtype == DType::Float32)
      x = static_cast<float>(u);
    else
      x = u;
  }
  return v;
}

Array host_array(const std::vector<double>& values, const Shape& shape, DType dtype) {
  return visit_dtype(dtype, [&](auto zero) {
    using T = decltype(zero);
    if constexpr (std::is_same_v<T, bool>) {
      std::vector<std::uint8_t> bytes(values.begin(), values.end());
      return Array::from_host(bytes.data(), bytes.size(), shape, dtype);
    } else {
      std::vector<T> typed(values.begin(), values.end());
      return Array::from_host(typed.data(), typed.size() * sizeof(T), shape, dtype);
    }
  });
}

double tolerance(DType t, bool transcendental) {
  if (t == DType::Float32) return transcendental ? 2e-5 : 2e-6;
  if (t == DType::Float64) return transcendental ? 1e-13 : 1e-14;
  return 0;
}

double sum_tolerance(DType t, bool transcendental, const std::vector<double>& terms) {
  double squares = 0, sum_abs = 0, sum = 0;
  for (double x : terms) squares += x * x, sum_abs += std::abs(x), sum += x;
  const double terms_error = tolerance(t, transcendental) *
                             std::log2(static_cast<double>(terms.size()) + 2) *
                             std::max(1.0, std::sqrt(squares));
  return terms_error + sum_error_bound(t, static_cast<std::int64_t>(terms.size()), sum_abs, sum);
}

void expect_close(const Array& actual, const std::vector<double>& expected, bool transcendental,
                  const std::string& what) {
  const double tol = tolerance(actual.dtype(), transcendental);
  std::vector<double> tolerances(expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i)
    tolerances[i] = tol * std::max(1.0, std::abs(expected[i]));
  expect_within(actual, expected, tolerances, what);
}

void expect_within(const Array& actual, const std::vector<double>& expected,
                   const std::vector<double>& tolerances, const std::string& what) {
  ASSERT_EQ(actual.size(), static_cast<std::int64_t>(expected.size())) << what;
  const std::vector<double> got = actual.to_vector<double>();
  int reported = 0;
  std::int64_t mismatches = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double e = expected[i], g = got[i];
    const bool ok = std::isnan(e)   ? std::isnan(g)
                    : std::isinf(e) ? g == e
                                    : std::abs(g - e) <= tolerances[i];
    if (ok) continue;
    ++mismatches;
    if (reported++ < 5)
      ADD_FAILURE() << what << ": element " << i << " is " << g << ", expected " << e
                    << " (tolerance " << tolerances[i] << ")";
  }
  EXPECT_EQ(mismatches, 0) << what << ": " << mismatches << " of " << got.size()
                           << " elements differ";
}

}  // namespace switchyard::conformance
