// The field app on every device (and on "auto"): frames and statistics against a float64 host
// loop at small sizes, animate() against statistics(), one fused reduction kernel per call, and
// bad input.
#include <cmath>
#include <numbers>

#include "conformance/conformance.hpp"
#include "switchyard/apps/field.hpp"

namespace switchyard::apps::field {
namespace {

using Vec = std::vector<double>;

double host_value(const Grid& g, const Params& p, std::int64_t i, std::int64_t j, double t) {
  const double x =
      g.x_min +
      (static_cast<double>(j) + 0.5) * (g.x_max - g.x_min) / static_cast<double>(g.width) -
      p.center_x;
  const double y =
      g.y_min +
      (static_cast<double>(i) + 0.5) * (g.y_max - g.y_min) / static_cast<double>(g.height) -
      p.center_y;
  const double r = std::hypot(x, y), phi = std::atan2(y, x);
  return std::sin(p.wavenumber * r - p.angular_frequency * t + p.twist * phi) *
         std::exp(-p.damping * r);
}

Vec host_frame(const Grid& g, const Params& p, double t) {
  Vec f;
  for (std::int64_t i = 0; i < g.height; ++i)
    for (std::int64_t j = 0; j < g.width; ++j) f.push_back(host_value(g, p, i, j, t));
  return f;
}

Stats host_stats(const Vec& f) {
  double total = 0, magnitude = 0, power = 0;
  for (const double v : f) total += v, magnitude += std::abs(v), power += v * v;
  const double n = static_cast<double>(f.size());
  return {total / n, power / n, magnitude > 0 ? std::abs(total) / magnitude : 0};
}

// float32 rounds k·r (up to ~40 rad here) to ~4e-6, and the coordinates to ~1e-7.
double tolerance(DType t) {
  return t == DType::Float32 ? 5e-5 : 1e-11;
}

void expect_stats(const Stats& got, const Stats& want, DType t, const std::string& what) {
  const double tol = t == DType::Float32 ? 2e-4 : 1e-9;
  EXPECT_NEAR(got.mean, want.mean, tol) << what;
  EXPECT_NEAR(got.energy, want.energy, tol) << what;
  EXPECT_NEAR(got.coherence, want.coherence, 10 * tol) << what;
}

const Params kOffCentre{.wavenumber = 25,
                        .angular_frequency = 3,
                        .twist = 2,
                        .damping = 0.7,
                        .center_x = 0.3,
                        .center_y = -0.2};

void check_against_host(DType t) {
  for (const auto& [w, h] : {std::pair<std::int64_t, std::int64_t>{1, 1}, {37, 23}, {64, 64}}) {
    const Grid g{
        .width = w, .height = h, .x_min = -1.5, .x_max = 1, .y_min = -1, .y_max = 2, .dtype = t};
    for (const double time : {0.0, 0.37}) {
      const std::string what = std::to_string(w) + "x" + std::to_string(h) + " " +
                               std::string(name(t)) + " t = " + std::to_string(time);
      const Array f = frame(g, kOffCentre, time);
      ASSERT_EQ(f.shape(), (Shape{h, w})) << what;
      ASSERT_EQ(f.dtype(), t) << what;
      const Vec want = host_frame(g, kOffCentre, time);
      conformance::expect_within(f, want, Vec(want.size(), tolerance(t)), what);
      expect_stats(statistics(g, kOffCentre, time), host_stats(want), t, what);
    }
  }
}

class Field : public conformance::OnEveryDevice {};

TEST_P(Field, FramesAndStatisticsMatchTheHost) {
  check_against_host(DType::Float32);
  if (device_has_fp64()) check_against_host(DType::Float64);
}

TEST(FieldAuto, FramesAndStatisticsMatchTheHost) {
  check_against_host(DType::Float32);
}

TEST_P(Field, AnimateGivesEachFramesStatistics) {
  const Grid g{.width = 50, .height = 30};
  const std::vector<Stats> s = animate(g, {}, 5, 0.1, 0.25);
  ASSERT_EQ(s.size(), 5u);
  for (std::size_t k = 0; k < s.size(); ++k) {
    const double time = 0.25 + 0.1 * static_cast<double>(k);
    expect_stats(s[k], host_stats(host_frame(g, {}, time)), DType::Float32,
                 "frame " + std::to_string(k));
  }
  EXPECT_TRUE(animate(g, {}, 0, 0.1).empty());
}

TEST_P(Field, StatisticsAreOneFusedPass) {
  const Grid g{.width = 300, .height = 200};
  animate(g, {}, 4, 0.1);  // warm
  int reductions = 0;
  const Explanation e = explain([&] { animate(g, {}, 4, 0.1); });
  for (const KernelReport& k : e.kernels) {
    if (k.kernel.find("sum") == std::string::npos) continue;
    ++reductions;
    EXPECT_EQ(k.elements, 4 * 300 * 200) << e.to_string();
  }
  EXPECT_EQ(reductions, 1) << e.to_string();
}

TEST_P(Field, CoherenceOfAOneSignedFieldIsOne) {
  // twist 0, ω·t = 0 and 0 < k·r < π everywhere: f > 0 on every pixel.
  const Stats s = statistics({.width = 33, .height = 17},
                             {.wavenumber = 1, .angular_frequency = 0, .twist = 0}, 0.1);
  EXPECT_NEAR(s.coherence, 1.0, 1e-6);
  EXPECT_GT(s.energy, 0);
}

TEST(FieldErrors, BadInputIsATypedErrorNamingTheParameter) {
  const auto expect_value_error = [](const auto& f, const std::string& word) {
    try {
      f();
      ADD_FAILURE() << "no error; expected one naming " << word;
    } catch (const ValueError& e) {
      EXPECT_NE(std::string(e.what()).find(word), std::string::npos) << e.what();
    }
  };
  expect_value_error([] { frame({.width = 0}, {}, 0); }, "width");
  expect_value_error([] { statistics({.height = -3}, {}, 0); }, "height");
  expect_value_error([] { frame({}, {.wavenumber = NAN}, 0); }, "wavenumber");
  expect_value_error([] { frame({}, {.damping = INFINITY}, 0); }, "damping");
  expect_value_error([] { frame({}, {}, NAN); }, "t");
  expect_value_error([] { frame({.x_min = 1, .x_max = 1}, {}, 0); }, "x_max");
  expect_value_error([] { animate({}, {}, -1, 0.1); }, "frames");
  expect_value_error([] { animate({}, {}, 3, INFINITY); }, "dt");
  EXPECT_THROW(frame({.dtype = DType::Int32}, {}, 0), DTypeError);
}

SWITCHYARD_ON_EVERY_DEVICE(Field);

}  // namespace
}  // namespace switchyard::apps::field
