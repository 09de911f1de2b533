#include "scheduler/calibration.hpp"
#include "core/cancellation.hpp"
#include "core/log.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <limits>
#include <optional>
#include <random>

#include "backends/cpu/cpu_backend.hpp"
#include "backends/registry.hpp"
#include "core/host_info.hpp"

namespace switchyard::scheduler {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// How hard each depth looks. The stream probe's three arrays must leave the caches (this
// machine's L3 is 32 MiB: Quick moves 48 MiB, Full 96 MiB); compute probes only need to dwarf
// the launch latency (PoCL: ~40 µs).
// Copies must leave the caches too: PoCL moved 4 MiB at ~20 GB/s but 40 MiB at ~7 GB/s here.
struct Sizes {
  int repetitions;
  std::int64_t stream_elements;   // float32 per array of the a+b probe
  std::int64_t compute_elements;  // elements of the operation-chain probes
  std::size_t large_copy_bytes;
  std::int64_t gemm_n;  // square gemm side
};

Sizes sizes_for(CalibrationDepth depth) {
  if (depth == CalibrationDepth::Quick) return {3, std::int64_t{4} << 20, 1 << 20, 32 << 20, 256};
  return {9, std::int64_t{8} << 20, 1 << 21, 32 << 20, 1024};
}

constexpr std::size_t kSmallCopyBytes = 64;
// The CPU backend splits parallel launches into tasks of 8 blocks of 2048 elements: this many
// elements make two tasks, while an a+b over them (384 KiB) stays in the L2 cache.
constexpr std::int64_t kSplitElements = 2 * 8 * 2048;
constexpr double kProbeBudget_s = 0.1;
constexpr int kLaunchRepetitions = 21;  // cheap (tens of µs), and PoCL's launch jitters
constexpr int kCheapOps = 16;           // mul/add per element of the arithmetic probe
constexpr int kTranscendentalOps = 8;   // sin/exp per element of the transcendental probe
// The second compile probe (Full) fixes the per-op slope; PoCL's ~2 ms per op must stand out of
// its ±0.1 s build-time noise.
constexpr int kLargeCompileOps = 128;
constexpr float kInputValue = 0.75f;
// A gemm probe shorter than this is mostly launch: an H200 did 256^3 in about 16 µs, which read
// as 2 TFLOP/s, a twentieth of its rate at the sizes that matter.
constexpr double kGemmProbe_s = 1e-3;  // keeps every chain finite and away from denormals

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t mid = v.size() / 2;
  return v.size() % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

// Median seconds of up to `repetitions` runs of f, after one untimed run that warms caches,
// pages and the driver's lazy state. Stops early (after at least 3 runs) once kProbeBudget_s is
// spent, so a slow device (PoCL's gemm: ~0.2 s at 1024^3) does not blow the calibration's time.
template <class F>
double median_seconds(int repetitions, F&& f) {
  f();
  std::vector<double> times;
  double spent_s = 0;
  for (int i = 0; i < repetitions && (i < 3 || spent_s < kProbeBudget_s); ++i) {
    const auto start = Clock::now();
    f();
    times.push_back(seconds_since(start));
    spent_s += times.back();
  }
  return median(std::move(times));
}

// A value no compiled-kernel cache (ours on disk, or the driver's) has seen: the op sequence of
// a compile probe derives from it, so its build is a real build.
std::uint64_t fresh_salt() {
  static std::atomic<std::uint64_t> counter{0};
  std::random_device device;
  return (std::uint64_t{device()} << 32 ^ device()) +
         static_cast<std::uint64_t>(Clock::now().time_since_epoch().count()) + ++counter;
}

// x = a; then `ops` times x = x (op) a. Salt 0 alternates mul and add; any other salt picks
// each op from mul/add/sub/max, so the IR (and its hash) is new.
ir::Kernel cheap_chain(int ops, std::uint64_t salt) {
  static constexpr ir::OpCode kOps[] = {ir::OpCode::Mul, ir::OpCode::Add, ir::OpCode::Sub,
                                        ir::OpCode::Max};
  std::mt19937_64 pick(salt);
  ir::KernelBuilder b;
  const auto a = b.load(DType::Float32, ir::Layout::Contiguous);
  auto x = a;
  for (int i = 0; i < ops; ++i) {
    const ir::OpCode op = salt == 0 ? kOps[i % 2] : kOps[pick() % std::size(kOps)];
    x = b.binary(op, x, a, DType::Float32);
  }
  b.output(x);
  return b.build();
}

ir::Kernel transcendental_chain(int ops) {
  ir::KernelBuilder b;
  auto x = b.load(DType::Float32, ir::Layout::Contiguous);
  for (int i = 0; i < ops; ++i)
    x = b.unary(i % 2 ? ir::OpCode::Exp : ir::OpCode::Sin, x, DType::Float32);
  b.output(x);
  return b.build();
}

ir::Kernel add_kernel() {
  ir::KernelBuilder b;
  const auto a = b.load(DType::Float32, ir::Layout::Contiguous);
  const auto c = b.load(DType::Float32, ir::Layout::Contiguous);
  b.output(b.binary(ir::OpCode::Add, a, c, DType::Float32));
  return b.build();
}

// Sets the CPU backend's parallel threshold for the probes, restores it on exit (also on throw).
class ParallelThresholdScope {
 public:
  explicit ParallelThresholdScope(bool inline_cpu) : saved_(cpu::parallel_threshold()) {
    cpu::set_parallel_threshold(inline_cpu ? std::numeric_limits<std::int64_t>::max() : 0);
  }
  ~ParallelThresholdScope() { cpu::set_parallel_threshold(saved_); }
  ParallelThresholdScope(const ParallelThresholdScope&) = delete;
  ParallelThresholdScope& operator=(const ParallelThresholdScope&) = delete;

 private:
  std::int64_t saved_;
};

// Three float32 arrays on the device (inputs filled with kInputValue), reused by every probe.
class Probe {
 public:
  Probe(Device& device, const Sizes& sizes) : device_(device), sizes_(sizes) {
    const std::size_t bytes = static_cast<std::size_t>(sizes.stream_elements) * sizeof(float);
    // The copy probes use the first array: it must hold the large copy too (Quick's 32 MiB
    // exceeds its 16 MiB stream arrays).
    memory_[0] = device.allocate(std::max(bytes, sizes.large_copy_bytes));
    for (DeviceMemory& m : std::span(memory_).subspan(1)) m = device.allocate(bytes);
    const std::vector<float> host(sizes.stream_elements, kInputValue);
    for (DeviceMemory& m : memory_) device.copy_from_host(m, 0, host.data(), bytes);
  }
  ~Probe() {
    for (DeviceMemory& m : memory_) device_.free(m);
  }
  Probe(const Probe&) = delete;
  Probe& operator=(const Probe&) = delete;

  // Median launch + wait of a one-output kernel over n elements.
  double kernel_seconds(Executable& exe, const ir::Kernel& k, std::int64_t n, int repetitions = 0) {
    return median_seconds(repetitions ? repetitions : sizes_.repetitions,
                          [&] { launch(exe, k, n); });
  }
  void launch_once(Executable& exe, const ir::Kernel& k) { launch(exe, k, 1); }

  double copy_seconds(bool to_device, std::size_t bytes) {
    std::vector<std::byte> host(bytes);
    return median_seconds(sizes_.repetitions, [&] {
      if (to_device)
        device_.copy_from_host(memory_[0], 0, host.data(), bytes);
      else
        device_.copy_to_host(host.data(), memory_[0], 0, bytes);
    });
  }

  double gemm_seconds(std::int64_t n) {
    const auto exe = device_.prepare(LibraryOp{LibraryOp::Kind::Gemm, DType::Float32});
    LibraryArgs args;
    args.m = args.n = args.k = n;
    args.a = {memory_[0], DType::Float32, 0, {}};
    args.b = {memory_[1], DType::Float32, 0, {}};
    args.c = {memory_[2], DType::Float32, 0, {}};
    args.lda = args.ldb = args.ldc = n;
    return median_seconds(sizes_.repetitions, [&] {
      device_.launch(*exe, args);
      device_.synchronize();
    });
  }

 private:
  Device& device_;
  Sizes sizes_;
  DeviceMemory memory_[3];

  void launch(Executable& exe, const ir::Kernel& k, std::int64_t n) {
    const Shape shape{n};
    std::vector<Operand> inputs;
    for (std::size_t i = 0; i < k.inputs.size(); ++i)
      inputs.push_back({memory_[i], DType::Float32, 0, Strides{1}});
    const Operand output{memory_[2], DType::Float32, 0, Strides{1}};
    device_.launch(exe, LaunchArgs{shape, inputs, {}, {&output, 1}});
    device_.synchronize();
  }
};

// Rate of `work` units done in `seconds`, of which the launch's own latency is no part. A probe
// barely slower than a launch would give a wild rate: the floor of a tenth of the time keeps it
// finite and conservative.
double rate(double work, double seconds, double launch_s) {
  return work / std::max(seconds - launch_s, 0.1 * seconds);
}

class Calibration {
 public:
  Calibration(Device& device, bool inline_cpu, CalibrationDepth depth,
              const CalibrationProgress& progress)
      : device_(device), depth_(depth), sizes_(sizes_for(depth)), progress_(progress) {
    model_.name = candidate_name(device.info(), inline_cpu);
    parallel_cpu_ = device.info().backend == "cpu" && !inline_cpu;
    model_.host_addressable = device.info().host_addressable;
  }

  DeviceModel run() {
    step("setup", 0.0);
    Probe probe(device_, sizes_);
    const ir::Kernel add_ir = add_kernel();
    const ir::Kernel transcendental_ir = transcendental_chain(kTranscendentalOps);
    const auto add = device_.prepare(add_ir);
    const auto transcendental = device_.prepare(transcendental_ir);

    step("launch", 0.1);
    model_.launch_s = probe.kernel_seconds(*add, add_ir, 1, kLaunchRepetitions);
    if (parallel_cpu_) model_.launch_s = parallel_dispatch_s(probe, *add, add_ir);
    step("compile", 0.2);
    const ir::Kernel cheap_ir = cheap_chain(kCheapOps, fresh_salt());
    const auto cheap = measure_compile(probe, cheap_ir);
    step("transfers", 0.4);
    measure_transfers(probe);
    step("memory bandwidth", 0.5);
    const std::int64_t n = sizes_.stream_elements;
    model_.memory_bytes_per_s =
        rate(3.0 * sizeof(float) * n, probe.kernel_seconds(*add, add_ir, n), model_.launch_s);
    step("arithmetic", 0.6);
    const std::int64_t m = sizes_.compute_elements;
    model_.arithmetic_per_s =
        rate(double(m) * kCheapOps, probe.kernel_seconds(*cheap, cheap_ir, m), model_.launch_s);
    step("transcendental", 0.7);
    model_.transcendental_per_s =
        rate(double(m) * kTranscendentalOps,
             probe.kernel_seconds(*transcendental, transcendental_ir, m), model_.launch_s);
    step("gemm", 0.8);
    // A device without a gemm routine is never placed gemms (Device::has): nothing to measure.
    if (device_.runs(LibraryOp::Kind::Gemm)) model_.flops_per_s = gemm_rate(probe);
    model_.free_memory_bytes = free_memory_bytes(device_.info());
    return model_;
  }

 private:
  // Flops per second of a square float32 gemm that takes at least kGemmProbe_s: the side doubles
  // from the depth's size while a run is shorter, as far as the probe's arrays hold.
  double gemm_rate(Probe& probe) const {
    std::int64_t n = sizes_.gemm_n;
    double seconds = probe.gemm_seconds(n);
    while (seconds < kGemmProbe_s && 4 * n * n <= sizes_.stream_elements) {
      n *= 2;
      seconds = probe.gemm_seconds(n);
    }
    const double g = static_cast<double>(n);
    return rate(2 * g * g * g, seconds, model_.launch_s);
  }

  void step(std::string_view name, double fraction) {
    if (progress_) progress_(model_.name, name, fraction);
  }

  // A one-element launch runs on the calling thread even when parallel, so it misses what the
  // parallel candidate pays once work is split: waking the pool. That is a launch split in two
  // tasks less its work shared by the threads (the work timed inline at the same size).
  double parallel_dispatch_s(Probe& probe, Executable& add, const ir::Kernel& add_ir) {
    const double parallel_s = probe.kernel_seconds(add, add_ir, kSplitElements, kLaunchRepetitions);
    double inline_s = 0;
    {
      ParallelThresholdScope inline_scope(true);
      inline_s = probe.kernel_seconds(add, add_ir, kSplitElements, kLaunchRepetitions);
    }
    const int threads = std::max(1, host_info().logical_cpus);
    return std::max(model_.launch_s, parallel_s - inline_s / threads);
  }

  // Compile cost is prepare() plus the first launch less a launch's latency: PoCL finishes code
  // generation at the first enqueue (~0.1 s for a fresh kernel here), so prepare() alone would
  // miss part of it. Quick: the one fresh build (the arithmetic probe's kernel, reused below) is
  // all charged as a base. Full: fresh small, large and small kernels give base + per-op by a
  // line through the large one and the faster small one: the minimum drops the first build's
  // one-time driver start-up (most of PoCL's ~0.6 s cold build) and noise from other processes,
  // which only ever adds time (PoCL's warm builds here vary 0.3-0.55 s).
  std::shared_ptr<Executable> measure_compile(Probe& probe, const ir::Kernel& small) {
    auto compile_s = [&](const ir::Kernel& k, std::shared_ptr<Executable>& exe) {
      const auto start = Clock::now();
      exe = device_.prepare(k);
      probe.launch_once(*exe, k);
      return std::max(0.0, seconds_since(start) - model_.launch_s);
    };
    std::shared_ptr<Executable> exe, scratch;
    if (depth_ == CalibrationDepth::Quick) {
      model_.compile_base_s = compile_s(small, exe);
      return exe;
    }
    double small_s = compile_s(small, exe);
    const double large_s = compile_s(cheap_chain(kLargeCompileOps, fresh_salt()), scratch);
    small_s = std::min(small_s, compile_s(cheap_chain(kCheapOps, fresh_salt()), scratch));
    const int small_ops = static_cast<int>(small.body.size());
    const int extra_ops = kLargeCompileOps - kCheapOps;
    model_.compile_per_op_s = std::max(0.0, (large_s - small_s) / extra_ops);
    model_.compile_base_s = std::max(0.0, small_s - model_.compile_per_op_s * small_ops);
    return exe;
  }

  void measure_transfers(Probe& probe) {
    if (model_.host_addressable) {  // kernels read host memory in place: nothing is copied
      model_.h2d_bytes_per_s = model_.d2h_bytes_per_s = std::numeric_limits<double>::max();
      return;
    }
    const std::size_t large = sizes_.large_copy_bytes;
    model_.h2d_latency_s = probe.copy_seconds(true, kSmallCopyBytes);
    model_.h2d_bytes_per_s =
        rate(double(large), probe.copy_seconds(true, large), model_.h2d_latency_s);
    model_.d2h_latency_s = probe.copy_seconds(false, kSmallCopyBytes);
    model_.d2h_bytes_per_s =
        rate(double(large), probe.copy_seconds(false, large), model_.d2h_latency_s);
  }

  // What the API reports; the CPU's is the host's available memory now; 0 (never excludes) for
  // a device that does not say.
  static std::uint64_t free_memory_bytes(const DeviceInfo& info) {
    if (info.host_addressable) return available_memory_bytes();
    return info.free_memory_bytes.value_or(0);
  }

  Device& device_;
  bool parallel_cpu_ = false;
  CalibrationDepth depth_;
  Sizes sizes_;
  const CalibrationProgress& progress_;
  DeviceModel model_;
};

}  // namespace

std::string candidate_name(const DeviceInfo& info, bool inline_cpu) {
  if (info.backend != "cpu") return info.id();
  return info.id() + (inline_cpu ? "/inline" : "/parallel");
}

DeviceModel calibrate(Device& device, bool inline_cpu, CalibrationDepth depth,
                      const CalibrationProgress& progress) {
  std::optional<ParallelThresholdScope> threshold;
  const bool cpu = device.info().backend == "cpu";
  if (cpu) threshold.emplace(inline_cpu);
  DeviceModel model = Calibration(device, inline_cpu, depth, progress).run();
  const auto devices = Registry::instance().devices();
  const auto at = std::find(devices.begin(), devices.end(), &device);
  model.id = {at == devices.end() ? -1 : static_cast<int>(at - devices.begin()), cpu && inline_cpu};
  return model;
}

std::vector<CandidateRef> all_candidates() {
  std::vector<CandidateRef> candidates;
  for (Device* device : Registry::instance().devices()) {
    if (device->info().host_addressable) candidates.push_back({device, true});
    candidates.push_back({device, false});
  }
  return candidates;
}

std::vector<DeviceModel> calibrate_candidates(std::span<const CandidateRef> candidates,
                                              CalibrationDepth depth,
                                              const CalibrationProgress& progress) {
  std::vector<DeviceModel> models;
  for (const auto& [device, inline_cpu] : candidates) {
    const std::string name = candidate_name(device->info(), inline_cpu);
    log(LogLevel::Info, "calibration: measuring " + name);
    const auto start = Clock::now();
    try {
      models.push_back(calibrate(*device, inline_cpu, depth, progress));
      logf(LogLevel::Info, "calibration: {} done in {:.0f} ms", name, 1e3 * seconds_since(start));
    } catch (const Cancelled&) {
      log(LogLevel::Info, "calibration: " + name + " cancelled");
      throw;  // not a failure of the device: the process is ending
    } catch (const std::exception& e) {
      log(LogLevel::Warn,
          "calibration: " + candidate_name(device->info(), inline_cpu) + " left out: " + e.what());
    }
  }
  return models;
}

std::vector<DeviceModel> calibrate_all(CalibrationDepth depth,
                                       const CalibrationProgress& progress) {
  return calibrate_candidates(all_candidates(), depth, progress);
}

}  // namespace switchyard::scheduler
