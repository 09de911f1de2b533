// Elementwise and reduction throughput on the CPU, beside the triad ceiling measured in the same
// run: float32 a+b, a*b+sin(c) as one fused three-operation kernel and as three one-operation
// kernels (NumPy's way), sum, sum beside sum of squares in one kernel, and a sum under a mask
// that follows the data; then the cost of one tiny eager op. bench/run.sh prints GB/s and the
// ratios.
#include <benchmark/benchmark.h>

#include <vector>

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
  for (auto _ : state) sy::eval(a + b);
  set_bytes(state, 3);
}

// a*b + sin(c) as a user writes it: fused into one kernel, one pass over memory.
void BM_MulAddSinFused(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  const sy::Array a = sy::Array::uniform({n}, 1), b = sy::Array::uniform({n}, 2),
                  c = sy::Array::uniform({n}, 3);
  for (auto _ : state) sy::eval(a * b + sy::sin(c));
  set_bytes(state, 4);
}

// The same expression as three one-operation kernels, each a pass over memory.
void BM_MulAddSinThreePasses(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  const sy::Array a = sy::Array::uniform({n}, 1), b = sy::Array::uniform({n}, 2),
                  c = sy::Array::uniform({n}, 3);
  for (auto _ : state) {
    const sy::Array ab = a * b, sin_c = sy::sin(c);
    sy::eval(ab);  // one at a time: evaluated together they would share one kernel
    sy::eval(sin_c);
    sy::eval(ab + sin_c);
  }
  set_bytes(state, 4);
}

void BM_Sum(benchmark::State& state) {
  const sy::Array a = sy::Array::uniform({state.range(0)}, 1);
  for (auto _ : state) sy::eval(sy::sum(a));
  set_bytes(state, 1);
}

// sum(x) and sum(x*x) realised together: one kernel folds both from each block of x while it is
// in cache, so the pair costs one pass over memory.
void BM_SumAndSumOfSquares(benchmark::State& state) {
  const sy::Array x = sy::Array::uniform({state.range(0)}, 1);
  for (auto _ : state) sy::eval(sy::sum(x), sy::sum(x * x));
  set_bytes(state, 1);
}

// The events query's total: a sum of the products kept by a condition that follows the data
// (uniform values over 0.5: every other element at random), as one fused kernel over two arrays.
void BM_MaskedSum(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  const sy::Array a = sy::Array::uniform({n}, 1), b = sy::Array::uniform({n}, 2);
  const sy::Array zero = sy::Array::zeros({});  // 0-d: broadcasts as the scalar 0 does
  for (auto _ : state) sy::eval(sy::sum(sy::where(a > 0.5f, a * b, zero)));
  set_bytes(state, 2);
}

// The whole cost of one tiny eager op: IR build, hash, cache lookup, placement, allocation, launch.
void BM_TinyEagerAdd(benchmark::State& state) {
  const sy::Array a = sy::Array::uniform({16}, 1), b = sy::Array::uniform({16}, 2);
  for (auto _ : state) sy::eval(a + b);
  state.SetLabel("n=16");
}

// The same op pinned to the CPU on the caller's thread: the scheduler's share of an eager op is
// the difference between the two.
void BM_TinyEagerAddPinned(benchmark::State& state) {
  const sy::Array a = sy::Array::uniform({16}, 1), b = sy::Array::uniform({16}, 2);
  sy::DeviceScope scope("cpu:0/inline");
  for (auto _ : state) sy::eval(a + b);
  state.SetLabel("n=16, cpu:0/inline");
}

// A loop body of three different tiny kernels, as a small simulation step is: each kernel's
// choice is reused from the one before only if the choices of the others do not displace it.
void BM_TinyEagerStep(benchmark::State& state) {
  const sy::Array a = sy::Array::uniform({16}, 1), b = sy::Array::uniform({16}, 2);
  for (auto _ : state) sy::eval(a + b), sy::eval(a * b), sy::eval(sy::sin(a));
  state.SetLabel("n=16, 3 kernels");
}

// A sum of a computed array, eager and pinned: planned without walking the graph, as the add.
void BM_TinyEagerSumPinned(benchmark::State& state) {
  const sy::Array a = sy::Array::uniform({100}, 1);
  sy::DeviceScope scope("cpu:0/inline");
  for (auto _ : state) sy::eval(sy::sum(a));
  state.SetLabel("n=100, cpu:0/inline");
}

void BM_TinyEagerStepPinned(benchmark::State& state) {
  const sy::Array a = sy::Array::uniform({16}, 1), b = sy::Array::uniform({16}, 2);
  sy::DeviceScope scope("cpu:0/inline");
  for (auto _ : state) sy::eval(a + b), sy::eval(a * b), sy::eval(sy::sin(a));
  state.SetLabel("n=16, 3 kernels, cpu:0/inline");
}

}  // namespace

BENCHMARK(BM_Triad)->Apply(sizes);
BENCHMARK(BM_Add)->Apply(sizes);
BENCHMARK(BM_MulAddSinFused)->Apply(sizes);
BENCHMARK(BM_MulAddSinThreePasses)->Apply(sizes);
BENCHMARK(BM_Sum)->Apply(sizes);
BENCHMARK(BM_SumAndSumOfSquares)->Apply(sizes);
BENCHMARK(BM_MaskedSum)->Apply(sizes);
BENCHMARK(BM_TinyEagerAdd)->Unit(benchmark::kNanosecond);
BENCHMARK(BM_TinyEagerAddPinned)->Unit(benchmark::kNanosecond);
BENCHMARK(BM_TinyEagerStep)->Unit(benchmark::kNanosecond);
BENCHMARK(BM_TinyEagerStepPinned)->Unit(benchmark::kNanosecond);
BENCHMARK(BM_TinyEagerSumPinned)->Unit(benchmark::kNanosecond);
BENCHMARK_MAIN();
