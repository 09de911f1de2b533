// Captured replay against eager evaluation on the workload it exists for: one Euler step of an
// 80-oscillator Kuramoto network (float64, two matrix-vector products and one fused elementwise
// kernel), theta = step(theta) in a loop on cpu:0. The time per iteration is the time per step.
// The per-step cost of a replay is its overhead over the launches it makes; a hand-written
// float64 loop doing the same arithmetic is the floor.
//
//   build/bench/capture_bench --benchmark_min_time=0.5
#include <benchmark/benchmark.h>

#include <cmath>
#include <vector>

#include "switchyard/switchyard.hpp"

namespace sy = switchyard;

namespace {

constexpr std::int64_t kOscillators = 80;
constexpr double kDt = 0.01;

struct Network {
  sy::Array theta, omega, k;
  Network()
      : theta(sy::Array::uniform({kOscillators}, 1, 0, 6.28, sy::DType::Float64)),
        omega(sy::Array::uniform({kOscillators}, 2, -1, 1, sy::DType::Float64)),
        k(sy::Array::uniform({kOscillators, kOscillators}, 3, 0, 2, sy::DType::Float64)) {}

  // theta + dt * (omega + (cos(theta) * (K @ sin(theta)) - sin(theta) * (K @ cos(theta))) / N)
  sy::Array step(const sy::Array& th) const {
    const sy::Array s = sy::sin(th), c = sy::cos(th);
    return th + kDt * (omega + (c * sy::matmul(k, s) - s * sy::matmul(k, c)) /
                                   static_cast<double>(kOscillators));
  }
};

void BM_KuramotoEager(benchmark::State& state) {
  sy::DeviceScope scope("cpu:0");
  const Network net;
  sy::Array theta = net.theta;
  for (auto _ : state) {
    theta = net.step(theta);
    sy::eval(theta);
  }
  state.SetLabel("N=80 float64, cpu:0, eager");
}

void BM_KuramotoReplayed(benchmark::State& state) {
  sy::DeviceScope scope("cpu:0");
  const Network net;
  const sy::Captured step = sy::capture(
      [&](std::span<const sy::Array> in) { return std::vector<sy::Array>{net.step(in[0])}; });
  sy::Array theta = net.theta;
  theta = step({theta})[0];  // records
  for (auto _ : state) theta = step({theta})[0];
  const sy::CaptureStats stats = step.stats();
  state.counters["launches"] = static_cast<double>(stats.kernels + stats.library_calls);
  state.SetLabel("N=80 float64, cpu:0, replayed");
}

// The fixed cost of a replay: one tiny kernel (16 elements), against the same op eager
// (elementwise_bench's BM_TinyEagerAdd).
void BM_TinyAddEager(benchmark::State& state) {
  sy::DeviceScope scope("cpu:0");
  const sy::Array a = sy::Array::uniform({16}, 1, 0, 1, sy::DType::Float64);
  for (auto _ : state) sy::eval(a + 1);
  state.SetLabel("n=16, cpu:0, eager");
}

void BM_TinyAddReplayed(benchmark::State& state) {
  sy::DeviceScope scope("cpu:0");
  const sy::Array a = sy::Array::uniform({16}, 1, 0, 1, sy::DType::Float64);
  const sy::Captured add =
      sy::capture([](std::span<const sy::Array> in) { return std::vector<sy::Array>{in[0] + 1}; });
  for (auto _ : state) benchmark::DoNotOptimize(add({a}));
  state.SetLabel("n=16, cpu:0, replayed");
}

// The same arithmetic as plain loops over host vectors: what the step costs with no runtime.
void BM_KuramotoHandWrittenLoop(benchmark::State& state) {
  const Network net;
  std::vector<double> theta = net.theta.to_vector<double>(), omega = net.omega.to_vector<double>(),
                      k = net.k.to_vector<double>(), s(kOscillators), c(kOscillators);
  for (auto _ : state) {
    for (std::int64_t i = 0; i < kOscillators; ++i) {
      s[i] = std::sin(theta[i]);
      c[i] = std::cos(theta[i]);
    }
    for (std::int64_t i = 0; i < kOscillators; ++i) {
      double ks = 0, kc = 0;
      for (std::int64_t j = 0; j < kOscillators; ++j) {
        ks += k[i * kOscillators + j] * s[j];
        kc += k[i * kOscillators + j] * c[j];
      }
      theta[i] += kDt * (omega[i] + (c[i] * ks - s[i] * kc) / kOscillators);
    }
    benchmark::DoNotOptimize(theta.data());
  }
  state.SetLabel("N=80 float64, one thread, no runtime");
}

}  // namespace

BENCHMARK(BM_KuramotoEager)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_KuramotoReplayed)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_KuramotoHandWrittenLoop)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_TinyAddEager)->Unit(benchmark::kNanosecond);
BENCHMARK(BM_TinyAddReplayed)->Unit(benchmark::kNanosecond);
BENCHMARK_MAIN();
