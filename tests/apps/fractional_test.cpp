// Fractional derivatives against closed forms and float64 host loops, the relaxation solver
// against the Mittag-Leffler function, and the Mittag-Leffler function against closed forms.
#include "switchyard/apps/fractional.hpp"

#include <cmath>
#include <numbers>
#include <vector>

#include "conformance/conformance.hpp"

namespace switchyard::apps::fractional {
namespace {

using conformance::OnEveryDevice;

class FractionalMethods : public OnEveryDevice {
 protected:
  // The direct method runs everywhere; the FFT method only where the device has an FFT routine
  // (a device without one refuses it, as the conformance suite's Fft tests check).
  std::vector<Method> methods() const {
    if (device_has_fft()) return {Method::Direct, Method::Fft};
    return {Method::Direct};
  }
};

class Fractional : public FractionalMethods {
 protected:
  void SetUp() override {
    FractionalMethods::SetUp();
    if (!device_has_fp64()) GTEST_SKIP() << "float64 references need a float64 device";
  }
};

std::vector<double> samples_of_power(std::int64_t n, double h, double p) {
  std::vector<double> f(static_cast<std::size_t>(n));
  for (std::size_t k = 0; k < f.size(); ++k) f[k] = std::pow(static_cast<double>(k) * h, p);
  return f;
}

// D^α t^p = Γ(p+1)/Γ(p+1−α) t^{p−α} (Riemann–Liouville; Caputo's too when the Taylor terms
// below ⌈α⌉ vanish).
double exact_power_derivative(double alpha, double p, double t) {
  return std::tgamma(p + 1) / std::tgamma(p + 1 - alpha) * std::pow(t, p - alpha);
}

// The largest error over t ∈ [0.5, 1] of D^α t^p from n samples on [0, 1].
double power_error(double alpha, double p, Scheme scheme, Method method, std::int64_t n) {
  const double h = 1.0 / static_cast<double>(n - 1);
  const std::vector<double> d =
      derivative(Array::from_vector(samples_of_power(n, h, p)), alpha, h, scheme, method)
          .to_vector<double>();
  const bool caputo_zero = scheme == Scheme::Caputo && alpha > 1 && p == 1;  // f'' = 0
  double worst = 0;
  for (std::int64_t k = (n - 1) / 2; k < n; ++k) {
    const double t = static_cast<double>(k) * h;
    const double exact = caputo_zero ? 0.0 : exact_power_derivative(alpha, p, t);
    worst = std::max(worst, std::abs(d[static_cast<std::size_t>(k)] - exact));
  }
  return worst;
}

// The order each scheme reaches on smooth t^p (first order for GL and the second-difference
// scheme, 2 − α for L1), with a margin for the pre-asymptotic range.
double expected_order(Scheme scheme, double alpha) {
  if (scheme == Scheme::Caputo && alpha <= 1) return 0.85 * (2 - alpha);
  return 0.85;
}

struct PowerCase {
  Scheme scheme;
  double alpha, p;
};

TEST_P(Fractional, PowerFunctionsConvergeToClosedFormAtTheSchemesOrder) {
  std::vector<PowerCase> cases;
  for (const double alpha : {0.3, 0.5, 0.9, 1.0, 1.4, 1.8})
    for (const double p : {1.0, 2.0, 3.0})
      for (const Scheme scheme : {Scheme::GrunwaldLetnikov, Scheme::Caputo})
        cases.push_back({scheme, alpha, p});
  for (const PowerCase& c : cases) {
    for (const Method method : methods()) {
      const double coarse = power_error(c.alpha, c.p, c.scheme, method, 401);
      const double fine = power_error(c.alpha, c.p, c.scheme, method, 1601);
      SCOPED_TRACE(testing::Message()
                   << (c.scheme == Scheme::Caputo ? "Caputo" : "GL") << " alpha " << c.alpha
                   << " p " << c.p << " method " << (method == Method::Fft ? "fft" : "direct")
                   << ": error " << coarse << " -> " << fine);
      EXPECT_LT(fine, 0.05);
      if (coarse > 1e-9) {
        EXPECT_GT(std::log2(coarse / fine) / 2, expected_order(c.scheme, c.alpha));
      }
    }
  }
}

// y_n = c Σ_k w_k x_{n−k} straight from the scheme's definition, in float64 on the host.
std::vector<double> host_reference(const std::vector<double>& f, double alpha, double h,
                                   Scheme scheme) {
  const std::size_t n = f.size();
  std::vector<double> w(n), x(n, 0.0), y(n, 0.0);
  double c = std::pow(h, -alpha);
  if (scheme == Scheme::GrunwaldLetnikov) {
    for (std::size_t k = 0; k < n; ++k) w[k] = k == 0 ? 1 : w[k - 1] * (1 - (alpha + 1) / k);
    x = f;
  } else {
    const double power = alpha <= 1 ? 1 - alpha : 2 - alpha;
    for (std::size_t k = 0; k < n; ++k)
      w[k] = k == 0 ? 1 : std::pow(k + 1.0, power) - std::pow(k, power);
    c /= std::tgamma(alpha <= 1 ? 2 - alpha : 3 - alpha);
    for (std::size_t j = 1; j < n; ++j)
      x[j] = alpha <= 1 ? f[j] - f[j - 1]
                        : f[std::max<std::size_t>(j, 2)] - 2 * f[std::max<std::size_t>(j, 2) - 1] +
                              f[std::max<std::size_t>(j, 2) - 2];
  }
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = 0; k <= i; ++k) y[i] += c * w[k] * x[i - k];
  return y;
}

TEST_P(Fractional, BothMethodsMatchTheHostDefinitionOnRandomSignals) {
  for (const std::int64_t n : {1, 2, 3, 7, 64, 1000, 3001}) {
    const std::vector<double> f = conformance::random_values(n, DType::Float64, 7 + n, -1, 1);
    for (const double alpha : {0.4, 1.0, 1.6}) {
      for (const Scheme scheme : {Scheme::GrunwaldLetnikov, Scheme::Caputo}) {
        if (scheme == Scheme::Caputo && alpha > 1 && n < 3) continue;
        const std::vector<double> expected = host_reference(f, alpha, 0.01, scheme);
        double scale = 1e-300;
        for (double e : expected) scale = std::max(scale, std::abs(e));
        std::vector<double> tolerances(expected.size(), 1e-11 * scale);
        for (const Method method : methods())
          conformance::expect_within(derivative(Array::from_vector(f), alpha, 0.01, scheme, method),
                                     expected, tolerances,
                                     "n " + std::to_string(n) + " alpha " + std::to_string(alpha) +
                                         (method == Method::Fft ? " fft" : " direct"));
      }
    }
  }
}

using FractionalFloat32 = FractionalMethods;

TEST_P(FractionalFloat32, SamplesGiveFloat32Derivatives) {
  const std::vector<double> f = conformance::random_values(2000, DType::Float32, 3, -1, 1);
  const Array samples = conformance::host_array(f, Shape{2000}, DType::Float32);
  for (const Method method : methods()) {
    const Array d = derivative(samples, 0.5, 0.01, Scheme::Caputo, method);
    EXPECT_EQ(d.dtype(), DType::Float32);
    const std::vector<double> expected = host_reference(f, 0.5, 0.01, Scheme::Caputo);
    double scale = 0;
    for (double e : expected) scale = std::max(scale, std::abs(e));
    conformance::expect_within(d, expected, std::vector<double>(expected.size(), 2e-4 * scale),
                               method == Method::Fft ? "fft" : "direct");
  }
}

TEST_P(Fractional, RelaxationFollowsTheMittagLefflerSolution) {
  // Its history is an FFT convolution.
  if (!device_has_fft()) {
    EXPECT_THROW(relaxation(0.5, 1.5, 2, 0.01, 1000), ValueError) << GetParam();
    GTEST_SKIP() << GetParam() << " has no FFT routine";
  }
  for (const double alpha : {0.4, 0.8, 1.0, 1.5, 1.8}) {
    double previous_error = 0;
    for (const std::int64_t steps : {1000, 2000}) {
      const double h = 4.0 / steps, lambda = 1.5, y0 = 2;
      const std::vector<double> y = relaxation(alpha, lambda, y0, h, steps).to_vector<double>();
      ASSERT_EQ(y.size(), static_cast<std::size_t>(steps + 1));
      // Over t ∈ [1, 4]: the initial layer, where y' ~ t^{α−1}, converges at a lower order.
      double error = 0;
      for (std::int64_t k = steps / 4; k <= steps; ++k) {
        const double t = k * h;
        const double exact = y0 * mittag_leffler(alpha, -lambda * std::pow(t, alpha));
        error = std::max(error, std::abs(y[static_cast<std::size_t>(k)] - exact));
      }
      SCOPED_TRACE(testing::Message()
                   << "alpha " << alpha << " steps " << steps << " error " << error);
      // First order for α ≤ 1; for α > 1 the solution's y'' ~ t^{α−2} holds the second-difference
      // scheme to order about α − 1 (measured: 0.5 at α = 1.5, 0.85 at α = 1.8).
      EXPECT_LT(error, alpha <= 1 ? 3e-3 : 0.07);
      if (previous_error > 0) {
        EXPECT_LT(error, (alpha <= 1 ? 0.6 : 0.8) * previous_error);
      }
      previous_error = error;
    }
  }
}

// No DeviceScope: the scheduler places each kernel (and may move data between devices).
TEST(FractionalAuto, BothMethodsMatchTheHostDefinition) {
  const std::vector<double> f = conformance::random_values(1500, DType::Float64, 99, -1, 1);
  const std::vector<double> expected = host_reference(f, 0.7, 0.02, Scheme::Caputo);
  double scale = 0;
  for (double e : expected) scale = std::max(scale, std::abs(e));
  const Array pending = Array::from_vector(f) * 1.0;  // a lazy input is computed once
  for (const Method method : {Method::Direct, Method::Fft})
    conformance::expect_within(derivative(pending, 0.7, 0.02, Scheme::Caputo, method), expected,
                               std::vector<double>(expected.size(), 1e-11 * scale), "auto");
}

TEST(MittagLeffler, MatchesClosedForms) {
  for (const double x : {0.0, 0.3, 1.0, 2.5, 6.0, 15.0}) {
    EXPECT_NEAR(mittag_leffler(1.0, -x), std::exp(-x), 1e-14);
    EXPECT_NEAR(mittag_leffler(2.0, -x * x), std::cos(x), 1e-12);
    // E_{1/2}(−x) = e^{x²} erfc(x)
    const double half = std::exp(x * x) * std::erfc(x);
    EXPECT_NEAR(mittag_leffler(0.5, -x), half, 1e-9 * std::max(1.0, half)) << "x " << x;
    EXPECT_NEAR(mittag_leffler(0.5, x), std::exp(x * x) * std::erfc(-x),
                1e-12 * std::exp(x * x) * 2)
        << "x " << x;
  }
}

// Where the series still converges cleanly (|z| of a few units), it checks the integral branch
// for orders without a closed form, including the oscillating residue of α > 1.
TEST(MittagLeffler, IntegralBranchAgreesWithLongDoubleSeries) {
  for (const double alpha : {0.6, 0.8, 0.999, 0.99995, 1.0000001, 1.001, 1.3, 1.5, 1.75}) {
    for (const double z : {-1.5, -3.0, -6.0}) {
      long double sum = 0, largest_term = 0;
      for (int k = 0; k < 400; ++k) {
        const long double term = std::pow(static_cast<long double>(z), k) /
                                 std::tgamma(static_cast<long double>(alpha) * k + 1);
        sum += term;
        largest_term = std::max(largest_term, std::abs(term));
      }
      if (largest_term > 1e6) continue;  // the series cancels too much to be a reference there
      EXPECT_NEAR(mittag_leffler(alpha, z), static_cast<double>(sum), 1e-9)
          << "alpha " << alpha << " z " << z;
    }
  }
}

TEST(FractionalErrors, BadArgumentsAreTypedErrorsNamingTheParameter) {
  const Array f = Array::from_vector(std::vector<double>{0, 1, 2, 3});
  auto message_of = [](auto&& call) {
    try {
      call();
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  for (const double alpha : {0.0, 2.0, -0.5, 2.5, std::nan("")}) {
    EXPECT_THROW(derivative(f, alpha, 0.1), ValueError);
    EXPECT_THROW(relaxation(alpha, 1, 1, 0.1, 10), ValueError);
  }
  EXPECT_NE(message_of([&] { derivative(f, 2.0, 0.1); }).find("alpha"), std::string::npos);
  for (const double h : {0.0, -1.0, HUGE_VAL, std::nan("")}) {
    EXPECT_THROW(derivative(f, 0.5, h), ValueError);
    EXPECT_NE(message_of([&] { derivative(f, 0.5, h); }).find("h:"), std::string::npos);
  }
  EXPECT_THROW(derivative(Array::zeros(Shape{2, 3}, DType::Float64), 0.5, 0.1), ShapeError);
  EXPECT_THROW(derivative(Array::zeros(Shape{0}, DType::Float64), 0.5, 0.1), ShapeError);
  const Array bad = Array::from_vector(std::vector<double>{0, NAN, 2});
  EXPECT_THROW(derivative(bad, 0.5, 0.1), ValueError);
  EXPECT_NE(message_of([&] { derivative(bad, 0.5, 0.1); }).find("f:"), std::string::npos);
  EXPECT_THROW(derivative(f.slice(0, 0, 2), 1.5, 0.1, Scheme::Caputo), ValueError);
  EXPECT_THROW(relaxation(0.5, -1, 1, 0.1, 10), ValueError);
  EXPECT_THROW(relaxation(0.5, 1, 1, 0.1, 0), ValueError);
  EXPECT_THROW(mittag_leffler(2.5, 1), ValueError);
  EXPECT_THROW(grunwald_letnikov_weights(-1, 0.5), ValueError);
}

TEST(FractionalWeights, MatchTheirDefinitions) {
  const std::vector<double> w = grunwald_letnikov_weights(6, 0.5).to_vector<double>();
  // (−1)^k binom(1/2, k)
  const std::vector<double> binomial = {1, -0.5, -0.125, -0.0625, -0.0390625, -0.02734375};
  for (std::size_t k = 0; k < w.size(); ++k) EXPECT_DOUBLE_EQ(w[k], binomial[k]);
  const std::vector<double> b = caputo_weights(4, 0.5).to_vector<double>();
  for (std::size_t k = 0; k < b.size(); ++k)
    EXPECT_DOUBLE_EQ(b[k], std::sqrt(k + 1.0) - std::sqrt(static_cast<double>(k)));
  EXPECT_EQ(caputo_weights(3, 1.0).to_vector<double>(), (std::vector<double>{1, 0, 0}));
}

SWITCHYARD_ON_EVERY_DEVICE(Fractional);
SWITCHYARD_ON_EVERY_DEVICE(FractionalFloat32);

}  // namespace
}  // namespace switchyard::apps::fractional
