// Decision logic of the scheduler, checked with device models written here (pure data), so every
// rule is deterministic: no device, no timing.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <vector>

#include "scheduler/scheduler.hpp"
#include "switchyard/error.hpp"

namespace sched = switchyard::scheduler;
using sched::DeviceModel;
using sched::InputPlacement;
using sched::Reason;
using sched::Scheduler;
using sched::Workload;

namespace {

constexpr int kCpu = 0, kGpu = 1, kSmall = 2;
constexpr std::uint32_t kOnGpu = 1u << 1;

// Fast launch, slow bandwidth, reads host memory directly: like a CPU.
DeviceModel cpu_like() {
  DeviceModel m;
  m.name = "cpu";
  m.id = {0, false};
  m.host_addressable = true;
  m.launch_s = 1e-6;
  m.memory_bytes_per_s = 20e9;
  m.arithmetic_per_s = 4e9;
  m.transcendental_per_s = 5e8;
  m.flops_per_s = 5e10;
  return m;
}

// Slow launch, fast memory and arithmetic, PCIe transfers, kernels must be compiled: like a GPU.
DeviceModel gpu_like() {
  DeviceModel m;
  m.name = "gpu";
  m.id = {1, false};
  m.launch_s = 30e-6;
  m.h2d_latency_s = m.d2h_latency_s = 10e-6;
  m.h2d_bytes_per_s = m.d2h_bytes_per_s = 20e9;
  m.memory_bytes_per_s = 1e12;
  m.arithmetic_per_s = 1e12;
  m.transcendental_per_s = 2e11;
  m.flops_per_s = 1e13;
  m.compile_base_s = 0.1;
  m.compile_per_op_s = 0.01;
  m.free_memory_bytes = 16ull << 30;
  return m;
}

// The fastest device of all, but with 64 MiB free.
DeviceModel small_memory() {
  DeviceModel m = gpu_like();
  m.name = "small";
  m.id = {2, false};
  m.launch_s = 5e-6;
  m.memory_bytes_per_s = 2e12;
  m.transcendental_per_s = 4e11;
  m.free_memory_bytes = 64ull << 20;
  return m;
}

// float32 elementwise work over n elements: two inputs, one output.
Workload elementwise(std::int64_t n, double arithmetic, double transcendental,
                     InputPlacement where = {0, true, 0}, std::uint64_t signature = 42) {
  Workload w;
  w.signature = signature;
  w.elements = n;
  w.bytes_read = 8 * static_cast<std::uint64_t>(n);
  w.bytes_written = 4 * static_cast<std::uint64_t>(n);
  w.arithmetic_per_element = arithmetic;
  w.transcendental_per_element = transcendental;
  w.ir_operations = 6;
  where.bytes = 4 * static_cast<std::uint64_t>(n);
  w.inputs = {where, where};
  return w;
}

InputPlacement on_gpu() {
  return {0, false, kOnGpu};
}

DeviceModel renamed(DeviceModel m, const char* name) {
  m.name = name;
  return m;
}

const sched::CandidateEstimate& estimate_of(const sched::Decision& d, int candidate) {
  for (const auto& e : d.ranking)
    if (e.candidate == candidate) return e;
  throw std::logic_error("candidate missing from the ranking");
}

}  // namespace

// ---- workload features

TEST(Workload, DescribesAnyKernelIr) {
  using namespace switchyard::ir;
  using switchyard::DType;
  KernelBuilder b;
  const auto x = b.load(DType::Float32, Layout::Contiguous);
  const auto y = b.load(DType::Float32, Layout::Contiguous);
  const auto s = b.unary(OpCode::Sin, x, DType::Float32);
  const auto e = b.unary(OpCode::Exp, y, DType::Float32);
  const auto p = b.binary(OpCode::Mul, s, e, DType::Float32);
  b.output(b.binary(OpCode::Add, p, x, DType::Float32));
  const Kernel k = b.build();

  const Workload w = sched::describe(k, k.hash(), 1000, 8000, 4000);
  EXPECT_EQ(w.kind, sched::WorkKind::Elementwise);
  EXPECT_EQ(w.elements, 1000);
  EXPECT_EQ(w.working_set_bytes(), 12000u);
  EXPECT_EQ(w.arithmetic_per_element, 2);
  EXPECT_EQ(w.transcendental_per_element, 2);
  EXPECT_EQ(w.ir_operations, 6);

  KernelBuilder r;
  r.output(r.unary(OpCode::Sqrt, r.load(DType::Float32, Layout::Contiguous), DType::Float32));
  r.reduce(ReduceOp::Sum, ReduceOver::All);
  const Kernel reduction = r.build();
  const Workload rw = sched::describe(reduction, reduction.hash(), 1000, 4000, 4);
  EXPECT_EQ(rw.kind, sched::WorkKind::Reduction);
  EXPECT_EQ(rw.arithmetic_per_element, 2);  // sqrt, and the fold
}

TEST(Workload, DescribesLibraryOps) {
  using switchyard::DType;
  using switchyard::LibraryOp;
  switchyard::LibraryArgs args;
  args.m = 2, args.n = 3, args.k = 4;
  const Workload gemm = sched::describe(LibraryOp{LibraryOp::Kind::Gemm, DType::Float32}, args);
  EXPECT_EQ(gemm.kind, sched::WorkKind::Gemm);
  EXPECT_EQ(gemm.flops, 2 * 2 * 3 * 4);
  EXPECT_EQ(gemm.elements, 2 * 3 * 4);  // its multiply-adds: products differing in k differ
  EXPECT_EQ(gemm.bytes_read, (2 * 4 + 4 * 3) * 4u);
  EXPECT_EQ(gemm.bytes_written, 6 * 4u);

  const Workload gemv = sched::describe(LibraryOp{LibraryOp::Kind::Gemv, DType::Float64}, args);
  EXPECT_EQ(gemv.kind, sched::WorkKind::Gemv);
  EXPECT_EQ(gemv.flops, 2 * 2 * 3);
  EXPECT_EQ(gemv.bytes_read, (2 * 3 + 3) * 8u);
  EXPECT_EQ(gemv.bytes_written, 2 * 8u);
  EXPECT_EQ(gemv.elements, 2 * 3);

  const auto sig = [&](LibraryOp op) { return sched::describe(op, args).signature; };
  const LibraryOp plain{LibraryOp::Kind::Gemm, DType::Float32};
  EXPECT_EQ(sig(plain), gemm.signature);
  EXPECT_NE(sig({LibraryOp::Kind::Gemm, DType::Float64}), gemm.signature);
  EXPECT_NE(sig({LibraryOp::Kind::Gemm, DType::Float32, true, false}), gemm.signature);
  EXPECT_NE(sig({LibraryOp::Kind::Gemm, DType::Float32, false, true}), gemm.signature);
  EXPECT_NE(gemv.signature, sig({LibraryOp::Kind::Gemv, DType::Float32}));
}

// Two products with one m·n and another k (an MLP step's x·W₁ and δ·W₂ᵀ) differ in cost as much
// as their k: what one measured says nothing of the other.
TEST(Workload, ProductsDifferingInKKeepTheirOwnHistory) {
  using switchyard::DType;
  using switchyard::LibraryOp;
  switchyard::LibraryArgs args;
  args.m = 256, args.n = 256, args.k = 10;
  const LibraryOp op{LibraryOp::Kind::Gemm, DType::Float32};
  const Workload thin = sched::describe(op, args);
  args.k = 784;
  const Workload thick = sched::describe(op, args);
  Scheduler s({cpu_like()});
  for (int i = 0; i < 3; ++i) s.record(thin, 0, 1e-5);
  EXPECT_TRUE(estimate_of(s.decide(thin), 0).measured_s);
  EXPECT_FALSE(estimate_of(s.decide(thick), 0).measured_s);
}

// The features that set library ops apart: log-linear work, random access, a size read back.
TEST(Workload, DescribesTheShapeOfLibraryWork) {
  using switchyard::DType;
  using switchyard::LibraryOp;
  switchyard::LibraryArgs args;
  args.rows = 1;
  const auto sort_of = [&](std::int64_t length) {
    args.length = length;
    return sched::describe(LibraryOp{LibraryOp::Kind::Sort, DType::Float32}, args);
  };
  const Workload small = sort_of(1 << 10), large = sort_of(1 << 20);
  EXPECT_EQ(large.kind, sched::WorkKind::Sort);
  EXPECT_EQ(large.elements, 1 << 20);
  EXPECT_DOUBLE_EQ(large.arithmetic_per_element, 2 * small.arithmetic_per_element);
  EXPECT_GT(large.memory_passes, small.memory_passes);

  args.length = 1000;
  const Workload scan = sched::describe(LibraryOp{LibraryOp::Kind::Scan, DType::Float64}, args);
  EXPECT_EQ(scan.bytes_read, 8000u);
  EXPECT_EQ(scan.bytes_written, 8000u);
  EXPECT_FALSE(scan.random_access || scan.data_dependent_size);

  const Workload compact =
      sched::describe(LibraryOp{LibraryOp::Kind::Compact, DType::Float32}, args);
  EXPECT_TRUE(compact.data_dependent_size);
  EXPECT_EQ(compact.bytes_read, 1000u * 5);  // values and the bool mask

  args.rows = 3, args.inner = 2, args.count = 10;
  const Workload gather = sched::describe(LibraryOp{LibraryOp::Kind::Gather, DType::Float32}, args);
  EXPECT_TRUE(gather.random_access);
  EXPECT_EQ(gather.elements, 3 * 10 * 2);

  LibraryOp fft{LibraryOp::Kind::Fft, DType::Float64};
  args.rows = 2, args.n = 1024;
  const Workload transform = sched::describe(fft, args);
  EXPECT_EQ(transform.kind, sched::WorkKind::Fft);
  EXPECT_DOUBLE_EQ(transform.flops, 5.0 * 2 * 1024 * 10);
  fft.rank = 2, args.m = 4;
  EXPECT_EQ(sched::describe(fft, args).elements, 2 * 4 * 1024);

  // Every field that selects a different routine selects a different signature.
  LibraryOp exclusive{LibraryOp::Kind::Scan, DType::Float32};
  exclusive.exclusive = true;
  EXPECT_NE(sched::library_signature(exclusive),
            sched::library_signature({LibraryOp::Kind::Scan, DType::Float32}));
  LibraryOp argsort{LibraryOp::Kind::Sort, DType::Float32};
  argsort.indices = true;
  EXPECT_NE(sched::library_signature(argsort),
            sched::library_signature({LibraryOp::Kind::Sort, DType::Float32}));
  const LibraryOp svd{.kind = LibraryOp::Kind::Solver, .dtype = DType::Float64};
  LibraryOp qr = svd, values = svd, full = svd;
  qr.solver = LibraryOp::SolverKind::Qr, values.vectors = false, full.complete = true;
  for (const LibraryOp& other : {qr, values, full})
    EXPECT_NE(sched::library_signature(other), sched::library_signature(svd));

  // A factorisation is priced by its cubic operation count, and needs a device with a solver.
  args = {};
  args.m = args.n = 100, args.batch = 2;
  const Workload factorise = sched::describe(qr, args);
  EXPECT_EQ(factorise.kind, sched::WorkKind::Solver);
  EXPECT_EQ(factorise.needs,
            switchyard::needs_routine(LibraryOp::Kind::Solver) | switchyard::kNeedsFloat64);
  EXPECT_DOUBLE_EQ(factorise.flops, 2 * 4.0 * 100 * 100 * 100);
  EXPECT_EQ(sched::describe(LibraryOp{LibraryOp::Kind::Gemm, DType::Float32}, args).needs,
            switchyard::needs_routine(LibraryOp::Kind::Gemm));
}

TEST(Workload, SizeBucketsAreQuarterPowersOfTwo) {
  EXPECT_EQ(sched::size_bucket(0), 0);
  EXPECT_EQ(sched::size_bucket(1), 4);
  EXPECT_EQ(sched::size_bucket(3), 8);
  EXPECT_EQ(sched::size_bucket(1023), 40);
  // Neighbouring sizes share a bucket; a bucket never spans more than 2^(1/4) (19%).
  EXPECT_EQ(sched::size_bucket(1'000'000), sched::size_bucket(1'010'000));
  for (std::int64_t n = 1; n < 100'000'000; n = n * 11 / 10 + 1)
    EXPECT_NE(sched::size_bucket(n), sched::size_bucket(n * 6 / 5 + 2)) << n;
}

// ---- cost model

TEST(CostModel, BreakdownFollowsTheFormula) {
  const DeviceModel gpu = gpu_like();
  const Workload w = elementwise(1'000'000, 3, 1);
  const auto c = sched::predict(w, gpu, kGpu, /*compiled=*/false);
  EXPECT_DOUBLE_EQ(c.compile_s, 0.1 + 0.01 * 6);
  EXPECT_DOUBLE_EQ(c.transfer_s, 2 * (10e-6 + 4e6 / 20e9));
  EXPECT_DOUBLE_EQ(c.launch_s, 30e-6);
  // Memory bound: 12e6 bytes / 1e12 = 12 µs against 1e6 · (3/1e12 + 1/2e11) = 8 µs.
  EXPECT_DOUBLE_EQ(c.compute_s, std::max(12e6 / 1e12, 1e6 * (3 / 1e12 + 1 / 2e11)));
  EXPECT_DOUBLE_EQ(sched::predict(w, gpu, kGpu, true).compile_s, 0);

  const DeviceModel cpu = cpu_like();
  const auto h = sched::predict(w, cpu, kCpu, true);
  EXPECT_EQ(h.transfer_s, 0);
  EXPECT_DOUBLE_EQ(h.compute_s, 1e6 * (3 / 4e9 + 1 / 5e8));  // arithmetic bound
}

TEST(CostModel, LibraryOpsAreBoundByFlopsOrBytes) {
  const DeviceModel cpu = cpu_like();
  Workload gemm;
  gemm.kind = sched::WorkKind::Gemm;
  gemm.flops = 2e9;
  gemm.bytes_read = 8e6;
  gemm.bytes_written = 4e6;
  EXPECT_DOUBLE_EQ(sched::predict(gemm, cpu, kCpu, true).compute_s, 2e9 / 5e10);
  gemm.flops = 2e3;
  EXPECT_DOUBLE_EQ(sched::predict(gemm, cpu, kCpu, true).compute_s, 12e6 / 20e9);
}

TEST(CostModel, LibraryFeaturesAddPassesLinesAndARoundTrip) {
  const DeviceModel gpu = gpu_like();
  Workload stream;
  stream.kind = sched::WorkKind::Scan;
  stream.elements = 1'000'000;
  stream.bytes_read = stream.bytes_written = 4'000'000;
  const double once = sched::predict(stream, gpu, kGpu, true).compute_s;

  Workload passes = stream;
  passes.memory_passes = 4;
  EXPECT_DOUBLE_EQ(sched::predict(passes, gpu, kGpu, true).compute_s, 4 * once);

  // A data-dependent position costs a cache line per element.
  Workload gather = stream;
  gather.random_access = true;
  EXPECT_DOUBLE_EQ(sched::predict(gather, gpu, kGpu, true).compute_s,
                   (8e6 + 64 * 1e6) / gpu.memory_bytes_per_s);

  // A size read back waits for the device once more.
  Workload compact = stream;
  compact.data_dependent_size = true;
  EXPECT_DOUBLE_EQ(sched::predict(compact, gpu, kGpu, true).compute_s,
                   once + gpu.launch_s + gpu.d2h_latency_s);
}

TEST(CostModel, DataOnAnotherDeviceComesBackThroughItsOwnLink) {
  DeviceModel other = gpu_like();
  other.d2h_latency_s = 1e-3;  // a distinctly slow way back
  other.d2h_bytes_per_s = 1e9;
  const DeviceModel gpu = gpu_like();
  const DeviceModel cpu = cpu_like();
  const std::vector<const DeviceModel*> sources = {nullptr, &gpu, &other};
  const Workload w = elementwise(1000, 1, 0, {0, false, 1u << kSmall});
  const double back_s = 1e-3 + 4000 / 1e9;

  EXPECT_DOUBLE_EQ(sched::predict(w, gpu, kGpu, true, sources).transfer_s,
                   2 * (back_s + 10e-6 + 4000 / 20e9));
  EXPECT_DOUBLE_EQ(sched::predict(w, cpu, kCpu, true, sources).transfer_s, 2 * back_s);
  EXPECT_DOUBLE_EQ(sched::predict(w, other, kSmall, true, sources).transfer_s, 0);
}

TEST(CostModel, ResultToHostAddsDeviceToHost) {
  Workload w = elementwise(1'000'000, 1, 0, on_gpu());
  const auto kept = sched::predict(w, gpu_like(), kGpu, true);
  const auto kept_cpu = sched::predict(w, cpu_like(), kCpu, true);
  w.result_to_host = true;
  const auto returned = sched::predict(w, gpu_like(), kGpu, true);
  EXPECT_DOUBLE_EQ(returned.transfer_s - kept.transfer_s, 10e-6 + 4e6 / 20e9);
  EXPECT_EQ(sched::predict(w, cpu_like(), kCpu, true).transfer_s, kept_cpu.transfer_s);
}

// A result read next on a device is moved there from wherever else it is written: from the host
// by that device's own link, from a third device back through the host first.
TEST(CostModel, ResultToADeviceAddsTheMoveThere) {
  DeviceModel other = gpu_like();
  other.name = "other";
  other.id = {kSmall, false};
  other.h2d_latency_s = 1e-3;  // a distinctly slow way in
  other.h2d_bytes_per_s = 1e9;
  const DeviceModel gpu = gpu_like(), cpu = cpu_like();
  const std::vector<const DeviceModel*> sources = {&cpu, &gpu, &other};
  Workload w = elementwise(1'000'000, 1, 0);
  const double cpu_kept_s = sched::predict(w, cpu, kCpu, true, sources).transfer_s;
  const double gpu_kept_s = sched::predict(w, gpu, kGpu, true, sources).transfer_s;
  w.result_to_device = kSmall;
  const double into_other_s = 1e-3 + 4e6 / 1e9;
  EXPECT_DOUBLE_EQ(sched::predict(w, cpu, kCpu, true, sources).result_transfer_s, into_other_s);
  EXPECT_DOUBLE_EQ(sched::predict(w, cpu, kCpu, true, sources).transfer_s,
                   cpu_kept_s + into_other_s);
  EXPECT_DOUBLE_EQ(sched::predict(w, gpu, kGpu, true, sources).transfer_s,
                   gpu_kept_s + 10e-6 + 4e6 / 20e9 + into_other_s);
  EXPECT_DOUBLE_EQ(sched::predict(w, other, kSmall, true, sources).result_transfer_s, 0);
  // A destination without a model here is not priced.
  EXPECT_DOUBLE_EQ(sched::predict(w, cpu, kCpu, true, {}).result_transfer_s, 0);
}

// Host data, work the host does a little faster than the GPU with the inputs' copies: once its
// result is known to be read on the GPU next, the result's copy there tips it to the GPU.
TEST(Decide, WorkWhoseResultAnotherDeviceReadsRunsThereWhenTheCopyOutweighsTheDifference) {
  const Scheduler s({cpu_like(), gpu_like()});
  Workload w = elementwise(200'000, 1, 0);
  EXPECT_EQ(s.decide(w).chosen, kCpu);
  w.result_to_device = kGpu;
  const auto d = s.decide(w);
  EXPECT_EQ(d.chosen, kGpu);
  EXPECT_GT(d.ranking.back().predicted.result_transfer_s, 0);
}

TEST(CostModel, FitsHonoursTheReserveAndResidentInputs) {
  DeviceModel m = gpu_like();
  m.free_memory_bytes = 100'000'000;
  const Workload w = elementwise(6'000'000, 1, 0);  // 72 MB working set
  EXPECT_TRUE(sched::fits(w, m, 0.0));
  EXPECT_FALSE(sched::fits(w, m, 0.3));  // 70 MB usable
  // Inputs already there take no new memory: only the 24 MB result does.
  EXPECT_TRUE(sched::fits(elementwise(6'000'000, 1, 0, on_gpu()), m, 0.3));
  m.free_memory_bytes = 0;  // unknown
  EXPECT_TRUE(sched::fits(w, m, 0.3));
}

// ---- decisions

TEST(Decide, SmallHostResidentWorkGoesToTheFastLaunchDevice) {
  const Scheduler s({cpu_like(), gpu_like()});
  const auto d = s.decide(elementwise(1000, 3, 0));
  EXPECT_EQ(d.chosen, kCpu);
  EXPECT_EQ(d.reason, Reason::LowestPredicted);
  ASSERT_EQ(d.ranking.size(), 2u);
  EXPECT_EQ(d.ranking[0].candidate, kCpu);
  EXPECT_LT(d.ranking[0].expected_s, d.ranking[1].expected_s);
}

TEST(Decide, LargeComputeHeavyGpuResidentWorkGoesToTheGpu) {
  const Scheduler s({cpu_like(), gpu_like()});
  const auto d = s.decide(elementwise(10'000'000, 4, 10, on_gpu()));
  EXPECT_EQ(d.chosen, kGpu);
  EXPECT_EQ(d.ranking[0].candidate, kGpu);
}

TEST(Decide, ResidentDataWinsWhereTransfersDominate) {
  const Scheduler s({cpu_like(), gpu_like()});
  // Memory-bound work the caller reads back: on the host the CPU wins; with the inputs already
  // on the GPU the copies the CPU would need make the GPU win.
  Workload host = elementwise(1'000'000, 1, 0);
  host.result_to_host = true;
  Workload resident = elementwise(1'000'000, 1, 0, on_gpu());
  resident.result_to_host = true;
  EXPECT_EQ(s.decide(host).chosen, kCpu);
  EXPECT_EQ(s.decide(resident).chosen, kGpu);
}

TEST(Decide, DeviceWithoutMemoryForTheWorkingSetIsNeverChosen) {
  const Scheduler s({cpu_like(), gpu_like(), small_memory()});
  // 1e5 elements (1.2 MB) fit: the small device is the fastest.
  const auto fits = s.decide(elementwise(100'000, 4, 10));
  EXPECT_EQ(fits.chosen, kSmall);
  // 1e7 elements (120 MB) exceed 64 MiB · 0.7: excluded, ranked last, marked.
  const auto d = s.decide(elementwise(10'000'000, 4, 10));
  EXPECT_NE(d.chosen, kSmall);
  EXPECT_EQ(d.ranking.back().candidate, kSmall);
  EXPECT_FALSE(d.ranking.back().fits);
  EXPECT_TRUE(d.ranking.front().fits);
  // Predicted fastest even so: exclusion, not ranking, keeps it out.
  EXPECT_LT(estimate_of(d, kSmall).expected_s, estimate_of(d, d.chosen).expected_s);
}

TEST(Decide, OnlyCandidateWhenTheOthersDoNotFit) {
  const Scheduler s({cpu_like(), small_memory()});
  const auto d = s.decide(elementwise(10'000'000, 4, 10));
  EXPECT_EQ(d.chosen, kCpu);
  EXPECT_EQ(d.reason, Reason::OnlyCandidate);
}

TEST(Decide, CompileCostMakesTheUncompiledDeviceLoseSmallWork) {
  const Scheduler s({cpu_like(), gpu_like()});
  // GPU-resident and transcendental-heavy: the GPU wins when compiled...
  const Workload w = elementwise(100'000, 4, 10, on_gpu());
  EXPECT_EQ(s.decide(w).chosen, kGpu);
  // ...but not when 0.16 s of compiling comes first.
  const auto d = s.decide(w, {true, false});
  EXPECT_EQ(d.chosen, kCpu);
  EXPECT_EQ(d.reason, Reason::LowestPredicted);
  EXPECT_DOUBLE_EQ(estimate_of(d, kGpu).predicted.compile_s, 0.16);
  EXPECT_FALSE(estimate_of(d, kGpu).compiled);
}

TEST(Decide, BestButUncompiledRunsElsewhereWhileCompiling) {
  const Scheduler s({cpu_like(), gpu_like()});
  const auto d = s.decide(elementwise(100'000'000, 4, 10), {true, false});
  EXPECT_EQ(d.ranking[0].candidate, kGpu);  // best even paying for the compile
  EXPECT_FALSE(d.ranking[0].compiled);
  EXPECT_EQ(d.chosen, kCpu);
  EXPECT_EQ(d.reason, Reason::CompileInBackground);
}

TEST(Decide, TiesGoToTheLowerIndex) {
  const DeviceModel a = renamed(cpu_like(), "a"), b = renamed(cpu_like(), "b");
  EXPECT_EQ(Scheduler({a, b}).decide(elementwise(1000, 1, 0)).chosen, 0);
  EXPECT_EQ(Scheduler({b, a}).decide(elementwise(1000, 1, 0)).chosen, 0);
}

TEST(Decide, RejectsUnusableModels) {
  EXPECT_THROW(Scheduler({}), switchyard::ValueError);
  EXPECT_THROW(Scheduler({cpu_like(), cpu_like()}), switchyard::ValueError);
  EXPECT_THROW(Scheduler({cpu_like()}, {.memory_reserve = 1.0}), switchyard::ValueError);
  EXPECT_THROW(Scheduler({cpu_like()}, {.history_trust_samples = sched::History::kWindow + 1}),
               switchyard::ValueError);
  EXPECT_THROW(Scheduler({cpu_like()}, {.explore_within = 0.5}), switchyard::ValueError);
  EXPECT_THROW(Scheduler({cpu_like()}, {.explore_share = 1.0}), switchyard::ValueError);
  EXPECT_THROW(Scheduler({cpu_like()}, {.decide_share = 1.0}), switchyard::ValueError);
  EXPECT_THROW(Scheduler({cpu_like()}, {.decide_share = -0.1}), switchyard::ValueError);
}

// ---- history

TEST(History, CorrectsAWrongModelWithinAFewExecutions) {
  // The model believes the GPU is fast; in reality it runs this kernel in 50 ms, the CPU in 20.
  Scheduler s({cpu_like(), gpu_like()});
  const Workload w = elementwise(1'000'000, 4, 10, on_gpu());
  const double true_s[] = {20e-3, 50e-3};
  std::vector<int> chosen;
  for (int run = 0; run < 8; ++run) {
    chosen.push_back(s.choose(w));
    s.record(w, chosen.back(), true_s[chosen.back()]);
  }
  EXPECT_EQ(chosen.front(), kGpu);
  EXPECT_EQ(chosen[1], kCpu) << "not corrected after one execution";
  // Tried again only while its runs, blended with the model as they build up, leave it in doubt;
  // 2.5x slower at the size the kernel runs, it is not explored afterwards.
  const int trusted = s.options().history_trust_samples;
  EXPECT_LE(std::count(chosen.begin(), chosen.end(), kGpu), trusted);
  EXPECT_TRUE(
      std::all_of(chosen.begin() + 2 * trusted, chosen.end(), [](int c) { return c == kCpu; }));
  EXPECT_EQ(s.decide(w).reason, Reason::LowestMeasured);
  EXPECT_DOUBLE_EQ(*estimate_of(s.decide(w), kGpu).measured_s, 50e-3);
}

TEST(History, OutliersDoNotMoveTheEstimate) {
  sched::History h;
  const sched::HistoryKey key{7, 40, "gpu"};
  // A full window: 12 honest samples spread over 1.00-1.22 ms (median 1.11) and four 100x
  // spikes. A plain median would drift to 1.15 ms; rejecting the spikes first keeps 1.11.
  for (int i = 0; i < 12; ++i) {
    h.record(key, 1e-3 * (1 + 0.02 * i));
    if (i % 3 == 2) h.record(key, 0.1);
  }
  EXPECT_NEAR(*h.estimate(key), 1.11e-3, 0.005e-3);
  const auto generation = h.generation();
  for (int i = 0; i < 3; ++i) h.record(key, 0.1);  // more spikes
  EXPECT_NEAR(*h.estimate(key), 1.11e-3, 0.05e-3);
  EXPECT_EQ(h.generation(), generation);  // cached decisions stay valid
}

TEST(History, TheEstimateIsTheMedianOfTheSamplesWithinThreeSigma) {
  sched::History h;
  const sched::HistoryKey key{7, 40, "cpu"};
  // Median 3; deviations 2 1 0 1 97, MAD 1, 3 sigma = 3 * 1.4826: 100 goes, and the median of
  // the four left is 2.5.
  for (double s : {4.0, 100.0, 1.0, 3.0, 2.0}) h.record(key, s);
  EXPECT_DOUBLE_EQ(*h.estimate(key), 2.5);
  // Seven samples: median 4; deviations 3 2 1 0 2 96 97, MAD 2, 3 sigma 8.9: 100 and 101 go,
  // and the median of 1 2 3 4 6 is 3.
  for (double s : {6.0, 101.0}) h.record(key, s);
  EXPECT_DOUBLE_EQ(*h.estimate(key), 3.0);
}

TEST(History, ConstantSamplesAndDecay) {
  sched::History h;
  const sched::HistoryKey key{7, 40, "cpu"};
  EXPECT_FALSE(h.estimate(key));
  for (int i = 0; i < 5; ++i) h.record(key, 2e-3);
  h.record(key, 1.0);
  EXPECT_DOUBLE_EQ(*h.estimate(key), 2e-3);  // MAD 0: only values at the median count
  for (int i = 0; i < sched::History::kWindow; ++i) h.record(key, 5e-3);
  EXPECT_DOUBLE_EQ(*h.estimate(key), 5e-3);  // old samples decayed out of the window
  EXPECT_EQ(h.samples(key), sched::History::kWindow);
  h.record(key, -1);
  h.record(key, std::nan(""));
  EXPECT_DOUBLE_EQ(*h.estimate(key), 5e-3);
}

TEST(History, GenerationMovesOnlyWithTheEstimate) {
  sched::History h;
  const sched::HistoryKey key{7, 40, "cpu"};
  auto generation = h.generation();
  for (int i = 0; i < sched::History::kWindow; ++i) {
    h.record(key, 1e-3);
    EXPECT_GT(h.generation(), generation) << "the count grew: trust in the estimate did too";
    generation = h.generation();
  }
  h.record(key, 1.05e-3);  // the window is full and the median stays within 10%
  EXPECT_EQ(h.generation(), generation);
  for (int i = 0; i < sched::History::kWindow / 2; ++i) h.record(key, 2e-3);
  EXPECT_GT(h.generation(), generation);  // the median moved to 1.5e-3
}

TEST(History, JsonRoundTrip) {
  sched::History h;
  h.record({0xdeadbeefcafef00dull, 40, "gpu"}, 1e-3);
  h.record({0xdeadbeefcafef00dull, 40, "gpu"}, 3e-3);
  h.record({1, 8, "cpu:0/inline"}, 2.5e-6);
  const auto j = h.to_json();
  EXPECT_EQ(j[0]["signature"], "0000000000000001");
  const sched::History back = sched::History::from_json(nlohmann::json::parse(j.dump()));
  EXPECT_EQ(back.to_json(), j);
  EXPECT_EQ(back.samples({0xdeadbeefcafef00dull, 40, "gpu"}), 2);
  EXPECT_DOUBLE_EQ(*back.estimate({0xdeadbeefcafef00dull, 40, "gpu"}), 2e-3);
}

TEST(History, SavesOnlyTheMostRecentlyUsedSeries) {
  using sched::History;
  const auto key = [](std::size_t i) { return sched::HistoryKey{i, 0, "cpu"}; };
  History h;
  const std::size_t n = History::kMaxSaved + 10;
  for (std::size_t i = 0; i < n; ++i) h.record(key(i), 1e-3);
  h.record(key(0), 1e-3);  // the oldest, used again: now the newest
  const History back = History::from_json(h.to_json());
  EXPECT_EQ(back.to_json().size(), History::kMaxSaved);
  EXPECT_EQ(back.samples(key(0)), 2);
  for (std::size_t i = 1; i <= 10; ++i) EXPECT_EQ(back.samples(key(i)), 0) << i;
  EXPECT_EQ(back.samples(key(11)), 1);
  // The order of use survives saving: one more series pushes out the oldest saved one.
  History again = back;
  again.record(key(n), 1e-3);
  const History twice = History::from_json(again.to_json());
  EXPECT_EQ(twice.samples(key(11)), 0);
  EXPECT_EQ(twice.samples(key(12)), 1);
  EXPECT_EQ(twice.samples(key(0)), 2);
  EXPECT_EQ(twice.samples(key(n)), 1);
  // Profiles written before uses were kept load, their series counting as oldest.
  auto old = h.to_json();
  for (auto& entry : old) entry.erase("used");
  old.push_back({{"signature", "00000000000000ff"},
                 {"bucket", 1},
                 {"candidate", "gpu"},
                 {"samples", {2e-3}}});
  EXPECT_EQ(History::from_json(old).to_json().size(), History::kMaxSaved);
}

TEST(History, MalformedJsonThrows) {
  const auto parse = [](const char* text) {
    return sched::History::from_json(nlohmann::json::parse(text));
  };
  EXPECT_NO_THROW(parse(R"([{"signature":"ff","bucket":4,"candidate":"cpu","samples":[1e-3]}])"));
  EXPECT_NO_THROW(parse("[]"));
  for (const char* bad : {
           R"({"signature":"ff"})",
           R"([1])",
           R"([{"bucket":4,"candidate":"cpu","samples":[1e-3]}])",
           R"([{"signature":"xyz","bucket":4,"candidate":"cpu","samples":[1e-3]}])",
           R"([{"signature":"","bucket":4,"candidate":"cpu","samples":[1e-3]}])",
           R"([{"signature":"ff","bucket":"4","candidate":"cpu","samples":[1e-3]}])",
           R"([{"signature":"ff","bucket":4,"candidate":"cpu","samples":[]}])",
           R"([{"signature":"ff","bucket":4,"candidate":"cpu","samples":[-1]}])",
           R"([{"signature":"ff","bucket":4,"candidate":"cpu","samples":["1"]}])",
           R"([{"signature":"ff","bucket":4,"candidate":7,"samples":[1e-3]}])",
           R"([{"signature":"ff","bucket":4,"candidate":"cpu","samples":[1e-3],"used":-1}])",
           R"([{"signature":"ff","bucket":4,"candidate":"cpu","samples":[1e-3],"used":"3"}])",
       })
    EXPECT_THROW(parse(bad), nlohmann::json::exception) << bad;
}

// ---- the hot path

TEST(Choose, CachesAndRedecidesWhenHistoryMoves) {
  Scheduler s({cpu_like(), gpu_like()});
  const Workload w = elementwise(1000, 3, 0);
  EXPECT_EQ(s.choose(w), kCpu);
  EXPECT_EQ(s.cached_reason(w), Reason::LowestPredicted);
  EXPECT_EQ(s.choose(w), kCpu);
  // Residency is part of the key: the same kernel and size elsewhere is decided on its own.
  Workload resident = elementwise(1000, 3, 0, on_gpu());
  EXPECT_FALSE(s.cached_reason(resident));
  s.choose(resident);
  EXPECT_TRUE(s.cached_reason(resident));
  // History that makes the CPU dreadful is picked up on the next call.
  for (int i = 0; i < 3; ++i) s.record(w, kCpu, 1.0);
  EXPECT_EQ(s.choose(w), kGpu);
  EXPECT_EQ(s.cached_reason(w), Reason::LowestMeasured);
}

// Estimates that drift all the time (a noisy kernel; other candidates measured between its runs)
// are not ranked again on every call: ranking costs at most decide_share of the time passing,
// besides the ranking made last. Ranking at once each time, the same calls rank thousands of
// times. (A candidate's first samples are ranked again at once: the tests above.)
TEST(Choose, RankingAgainWhenHistoryMovesCostsAtMostItsShareOfTheTime) {
  const Workload w = elementwise(1000, 3, 0);
  const auto run = [&](Scheduler& s) {
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < 50'000; ++i) {
      s.record(w, kCpu, 1e-6 * std::pow(1.05, i % 200));  // drifts 5% a record, then back
      s.choose(w);
    }
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  // Not exploring: a choice made to explore is ranked again at once.
  Scheduler at_once({cpu_like(), gpu_like()}, {.explore = false, .decide_share = 0});
  run(at_once);
  EXPECT_GT(at_once.ranking_stats().rankings, 1000) << "precondition: history moved";
  Scheduler bounded({cpu_like(), gpu_like()}, {.explore = false});
  const double elapsed_s = run(bounded);
  const auto stats = bounded.ranking_stats();
  EXPECT_GT(stats.rankings, 1);
  // Each ranking is followed by 1 / decide_share times its own time without one: all but the
  // last fit in that share of the time (the longest stands for the last, which a thread
  // descheduled in the middle of it may make milliseconds long on a loaded machine).
  EXPECT_LE(stats.ranking_s - stats.longest_s, bounded.options().decide_share * elapsed_s)
      << stats.rankings << " rankings in " << elapsed_s << " s, the longest " << stats.longest_s
      << " s";
}

TEST(Choose, HysteresisPreventsFlappingButAClearWinnerTakesOver) {
  const DeviceModel a = renamed(cpu_like(), "a"), b = renamed(cpu_like(), "b");
  Scheduler s({a, b});
  const Workload w = elementwise(1000, 1, 0);
  EXPECT_EQ(s.choose(w), 0);  // a tie: the lower index
  // Measurements put b 5% ahead, then a, then b again: within the 15% margin each time.
  const double noisy[][2] = {{1.00e-3, 0.95e-3}, {0.95e-3, 1.00e-3}, {1.00e-3, 0.95e-3}};
  for (const auto& times : noisy) {
    for (int i = 0; i < 3; ++i) s.record(w, 0, times[0]), s.record(w, 1, times[1]);
    EXPECT_EQ(s.choose(w), 0);
  }
  EXPECT_EQ(s.cached_reason(w), Reason::KeptByHysteresis);
  // Without a previous choice the same history picks b: hysteresis is what kept a.
  Scheduler fresh({a, b});
  fresh.history() = s.history();
  EXPECT_EQ(fresh.choose(w), 1);
  // A clear winner takes over.
  for (int i = 0; i < sched::History::kWindow; ++i) s.record(w, 1, 0.5e-3);
  EXPECT_EQ(s.choose(w), 1);
  EXPECT_EQ(s.cached_reason(w), Reason::LowestMeasured);
}

TEST(Choose, DecisionsAreIdenticalForTheSameModelsAndHistory) {
  // Without exploring, which also depends on what this process ran (each kernel's budget), not
  // only on the history.
  const sched::SchedulerOptions options{.explore = false};
  Scheduler first({cpu_like(), gpu_like(), small_memory()}, options);
  for (std::int64_t n = 100; n <= 100'000'000; n *= 10) {
    first.record(elementwise(n, 4, 2), kGpu, 1e-9 * static_cast<double>(n));
    first.record(elementwise(n, 4, 2), kCpu, 2e-9 * static_cast<double>(n));
  }
  Scheduler second({cpu_like(), gpu_like(), small_memory()}, options);
  second.history() = sched::History::from_json(first.history().to_json());
  for (std::int64_t n = 100; n <= 100'000'000; n *= 10) {
    for (const auto& where : {InputPlacement{0, true, 0}, on_gpu()}) {
      const Workload w = elementwise(n, 4, 2, where);
      const auto a = first.decide(w), b = second.decide(w);
      ASSERT_EQ(a.chosen, b.chosen) << n;
      ASSERT_EQ(a.reason, b.reason) << n;
      for (std::size_t i = 0; i < a.ranking.size(); ++i) {
        EXPECT_EQ(a.ranking[i].candidate, b.ranking[i].candidate) << n;
        EXPECT_EQ(a.ranking[i].expected_s, b.ranking[i].expected_s) << n;
      }
      EXPECT_EQ(first.choose(w), second.choose(w)) << n;
    }
  }
}

// ---- break-even

TEST(BreakEven, FindsWhereTheChoiceFlips) {
  const Scheduler s({cpu_like(), gpu_like()});
  // Host-resident, one operation: CPU 1 µs + 12n/20e9 against GPU
  // 2·(10 µs + 4n/20e9) + 30 µs + 12n/1e12.
  const double flip = (50e-6 - 1e-6) / (12 / 20e9 - 8 / 20e9 - 12 / 1e12);
  const auto up = s.break_even(elementwise(1000, 1, 0));
  ASSERT_TRUE(up);
  EXPECT_NEAR(static_cast<double>(*up), flip, 0.1 * flip);
  // From 4e6 the flip below (16x away) is nearer than the GPU running out of memory (250x).
  const auto down = s.break_even(elementwise(4'000'000, 1, 0));
  ASSERT_TRUE(down);
  EXPECT_NEAR(static_cast<double>(*down), flip, 0.1 * flip);
  EXPECT_EQ(s.decide(elementwise(*up, 1, 0)).chosen, kGpu);
  EXPECT_EQ(s.decide(elementwise(*down, 1, 0)).chosen, kCpu);
}

TEST(BreakEven, NulloptWhenTheChoiceNeverFlips) {
  DeviceModel slow = gpu_like();
  slow.launch_s = 10;  // never worth it within 10^4 of the size
  const Scheduler s({cpu_like(), slow});
  EXPECT_FALSE(s.break_even(elementwise(1000, 1, 0)));
  EXPECT_FALSE(Scheduler({cpu_like()}).break_even(elementwise(1000, 1, 0)));
}

TEST(Choose, ExploresACloseUnmeasuredCandidateUntilItsHistoryIsTrusted) {
  DeviceModel b = renamed(cpu_like(), "b");  // 1.2x slower at any size, within explore_within
  b.launch_s *= 1.2;
  b.memory_bytes_per_s /= 1.2;
  b.arithmetic_per_s /= 1.2;
  Scheduler s({renamed(cpu_like(), "a"), b});
  const Workload w = elementwise(1000, 1, 0);
  EXPECT_EQ(s.choose(w), 0);
  EXPECT_EQ(s.cached_reason(w), Reason::LowestPredicted);  // nothing measured: nothing explored
  const double a_s = estimate_of(s.decide(w), 0).expected_s,
               b_s = estimate_of(s.decide(w), 1).expected_s;
  s.record(w, 0, a_s);
  // b cannot be ruled out by its model alone: it is tried until its history is trusted...
  // (each exploring choice names the best's expected time, what its run is measured against)
  for (int i = 0; i < s.options().history_trust_samples; ++i) {
    Scheduler::ChoiceDetails details;
    EXPECT_EQ(s.choose(w, {}, &details), 1) << "sample " << i;
    EXPECT_EQ(s.cached_reason(w), Reason::Exploring);
    EXPECT_EQ(details.reason, Reason::Exploring);
    EXPECT_DOUBLE_EQ(details.best_expected_s, s.decide(w).ranking.front().expected_s);
    s.record(w, 1, b_s);
  }
  // ... then the measured best runs.
  EXPECT_EQ(s.choose(w), 0);
  EXPECT_EQ(s.cached_reason(w), Reason::LowestMeasured);
}

TEST(Choose, DoesNotExploreACandidatePredictedFarSlower) {
  DeviceModel slow = renamed(cpu_like(), "slow");
  slow.launch_s = 1;
  Scheduler s({cpu_like(), slow});
  const Workload w = elementwise(1000, 1, 0);
  for (int i = 0; i < 3; ++i) s.record(w, 0, 1e-6);
  EXPECT_EQ(s.choose(w), 0);
  EXPECT_EQ(s.cached_reason(w), Reason::LowestMeasured);
}

// Past explore_within, only a run that is small next to the kernel's largest is explored, and
// only once the kernel's own run time pays for it.
TEST(Choose, ExploresPastExploreWithinOnlySmallRunsTheKernelsBudgetPays) {
  DeviceModel slower = renamed(cpu_like(), "slower");
  slower.launch_s *= 1.5;  // 1.5x slower at any size
  slower.memory_bytes_per_s /= 1.5;
  slower.arithmetic_per_s /= 1.5;
  const Workload small = elementwise(1000, 1, 0), large = elementwise(10'000'000, 1, 0);
  const auto runs_at_the_model = [](Scheduler& s, const Workload& w, int times) {
    for (int i = 0; i < times; ++i) {
      const int chosen = s.choose(w);
      EXPECT_EQ(chosen, 0) << "run " << i;
      s.record(w, chosen, estimate_of(s.decide(w), chosen).expected_s);
    }
  };
  {
    // The small size alone: exploring it would cost half a run each time, more than 5% of
    // what the kernel has run.
    Scheduler s({cpu_like(), slower});
    runs_at_the_model(s, small, 3);
    EXPECT_EQ(s.choose(small), 0);
    EXPECT_EQ(s.cached_reason(small), Reason::LowestMeasured);
  }
  Scheduler s({cpu_like(), slower});
  // The large size is never explored at 1.5x, however much the kernel has run...
  runs_at_the_model(s, large, 20);
  EXPECT_EQ(s.decide(large).reason, Reason::LowestMeasured);
  // ... and that pays for exploring a small one, once its best has been measured there.
  runs_at_the_model(s, small, 1);
  EXPECT_EQ(s.choose(small), 1);
  EXPECT_EQ(s.cached_reason(small), Reason::Exploring);
  // An exploration switched off never happens.
  Scheduler never({cpu_like(), slower}, {.explore = false});
  runs_at_the_model(never, large, 20);
  runs_at_the_model(never, small, 3);
}

// ---- the model corrected by what other sizes measured

TEST(ModelCorrection, FitsLaunchAndComputeFactorsWhereTheSizesTellThemApart) {
  EXPECT_EQ(sched::fit_correction({}).launch, 1);
  // Measured = 2·launch + 0.5·compute, at a launch-bound size and at a compute-bound one.
  const std::vector<sched::MeasuredSize> two = {{10e-6, 1e-6, 20.5e-6}, {10e-6, 1e-3, 520e-6}};
  const sched::ModelCorrection k = sched::fit_correction(two);
  EXPECT_NEAR(k.launch, 2, 1e-9);
  EXPECT_NEAR(k.compute, 0.5, 1e-9);
  // One size where neither part dominates: one factor for both, the measured time over the
  // model's...
  const sched::ModelCorrection one =
      sched::fit_correction(std::vector<sched::MeasuredSize>{{20e-6, 20e-6, 120e-6}});
  EXPECT_NEAR(one.launch, 3, 1e-9);
  EXPECT_NEAR(one.compute, 3, 1e-9);
  // ... and where one does, it alone is corrected: a compute-bound size says nothing of launch.
  const sched::ModelCorrection compute_bound =
      sched::fit_correction(std::vector<sched::MeasuredSize>{{10e-6, 30e-6, 120e-6}});
  EXPECT_EQ(compute_bound.launch, 1);
  EXPECT_NEAR(compute_bound.compute, 11.0 / 3, 1e-9);
  const sched::ModelCorrection launch_bound =
      sched::fit_correction(std::vector<sched::MeasuredSize>{{30e-6, 10e-6, 70e-6}});
  EXPECT_NEAR(launch_bound.launch, 2, 1e-9);
  EXPECT_EQ(launch_bound.compute, 1);
  // Sizes whose parts stand in the same proportion cannot tell the parts apart: one factor.
  const sched::ModelCorrection same = sched::fit_correction(
      std::vector<sched::MeasuredSize>{{1e-6, 1e-6, 4e-6}, {2e-6, 2e-6, 8e-6}});
  EXPECT_NEAR(same.launch, 2, 1e-9);
  EXPECT_NEAR(same.compute, 2, 1e-9);
  // What cannot be a duration is ignored; factors stay within [0.1, 10].
  EXPECT_EQ(sched::fit_correction(std::vector<sched::MeasuredSize>{{1e-6, 0, -1}}).launch, 1);
  EXPECT_EQ(sched::fit_correction(std::vector<sched::MeasuredSize>{{1e-9, 0, 1}}).launch, 10);
  EXPECT_EQ(sched::fit_correction(std::vector<sched::MeasuredSize>{{1, 0, 1e-9}}).launch, 0.1);
}

TEST(ModelCorrection, WhatASmallSizeMeasuredCorrectsTheModelAtALargeOne) {
  Scheduler s({cpu_like()});
  // History keeps a bucket, not the exact size: measured at a bucket's middle, the fit is exact.
  const Workload small = elementwise(std::llround(sched::bucket_elements(40)), 1, 0);
  const Workload large = elementwise(10'000'000, 1, 0);
  const double predicted_large_s = s.decide(large).ranking.front().expected_s;
  // Three times the model at the small size, in each part, measured as often as history is
  // trusted: the large one is expected 3x too.
  const double small_s = 3 * s.decide(small).ranking.front().expected_s;
  s.record(small, 0, small_s);
  // One run is trusted as history is, 1/history_trust_samples of the way...
  EXPECT_FALSE(s.decide(large).ranking.front().measured_s);
  const double one_run = std::pow(3.0, 1.0 / s.options().history_trust_samples);
  EXPECT_NEAR(s.decide(large).ranking.front().expected_s, one_run * predicted_large_s,
              1e-3 * predicted_large_s);
  // ... and as many as history_trust_samples fully.
  for (int i = 1; i < s.options().history_trust_samples; ++i) s.record(small, 0, small_s);
  const sched::CandidateEstimate e = s.decide(large).ranking.front();
  EXPECT_FALSE(e.measured_s);
  EXPECT_NEAR(e.expected_s, 3 * predicted_large_s, 1e-3 * predicted_large_s);
}

// A model wrong by 3x, either way, on one of two devices; the kernel runs a few times at each
// size from 10^3 to 10^7 elements, smallest first, over and over (a simulation whose problem
// grows, a parameter sweep, the demo). The scheduler must find the truly fastest device at every
// size within a few rounds, exploring for a small share of the sweep's time and never at the
// largest size on a device truly more than explore_within slower: what the small sizes measure
// must tell it about the large ones.
TEST(Choose, AModelWrongByThreeTimesEitherWayConvergesWithoutCostlyFullSizeRuns) {
  struct Case {
    const char* what;
    double bytes_per_s;  // the wrong model's bandwidth
    double truth;        // true times over the wrong model's
  };
  // Optimistic: the model says b is 2x faster than a at large sizes; truly it is 1.5x slower.
  // Pessimistic: the model says b is 1.33x slower; truly it is 2.25x faster.
  for (const Case c : {Case{"optimistic", 40e9, 3}, Case{"pessimistic", 15e9, 1.0 / 3}}) {
    DeviceModel b = renamed(cpu_like(), "b");
    b.launch_s = 20e-6;
    b.memory_bytes_per_s = c.bytes_per_s;
    DeviceModel b_true = b;
    b_true.launch_s *= c.truth;
    b_true.memory_bytes_per_s /= c.truth;
    const DeviceModel a = cpu_like();
    Scheduler s({a, b});
    const auto true_s = [&](const Workload& w, int candidate) {
      return sched::predict(w, candidate == 0 ? a : b_true, 0, true).total_s();
    };
    const std::int64_t sizes[] = {1000, 10'000, 100'000, 1'000'000, 10'000'000};
    constexpr int kRounds = 6, kRunsPerSize = 4;
    double explored_s = 0, best_total_s = 0;
    for (int round = 0; round < kRounds; ++round) {
      for (const std::int64_t n : sizes) {
        for (int run = 0; run < kRunsPerSize; ++run) {
          const Workload w = elementwise(n, 1, 0);
          Scheduler::ChoiceDetails choice;
          const int chosen = s.choose(w, {}, &choice);
          const Reason reason = choice.reason;
          const double took_s = true_s(w, chosen);
          const double best_s = std::min(true_s(w, 0), true_s(w, 1));
          s.record(w, chosen, took_s);
          best_total_s += best_s;
          if (reason == Reason::Exploring) {
            explored_s += took_s - best_s;
            if (n == sizes[4]) {
              EXPECT_LE(took_s, s.options().explore_within * best_s)
                  << c.what << ": round " << round << " explored the full size on " << chosen;
            }
          }
          if (round >= 1 && n == sizes[4]) {  // learnt from the smaller sizes of round 0 or 1
            EXPECT_LE(took_s, s.options().explore_within * best_s)
                << c.what << ": round " << round << " ran the full size on " << chosen;
          }
          // Converged: the fastest, or one within the hysteresis margin (a small run may still
          // be explored where the kernel's budget pays for it).
          if (round >= 2 && reason != Reason::Exploring) {
            EXPECT_LE(took_s, (1 + s.options().hysteresis) * best_s)
                << c.what << ": round " << round << ", n = " << n;
          }
        }
      }
    }
    EXPECT_LE(explored_s, s.options().explore_share * best_total_s) << c.what;
  }
}

// ---- placing a whole step

// `length` launches in a chain over n = 10^4 float32 elements, each reading the previous one's
// output twice; the first reads data that lives on the GPU, and the last one's result is read on
// the host. All recorded on the GPU.
std::vector<sched::GroupStep> chain_on_the_gpu(int length) {
  std::vector<sched::GroupStep> steps;
  for (int i = 0; i < length; ++i) {
    sched::GroupStep step{
        elementwise(10'000, 1, 0, on_gpu(), 100 + i), {i - 1, i - 1}, kGpu, i == length - 1};
    step.work.result_to_host = step.returns;
    steps.push_back(step);
  }
  return steps;
}

// Each launch alone is (just) cheaper on the GPU, where its inputs are, than moving them to the
// CPU: placed kernel by kernel the chain stays there. Over the whole step, moving the data once
// and running every launch on the CPU is expected faster: the group moves.
TEST(Group, AChainTrappedOnADeviceByItsDataMovesWhenTheWholeStepIsFaster) {
  const Scheduler s({cpu_like(), gpu_like()});
  const auto steps = chain_on_the_gpu(6);
  const Workload middle = steps[1].work;
  EXPECT_EQ(s.decide(middle).chosen, kGpu) << "precondition: kernel by kernel it stays";
  const sched::GroupDecision d = s.decide_group(steps);
  ASSERT_TRUE(d.moves());
  const sched::GroupAlternative& chosen = d.alternatives[d.chosen];
  EXPECT_EQ(d.alternatives.front().name, "as recorded");
  EXPECT_EQ(chosen.name, "all on cpu");
  EXPECT_EQ(chosen.candidates, std::vector<int>(6, kCpu));
  EXPECT_LT((1 + s.options().hysteresis) * chosen.expected_s, d.alternatives.front().expected_s);
  for (const auto& a : d.alternatives) {
    EXPECT_GE(a.expected_s, chosen.expected_s) << a.name;
    EXPECT_FALSE(a.measured_s) << a.name;
  }
  // The sum of its launches as each runs there: the first pays for the inputs' move.
  double sum_s = 0;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    Workload w = steps[i].work;
    if (i > 0) w.inputs = {{w.inputs[0].bytes, true, 0}, {w.inputs[1].bytes, true, 0}};
    sum_s += estimate_of(s.decide(w), kCpu).expected_s;
  }
  EXPECT_NEAR(chosen.predicted_s, sum_s, 1e-9 * sum_s);
}

// Whole runs of a placement, once measured, overrule the prediction: a step recorded on the GPU
// that runs faster there than predicted stays.
TEST(Group, MeasuredWholeRunsOverruleThePrediction) {
  Scheduler s({cpu_like(), gpu_like()});
  const auto steps = chain_on_the_gpu(6);
  const double cpu_s = s.decide_group(steps).alternatives[s.decide_group(steps).chosen].expected_s;
  for (int i = 0; i < s.options().history_trust_samples; ++i) s.record_group(steps, 0.5 * cpu_s);
  const sched::GroupDecision d = s.decide_group(steps);
  EXPECT_FALSE(d.moves());
  ASSERT_TRUE(d.alternatives.front().measured_s);
  EXPECT_DOUBLE_EQ(*d.alternatives.front().measured_s, 0.5 * cpu_s);
  EXPECT_DOUBLE_EQ(d.alternatives.front().expected_s, 0.5 * cpu_s);
  // Another placement's runs are kept apart.
  auto on_cpu = steps;
  for (auto& step : on_cpu) step.candidate = kCpu;
  for (int i = 0; i < 3; ++i) s.record_group(on_cpu, 2 * cpu_s);
  const sched::GroupDecision from_cpu = s.decide_group(on_cpu);
  ASSERT_TRUE(from_cpu.moves());
  EXPECT_EQ(from_cpu.alternatives[from_cpu.chosen].candidates, std::vector<int>(6, kGpu));
}

TEST(Reasons, AreDescribed) {
  for (auto r : {Reason::OnlyCandidate, Reason::LowestPredicted, Reason::LowestMeasured,
                 Reason::KeptByHysteresis, Reason::Exploring, Reason::CompileInBackground,
                 Reason::InsufficientMemory, Reason::Forced})
    EXPECT_GT(sched::describe(r).size(), 10u);
  EXPECT_NE(sched::describe(Reason::LowestMeasured), sched::describe(Reason::LowestPredicted));
}
