// Captured replay (switchyard/capture.hpp) on every device: a replay gives what running the
// function gives, for new input values, with fresh outputs, without planning or scheduling; a new
// signature records again; what cannot be replayed is a ValueError at capture; a device failing
// during a replay falls back to running the function. References are float64 host loops.
#include <cmath>
#include <thread>

#include "conformance/conformance.hpp"
#include "runtime/attempts.hpp"
#include "runtime/fault_injection.hpp"
#include "test_support.hpp"

namespace switchyard::conformance {
namespace {

using testing_support::error_message;
using testing_support::expect_mentions;

class Capture : public OnEveryDevice {
 protected:
  DType real() const { return device_has_fp64() ? DType::Float64 : DType::Float32; }
};

std::vector<Array> one(Array a) {
  return {std::move(a)};
}

// sin(x) * y + 2, element by element.
std::vector<double> sin_times_plus_two(const std::vector<double>& x, const std::vector<double>& y) {
  std::vector<double> out(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) out[i] = std::sin(x[i]) * y[i] + 2;
  return out;
}

TEST_P(Capture, ReplayMatchesTheFunctionForNewInputValues) {
  const Captured f = capture([](std::span<const Array> in) { return one(sin(in[0]) * in[1] + 2); });
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    const auto x = random_values(37, real(), seed), y = random_values(37, real(), seed + 10);
    const auto out = f({host_array(x, {37}, real()), host_array(y, {37}, real())});
    ASSERT_EQ(out.size(), 1u);
    expect_close(out[0], sin_times_plus_two(x, y), true, "call " + std::to_string(seed));
  }
  const CaptureStats stats = f.stats();
  EXPECT_EQ(stats.calls, 4);
  EXPECT_EQ(stats.recordings, 1);
  EXPECT_EQ(stats.replays, 3);
  EXPECT_EQ(stats.kernels, 1);  // sin, mul and add fuse into one kernel
  EXPECT_EQ(stats.devices, std::vector<std::string>{GetParam()});
}

TEST_P(Capture, OutputsAreFreshOnEveryCall) {
  const Captured f = capture([](std::span<const Array> in) { return one(in[0] * 3); });
  const auto a = random_values(9, real(), 1), b = random_values(9, real(), 2);
  const Array first = f({host_array(a, {9}, real())})[0];
  const Array second = f({host_array(b, {9}, real())})[0];
  const Array third = f({host_array(a, {9}, real())})[0];
  auto times_three = [](std::vector<double> v) {
    for (double& e : v) e *= 3;
    return v;
  };
  expect_close(first, times_three(a), false, "recorded call's output after two replays");
  expect_close(second, times_three(b), false, "first replay's output after the second");
  expect_close(third, times_three(a), false, "second replay");
  EXPECT_NE(first.buffer(), second.buffer());
  EXPECT_NE(second.buffer(), third.buffer());
}

// One Euler step of the Kuramoto model in its two-GEMV form.
Array kuramoto_step(const Array& theta, const Array& omega, const Array& k, double dt) {
  const double n = static_cast<double>(theta.size());
  const Array s = sin(theta), c = cos(theta);
  return theta + dt * (omega + (c * matmul(k, s) - s * matmul(k, c)) / n);
}

TEST_P(Capture, StateLoopWithMatmulMatchesTheHostLoop) {
  constexpr std::int64_t n = 80;
  constexpr int steps = 60;
  constexpr double dt = 0.01;
  const auto theta0 = random_values(n, real(), 1, 0, 6.28);
  const auto omega_v = random_values(n, real(), 2, -1, 1);
  const auto k_v = random_values(n * n, real(), 3, 0, 2);
  const Array omega = host_array(omega_v, {n}, real()), k = host_array(k_v, {n, n}, real());
  const Captured step =
      capture([&](std::span<const Array> in) { return one(kuramoto_step(in[0], omega, k, dt)); });
  Array theta = host_array(theta0, {n}, real());
  for (int t = 0; t < steps; ++t) theta = step({theta})[0];

  std::vector<double> ref = theta0;
  for (int t = 0; t < steps; ++t) {
    std::vector<double> next(n);
    for (std::int64_t i = 0; i < n; ++i) {
      double coupling = 0;
      for (std::int64_t j = 0; j < n; ++j) coupling += k_v[i * n + j] * std::sin(ref[j] - ref[i]);
      next[i] = ref[i] + dt * (omega_v[i] + coupling / n);
    }
    ref = next;
  }
  const auto got = theta.to_vector<double>();
  const double tol = real() == DType::Float64 ? 1e-9 : 1e-3;
  for (std::int64_t i = 0; i < n; ++i) ASSERT_NEAR(got[i], ref[i], tol) << "oscillator " << i;
  const CaptureStats stats = step.stats();
  EXPECT_EQ(stats.replays, steps - 1);
  EXPECT_EQ(stats.library_calls, 2);  // the two matrix-vector products
  EXPECT_GE(stats.kernels, 1);
}

TEST_P(Capture, ANewShapeRecordsAgainAndTheOldOneStillReplays) {
  const Captured f = capture([](std::span<const Array> in) { return one(sum(in[0] * in[0])); });
  for (std::int64_t size : {5, 11, 5, 11, 0}) {
    const auto x = random_values(size, real(), size);
    double want = 0;
    for (double v : x) want += v * v;
    expect_close(f({host_array(x, {size}, real())})[0], {want}, false,
                 "size " + std::to_string(size));
  }
  EXPECT_EQ(f.stats().recordings, 3);
  EXPECT_EQ(f.stats().replays, 2);
}

TEST_P(Capture, AReplayPlansAndSchedulesNothing) {
  const Captured f = capture([](std::span<const Array> in) {
    const Array y = exp(in[0]) - 1;
    return std::vector<Array>{y * 2, sum(y)};  // one kernel, two outputs
  });
  const auto x = random_values(100, real(), 5, -1, 1);
  f({host_array(x, {100}, real())});  // records
  const Array input = host_array(x, {100}, real());
  reset_metrics();
  const auto out = f({input});
  const Metrics m = metrics();
  // Each kernel the runtime runs leaves one record: a replay leaves one for all of them.
  EXPECT_EQ(m.totals.count, 1);
  ASSERT_EQ(m.kernels.size(), 1u);
  EXPECT_EQ(
      m.kernels[0].label,
      "replay of " + std::to_string(f.stats().kernels + f.stats().library_calls) + " launches");
  std::vector<double> doubled(x.size());
  double total = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    doubled[i] = 2 * (std::exp(x[i]) - 1);
    total += std::exp(x[i]) - 1;
  }
  expect_close(out[0], doubled, true, "exp(x) - 1 doubled");
  expect_close(out[1], {total}, true, "sum of exp(x) - 1");
}

TEST_P(Capture, WritesIntoArraysTheFunctionComputedAreReplayed) {
  const Captured f = capture([](std::span<const Array> in) {
    Array y = in[0] * 2;
    y += 1;
    y.slice(0, 0, 2).assign(0);
    return one(y);
  });
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const auto x = random_values(6, real(), seed);
    std::vector<double> want(6);
    for (int i = 0; i < 6; ++i) want[i] = i < 2 ? 0 : 2 * x[i] + 1;
    expect_close(f({host_array(x, {6}, real())})[0], want, false, "seed " + std::to_string(seed));
  }
  EXPECT_EQ(f.stats().replays, 2);
}

TEST_P(Capture, StorageTheFunctionAllocatesAndFillsIsRewrittenEveryReplay) {
  // concatenate allocates its result and writes each piece into its slot.
  const Captured f = capture([](std::span<const Array> in) {
    return one(concatenate({in[0] + 1, in[0] * 2, sin(in[0])}));
  });
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const auto x = random_values(5, real(), seed);
    std::vector<double> want;
    for (double v : x) want.push_back(v + 1);
    for (double v : x) want.push_back(v * 2);
    for (double v : x) want.push_back(std::sin(v));
    expect_close(f({host_array(x, {5}, real())})[0], want, true, "seed " + std::to_string(seed));
  }
  EXPECT_EQ(f.stats().replays, 2);
  // Storage made outside the function is still not the function's to write.
  Array outside = Array::zeros({2}, real());
  const Captured g = capture([&](std::span<const Array> in) {
    outside.assign(in[0]);
    return one(in[0] + 1);
  });
  EXPECT_THROW(g({host_array({1, 2}, {2}, real())}), ValueError);
}

TEST_P(Capture, ArraysFromOutsideAreReadAsTheyAreAtReplay) {
  const Array scale = host_array({2, 2, 2}, {3}, real());
  const Captured f = capture([&](std::span<const Array> in) { return one(in[0] * scale); });
  const Array x = host_array({1, 2, 3}, {3}, real());
  expect_close(f({x})[0], {2, 4, 6}, false, "recorded");
  scale.assign(10);
  expect_close(f({x})[0], {10, 20, 30}, false, "replayed after the outside array changed");
}

TEST_P(Capture, InputsAndOutsideArraysReturnedComeBackAsCopies) {
  const Array outside = host_array({7, 8}, {2}, real());
  const Captured f = capture([&](std::span<const Array> in) {
    return std::vector<Array>{in[0], outside};
  });
  const Array x = host_array({1, 2}, {2}, real());
  for (int call = 0; call < 2; ++call) {
    const auto out = f({x});
    EXPECT_NE(out[0].buffer(), x.buffer());
    EXPECT_NE(out[1].buffer(), outside.buffer());
    expect_close(out[0], {1, 2}, false, "input returned");
    expect_close(out[1], {7, 8}, false, "outside array returned");
  }
}

TEST_P(Capture, HostReadsAndWritesIntoInputsAreValueErrorsAtCapture) {
  const Array x = host_array({1, 2, 3}, {3}, real());
  const auto rejected = [&](Captured::Function fn) {
    return error_message<ValueError>([&] { capture(std::move(fn))({x}); });
  };
  expect_mentions(rejected([](std::span<const Array> in) {
                    return one(in[0] * in[0].slice(0, 0, 1).item<double>());
                  }),
                  {"captured function", "host", "replay"});
  expect_mentions(rejected([](std::span<const Array> in) {
                    return one(in[0] * sum(in[0] + 1).item<double>());
                  }),
                  {"captured function", "host", "replay"});
  expect_mentions(rejected([](std::span<const Array> in) {
                    in[0] += 1;
                    return one(in[0] * 2);
                  }),
                  {"write into an input", "captured function", "return the new values"});
  expect_mentions(rejected([](std::span<const Array> in) { return nonzero(in[0] > 1); }),
                  {"nonzero", "captured function", "output size depends on the values"});
  expect_close(x, {1, 2, 3}, false, "the input after the rejected write");
  // Arrays the function makes on the host itself may be read there.
  const Captured ok = capture([](std::span<const Array> in) {
    const Array ramp = Array::arange(0.0, 3.0, 1.0, DType::Float64);
    return one(in[0] + ramp.to_vector<double>()[2]);
  });
  expect_close(ok({x})[0], {3, 4, 5}, false, "recorded");
  expect_close(ok({x})[0], {3, 4, 5}, false, "replayed");
}

TEST_P(Capture, AnInputSharingStorageWithAnotherRecordsAgain) {
  const Captured f = capture([](std::span<const Array> in) { return one(in[0] - in[1]); });
  const Array a = host_array({5, 6}, {2}, real()), b = host_array({1, 1}, {2}, real());
  expect_close(f({a, a})[0], {0, 0}, false, "same array twice");
  expect_close(f({a, b})[0], {4, 5}, false, "two arrays");
  EXPECT_EQ(f.stats().recordings, 2);
}

TEST_P(Capture, AnInputOffsetIntoItsStorageIsFollowed) {
  const Captured f = capture([](std::span<const Array> in) { return one(in[0] + 1); });
  const Array rows = host_array({0, 1, 2, 3, 4, 5}, {3, 2}, real());
  for (std::int64_t r = 0; r < 3; ++r)
    expect_close(f({rows[r]})[0], {2.0 * r + 1, 2.0 * r + 2}, false, "row " + std::to_string(r));
  EXPECT_EQ(f.stats().replays, 2);
}

// The function leaks an intermediate (against the rules), which then comes back as an input: the
// replay, which rewrites that intermediate while reading the input reversed, reads a copy.
TEST_P(Capture, AnInputThatIsARecordedIntermediateIsReadFromACopy) {
  Array leaked;
  const Captured f = capture([&](std::span<const Array> in) {
    const Array y = in[0].slice(0, std::nullopt, std::nullopt, -1) + 1;
    eval(y);
    leaked = y;
    return one(y * 2);
  });
  constexpr std::int64_t n = 1000;
  f({host_array(random_values(n, real(), 1), {n}, real())});
  const std::vector<double> y = leaked.to_vector<double>();  // reverse(x) + 1
  std::vector<double> want(n);
  for (std::int64_t i = 0; i < n; ++i) want[i] = 2 * (y[n - 1 - i] + 1);
  expect_close(f({leaked})[0], want, false, "replay over the leaked intermediate");
  EXPECT_EQ(f.stats().replays, 1);
}

TEST_P(Capture, ACaptureInsideACaptureIsPartOfIt) {
  const Captured inner = capture([](std::span<const Array> in) { return one(in[0] * 2); });
  const Captured outer =
      capture([&](std::span<const Array> in) { return one(inner({in[0]})[0] + 1); });
  for (double v : {1.0, 5.0})
    expect_close(outer({host_array({v}, {1}, real())})[0], {2 * v + 1}, false, "outer");
  EXPECT_EQ(outer.stats().replays, 1);
  EXPECT_EQ(inner.stats().calls, 0);
}

SWITCHYARD_ON_EVERY_DEVICE(Capture);

// Not pinned: the function runs where the scheduler puts it, so a replay that fails there can
// run again on another device.
TEST(CaptureFallback, ADeviceFailingDuringAReplayRunsTheFunctionAgainElsewhere) {
  if (devices().size() < 2) GTEST_SKIP() << "needs a second device to fall back to";
  const Captured f = capture([](std::span<const Array> in) { return one(cos(in[0]) + in[0]); });
  const Array x0 = host_array({0, 1, 2}, {3}, DType::Float64);
  f({x0});
  const std::string recorded_on = f.stats().devices.at(0);
  const std::string backend = recorded_on.substr(0, recorded_on.find(':'));
  runtime::replace_faults(backend + ":launch");
  for (double shift : {0.5, 1.5}) {
    const Array x = host_array({shift, 1 + shift, 2 + shift}, {3}, DType::Float64);
    std::vector<double> want;
    for (double v : {shift, 1 + shift, 2 + shift}) want.push_back(std::cos(v) + v);
    expect_close(f({x})[0], want, true, "after a fault on " + recorded_on);
  }
  runtime::replace_faults("");
  runtime::device_health().reset();
  const CaptureStats stats = f.stats();
  EXPECT_EQ(stats.fallbacks, 1);
  EXPECT_EQ(stats.recordings, 2);
  EXPECT_EQ(stats.replays, 1);  // the second call replays the new recording
  EXPECT_NE(stats.devices.at(0), recorded_on);
}

// A step recorded where it runs slowly (steered there by history, as a calibration taken under
// load could) is placed anew as a whole once its replays have measured it: the scheduler expects
// another placement of the whole step faster by its margin, and the next call records it so.
TEST(CapturePlacement, AStepRecordedWhereItRunsSlowlyMovesAsAWhole) {
  const auto other = testing_support::device_besides_the_host();
  if (!other) GTEST_SKIP() << "needs a device besides the host to record on";
  constexpr std::int64_t n = 1000;
  // Two launches: the sum, then the product that reads it.
  const auto step = [](std::span<const Array> in) {
    const Array y = in[0] * 2.0;
    return one(y * sum(y));
  };
  const auto ramp = [](double shift) {
    std::vector<double> x(n);
    for (std::int64_t i = 0; i < n; ++i) x[i] = 1e-3 * static_cast<double>(i) + shift;
    return x;
  };
  const auto input = [&](double shift) { return host_array(ramp(shift), {n}, DType::Float64); };
  const auto expected = [&](double shift) {
    std::vector<double> out = ramp(shift);
    double total = 0;
    for (double v : out) total += 2 * v;
    for (double& v : out) v = 2 * v * total;
    return out;
  };
  {
    const DeviceScope there(*other);  // compiled there, and measured nowhere else
    eval(step(std::vector<Array>{input(0)}));
  }
  const Captured f = capture(step);
  {
    const testing_support::OnlyFastOn steer(testing_support::last_signatures(2), n, *other);
    expect_close(f({input(0)})[0], expected(0), true, "recorded");
  }
  ASSERT_EQ(f.stats().devices, std::vector<std::string>{*other}) << "precondition: steered there";
  // Replayed there and measured: after two replays the whole step is placed anew...
  for (double shift : {1.0, 2.0})
    expect_close(f({input(shift)})[0], expected(shift), true, "replay");
  const CaptureStats decided = f.stats();
  ASSERT_GE(decided.placements.size(), 2u) << decided.placement_report();
  EXPECT_EQ(decided.placements.front().name, "as recorded");
  ASSERT_TRUE(decided.placements.front().measured_s > 0) << decided.placement_report();
  const auto chosen = std::find_if(decided.placements.begin(), decided.placements.end(),
                                   [](const auto& p) { return p.chosen; });
  ASSERT_NE(chosen, decided.placements.begin()) << decided.placement_report();
  EXPECT_LT(chosen->expected_s, decided.placements.front().expected_s);
  // ... and the next call records it so, with the same results.
  expect_close(f({input(3)})[0], expected(3), true, "placed anew");
  const CaptureStats moved = f.stats();
  EXPECT_EQ(moved.placements_changed, 1);
  EXPECT_EQ(moved.recordings, 2);
  EXPECT_EQ(moved.devices, chosen->devices) << decided.placement_report();
  expect_close(f({input(4)})[0], expected(4), true, "replayed where it moved");
  EXPECT_EQ(f.stats().replays, 3);
}

TEST(CaptureErrors, AnEmptyFunctionAndANullInputAreValueErrors) {
  expect_mentions(error_message<ValueError>([] { capture(nullptr); }), {"empty function"});
  const Captured f = capture([](std::span<const Array> in) { return one(in[0] + 1); });
  expect_mentions(error_message<ValueError>([&] { f({Array()}); }), {"input 0", "null Array"});
}

TEST(CaptureErrors, TwoThreadsAtOnceIsAValueErrorForOneOfThem) {
  std::atomic<bool> inside{false}, release{false};
  const Captured f = capture([&](std::span<const Array> in) {
    inside = true;
    while (!release) std::this_thread::yield();
    return one(in[0] + 1);
  });
  const Array x = Array::ones({2}, DType::Float64);
  std::thread first([&] { f({x}); });
  while (!inside) std::this_thread::yield();
  expect_mentions(error_message<ValueError>([&] { f({x}); }), {"two threads", "one thread"});
  release = true;
  first.join();
}

}  // namespace
}  // namespace switchyard::conformance
