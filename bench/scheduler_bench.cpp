// Cost of choosing a device: the hot path (a cached decision), the slow path (a full ranking) and
// the placement of a whole 20-launch step, with four candidates shaped like this machine's (CPU
// inline and parallel, OpenCL, CUDA).
#include <benchmark/benchmark.h>

#include "scheduler/scheduler.hpp"

namespace sched = switchyard::scheduler;

namespace {

std::vector<sched::DeviceModel> four_candidates() {
  sched::DeviceModel inline_cpu{.name = "cpu:0/inline",
                                .id = {0, true},
                                .host_addressable = true,
                                .launch_s = 50e-9,
                                .memory_bytes_per_s = 10e9,
                                .arithmetic_per_s = 2e9,
                                .transcendental_per_s = 2e8,
                                .flops_per_s = 2e10};
  sched::DeviceModel parallel_cpu = inline_cpu;
  parallel_cpu.name = "cpu:0/parallel";
  parallel_cpu.id = {0, false};
  parallel_cpu.launch_s = 5e-6;
  parallel_cpu.memory_bytes_per_s = 40e9;
  sched::DeviceModel opencl{.name = "opencl:0",
                            .id = {1, false},
                            .launch_s = 30e-6,
                            .h2d_latency_s = 10e-6,
                            .h2d_bytes_per_s = 20e9,
                            .d2h_latency_s = 10e-6,
                            .d2h_bytes_per_s = 20e9,
                            .memory_bytes_per_s = 30e9,
                            .arithmetic_per_s = 8e9,
                            .transcendental_per_s = 2e9,
                            .flops_per_s = 5e10,
                            .compile_base_s = 0.08,
                            .compile_per_op_s = 1e-3};
  sched::DeviceModel cuda = opencl;
  cuda.name = "cuda:0";
  cuda.id = {2, false};
  cuda.memory_bytes_per_s = 1e12;
  cuda.free_memory_bytes = 100ull << 30;
  return {inline_cpu, parallel_cpu, opencl, cuda};
}

sched::Workload three_input_kernel(std::int64_t n) {
  sched::Workload w;
  w.signature = 0x5eed;
  w.elements = n;
  w.bytes_read = 12 * static_cast<std::uint64_t>(n);
  w.bytes_written = 4 * static_cast<std::uint64_t>(n);
  w.arithmetic_per_element = 4;
  w.transcendental_per_element = 1;
  w.ir_operations = 8;
  const sched::InputPlacement on_host{4 * static_cast<std::uint64_t>(n), true, 0};
  w.inputs = {on_host, on_host, on_host};
  w.result_to_host = true;
  return w;
}

void BM_ChooseCached(benchmark::State& state) {
  sched::Scheduler s(four_candidates());
  const sched::Workload w = three_input_kernel(state.range(0));
  s.choose(w);
  for (auto _ : state) benchmark::DoNotOptimize(s.choose(w));
}
BENCHMARK(BM_ChooseCached)->Arg(1000)->Arg(10'000'000);

// Callers on several threads share the cache under a shared lock.
void BM_ChooseCachedShared(benchmark::State& state) {
  static sched::Scheduler s(four_candidates());
  const sched::Workload w = three_input_kernel(1000);
  s.choose(w);
  for (auto _ : state) benchmark::DoNotOptimize(s.choose(w));
}
BENCHMARK(BM_ChooseCachedShared)->Threads(1)->Threads(2);

// Hot path with recorded history present (history lookups must not be on the hit path).
void BM_ChooseCachedWithHistory(benchmark::State& state) {
  sched::Scheduler s(four_candidates());
  const sched::Workload w = three_input_kernel(state.range(0));
  for (int c = 0; c < 4; ++c)
    for (int i = 0; i < 8; ++i) s.record(w, c, 1e-5 * (c + 1));
  s.choose(w);
  for (auto _ : state) benchmark::DoNotOptimize(s.choose(w));
}
BENCHMARK(BM_ChooseCachedWithHistory)->Arg(1000);

// The miss path: a full ranking of four candidates (explain's cost, and a cache miss).
void BM_Decide(benchmark::State& state) {
  const sched::Scheduler s(four_candidates());
  const sched::Workload w = three_input_kernel(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(s.decide(w));
}
BENCHMARK(BM_Decide)->Arg(1000);

void BM_BreakEven(benchmark::State& state) {
  const sched::Scheduler s(four_candidates());
  const sched::Workload w = three_input_kernel(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(s.break_even(w));
}
BENCHMARK(BM_BreakEven)->Arg(1000);

// A whole step of `state.range(0)` launches in a chain (each reading the one before), every one
// measured on every candidate: the decision a captured function's replays revisit.
void BM_DecideGroup(benchmark::State& state) {
  sched::Scheduler s(four_candidates());
  std::vector<sched::GroupStep> steps;
  for (int i = 0; i < state.range(0); ++i) {
    sched::Workload w = three_input_kernel(100'000);
    w.signature += static_cast<std::uint64_t>(i);
    for (int c = 0; c < 4; ++c)
      for (int k = 0; k < 3; ++k) s.record(w, c, 1e-5 * (c + 1), 1e-6);
    steps.push_back({w, {i - 1, -1, -1}, 1, i + 1 == state.range(0)});
  }
  for (int k = 0; k < 3; ++k) s.record_group(steps, 1e-4);
  for (auto _ : state) benchmark::DoNotOptimize(s.decide_group(steps));
}
BENCHMARK(BM_DecideGroup)->Arg(20)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
