// The break-even inputs of the scheduler, side by side for every usable device: launch + wait of
// a trivial kernel, and host→device / device→host copies of 1e6 and 1e7 floats. On the CPU the
// "copy" is the memcpy its backend does. With --cache-probe DIR it instead times, in a fresh
// process, preparing one kernel on opencl:0 with the disk kernel cache at DIR (bench/run.sh runs
// it cold and warm and prints the ratio).
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "backends/registry.hpp"
#include "ir/kernel_ir.hpp"

namespace sy = switchyard;

namespace {

sy::ir::Kernel trivial_kernel() {
  sy::ir::KernelBuilder b;
  const auto x = b.load(sy::DType::Float32, sy::ir::Layout::Contiguous);
  b.output(b.binary(sy::ir::OpCode::Add, x, x, sy::DType::Float32));
  return b.build();
}

// A kernel of some substance, so the cold build is a realistic one.
sy::ir::Kernel probe_kernel() {
  sy::ir::KernelBuilder b;
  const auto t = sy::DType::Float32;
  const auto a = b.load(t, sy::ir::Layout::Contiguous), c = b.load(t, sy::ir::Layout::Contiguous);
  const auto s = b.unary(sy::ir::OpCode::Sin, c, t);
  const auto m = b.binary(sy::ir::OpCode::Mul, a, s, t);
  b.output(b.binary(sy::ir::OpCode::Add, m,
                    b.unary(sy::ir::OpCode::Sqrt, b.unary(sy::ir::OpCode::Abs, a, t), t), t));
  return b.build();
}

void BM_LaunchWait(benchmark::State& state, sy::Device* device) {
  const sy::ir::Kernel kernel = trivial_kernel();
  auto exe = device->prepare(kernel);
  const sy::DeviceMemory in = device->allocate(4), out = device->allocate(4);
  const float one = 1;
  device->copy_from_host(in, 0, &one, 4);
  const sy::Operand input{in, sy::DType::Float32, 0, sy::Strides{1}};
  const sy::Operand output{out, sy::DType::Float32, 0, sy::Strides{1}};
  const sy::LaunchArgs args{sy::Shape{1}, std::span(&input, 1), {}, std::span(&output, 1)};
  for (auto _ : state) {
    device->launch(*exe, args);
    device->synchronize();
  }
  device->free(in);
  device->free(out);
}

void BM_HostToDevice(benchmark::State& state, sy::Device* device) {
  const auto bytes = static_cast<std::size_t>(state.range(0)) * sizeof(float);
  std::vector<float> host(state.range(0), 1.0f);
  const sy::DeviceMemory mem = device->allocate(bytes);
  device->copy_from_host(mem, 0, host.data(), bytes);  // first touch of fresh pages is not timed
  for (auto _ : state) device->copy_from_host(mem, 0, host.data(), bytes);
  state.SetBytesProcessed(state.iterations() * bytes);
  device->free(mem);
}

void BM_DeviceToHost(benchmark::State& state, sy::Device* device) {
  const auto bytes = static_cast<std::size_t>(state.range(0)) * sizeof(float);
  std::vector<float> host(state.range(0), 1.0f);
  const sy::DeviceMemory mem = device->allocate(bytes);
  device->copy_from_host(mem, 0, host.data(), bytes);
  device->copy_to_host(host.data(), mem, 0, bytes);  // first touch of fresh pages is not timed
  for (auto _ : state) device->copy_to_host(host.data(), mem, 0, bytes);
  state.SetBytesProcessed(state.iterations() * bytes);
  device->free(mem);
}

// Prints the seconds one prepare() of probe_kernel() takes on opencl:0 in this process.
int cache_probe() {
  for (sy::Device* d : sy::Registry::instance().devices()) {
    if (d->info().backend != "opencl") continue;
    const auto start = std::chrono::steady_clock::now();
    d->prepare(probe_kernel());
    std::printf("%.6f\n",
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    return 0;
  }
  std::fprintf(stderr, "no usable OpenCL device\n");
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 3 && std::strcmp(argv[1], "--cache-probe") == 0) {
    setenv("SWITCHYARD_CACHE_DIR", argv[2], 1);
    return cache_probe();
  }
  for (sy::Device* d : sy::Registry::instance().devices()) {
    const std::string id = d->info().id();
    benchmark::RegisterBenchmark(("BM_LaunchWait/" + id).c_str(), BM_LaunchWait, d)
        ->Unit(benchmark::kMicrosecond)
        ->UseRealTime();
    for (const char* name : {"BM_HostToDevice/", "BM_DeviceToHost/"}) {
      auto* b = benchmark::RegisterBenchmark((std::string(name) + id).c_str(),
                                             name[7] == 'T' ? BM_HostToDevice : BM_DeviceToHost, d);
      b->Arg(1'000'000)->Arg(10'000'000)->Unit(benchmark::kMicrosecond)->UseRealTime();
    }
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
