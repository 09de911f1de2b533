// Elementwise and reduction throughput on the CPU, beside the triad ceiling measured in the same
// run: float32 a+b, a*b+sin(c) as one fused three-operation kernel and as three one-operation
// kernels (NumPy's way), sum, and sum beside sum of squares in one kernel; then the cost of one
// tiny eager op. bench/run.sh prints GB/s and the ratios.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "backends/cpu/cpu_backend.hpp"
#include "runtime/executor.hpp"
#include "switchyard/switchyard.hpp"
#include "triad.hpp"

namespace sy = switchyard;

namespace {

void sizes(benchmark::internal::Benchmark* b) {
  for (std::int64_t n : {1'000, 10'000, 100'000, 1'000'000, 10'000'000, 100'000'000}) b->Arg(n);
  b->Unit(benchmark::kMicrosecond)->UseRealTime();
}

void set_bytes(benchmark::State& state, std::int64_t arrays) {
  state.SetBytesProcessed(state.iterations() * state.range(0) * arrays * 4);
}

void BM_Triad(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  std::vector<float> a(n), b(n, 1.0f), c(n, 2.0f);
  for (auto _ : state) {
    sy::bench::triad(a.data(), b.data(), c.data(), n, 3.0f);
    benchmark::DoNotOptimize(a.data());
  }
  set_bytes(state, 3);
}

void BM_Add(benchmark::State& state) {
  const sy::Array a = sy::Array::uniform({state.range(0)}, 1),
                  b = sy::Array::uniform({state.range(0)}, 2);
  for (auto _ : state) benchmark::DoNotOptimize(a + b);
  set_bytes(state, 3);
}

// a*b + sin(c) built directly as one Kernel IR (one pass over memory).
void BM_MulAddSinFused(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  const sy::Array a = sy::Array::uniform({n}, 1), b = sy::Array::uniform({n}, 2),
                  c = sy::Array::uniform({n}, 3);
  const sy::Shape shape{n};
  const sy::runtime::LaunchInput ins[3] = {sy::runtime::launch_input(a, shape),
                                           sy::runtime::launch_input(b, shape),
                                           sy::runtime::launch_input(c, shape)};
  sy::ir::KernelBuilder k;
  const auto t = sy::DType::Float32;
  const auto x = k.load(t, ins[0].layout), y = k.load(t, ins[1].layout),
             z = k.load(t, ins[2].layout);
  k.output(k.binary(sy::ir::OpCode::Add, k.binary(sy::ir::OpCode::Mul, x, y, t),
                    k.unary(sy::ir::OpCode::Sin, z, t), t));
  const sy::ir::Kernel kernel = k.build();
  for (auto _ : state) benchmark::DoNotOptimize(sy::runtime::run(kernel, shape, shape, ins));
  set_bytes(state, 4);
}

// The same expression as three one-operation kernels, each a pass over memory.
void BM_MulAddSinThreePasses(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  const sy::Array a = sy::Array::uniform({n}, 1), b = sy::Array::uniform({n}, 2),
                  c = sy::Array::uniform({n}, 3);
  for (auto _ : state) benchmark::DoNotOptimize(a * b + sy::sin(c));
  set_bytes(state, 4);
}

void BM_Sum(benchmark::State& state) {
  const sy::Array a = sy::Array::uniform({state.range(0)}, 1);
  for (auto _ : state) benchmark::DoNotOptimize(sy::sum(a));
  set_bytes(state, 1);
}

// sum(x) and sum(x*x) folded by one kernel, launched on the CPU device directly: both folds
// read each block of x while it is in cache, so the pair costs one pass over memory.
void BM_SumAndSumOfSquares(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  static const std::unique_ptr<sy::Backend> backend = sy::cpu::make_backend();
  sy::Device& cpu = *backend->devices().front();
  const auto t = sy::DType::Float32;
  const sy::DeviceMemory x = cpu.allocate(n * sizeof(float)),
                         sums = cpu.allocate(2 * sizeof(float));
  std::fill_n(static_cast<float*>(x.handle), n, 0.5f);
  sy::ir::KernelBuilder k;
  const auto v = k.load(t, sy::ir::Layout::Contiguous);
  k.output(v);
  k.reduce(sy::ir::ReduceOp::Sum, sy::ir::ReduceOver::All);
  k.output(k.binary(sy::ir::OpCode::Mul, v, v, t));
  k.reduce(sy::ir::ReduceOp::Sum, sy::ir::ReduceOver::All);
  const auto exe = cpu.prepare(k.build());
  const sy::Shape shape{n};
  const sy::Operand in[] = {{x, t, 0, sy::contiguous_strides(shape)}};
  const sy::Operand out[] = {{sums, t, 0, {}}, {sums, t, 1, {}}};
  for (auto _ : state) {
    cpu.launch(*exe, sy::LaunchArgs{shape, in, {}, out});
    benchmark::DoNotOptimize(sums.handle);
  }
  cpu.free(x);
  cpu.free(sums);
  set_bytes(state, 1);
}

// The whole cost of one tiny eager op: IR build, hash, cache lookup, placement, allocation, launch.
void BM_TinyEagerAdd(benchmark::State& state) {
  const sy::Array a = sy::Array::uniform({16}, 1), b = sy::Array::uniform({16}, 2);
  for (auto _ : state) benchmark::DoNotOptimize(a + b);
  state.SetLabel("n=16");
}

// The same op pinned to the CPU on the caller's thread: the scheduler's share of an eager op is
// the difference between the two.
void BM_TinyEagerAddPinned(benchmark::State& state) {
  const sy::Array a = sy::Array::uniform({16}, 1), b = sy::Array::uniform({16}, 2);
  sy::DeviceScope scope("cpu:0/inline");
  for (auto _ : state) benchmark::DoNotOptimize(a + b);
  state.SetLabel("n=16, cpu:0/inline");
}

}  // namespace

BENCHMARK(BM_Triad)->Apply(sizes);
BENCHMARK(BM_Add)->Apply(sizes);
BENCHMARK(BM_MulAddSinFused)->Apply(sizes);
BENCHMARK(BM_MulAddSinThreePasses)->Apply(sizes);
BENCHMARK(BM_Sum)->Apply(sizes);
BENCHMARK(BM_SumAndSumOfSquares)->Apply(sizes);
BENCHMARK(BM_TinyEagerAdd)->Unit(benchmark::kNanosecond);
BENCHMARK(BM_TinyEagerAddPinned)->Unit(benchmark::kNanosecond);
BENCHMARK_MAIN();
