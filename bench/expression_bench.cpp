// The expression y = a*b + sin(c)*2.5 - sqrt(abs(a)) as a user writes it, beside a hand-written
// fused loop (the ceiling), with the pieces bench/expression.sh puts in one table:
//   BM_Fused/n              the fused loop (bench/fused_loop.cpp) into a preallocated buffer
//   BM_Expression/<dev>/n   the public API, auto and pinned to each device, read back with to_host
//   BM_SumAndSumSquares     sum(x) and sum(x*x) read back, beside BM_Triad in the same run
//   BM_TinyOp               one eager a+b at n=16 read back
// Other modes, each for a fresh process:
//   --first-100 N DEVICE    prints JSON: the total time of the first 100 evaluations at N
//                           (DEVICE: auto or a device id such as cpu:0)
//   --write-inputs DIR N    writes a, b, c and the results of Switchyard (y) and of the fused
//                           loop (fused) as raw float32, for bench/expression_numpy.py
#include <benchmark/benchmark.h>
#include <tbb/task_arena.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "expr/fusion.hpp"
#include "fused_loop.hpp"
#include "runtime/background.hpp"
#include "switchyard/switchyard.hpp"
#include "triad.hpp"

namespace sy = switchyard;

namespace {

constexpr std::int64_t kSizes[] = {1'000, 100'000, 1'000'000, 10'000'000};
constexpr std::int64_t kReductionSize = 10'000'000;

// Seeded, so every mode and every process sees the same values; [-1, 1) so abs() matters.
struct Inputs {
  sy::Array a, b, c;
  explicit Inputs(std::int64_t n)
      : a(sy::Array::uniform({n}, 1, -1, 1)),
        b(sy::Array::uniform({n}, 2, -1, 1)),
        c(sy::Array::uniform({n}, 3, -1, 1)) {}
};

sy::Array expression(const Inputs& in) {
  return in.a * in.b + sy::sin(in.c) * 2.5 - sy::sqrt(sy::abs(in.a));
}

// The result as a user reads it; with lazy arrays this read is what evaluates the expression.
void evaluate_into(const Inputs& in, std::vector<float>& y) {
  expression(in).to_host(y.data(), y.size() * sizeof(float));
}

// Pins this thread's work to `device` while it lives, unless device is "auto".
struct Placement {
  std::optional<sy::DeviceScope> scope;
  explicit Placement(const std::string& device) {
    if (device != "auto") scope.emplace(device);
  }
};

void BM_Fused(benchmark::State& state) {
  const Inputs in(state.range(0));
  const auto a = in.a.to_vector<float>(), b = in.b.to_vector<float>(), c = in.c.to_vector<float>();
  std::vector<float> y(a.size());
  for (auto _ : state) {
    sy::bench::fused_expression(a.data(), b.data(), c.data(), y.data(), y.size());
    benchmark::DoNotOptimize(y.data());
    benchmark::ClobberMemory();
  }
  state.SetLabel("threads=" + std::to_string(tbb::this_task_arena::max_concurrency()));
}

void BM_Expression(benchmark::State& state, const std::string& device) {
  const Inputs in(state.range(0));
  std::vector<float> y(static_cast<std::size_t>(state.range(0)));
  const Placement placement(device);
  for (auto _ : state) evaluate_into(in, y);
}

// Both sums realised together, as a user asks for several results of one pass.
float sum_plus_sum_of_squares(const sy::Array& x) {
  const sy::Array total = sy::sum(x), squares = sy::sum(x * x);
  sy::eval(total, squares);
  return total.item<float>() + squares.item<float>();
}

// GB/s counts x once (4 bytes an element): what one fused pass computing both sums would read.
void BM_SumAndSumSquares(benchmark::State& state) {
  const sy::Array x = sy::Array::uniform({state.range(0)}, 4, -1, 1);
  for (auto _ : state) benchmark::DoNotOptimize(sum_plus_sum_of_squares(x));
  state.SetBytesProcessed(state.iterations() * state.range(0) * 4);
}

void BM_Triad(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  std::vector<float> a(n), b(n, 1.0f), c(n, 2.0f);
  std::int64_t bytes = 0;
  for (auto _ : state) {
    bytes += sy::bench::triad(a.data(), b.data(), c.data(), n, 3.0f);
    benchmark::DoNotOptimize(a.data());
  }
  state.SetBytesProcessed(bytes);
}

void BM_TinyOp(benchmark::State& state) {
  const sy::Array a = sy::Array::uniform({16}, 1), b = sy::Array::uniform({16}, 2);
  float y[16];
  for (auto _ : state) (a + b).to_host(y, sizeof y);
  state.SetLabel("n=16, a+b read back");
}

// Recording a 20-node expression and planning its kernel (the fusion pass), without running it:
// what fusion adds in front of every launch.
void BM_BuildAndFuse20(benchmark::State& state) {
  const sy::Array a = sy::Array::uniform({1000}, 1), b = sy::Array::uniform({1000}, 2);
  for (auto _ : state) {
    sy::Array y = a * b;                                    // 3 nodes: two inputs and the product
    for (int i = 0; i < 6; ++i) y = sy::sin(y) + a * 0.5f;  // ... 6 x (sin, *, +, leaf, scalar)
    const auto kernels = sy::expr::plan({y.node()});
    benchmark::DoNotOptimize(kernels.data());
  }
  state.SetLabel("33 nodes: 20 operations, 13 inputs and scalars");
}

std::vector<std::string> placements() {
  std::vector<std::string> ids{"auto"};
  for (const sy::DeviceInfo& d : sy::devices()) ids.push_back(d.id());
  return ids;
}

void register_benchmarks() {
  auto* fused = benchmark::RegisterBenchmark("BM_Fused", BM_Fused);
  for (std::int64_t n : kSizes) fused->Arg(n);
  fused->Unit(benchmark::kMicrosecond)->UseRealTime();
  for (const std::string& device : placements()) {
    auto* b =
        benchmark::RegisterBenchmark(("BM_Expression/" + device).c_str(), BM_Expression, device);
    for (std::int64_t n : kSizes) b->Arg(n);
    b->Unit(benchmark::kMicrosecond)->UseRealTime();
  }
  for (auto* b : {benchmark::RegisterBenchmark("BM_SumAndSumSquares", BM_SumAndSumSquares),
                  benchmark::RegisterBenchmark("BM_Triad", BM_Triad)})
    b->Arg(kReductionSize)->Unit(benchmark::kMicrosecond)->UseRealTime();
  benchmark::RegisterBenchmark("BM_TinyOp", BM_TinyOp)->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("BM_BuildAndFuse20", BM_BuildAndFuse20)
      ->Unit(benchmark::kMicrosecond);
}

// Runs every measured computation once on every placement, then waits for the background
// compiles and calibration that starts, so the timed runs see a long-running program's steady
// state.
void warm_up() {
  for (const std::string& device : placements()) {
    const Placement placement(device);
    for (std::int64_t n : kSizes) {
      const Inputs in(n);
      std::vector<float> y(static_cast<std::size_t>(n));
      evaluate_into(in, y);
    }
    sum_plus_sum_of_squares(sy::Array::uniform({kReductionSize}, 4, -1, 1));
    const sy::Array tiny = sy::Array::uniform({16}, 1);
    (void)(tiny + tiny).to_vector<float>();
  }
  sy::runtime::Background::instance().wait_idle();
}

[[noreturn]] void first_100(std::int64_t n, const std::string& device) {
  const Inputs in(n);
  std::vector<float> y(static_cast<std::size_t>(n));
  (void)sy::devices();  // starts the backends, which is not an evaluation
  const Placement placement(device);
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < 100; ++i) evaluate_into(in, y);
  const double total_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("{\"n\": %lld, \"device\": \"%s\", \"total_s\": %.6f}\n", static_cast<long long>(n),
              device.c_str(), total_s);
  // Ends now rather than waiting for the background calibration to finish (seconds with OpenCL):
  // nothing after the timed loop matters, and the cache directory is thrown away.
  std::fflush(stdout);
  std::_Exit(0);
}

// Raw float32 in the host's byte order (little-endian on every machine the library runs on).
void write_floats(const std::string& path, const std::vector<float>& values) {
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(values.data()),
             static_cast<std::streamsize>(values.size() * sizeof(float)));
}

int write_inputs(const std::string& dir, std::int64_t n) {
  const Inputs in(n);
  const auto a = in.a.to_vector<float>(), b = in.b.to_vector<float>(), c = in.c.to_vector<float>();
  std::vector<float> y(a.size()), fused(a.size());
  evaluate_into(in, y);
  sy::bench::fused_expression(a.data(), b.data(), c.data(), fused.data(), fused.size());
  std::filesystem::create_directories(dir);
  write_floats(dir + "/a.f32", a);
  write_floats(dir + "/b.f32", b);
  write_floats(dir + "/c.f32", c);
  write_floats(dir + "/y.f32", y);
  write_floats(dir + "/fused.f32", fused);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "--first-100" && argc == 4) first_100(std::stoll(argv[2]), argv[3]);
  if (mode == "--write-inputs" && argc == 4) return write_inputs(argv[2], std::stoll(argv[3]));
  register_benchmarks();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  warm_up();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
