// The CUDA backend. Three groups: what runs everywhere (the backend reports itself unavailable
// with a reason instead of failing), what needs NVRTC but no GPU (generated kernels compile to
// CUBINs for sm_90, under cache keys that name the architecture, driver and NVRTC), and what
// needs a GPU (memory, transfers, the driver's images, launches, graphs, cuBLAS, typed errors),
// which skips with the backend's reason on machines without one.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <numeric>
#include <random>

#include "backends/compiled_device.hpp"
#include "backends/cuda/cuda_api.hpp"
#include "backends/cuda/cuda_backend.hpp"
#include "backends/cuda/cuda_compiler.hpp"
#include "codegen/codegen.hpp"
#include "core/kernel_cache.hpp"
#include "multi_reduction_cases.hpp"
#include "switchyard/error.hpp"
#include "test_support.hpp"

namespace switchyard {
namespace {

using ir::KernelBuilder;
using ir::Layout;
using ir::OpCode;

// ---- everywhere

TEST(CudaBackend, ReportsWhyItIsUnavailableWithoutCrashing) {
  const auto backend = cuda::make_backend();
  EXPECT_EQ(backend->name(), "cuda");
  if (backend->available()) GTEST_SKIP() << "a CUDA device is present";
  const std::string reason = backend->unavailable_reason();
  EXPECT_FALSE(reason.empty());
  EXPECT_TRUE(backend->devices().empty());
  if (!cuda::driver_library().available()) {
    EXPECT_EQ(reason, cuda::driver_library().unavailable_reason);
  }
  std::cout << "cuda unavailable: " << reason << "\n";
}

TEST(CudaBackend, MissingDriverIsNamedWithWhatToDo) {
  if (::access("/dev/nvidiactl", F_OK) == 0 || cuda::driver_library().available())
    GTEST_SKIP() << "this machine has an NVIDIA driver";
  const std::string reason = cuda::driver_library().unavailable_reason;
  EXPECT_NE(reason.find("libcuda.so.1 not found"), std::string::npos) << reason;
  EXPECT_NE(reason.find("no NVIDIA driver"), std::string::npos) << reason;
}

// The driver hands cuLaunchKernel pointers to the packed values in place: each must sit at an
// offset aligned for its type.
TEST(CudaBackend, LaunchArgumentValuesAreAlignedForTheirTypes) {
  LaunchArguments args;
  args.value(std::uint8_t{1});
  args.value(std::int32_t{2});
  args.value(std::uint8_t{3});
  args.value(std::int64_t{4});
  args.value(std::int32_t{5});
  const std::int64_t dims[kMaxRank] = {6, 7};
  args.value(dims);
  args.value(3.5f);
  args.value(8.5);
  ASSERT_EQ(args.list.size(), 8u);
  for (const LaunchArgument& a : args.list)
    EXPECT_EQ(a.offset % std::min<std::uint32_t>(a.size, 8), 0u) << a.offset << ", " << a.size;
  std::int64_t four = 0;
  std::memcpy(&four, &args.values[args.list[3].offset], sizeof four);
  EXPECT_EQ(four, 4);
}

// ---- NVRTC, no GPU needed

#define SKIP_WITHOUT_NVRTC() \
  if (!cuda::nvrtc_library().available()) GTEST_SKIP() << cuda::nvrtc_library().unavailable_reason

using testing_support::TempDir;

bool is_elf(const std::vector<std::byte>& image) {
  return image.size() > 4 && std::memcmp(image.data(),
                                         "\x7f"
                                         "ELF",
                                         4) == 0;
}

bool contains(const std::vector<std::byte>& image, std::string_view text) {
  const auto* p = reinterpret_cast<const char*>(image.data());
  return std::string_view(p, image.size()).find(text) != std::string_view::npos;
}

codegen::Target cuda_target() {
  codegen::Target t;
  t.dialect = codegen::Dialect::Cuda;
  t.local_size = 256;
  return t;
}

// a * b + sin(c) * s: the bandwidth kernel, with a broadcast and a strided input.
ir::Kernel fused_kernel(DType t) {
  KernelBuilder b;
  const auto a = b.load(t, Layout::Contiguous), x = b.load(t, Layout::Strided);
  const auto c = b.load(t, Layout::Broadcast), s = b.scalar(t);
  const auto sin_c = b.unary(OpCode::Sin, c, t);
  b.output(
      b.binary(OpCode::Add, b.binary(OpCode::Mul, a, x, t), b.binary(OpCode::Mul, sin_c, s, t), t));
  return b.build();
}

ir::Kernel reduction_kernel(DType t, ir::ReduceOp op, ir::ReduceOver over) {
  KernelBuilder b;
  const auto x = b.load(t, Layout::Contiguous);
  b.output(b.binary(OpCode::Mul, x, x, t));
  b.reduce(op, over);
  return b.build();
}

TEST(CudaCompiler, ChoosesTheExactArchitectureNvrtcKnows) {
  SKIP_WITHOUT_NVRTC();
  const cuda::CompileTarget t = cuda::compile_target(90);
  EXPECT_EQ(t.architecture, 90);
  EXPECT_TRUE(t.cubin);
  EXPECT_EQ(t.option(), "--gpu-architecture=sm_90");
  EXPECT_NE(cuda::nvrtc_version().find("nvrtc "), std::string::npos);
}

TEST(CudaCompiler, FallsBackToPtxForAGpuNewerThanNvrtc) {
  SKIP_WITHOUT_NVRTC();
  const cuda::CompileTarget t = cuda::compile_target(990);
  EXPECT_FALSE(t.cubin);
  EXPECT_LT(t.architecture, 990);
  EXPECT_EQ(t.option(), "--gpu-architecture=compute_" + std::to_string(t.architecture));
  EXPECT_THROW(cuda::compile_target(10), CompileError);
}

TEST(CudaCompiler, GeneratedKernelsCompileToCubinsForSm90) {
  SKIP_WITHOUT_NVRTC();
  const cuda::CompileTarget sm90 = cuda::compile_target(90);
  for (DType t : {DType::Float32, DType::Float64}) {
    const auto image = cuda::compile(codegen::render(fused_kernel(t), cuda_target()), sm90);
    EXPECT_TRUE(is_elf(image)) << name(t);
    EXPECT_TRUE(contains(image, codegen::kMapEntry)) << name(t);
  }
  for (ir::ReduceOp op : {ir::ReduceOp::Sum, ir::ReduceOp::ArgMax}) {
    const auto image = cuda::compile(
        codegen::render(reduction_kernel(DType::Float32, op, ir::ReduceOver::TrailingAxes),
                        cuda_target()),
        sm90);
    EXPECT_TRUE(is_elf(image));
    for (std::string_view entry :
         {codegen::kReducePartialEntry, codegen::kReduceFinalEntry, codegen::kReduceRowsEntry})
      EXPECT_TRUE(contains(image, entry)) << entry;
  }
}

TEST(CudaCompiler, PtxTargetGivesLoadableText) {
  SKIP_WITHOUT_NVRTC();
  const auto image = cuda::compile(codegen::render(fused_kernel(DType::Float32), cuda_target()),
                                   cuda::compile_target(990));
  ASSERT_FALSE(image.empty());
  EXPECT_EQ(image.back(), std::byte{0}) << "cuModuleLoadData needs NUL-terminated PTX";
  EXPECT_TRUE(contains(image, ".entry sy_map"));
}

TEST(CudaCompiler, BuildFailureIsCompileErrorWithTheLog) {
  SKIP_WITHOUT_NVRTC();
  const std::string source =
      "extern \"C\" __global__ void broken(float* x) {\n  x[0] = undeclared_name;\n}\n";
  try {
    cuda::compile(source, cuda::compile_target(90));
    FAIL() << "expected CompileError";
  } catch (const CompileError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("undeclared_name"), std::string::npos) << message;
    EXPECT_NE(message.find("error"), std::string::npos) << message;
    EXPECT_NE(message.find("sm_90"), std::string::npos) << message;
    EXPECT_NE(message.find("   2  "), std::string::npos) << "numbered source: " << message;
  }
}

// The kernel cache's key for a CUDA program names the GPU's architecture, the driver and NVRTC
// (Driver::identity/versions/build_options), so none of them loads another's image; the parts
// are spelled as before the driver interface, so existing cache entries stay valid.
TEST(CudaCompiler, CacheKeysNameTheArchitectureTheDriverAndNvrtc) {
  SKIP_WITHOUT_NVRTC();
  const std::string source = codegen::render(fused_kernel(DType::Float32), cuda_target());
  const auto key = [&](int compute_capability, const std::string& driver_version) {
    return KernelCacheKey::for_source(source,
                                      cuda::build_identity("NVIDIA H100", compute_capability),
                                      cuda::build_versions(driver_version),
                                      cuda::compile_target(compute_capability).option())
        .file_name();
  };
  EXPECT_EQ(cuda::build_identity("NVIDIA H100", 90), "NVIDIA H100 sm_90");
  EXPECT_EQ(cuda::build_versions("CUDA 12.4"), "CUDA 12.4 " + cuda::nvrtc_version());
  const std::string h100 = key(90, "CUDA 12.4");
  EXPECT_EQ(key(90, "CUDA 12.4"), h100);
  EXPECT_NE(key(80, "CUDA 12.4"), h100) << "another architecture";
  EXPECT_NE(key(90, "CUDA 12.5"), h100) << "another driver";
}

// ---- needs a GPU

class CudaDevice : public ::testing::Test {
 protected:
  void SetUp() override {
    backend_ = cuda::make_backend();
    if (!backend_->available())
      GTEST_SKIP() << "no CUDA device: " << backend_->unavailable_reason();
    device_ = backend_->devices().front();
  }

  template <class T>
  DeviceMemory upload(const std::vector<T>& values) {
    const DeviceMemory m = device_->allocate(values.size() * sizeof(T));
    device_->copy_from_host(m, 0, values.data(), values.size() * sizeof(T));
    return m;
  }

  template <class T>
  std::vector<T> download(DeviceMemory m, std::size_t count) {
    std::vector<T> values(count);
    device_->synchronize();
    device_->copy_to_host(values.data(), m, 0, count * sizeof(T));
    return values;
  }

  std::unique_ptr<Backend> backend_;
  Device* device_ = nullptr;
};

TEST_F(CudaDevice, DescribesItself) {
  const DeviceInfo& info = device_->info();
  EXPECT_EQ(info.backend, "cuda");
  EXPECT_EQ(info.kind, DeviceKind::GPU);
  EXPECT_FALSE(info.name.empty());
  EXPECT_GT(info.compute_units, 0);
  EXPECT_GT(info.global_memory_bytes, 0u);
  ASSERT_TRUE(info.free_memory_bytes.has_value());
  EXPECT_LE(*info.free_memory_bytes, info.global_memory_bytes);
  EXPECT_TRUE(info.fp64);
  EXPECT_FALSE(info.unified_memory);
  std::cout << info.id() << ": " << info.name << ", " << info.driver_version << "\n";
}

TEST_F(CudaDevice, CopiesRoundTripAcrossStagingChunks) {
  // 0, 1, one byte past a 4 MiB staging chunk, several chunks.
  for (std::size_t bytes : {std::size_t{1}, std::size_t{4 << 20} + 1, std::size_t{9 << 20} + 3}) {
    std::vector<std::uint8_t> data(bytes);
    std::iota(data.begin(), data.end(), std::uint8_t{7});
    const DeviceMemory m = upload(data);
    EXPECT_EQ(download<std::uint8_t>(m, bytes), data) << bytes;
    const DeviceMemory copy = device_->allocate(bytes);
    device_->copy_within(copy, 0, m, 0, bytes);
    EXPECT_EQ(download<std::uint8_t>(copy, bytes), data) << bytes;
    device_->free(m);
    device_->free(copy);
  }
}

// An image the kernel cache hands back is loaded when it is this GPU's program with the entries
// asked for, and refused (null, so that it is rebuilt) when it is damaged or another's.
TEST_F(CudaDevice, DriverLoadsItsOwnImagesAndRefusesOthers) {
  auto* compiled = dynamic_cast<CompiledDevice*>(device_);
  ASSERT_NE(compiled, nullptr);
  Driver& driver = compiled->driver();
  const std::string_view entries[] = {"one"}, other[] = {"two"};
  std::vector<std::byte> image =
      driver.build("extern \"C\" __global__ void one(float* x) { x[0] = 1; }", entries);
  EXPECT_NE(driver.load(image, entries), nullptr);
  EXPECT_EQ(driver.load(image, other), nullptr) << "a program without the entry asked for";
  EXPECT_EQ(driver.load({}, entries), nullptr);
  for (std::byte& x : image) x = std::byte{0x5a};
  EXPECT_EQ(driver.load(image, entries), nullptr) << "a damaged image";
}

TEST_F(CudaDevice, BrokenSourceIsACompileErrorWithTheLog) {
  auto* compiled = dynamic_cast<CompiledDevice*>(device_);
  ASSERT_NE(compiled, nullptr);
  const std::string_view entries[] = {"f"};
  EXPECT_THROW(compiled->driver().build(
                   "extern \"C\" __global__ void f(float* x) { x[0] = undeclared; }", entries),
               CompileError);
}

// cuBLAS runs gemm and gemv, cuFFT FFTs; codegen's library kernels run the other ops.
TEST_F(CudaDevice, VendorRoutinesServeBlasAndFftAndLibraryKernelsTheRest) {
  auto* compiled = dynamic_cast<CompiledDevice*>(device_);
  ASSERT_NE(compiled, nullptr);
  using Kind = LibraryOp::Kind;
  for (Kind kind : {Kind::Gemm, Kind::Gemv, Kind::Fft})
    EXPECT_NE(
        compiled->driver().prepare_library({.kind = kind, .dtype = DType::Float32}, *compiled),
        nullptr);
  for (Kind kind : {Kind::Scan, Kind::Sort, Kind::Compact, Kind::Gather})
    EXPECT_EQ(
        compiled->driver().prepare_library({.kind = kind, .dtype = DType::Float32}, *compiled),
        nullptr);
}

TEST_F(CudaDevice, FreedMemoryIsReused) {
  const DeviceMemory a = device_->allocate(1 << 20);
  device_->free(a);
  const DeviceMemory b = device_->allocate(1 << 20);
  EXPECT_EQ(a.handle, b.handle);
  device_->free(b);
}

TEST_F(CudaDevice, AllocationBeyondFreeMemoryIsOutOfMemoryNamingDeviceAndSizes) {
  // The whole device: never free, since the context itself holds memory.
  const std::size_t bytes = device_->info().global_memory_bytes;
  try {
    device_->allocate(bytes);
    FAIL() << "expected OutOfMemory";
  } catch (const OutOfMemory& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("cuda:0"), std::string::npos) << message;
    EXPECT_NE(message.find(std::to_string(bytes)), std::string::npos) << message;
    EXPECT_NE(message.find("CUDA_ERROR_OUT_OF_MEMORY"), std::string::npos) << message;
  }
}

TEST_F(CudaDevice, FusedKernelMatchesTheHost) {
  const std::int64_t rows = 1000, cols = 1003, n = rows * cols;
  std::vector<float> a(n), x(n * 2), c = {0.7f}, out(n);
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> u(-2, 2);
  for (auto& v : a) v = u(rng);
  for (auto& v : x) v = u(rng);
  const DeviceMemory da = upload(a), dx = upload(x), dc = upload(c);
  const DeviceMemory dout = device_->allocate(n * sizeof(float));
  const ir::Kernel kernel = fused_kernel(DType::Float32);
  auto exe = device_->prepare(kernel);
  const Shape shape{rows, cols};
  // x is read with a column stride of 2: a strided view.
  const Operand inputs[] = {{da, DType::Float32, 0, contiguous_strides(shape)},
                            {dx, DType::Float32, 1, Strides{cols * 2, 2}},
                            {dc, DType::Float32, 0, Strides{0, 0}}};
  const ScalarValue scalars[] = {{DType::Float64, 2.5, 0}};
  const Operand outputs[] = {{dout, DType::Float32, 0, contiguous_strides(shape)}};
  device_->launch(*exe, LaunchArgs{shape, inputs, scalars, outputs});
  const auto got = download<float>(dout, n);
  for (std::int64_t i = 0; i < n; ++i) {
    const float want = a[i] * x[1 + 2 * i] + std::sin(0.7f) * 2.5f;
    ASSERT_NEAR(got[i], want, 1e-5f * (1 + std::abs(want))) << i;
  }
}

// Launches recorded by stream capture run when the graph is launched, as often as it is.
TEST_F(CudaDevice, LaunchGraphsReplayRecordedLaunches) {
  ASSERT_TRUE(device_->supports_graphs());
  const std::int64_t n = 4099;
  std::vector<float> a(n, 3.0f), x(n, 2.0f), c = {0.0f};
  const DeviceMemory da = upload(a), dx = upload(x), dc = upload(c);
  const DeviceMemory dout = device_->allocate(n * sizeof(float));
  auto exe = device_->prepare(fused_kernel(DType::Float32));
  const Shape shape{n};
  const Operand inputs[] = {{da, DType::Float32, 0, contiguous_strides(shape)},
                            {dx, DType::Float32, 0, contiguous_strides(shape)},
                            {dc, DType::Float32, 0, Strides{0}}};
  const ScalarValue scalars[] = {{DType::Float64, 1.0, 0}};
  const Operand outputs[] = {{dout, DType::Float32, 0, contiguous_strides(shape)}};
  device_->synchronize();
  device_->begin_graph();
  device_->launch(*exe, LaunchArgs{shape, inputs, scalars, outputs});
  const std::unique_ptr<LaunchGraph> graph = device_->end_graph();
  ASSERT_NE(graph, nullptr);
  for (int replay = 0; replay < 2; ++replay) {
    device_->launch_graph(*graph);
    const auto got = download<float>(dout, n);
    for (std::int64_t i = 0; i < n; ++i) ASSERT_EQ(got[i], 6.0f) << replay << ", " << i;
  }
}

TEST_F(CudaDevice, ReductionsMatchTheHost) {
  const std::int64_t rows = 37, cols = 100003;
  std::vector<double> x(rows * cols);
  std::mt19937 rng(2);
  std::uniform_real_distribution<double> u(-1, 1);
  for (auto& v : x) v = u(rng);
  const DeviceMemory dx = upload(x);
  const Shape shape{rows, cols};
  const Operand inputs[] = {{dx, DType::Float64, 0, contiguous_strides(shape)}};

  // Sum of squares over all elements (two passes), then ArgMax along rows.
  auto sum =
      device_->prepare(reduction_kernel(DType::Float64, ir::ReduceOp::Sum, ir::ReduceOver::All));
  const DeviceMemory dsum = device_->allocate(sizeof(double));
  const Operand sum_out[] = {{dsum, DType::Float64, 0, {}}};
  device_->launch(*sum, LaunchArgs{shape, inputs, {}, sum_out});
  double want = 0;
  for (double v : x) want += v * v;
  EXPECT_NEAR(download<double>(dsum, 1)[0], want, 1e-9 * want);

  auto argmax = device_->prepare(
      reduction_kernel(DType::Float64, ir::ReduceOp::ArgMax, ir::ReduceOver::TrailingAxes));
  const DeviceMemory didx = device_->allocate(rows * sizeof(std::int64_t));
  const Operand idx_out[] = {{didx, DType::Int64, 0, {}}};
  device_->launch(*argmax, LaunchArgs{shape, inputs, {}, idx_out});
  const auto got = download<std::int64_t>(didx, rows);
  for (std::int64_t r = 0; r < rows; ++r) {
    std::int64_t best = 0;
    for (std::int64_t j = 1; j < cols; ++j)
      if (x[r * cols + j] * x[r * cols + j] > x[r * cols + best] * x[r * cols + best]) best = j;
    EXPECT_EQ(got[r], best) << "row " << r;
  }
}

TEST_F(CudaDevice, MultiReductionsMatchFloat64) {
  for (const auto& c : testing_support::multi_reduction_cases(true))
    testing_support::expect_case_matches(*device_, c);
  for (const auto& c : testing_support::large_multi_reduction_cases())
    testing_support::expect_case_matches(*device_, c);
}

template <class T>
void expect_gemm_and_gemv(Device& device, DType dtype, double tolerance) {
  const std::int64_t m = 67, n = 45, k = 33;
  std::vector<T> a(m * k), b(k * n), x(k);
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1, 1);
  for (auto& v : a) v = static_cast<T>(u(rng));
  for (auto& v : b) v = static_cast<T>(u(rng));
  for (auto& v : x) v = static_cast<T>(u(rng));
  auto put = [&](const std::vector<T>& h) {
    const DeviceMemory d = device.allocate(h.size() * sizeof(T));
    device.copy_from_host(d, 0, h.data(), h.size() * sizeof(T));
    return d;
  };
  const DeviceMemory da = put(a), db = put(b), dx = put(x);
  const DeviceMemory dc = device.allocate(m * n * sizeof(T)), dy = device.allocate(m * sizeof(T));

  LibraryArgs g;
  g.m = m, g.n = n, g.k = k, g.lda = k, g.ldb = n, g.ldc = n;
  g.a = {da, dtype, 0, {}}, g.b = {db, dtype, 0, {}}, g.c = {dc, dtype, 0, {}};
  device.launch(*device.prepare(LibraryOp{LibraryOp::Kind::Gemm, dtype}), g);
  LibraryArgs v;
  v.m = m, v.n = k, v.lda = k;
  v.a = {da, dtype, 0, {}}, v.b = {dx, dtype, 0, {}}, v.c = {dy, dtype, 0, {}};
  device.launch(*device.prepare(LibraryOp{LibraryOp::Kind::Gemv, dtype}), v);

  std::vector<T> c(m * n), y(m);
  device.synchronize();
  device.copy_to_host(c.data(), dc, 0, c.size() * sizeof(T));
  device.copy_to_host(y.data(), dy, 0, y.size() * sizeof(T));
  for (std::int64_t i = 0; i < m; ++i) {
    double yi = 0;
    for (std::int64_t p = 0; p < k; ++p) yi += double(a[i * k + p]) * x[p];
    EXPECT_NEAR(y[i], yi, tolerance) << "gemv row " << i;
    for (std::int64_t j = 0; j < n; ++j) {
      double cij = 0;
      for (std::int64_t p = 0; p < k; ++p) cij += double(a[i * k + p]) * b[p * n + j];
      ASSERT_NEAR(c[i * n + j], cij, tolerance) << "gemm (" << i << ", " << j << ")";
    }
  }
}

TEST_F(CudaDevice, GemmAndGemvAreRowMajor) {
  expect_gemm_and_gemv<float>(*device_, DType::Float32, 1e-4);
  expect_gemm_and_gemv<double>(*device_, DType::Float64, 1e-12);
}

TEST_F(CudaDevice, LibraryOpOnIntegersIsDTypeError) {
  EXPECT_THROW(device_->prepare(LibraryOp{LibraryOp::Kind::Gemm, DType::Int32}), DTypeError);
}

}  // namespace
}  // namespace switchyard
