// The Vulkan backend on whatever Vulkan device the machine has (lavapipe's CPU device in CI):
// detection, memory, typed errors, the driver's binaries, which library ops run vendor routines,
// generated kernels against float64 references, and VkFFT. The conformance suite runs every
// array operation on it besides.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdlib>
#include <limits>
#include <numbers>
#include <numeric>
#include <vector>

#include "backends/compiled_device.hpp"
#include "backends/registry.hpp"
#include "backends/vulkan/vulkan_backend.hpp"
#include "codegen/codegen.hpp"
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

class VulkanBackend : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    // A private kernel cache, so that runs neither share nor pollute the user's.
    static const testing_support::TempDir cache;
    setenv("SWITCHYARD_CACHE_DIR", cache.path().c_str(), 1);
    backend_ = vulkan::make_backend().release();
  }
  void SetUp() override {
    if (!backend_->available()) {
      if (backend_settings().requires_backend("vulkan"))
        FAIL() << "SWITCHYARD_REQUIRE_BACKENDS names vulkan: " << backend_->unavailable_reason();
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

  // An odd real transform of `rows` rows longer than a work-group holds, from an input at an
  // offset, against the DFT and back.
  template <class Real>
  void expect_long_odd_real_round_trip();

  static switchyard::Backend* backend_;
  CompiledDevice* device_ = nullptr;
};
switchyard::Backend* VulkanBackend::backend_ = nullptr;

std::vector<float> ramp(std::size_t n, float scale) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = scale * std::sin(0.37f * static_cast<float>(i) + 1);
  return v;
}

TEST_F(VulkanBackend, EnumeratesDevicesWithWhatTheyRun) {
  for (std::size_t i = 0; i < backend_->devices().size(); ++i) {
    const DeviceInfo& info = backend_->devices()[i]->info();
    std::printf("%s: %s | %s | driver %s | %s | %llu MiB (max alloc %llu MiB)\n", info.id().c_str(),
                info.name.c_str(), info.vendor.c_str(), info.driver_version.c_str(),
                std::string(name(info.kind)).c_str(),
                static_cast<unsigned long long>(info.global_memory_bytes >> 20),
                static_cast<unsigned long long>(info.max_allocation_bytes >> 20));
    EXPECT_EQ(info.backend, "vulkan");
    EXPECT_EQ(info.index, static_cast<int>(i));
    EXPECT_FALSE(info.name.empty());
    EXPECT_GT(info.max_allocation_bytes, 0u);
    // What the scheduler may place on it is what its DeviceInfo says: library kernels and FFTs
    // (VkFFT's Vulkan path), no dense solvers.
    const Device& d = *backend_->devices()[i];
    EXPECT_EQ((d.has() & kNeedsFloat64) != 0, info.fp64);
    EXPECT_TRUE(d.runs(LibraryOp::Kind::Gemm));
    EXPECT_TRUE(d.runs(LibraryOp::Kind::Sort));
    EXPECT_TRUE(d.runs(LibraryOp::Kind::Fft));
    EXPECT_FALSE(d.runs(LibraryOp::Kind::Solver));
  }
}

// VkFFT runs FFTs; codegen's library kernels run every other op, gemm and gemv included (Vulkan
// has no vendor BLAS).
TEST_F(VulkanBackend, VkfftServesFftsAndLibraryKernelsTheRest) {
  using Kind = LibraryOp::Kind;
  auto& driver = device_->driver();
  EXPECT_NE(driver.prepare_library({.kind = Kind::Fft, .dtype = DType::Float32}, *device_),
            nullptr);
  for (Kind kind : {Kind::Gemm, Kind::Gemv, Kind::Scan, Kind::Sort, Kind::Compact, Kind::Gather}) {
    const LibraryOp op{.kind = kind, .dtype = DType::Float32};
    EXPECT_EQ(driver.prepare_library(op, *device_), nullptr) << static_cast<int>(kind);
    EXPECT_NE(device_->prepare(op), nullptr) << static_cast<int>(kind);
  }
  EXPECT_THROW(device_->prepare(LibraryOp{.kind = Kind::Fft, .dtype = DType::Int32}), DTypeError);
}

TEST_F(VulkanBackend, CopiesRoundTrip) {
  const auto host = ramp(1'000'003, 3);
  DeviceMemory a = upload(host);
  DeviceMemory b = device_->allocate(host.size() * sizeof(float));
  device_->copy_within(b, 0, a, 4 * sizeof(float), (host.size() - 4) * sizeof(float));
  device_->free(a);
  const auto back = download<float>(b, host.size() - 4);
  EXPECT_TRUE(std::equal(back.begin(), back.end(), host.begin() + 4));
}

TEST_F(VulkanBackend, OversizeAllocationIsOutOfMemoryNamingDeviceAndSizes) {
  const std::size_t too_big = device_->info().max_allocation_bytes + 1;
  try {
    device_->allocate(too_big);
    FAIL() << "expected OutOfMemory";
  } catch (const OutOfMemory& e) {
    EXPECT_NE(std::string(e.what()).find(device_->info().id()), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(std::to_string(too_big)), std::string::npos) << e.what();
  }
}

TEST_F(VulkanBackend, BrokenShaderIsACompileErrorWithTheCompilersLog) {
  const std::string source =
      "#version 450\n#ifdef SY_ENTRY_main\nlayout(local_size_x = 1) in;\n"
      "void main() { float x = undeclared_name; }\n#endif\n";
  const std::string_view entries[] = {"main"};
  try {
    device_->driver().build(source, entries);
    FAIL() << "expected CompileError";
  } catch (const CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("undeclared_name"), std::string::npos) << e.what();
  }
}

TEST_F(VulkanBackend, ABinaryTheDriverCannotReadIsRejectedNotLoaded) {
  KernelBuilder b;
  b.output(b.unary(OpCode::Neg, b.load(DType::Float32, Layout::Contiguous), DType::Float32));
  const ir::Kernel k = b.build();
  const std::string source = codegen::render(k, device_->driver().target_for(k));
  const std::string_view entries[] = {codegen::kMapEntry};
  std::vector<std::byte> binary = device_->driver().build(source, entries);
  EXPECT_NE(device_->driver().load(binary, entries), nullptr);
  for (std::size_t cut : {std::size_t{0}, std::size_t{3}, binary.size() / 2})
    EXPECT_EQ(device_->driver().load(std::span(binary).first(cut), entries), nullptr) << cut;
  binary[binary.size() / 2] ^= std::byte{0xff};
  binary[12] ^= std::byte{0xff};  // inside the SPIR-V's magic number or header
  EXPECT_EQ(device_->driver().load(binary, entries), nullptr);
}

// a * b + sin(c) * s - sqrt(|a|) with a contiguous, b broadcast along rows, c a transposed view:
// every input layout and a scalar, against float64 on the host.
TEST_F(VulkanBackend, FusedChainMatchesFloat64) {
  for (const Shape& shape : {Shape{0, 5}, Shape{1, 7}, Shape{1031, 17}, Shape{1, (1 << 20) + 3}}) {
    const std::int64_t rows = shape[0], cols = shape[1], n = rows * cols;
    const DType t = DType::Float32;
    KernelBuilder b;
    const auto a = b.load(t, Layout::Contiguous), bb = b.load(t, Layout::Strided);
    const auto c = b.load(t, Layout::Strided), s = b.scalar(t);
    const auto prod = b.binary(OpCode::Mul, a, bb, t);
    const auto wave = b.binary(OpCode::Mul, b.unary(OpCode::Sin, c, t), s, t);
    const auto root = b.unary(OpCode::Sqrt, b.unary(OpCode::Abs, a, t), t);
    b.output(b.binary(OpCode::Sub, b.binary(OpCode::Add, prod, wave, t), root, t));
    const ir::Kernel k = b.build();
    auto av = ramp(n, 2), bv = ramp(cols, 1), cv = ramp(n, 4);  // c stored cols × rows
    for (auto* v : {&av, &bv, &cv})
      if (v->empty()) v->push_back(0);
    std::vector<Operand> inputs = {{upload(av), t, 0, contiguous_strides(shape)},
                                   {upload(bv), t, 0, Strides{0, 1}},
                                   {upload(cv), t, 0, Strides{1, rows}}};
    const std::vector<ScalarValue> scalars = {{DType::Float64, 2.5, 0}};
    auto exe = device_->prepare(k);
    Operand out{device_->allocate(std::max<std::int64_t>(n, 1) * sizeof(float)), t, 0, {}};
    device_->launch(*exe, LaunchArgs{shape, inputs, scalars, std::span(&out, 1)});
    device_->synchronize();
    for (auto& in : inputs) device_->free(in.memory);
    const auto got = download<float>(out.memory, n);
    for (std::int64_t i = 0; i < rows; ++i)
      for (std::int64_t j = 0; j < cols; ++j) {
        const std::int64_t e = i * cols + j;
        const double want = double(av[e]) * bv[j] + std::sin(double(cv[j * rows + i])) * 2.5 -
                            std::sqrt(std::abs(double(av[e])));
        // float32 operations each within a few ulp (sin within 4, per the IR) on values of at
        // most 2·1 + 4·2.5 + sqrt(2).
        ASSERT_NEAR(got[e], want, 16 * 14 * std::numeric_limits<float>::epsilon())
            << "at " << i << "," << j << " of " << rows << "x" << cols;
      }
  }
}

TEST_F(VulkanBackend, MultiReductionsMatchFloat64) {
  for (const auto& c : testing_support::multi_reduction_cases(device_->info().fp64))
    testing_support::expect_case_matches(*device_, c);
}

TEST_F(VulkanBackend, Float32SumOfManyValuesIsAccurate) {
  const std::int64_t n = 10'000'000;
  std::vector<float> v(n, 0.1f);
  KernelBuilder b;
  b.output(b.load(DType::Float32, Layout::Contiguous));
  b.reduce(ReduceOp::Sum, ReduceOver::All);
  const Shape shape{n};
  std::vector<Operand> inputs = {{upload(v), DType::Float32, 0, contiguous_strides(shape)}};
  Operand out{device_->allocate(sizeof(float)), DType::Float32, 0, {}};
  auto exe = device_->prepare(b.build());
  device_->launch(*exe, LaunchArgs{shape, inputs, {}, std::span(&out, 1)});
  device_->synchronize();
  device_->free(inputs[0].memory);
  const float got = download<float>(out.memory, 1)[0];
  const double sum = n * double(0.1f);
  EXPECT_NEAR(got, sum, conformance::sum_error_bound(DType::Float32, n, sum, sum));
}

// Bins 0..n/2 of the unnormalised forward DFT of each row of n values of x, summed in long
// double so that the reference's own rounding stays far below the transform's.
std::vector<std::complex<double>> half_spectra(const std::vector<double>& x, std::int64_t n) {
  const std::int64_t rows = static_cast<std::int64_t>(x.size()) / n, bins = n / 2 + 1;
  std::vector<std::complex<long double>> w(n);
  for (std::int64_t t = 0; t < n; ++t)
    w[t] = std::polar(1.0L, -2 * std::numbers::pi_v<long double> * t / n);
  std::vector<std::complex<double>> out;
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t k = 0; k < bins; ++k) {
      std::complex<long double> sum = 0;
      for (std::int64_t j = 0; j < n; ++j)
        sum += static_cast<long double>(x[r * n + j]) * w[j * k % n];
      out.emplace_back(static_cast<double>(sum.real()), static_cast<double>(sum.imag()));
    }
  return out;
}

template <class Real>
void VulkanBackend::expect_long_odd_real_round_trip() {
  using FftKind = LibraryOp::FftKind;
  const DType t = dtype_of<Real>();
  const std::int64_t n = 4097, rows = 2, offset = 3, bins = n / 2 + 1;
  std::vector<Real> x(offset + rows * n);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<Real>(std::sin(0.37 * i + 1));
  const std::vector<double> signal(x.begin() + offset, x.end());
  const std::vector<std::complex<double>> want = half_spectra(signal, n);

  LibraryArgs forward;
  forward.rows = rows;
  forward.m = 1;
  forward.n = n;
  forward.a = {upload(x), t, offset, {}};
  forward.c = {
      device_->allocate(rows * bins * sizeof(std::complex<Real>)), complex_dtype(t), 0, {}};
  const auto r2c = device_->prepare(
      LibraryOp{.kind = LibraryOp::Kind::Fft, .dtype = t, .fft = FftKind::RealToComplex});
  device_->launch(*r2c, forward);
  std::vector<std::complex<Real>> spectra(rows * bins);
  device_->copy_to_host(spectra.data(), forward.c.memory, 0, spectra.size() * sizeof spectra[0]);
  device_->free(forward.a.memory);

  LibraryArgs inverse = forward;
  inverse.a = {forward.c.memory, complex_dtype(t), 0, {}};
  inverse.c = {device_->allocate(rows * n * sizeof(Real)), t, 0, {}};
  const auto c2r = device_->prepare(
      LibraryOp{.kind = LibraryOp::Kind::Fft, .dtype = t, .fft = FftKind::ComplexToReal});
  device_->launch(*c2r, inverse);
  const std::vector<Real> back = download<Real>(inverse.c.memory, rows * n);
  device_->free(forward.c.memory);

  for (std::int64_t r = 0; r < rows; ++r) {
    double norm = 0;
    for (std::int64_t j = 0; j < n; ++j) norm += signal[r * n + j] * signal[r * n + j];
    norm = std::sqrt(norm);
    // Forward: each bin within the bound. Back, divided by n: the spectrum's errors e come back
    // as IDFT(e)/n, no value larger than the bound on e's bins (Parseval), and the inverse's own
    // rounding is bounded as for a spectrum of norm sqrt(n)·norm.
    const double forward_tol = conformance::fft_error_bound(t, n, norm);
    const double back_tol =
        forward_tol + conformance::fft_error_bound(t, n, std::sqrt(double(n)) * norm) / n;
    for (std::int64_t k = 0; k < bins; ++k) {
      const std::complex<double> got = spectra[r * bins + k];
      ASSERT_NEAR(got.real(), want[r * bins + k].real(), forward_tol)
          << "row " << r << " bin " << k;
      ASSERT_NEAR(got.imag(), want[r * bins + k].imag(), forward_tol)
          << "row " << r << " bin " << k;
    }
    for (std::int64_t j = 0; j < n; ++j)
      ASSERT_NEAR(back[r * n + j] / double(n), signal[r * n + j], back_tol)
          << "row " << r << " at " << j;
  }
}

// 4097 points, more than one work-group holds: VkFFT plans the real transform only as a complex
// one between the backend's own kernels (backends/fft_real_kernels.hpp).
TEST_F(VulkanBackend, LongOddRealTransformsMatchTheDft) {
  expect_long_odd_real_round_trip<float>();
  if (device_->info().fp64) expect_long_odd_real_round_trip<double>();
}

}  // namespace
}  // namespace switchyard
