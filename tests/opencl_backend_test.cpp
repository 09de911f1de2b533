// The OpenCL backend on whatever OpenCL device the machine has (PoCL's CPU device in CI):
// detection, memory, typed errors, the driver's binaries, which library ops run vendor routines,
// generated kernels against float64 references, CLBlast.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <numbers>
#include <numeric>
#include <random>
#include <string_view>
#include <vector>

#include "backends/compiled_device.hpp"
#include "backends/opencl/opencl_backend.hpp"
#include "backends/opencl/opencl_driver_cache.hpp"
#include "backends/registry.hpp"
#include "conformance/reference.hpp"
#include "multi_reduction_cases.hpp"
#include "switchyard/error.hpp"
#include "test_support.hpp"

namespace switchyard {
namespace {

using ir::KernelBuilder;
using ir::Layout;
using ir::OpCode;
using ir::ReduceOp;
using ir::ReduceOver;

using conformance::dot_error_bound;
using conformance::sum_error_bound;
using testing_support::kNaN;

class OpenCLBackend : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    // A private cache directory, so that runs neither share nor pollute the user's cache. One
    // for the process (the kernel cache reads the variable once), removed at exit after the
    // runtime's own statics, which were made after it. PoCL's cache stays where the user's is:
    // the driver's compiles are no part of what these tests check, only slow when cold.
    opencl::place_driver_cache();
    static const testing_support::TempDir cache;
    setenv("SWITCHYARD_CACHE_DIR", cache.path().c_str(), 1);
    backend_ = opencl::make_backend().release();
  }
  void SetUp() override {
    if (!backend_->available()) {
      if (backend_settings().requires_backend("opencl"))
        FAIL() << "SWITCHYARD_REQUIRE_BACKENDS names opencl: " << backend_->unavailable_reason();
      GTEST_SKIP() << backend_->unavailable_reason();
    }
    device_ = dynamic_cast<CompiledDevice*>(backend_->devices().front());
    ASSERT_NE(device_, nullptr);
  }

  template <class T>
  DeviceMemory upload(const std::vector<T>& host) {
    DeviceMemory m = device_->allocate(host.size() * sizeof(T));
    device_->copy_from_host(m, 0, host.data(), host.size() * sizeof(T));
    return m;
  }
  template <class T>
  std::vector<T> download(DeviceMemory m, std::size_t n) {
    std::vector<T> host(n);
    device_->copy_to_host(host.data(), m, 0, n * sizeof(T));
    device_->free(m);
    return host;
  }
  // Float32 or float64 (t) copies of float values, for library ops tested at both precisions.
  DeviceMemory upload_as(DType t, const std::vector<float>& v) {
    return t == DType::Float32 ? upload(v) : upload(std::vector<double>(v.begin(), v.end()));
  }
  std::vector<double> download_as_double(DType t, DeviceMemory m, std::size_t n) {
    if (t == DType::Float64) return download<double>(m, n);
    const auto r = download<float>(m, n);
    return {r.begin(), r.end()};
  }

  // Runs `k` over `shape`; returns output 0 as T (count elements).
  template <class T>
  std::vector<T> run(const ir::Kernel& k, const Shape& shape, std::vector<Operand> inputs,
                     std::vector<ScalarValue> scalars, std::size_t count) {
    auto exe = device_->prepare(k);
    Operand out{device_->allocate(count * sizeof(T)), dtype_of<T>(), 0, {}};
    device_->launch(*exe, LaunchArgs{shape, inputs, scalars, std::span(&out, 1)});
    device_->synchronize();
    for (auto& in : inputs) device_->free(in.memory);
    return download<T>(out.memory, count);
  }

  static switchyard::Backend* backend_;
  CompiledDevice* device_ = nullptr;
};
switchyard::Backend* OpenCLBackend::backend_ = nullptr;

std::vector<float> ramp(std::size_t n, float scale) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = scale * std::sin(0.37f * static_cast<float>(i) + 1);
  return v;
}

TEST_F(OpenCLBackend, EnumeratesDevicesWithCapabilities) {
  ASSERT_FALSE(backend_->devices().empty());
  for (std::size_t i = 0; i < backend_->devices().size(); ++i) {
    const DeviceInfo& info = backend_->devices()[i]->info();
    std::printf(
        "%s: %s | %s | driver %s | %s | %d units | %llu MiB (max alloc %llu MiB) | "
        "fp64 %d fp16 %d unified %d\n",
        info.id().c_str(), info.name.c_str(), info.vendor.c_str(), info.driver_version.c_str(),
        std::string(name(info.kind)).c_str(), info.compute_units,
        static_cast<unsigned long long>(info.global_memory_bytes >> 20),
        static_cast<unsigned long long>(info.max_allocation_bytes >> 20), info.fp64, info.fp16,
        info.unified_memory);
    EXPECT_EQ(info.backend, "opencl");
    EXPECT_EQ(info.index, static_cast<int>(i));
    EXPECT_FALSE(info.name.empty());
    EXPECT_GT(info.compute_units, 0);
    EXPECT_GT(info.global_memory_bytes, 0u);
    EXPECT_GT(info.max_allocation_bytes, 0u);
  }
}

TEST_F(OpenCLBackend, CopiesRoundTrip) {
  const auto host = ramp(1'000'003, 3);
  DeviceMemory a = upload(host);
  DeviceMemory b = device_->allocate(host.size() * sizeof(float));
  device_->copy_within(b, 0, a, 4 * sizeof(float), (host.size() - 4) * sizeof(float));
  device_->free(a);
  const auto back = download<float>(b, host.size() - 4);
  EXPECT_TRUE(std::equal(back.begin(), back.end(), host.begin() + 4));
}

TEST_F(OpenCLBackend, FreedBuffersAreReused) {
  DeviceMemory a = device_->allocate(1000);
  void* handle = a.handle;
  device_->free(a);
  DeviceMemory b = device_->allocate(990);
  EXPECT_EQ(b.handle, handle);
  device_->free(b);
}

TEST_F(OpenCLBackend, OversizeAllocationIsOutOfMemoryNamingDeviceAndSizes) {
  const std::size_t too_big = device_->info().max_allocation_bytes + 1;
  try {
    device_->allocate(too_big);
    FAIL() << "expected OutOfMemory";
  } catch (const OutOfMemory& e) {
    EXPECT_NE(std::string(e.what()).find(device_->info().id()), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(std::to_string(too_big)), std::string::npos) << e.what();
  }
}

TEST_F(OpenCLBackend, BrokenSourceIsACompileErrorWithTheBuildLog) {
  const std::string_view entries[] = {"f"};
  try {
    device_->driver().build("__kernel void f(__global float* x) { x[0] = undeclared; }", entries);
    FAIL() << "expected CompileError";
  } catch (const CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("CL_BUILD_PROGRAM_FAILURE"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("undeclared"), std::string::npos) << e.what();
  }
}

// A binary the kernel cache hands back is loaded when it is this driver's program with the
// entries asked for, and refused (null, so that it is rebuilt) when it is damaged or another's.
TEST_F(OpenCLBackend, DriverLoadsItsOwnBinariesAndRefusesOthers) {
  Driver& driver = device_->driver();
  const std::string_view entries[] = {"one"}, other[] = {"two"};
  std::vector<std::byte> binary =
      driver.build("__kernel void one(__global float* x) { x[0] = 1; }", entries);
  EXPECT_NE(driver.load(binary, entries), nullptr);
  EXPECT_EQ(driver.load(binary, other), nullptr) << "a program without the entry asked for";
  EXPECT_EQ(driver.load({}, entries), nullptr);
  // PoCL's binaries carry the program's bitcode as program.bc (opencl_driver.cpp refuses one
  // without it, on which PoCL would abort): this PoCL's must, or the check needs its new name.
  const std::string_view bytes(reinterpret_cast<const char*>(binary.data()), binary.size()),
      name = "program.bc";
  if (bytes.starts_with("poclbin")) {
    const auto at = bytes.find(name);
    ASSERT_NE(at, std::string_view::npos) << "this PoCL's binaries name their bitcode otherwise";
    std::vector<std::byte> without = binary;
    without[at + 7] = std::byte{'X'};  // program.bc -> programXbc
    EXPECT_EQ(driver.load(without, entries), nullptr) << "a PoCL binary without its bitcode";
  }
  for (std::byte& x : binary) x = std::byte{0x5a};
  EXPECT_EQ(driver.load(binary, entries), nullptr) << "a damaged binary";
}

// CLBlast runs gemm and gemv, VkFFT FFTs; codegen's library kernels run the other ops.
TEST_F(OpenCLBackend, VendorRoutinesServeBlasAndFftAndLibraryKernelsTheRest) {
  using Kind = LibraryOp::Kind;
  for (Kind kind : {Kind::Gemm, Kind::Gemv, Kind::Fft})
    EXPECT_NE(device_->driver().prepare_library({.kind = kind, .dtype = DType::Float32}, *device_),
              nullptr)
        << static_cast<int>(kind);
  for (Kind kind : {Kind::Scan, Kind::Sort, Kind::Compact, Kind::Gather}) {
    const LibraryOp op{.kind = kind, .dtype = DType::Float32};
    EXPECT_EQ(device_->driver().prepare_library(op, *device_), nullptr) << static_cast<int>(kind);
    EXPECT_NE(device_->prepare(op), nullptr) << static_cast<int>(kind);
  }
  EXPECT_FALSE(device_->runs(Kind::Solver));
}

// a * b + sin(c) * s - sqrt(|a|) with a contiguous, b broadcast along rows, c a transposed view.
class FusedChain : public OpenCLBackend, public ::testing::WithParamInterface<Shape> {};

TEST_P(FusedChain, MatchesFloat64Reference) {
  const Shape shape = GetParam();
  const std::int64_t rows = shape[0], cols = shape[1], n = rows * cols;
  for (DType t : {DType::Float32, DType::Float64}) {
    if (t == DType::Float64 && !device_->info().fp64) continue;
    KernelBuilder b;
    const auto a = b.load(t, Layout::Contiguous), bb = b.load(t, Layout::Strided);
    const auto c = b.load(t, Layout::Strided), s = b.scalar(t);
    const auto prod = b.binary(OpCode::Mul, a, bb, t);
    const auto wave = b.binary(OpCode::Mul, b.unary(OpCode::Sin, c, t), s, t);
    const auto root = b.unary(OpCode::Sqrt, b.unary(OpCode::Abs, a, t), t);
    b.output(b.binary(OpCode::Sub, b.binary(OpCode::Add, prod, wave, t), root, t));
    const ir::Kernel k = b.build();

    const auto av = ramp(n, 2), bv = ramp(cols, 1), cv = ramp(n, 4);  // c stored cols × rows
    auto as = [&](const std::vector<float>& v) {
      return visit_dtype(t, [&](auto zero) -> DeviceMemory {
        using U = decltype(zero);
        if constexpr (std::is_floating_point_v<U>) {
          std::vector<U> u(v.begin(), v.end());
          if (u.empty()) u.push_back(0);
          return upload(u);
        }
        return {};
      });
    };
    std::vector<Operand> inputs = {{as(av), t, 0, contiguous_strides(shape)},
                                   {as(bv), t, 0, Strides{0, 1}},
                                   {as(cv), t, 0, Strides{1, rows}}};
    const std::vector<ScalarValue> scalars = {{DType::Float64, 2.5, 0}};
    std::vector<double> got;
    if (t == DType::Float32) {
      const auto r = run<float>(k, shape, inputs, scalars, n);
      got.assign(r.begin(), r.end());
    } else {
      got = run<double>(k, shape, inputs, scalars, n);
    }
    const double tol = t == DType::Float32 ? 2e-5 : 1e-12;
    for (std::int64_t i = 0; i < rows; ++i)
      for (std::int64_t j = 0; j < cols; ++j) {
        const std::int64_t e = i * cols + j;
        const double want = double(av[e]) * bv[j] + std::sin(double(cv[j * rows + i])) * 2.5 -
                            std::sqrt(std::abs(double(av[e])));
        ASSERT_NEAR(got[e], want, tol * (1 + std::abs(want))) << name(t) << " at " << i << "," << j;
      }
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, FusedChain,
                         ::testing::Values(Shape{0, 5}, Shape{1, 1}, Shape{1, 7}, Shape{3, 341},
                                           Shape{1, (1 << 20) + 3}, Shape{1031, 17}));

// Integer floor division, modulo and power with the IR's edge cases, and float-to-int casts.
TEST_F(OpenCLBackend, IntegerSemanticsAndFloatToIntegerCasts) {
  const std::vector<std::int32_t> av = {7, -7, 7, -7, 5, std::numeric_limits<int>::min(), 3, -2,
                                        0, 9,  1, -1, -1};
  const std::vector<std::int32_t> bv = {2, 2, -2, -2, 0, -1, 4, 3, 0, -1, -5, -3, -4};
  const Shape shape{static_cast<std::int64_t>(av.size())};
  auto ints = [&](OpCode op) {
    KernelBuilder b;
    const auto x = b.load(DType::Int32, Layout::Contiguous);
    const auto y = b.load(DType::Int32, Layout::Contiguous);
    b.output(b.binary(op, x, y, DType::Int32));
    return run<std::int32_t>(b.build(), shape,
                             {{upload(av), DType::Int32, 0, contiguous_strides(shape)},
                              {upload(bv), DType::Int32, 0, contiguous_strides(shape)}},
                             {}, av.size());
  };
  const auto fd = ints(OpCode::FloorDiv), md = ints(OpCode::Mod), pw = ints(OpCode::Pow);
  for (std::size_t i = 0; i < av.size(); ++i) {
    const std::int64_t a = av[i], b = bv[i];
    std::int64_t q = 0, r = 0;
    if (b != 0) {
      q = a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
      r = a - q * b;
    }
    std::int64_t p = 1;
    if (b < 0)
      p = a == 1 ? 1 : a == -1 ? (b % 2 ? -1 : 1) : 0;
    else
      for (std::int64_t k = 0; k < b; ++k) p = static_cast<std::int32_t>(p * a);
    EXPECT_EQ(fd[i], static_cast<std::int32_t>(q)) << a << " // " << b;
    EXPECT_EQ(md[i], r) << a << " % " << b;
    EXPECT_EQ(pw[i], p) << a << " ** " << b;
  }

  const std::vector<float> fv = {1.9f, -1.9f, 3e9f, -3e9f, NAN, INFINITY, -0.5f};
  // Out of range and NaN give the minimum (NumPy on x86).
  const int lowest = std::numeric_limits<int>::min();
  const std::vector<std::int32_t> want = {1, -1, lowest, lowest, lowest, lowest, 0};
  KernelBuilder b;
  b.output(b.cast(b.load(DType::Float32, Layout::Contiguous), DType::Int32));
  const Shape fs{static_cast<std::int64_t>(fv.size())};
  EXPECT_EQ(
      run<std::int32_t>(b.build(), fs, {{upload(fv), DType::Float32, 0, contiguous_strides(fs)}},
                        {}, fv.size()),
      want);
}

// float64 pow and mod on negative operands, at the width the device picks (double8 on PoCL with
// AVX-512, whose double8 pow and fmod are wrong there: pow(-2, 4) gave 0.0625).
TEST_F(OpenCLBackend, Float64PowAndModOfNegativeOperandsAtDeviceWidth) {
  if (!device_->info().fp64) GTEST_SKIP() << "no fp64";
  // Whole and fractional values in [-4, 4]: which lanes go wrong depends on the mix.
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<double> uniform(-4, 4);
  auto value = [&] { return rng() % 2 ? std::round(uniform(rng)) : uniform(rng); };
  std::vector<double> av(4096), bv(av.size());
  for (std::size_t i = 0; i < av.size(); ++i) av[i] = value(), bv[i] = value();
  const Shape shape{static_cast<std::int64_t>(av.size())};
  auto doubles = [&](OpCode op) {
    KernelBuilder b;
    const auto x = b.load(DType::Float64, Layout::Contiguous);
    const auto y = b.load(DType::Float64, Layout::Contiguous);
    b.output(b.binary(op, x, y, DType::Float64));
    return run<double>(b.build(), shape,
                       {{upload(av), DType::Float64, 0, contiguous_strides(shape)},
                        {upload(bv), DType::Float64, 0, contiguous_strides(shape)}},
                       {}, av.size());
  };
  const auto pw = doubles(OpCode::Pow), md = doubles(OpCode::Mod);
  for (std::size_t i = 0; i < av.size(); ++i) {
    const double a = av[i], b = bv[i], p = std::pow(a, b);
    double r = std::fmod(a, b);
    if (r != 0 && (r < 0) != (b < 0)) r += b;
    if (r == 0) r = std::copysign(0.0, b);
    auto near = [](double got, double want) {
      return std::isnan(want)   ? std::isnan(got)
             : std::isinf(want) ? got == want
                                : std::abs(got - want) <= 1e-13 * std::max(1.0, std::abs(want));
    };
    EXPECT_PRED2(near, pw[i], p) << a << " ** " << b;
    EXPECT_PRED2(near, md[i], r) << a << " % " << b;
  }
}

// PoCL's float vector sin, cos and tan lost every lane once one lane was past about 1e6 (sin of
// -1e-3 came out -0.008 beside a lane of 3e9): each lane must be right whatever its neighbours.
TEST_F(OpenCLBackend, Float32TrigonometryOfEachLaneBesideHugeLanes) {
  const std::vector<float> pattern = {-1e-3f, 3e9f, -0.3f, 0.7f, -1e-30f, 1e30f, 2.5f, -4.0f};
  std::vector<float> av;
  for (int repeat = 0; repeat < 64; ++repeat)
    for (std::size_t i = 0; i < pattern.size(); ++i)
      av.push_back(pattern[(i + repeat) % pattern.size()]);  // every value in every lane
  const Shape shape{static_cast<std::int64_t>(av.size())};
  for (const auto& [op, f] :
       {std::pair<OpCode, double (*)(double)>{OpCode::Sin, [](double x) { return std::sin(x); }},
        {OpCode::Cos, [](double x) { return std::cos(x); }},
        {OpCode::Tan, [](double x) { return std::tan(x); }}}) {
    KernelBuilder b;
    b.output(b.unary(op, b.load(DType::Float32, Layout::Contiguous), DType::Float32));
    const auto got =
        run<float>(b.build(), shape, {{upload(av), DType::Float32, 0, contiguous_strides(shape)}},
                   {}, av.size());
    for (std::size_t i = 0; i < av.size(); ++i) {
      const double want = f(av[i]);  // of the float32 input, exactly reduced
      // OpenCL's bound for float sin, cos and tan is 4 ulp of the result.
      const double ulp = std::numeric_limits<float>::epsilon() *
                         std::max(std::abs(want), double{std::numeric_limits<float>::min()});
      EXPECT_LE(std::abs(got[i] - want), 4 * ulp) << ir::name(op) << "(" << av[i] << ") at " << i
                                                  << ": " << got[i] << ", expected " << want;
    }
  }
}

struct ReduceCase {
  ReduceOp op;
  ReduceOver over;
  Shape shape;
};

class Reductions : public OpenCLBackend, public ::testing::WithParamInterface<ReduceCase> {};

// Values with repeats (ties) and, for sizes above 3, a NaN at position n/2 for min/max/arg.
TEST_P(Reductions, MatchFloat64Reference) {
  const auto [op, over, shape] = GetParam();
  const std::int64_t n = element_count(shape);
  const std::int64_t len = over == ReduceOver::All ? n : shape.back();
  const std::int64_t rows = over == ReduceOver::All ? 1 : (len ? n / len : 1);
  std::vector<float> v(std::max<std::int64_t>(n, 1));
  for (std::int64_t i = 0; i < n; ++i) v[i] = static_cast<float>((i * 7919) % 13) - 6.0f;
  const bool with_nan = op != ReduceOp::Sum && op != ReduceOp::Prod && n > 3;
  if (with_nan) v[n / 2 + 1] = NAN;
  if (op == ReduceOp::Prod)
    for (auto& x : v) x = 1.0f + x / 64.0f;

  KernelBuilder b;
  b.output(b.load(DType::Float32, Layout::Contiguous));
  b.reduce(op, over);
  const ir::Kernel k = b.build();
  std::vector<Operand> in = {{upload(v), DType::Float32, 0, contiguous_strides(shape)}};
  const bool arg = op == ReduceOp::ArgMin || op == ReduceOp::ArgMax;
  std::vector<double> got;
  if (arg) {
    const auto r = run<std::int64_t>(k, shape, in, {}, rows);
    got.assign(r.begin(), r.end());
  } else {
    const auto r = run<float>(k, shape, in, {}, rows);
    got.assign(r.begin(), r.end());
  }
  for (std::int64_t r = 0; r < rows; ++r) {
    double acc = op == ReduceOp::Prod ? 1 : op == ReduceOp::Sum ? 0 : double(v[r * len]);
    std::int64_t at = 0;
    double magnitude = 0;  // Σ|x|, for the sum's error bound
    for (std::int64_t j = 0; j < len; ++j) {
      const double x = v[r * len + j];
      switch (op) {
        case ReduceOp::Sum:
          acc += x;
          magnitude += std::abs(x);
          break;
        case ReduceOp::Prod:
          acc *= x;
          break;
        case ReduceOp::Min:
          acc = std::isnan(acc) || std::isnan(x) ? kNaN : std::min(acc, x);
          break;
        case ReduceOp::Max:
          acc = std::isnan(acc) || std::isnan(x) ? kNaN : std::max(acc, x);
          break;
        case ReduceOp::ArgMin:
        case ReduceOp::ArgMax: {
          const bool better = op == ReduceOp::ArgMin ? x < acc : x > acc;
          if (!std::isnan(acc) && (std::isnan(x) || better)) acc = x, at = j;
        }
      }
    }
    const double want = arg ? double(at) : acc;
    if (std::isnan(want)) {
      EXPECT_TRUE(std::isnan(got[r])) << "row " << r;
    } else {
      // reference.hpp's bounds: pairwise for sums, len roundings for products; min, max and
      // the arg ops are exact.
      const double tol = op == ReduceOp::Sum ? sum_error_bound(DType::Float32, len, magnitude, want)
                         : op == ReduceOp::Prod
                             ? dot_error_bound(DType::Float32, len, std::abs(want), want)
                             : 0;
      EXPECT_NEAR(got[r], want, tol) << "row " << r;
    }
  }
}

std::vector<ReduceCase> reduce_cases() {
  std::vector<ReduceCase> cases;
  for (int op = 0; op <= static_cast<int>(ReduceOp::ArgMax); ++op) {
    const auto o = static_cast<ReduceOp>(op);
    const bool needs_elements = o != ReduceOp::Sum && o != ReduceOp::Prod;
    for (std::int64_t n : {0, 1, 7, 1023, (1 << 20) + 3})
      if (n > 0 || !needs_elements) cases.push_back({o, ReduceOver::All, Shape{n}});
    for (Shape s : {Shape{7, 1023}, Shape{1023, 7}, Shape{3, (1 << 18) + 3}, Shape{4, 1}})
      cases.push_back({o, ReduceOver::TrailingAxes, s});
    if (!needs_elements) cases.push_back({o, ReduceOver::TrailingAxes, Shape{5, 0}});
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(AllOps, Reductions, ::testing::ValuesIn(reduce_cases()));

TEST_F(OpenCLBackend, MultiReductionsMatchFloat64) {
  for (const auto& c : testing_support::multi_reduction_cases(device_->info().fp64))
    testing_support::expect_case_matches(*device_, c);
}

TEST_F(OpenCLBackend, IntegerAndBoolSumsWidenToInt64) {
  const std::int64_t n = (1 << 20) + 3;
  std::vector<std::int32_t> v(n, std::numeric_limits<std::int32_t>::max());
  KernelBuilder b;
  const auto x = b.load(DType::Int32, Layout::Contiguous);
  b.output(x);
  b.reduce(ReduceOp::Sum, ReduceOver::All);
  const Shape shape{n};
  EXPECT_EQ(run<std::int64_t>(b.build(), shape,
                              {{upload(v), DType::Int32, 0, contiguous_strides(shape)}}, {}, 1)[0],
            n * std::int64_t{std::numeric_limits<std::int32_t>::max()});

  std::vector<std::uint8_t> flags(n);
  for (std::int64_t i = 0; i < n; ++i) flags[i] = i % 3 == 0;
  KernelBuilder c;
  c.output(c.load(DType::Bool, Layout::Contiguous));
  c.reduce(ReduceOp::Sum, ReduceOver::All);
  EXPECT_EQ(
      run<std::int64_t>(c.build(), shape,
                        {{upload(flags), DType::Bool, 0, contiguous_strides(shape)}}, {}, 1)[0],
      (n + 2) / 3);
}

TEST_F(OpenCLBackend, Float32SumOfManyValuesIsAccurate) {
  const std::int64_t n = 10'000'000;
  std::vector<float> v(n, 0.1f);
  KernelBuilder b;
  b.output(b.load(DType::Float32, Layout::Contiguous));
  b.reduce(ReduceOp::Sum, ReduceOver::All);
  const Shape shape{n};
  const float got = run<float>(
      b.build(), shape, {{upload(v), DType::Float32, 0, contiguous_strides(shape)}}, {}, 1)[0];
  const double sum = n * double(0.1f);
  EXPECT_NEAR(got, sum, sum_error_bound(DType::Float32, n, sum, sum));
}

template <class T>
void naive_gemm(bool ta, bool tb, int m, int n, int k, const std::vector<T>& a,
                const std::vector<T>& b, std::vector<double>& c) {
  c.assign(m * n, 0);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      for (int p = 0; p < k; ++p)
        c[i * n + j] +=
            double(ta ? a[p * m + i] : a[i * k + p]) * (tb ? b[j * k + p] : b[p * n + j]);
}

// Outputs start as NaN: recycled memory must not leak into C = A·B (beta = 0).
TEST_F(OpenCLBackend, GemmAndGemvMatchNaiveLoops) {
  const int m = 17, n = 33, k = 65;
  for (DType t : {DType::Float32, DType::Float64}) {
    if (t == DType::Float64 && !device_->info().fp64) continue;
    for (bool ta : {false, true})
      for (bool tb : {false, true}) {
        const auto af = ramp(m * k, 1), bf = ramp(k * n, 2);
        std::vector<double> want;
        naive_gemm(ta, tb, m, n, k, af, bf, want);
        auto exe = device_->prepare(LibraryOp{LibraryOp::Kind::Gemm, t, ta, tb});
        LibraryArgs args{m,
                         n,
                         k,
                         {upload_as(t, af), t, 0, {}},
                         {upload_as(t, bf), t, 0, {}},
                         {upload_as(t, std::vector<float>(m * n, NAN)), t, 0, {}},
                         ta ? m : k,
                         tb ? k : n,
                         n};
        device_->launch(*exe, args);
        device_->synchronize();
        device_->free(args.a.memory);
        device_->free(args.b.memory);
        const std::vector<double> got = download_as_double(t, args.c.memory, m * n);
        for (int i = 0; i < m * n; ++i)
          ASSERT_NEAR(got[i], want[i], 1e-4 * (1 + std::abs(want[i]))) << name(t) << ta << tb;
      }
    for (bool ta : {false, true}) {
      const auto af = ramp(m * n, 1), xf = ramp(n, 3);
      std::vector<double> want;
      // y (m) = op(A) x: op(A) is m × n, stored n × m when transposed.
      naive_gemm(ta, false, m, 1, n, af, xf, want);
      auto exe = device_->prepare(LibraryOp{LibraryOp::Kind::Gemv, t, ta, false});
      LibraryArgs args{m,
                       n,
                       0,
                       {upload_as(t, af), t, 0, {}},
                       {upload_as(t, xf), t, 0, {}},
                       {upload_as(t, std::vector<float>(m, NAN)), t, 0, {}},
                       ta ? m : n,
                       0,
                       0};
      device_->launch(*exe, args);
      device_->synchronize();
      device_->free(args.a.memory);
      device_->free(args.b.memory);
      const std::vector<double> got = download_as_double(t, args.c.memory, m);
      for (int i = 0; i < m; ++i) ASSERT_NEAR(got[i], want[i], 1e-4 * (1 + std::abs(want[i])));
    }
  }
}

// An odd real transform longer than a work-group holds (4097 float32 points on PoCL), which VkFFT
// plans only as a complex one between the backend's own kernels (backends/fft_real_kernels.hpp):
// against the DFT, from an input at an offset, and back (unnormalised, so n times the input).
TEST_F(OpenCLBackend, LongOddRealTransformsMatchTheDft) {
  using FftKind = LibraryOp::FftKind;
  const std::int64_t n = 4097, offset = 3, bins = n / 2 + 1;
  const std::vector<float> x = ramp(offset + n, 1);
  LibraryArgs args;
  args.rows = args.m = 1;
  args.n = n;
  args.a = {upload(x), DType::Float32, offset, {}};
  args.c = {device_->allocate(bins * sizeof(std::complex<float>)), DType::Complex64, 0, {}};
  auto forward = device_->prepare(LibraryOp{
      .kind = LibraryOp::Kind::Fft, .dtype = DType::Float32, .fft = FftKind::RealToComplex});
  device_->launch(*forward, args);
  std::vector<std::complex<float>> spectrum(bins);
  device_->copy_to_host(spectrum.data(), args.c.memory, 0, bins * sizeof(std::complex<float>));
  for (std::int64_t k : {std::int64_t{0}, std::int64_t{1}, std::int64_t{777}, bins - 1}) {
    std::complex<double> want = 0;
    for (std::int64_t j = 0; j < n; ++j)
      want +=
          double(x[offset + j]) * std::polar(1.0, -2 * std::numbers::pi * double(j * k % n) / n);
    EXPECT_NEAR(spectrum[k].real(), want.real(), 1e-2) << "bin " << k;
    EXPECT_NEAR(spectrum[k].imag(), want.imag(), 1e-2) << "bin " << k;
  }

  LibraryArgs back = args;
  back.a = {args.c.memory, DType::Complex64, 0, {}};
  back.c = {device_->allocate(n * sizeof(float)), DType::Float32, 0, {}};
  auto inverse = device_->prepare(LibraryOp{
      .kind = LibraryOp::Kind::Fft, .dtype = DType::Float32, .fft = FftKind::ComplexToReal});
  device_->launch(*inverse, back);
  device_->free(args.a.memory);
  device_->free(args.c.memory);
  const std::vector<float> round_trip = download<float>(back.c.memory, n);
  for (std::int64_t j = 0; j < n; ++j) ASSERT_NEAR(round_trip[j] / n, x[offset + j], 1e-4) << j;
}

// PoCL's cache layout (<dir>/<2 letters>/<hash>/ per program, tempfile_* at the top), made by
// hand with file times in the past.
struct FakePoclCache {
  testing_support::TempDir dir;
  const std::filesystem::file_time_type now = std::filesystem::file_time_type::clock::now();

  void file(const std::filesystem::path& path, std::size_t bytes, std::chrono::hours age) const {
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path) << std::string(bytes, 'x');
    std::filesystem::last_write_time(path, now - age);
  }
  std::filesystem::path program(const std::string& name, std::size_t bytes,
                                std::chrono::hours age) const {
    const auto p = dir.path() / name.substr(0, 2) / name.substr(2);
    file(p / "program.bc", bytes, age);
    file(p / "last_accessed", 0, age);
    return p;
  }
};

TEST(DriverCache, TrimsStaleFilesAndLeastRecentlyUsedProgramsToTheBound) {
  using std::chrono::hours;
  namespace fs = std::filesystem;
  const FakePoclCache cache;
  const fs::path old_temp = cache.dir.path() / "tempfile_old",
                 new_temp = cache.dir.path() / "tempfile_new";
  cache.file(old_temp, 0, hours(30));
  cache.file(new_temp, 0, hours(0));
  const fs::path oldest = cache.program("AAoldest", 1000, hours(50));
  const fs::path older = cache.program("BBolder", 1000, hours(40));
  const fs::path recent = cache.program("CCrecent", 1000, hours(0));  // in use: never removed
  const fs::path old = cache.program("DDold", 1000, hours(20));

  opencl::bound_driver_cache(cache.dir.path(), 2500);
  EXPECT_FALSE(fs::exists(old_temp));
  EXPECT_TRUE(fs::exists(new_temp)) << "another process may be writing it";
  EXPECT_FALSE(fs::exists(oldest));
  EXPECT_FALSE(fs::exists(older));
  EXPECT_TRUE(fs::exists(old)) << "2000 bytes are left, within the bound";
  EXPECT_TRUE(fs::exists(recent));

  // Trimmed within the hour: the next process leaves it alone.
  cache.file(old_temp, 0, hours(30));
  opencl::bound_driver_cache(cache.dir.path(), 0);
  EXPECT_TRUE(fs::exists(old_temp));
  EXPECT_TRUE(fs::exists(old));
}

}  // namespace
}  // namespace switchyard
