// The Vulkan backend on whatever Vulkan device the machine has (lavapipe's CPU device in CI):
// detection, memory, typed errors, the driver's binaries, and generated kernels against float64
// references. The conformance suite runs every array operation on it besides.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
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
    // What the scheduler may place on it is what its DeviceInfo says: library kernels, and no
    // FFT routine yet (VkFFT's Vulkan path).
    const Device& d = *backend_->devices()[i];
    EXPECT_EQ((d.has() & kNeedsFloat64) != 0, info.fp64);
    EXPECT_TRUE(d.runs(LibraryOp::Kind::Gemm));
    EXPECT_TRUE(d.runs(LibraryOp::Kind::Sort));
    EXPECT_FALSE(d.runs(LibraryOp::Kind::Fft));
    EXPECT_FALSE(d.runs(LibraryOp::Kind::Solver));
  }
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

}  // namespace
}  // namespace switchyard
