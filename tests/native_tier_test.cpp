// The CPU's compiled tier (backends/cpu/native): the host's C compiler builds codegen's C into
// native code that runs on the CPU device's own buffers. The conformance suite runs again with
// every CPU kernel native (ctest conformance_native, SWITCHYARD_NATIVE=eager); here, the driver
// and compiler themselves, and a machine without a working compiler.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <utility>
#include <vector>

#include "backends/compiled_device.hpp"
#include "backends/cpu/native/native_compiler.hpp"
#include "backends/cpu/native/native_driver.hpp"
#include "codegen/codegen.hpp"
#include "switchyard/error.hpp"

namespace switchyard {
namespace {

using cpu::native::Compiler;

// y = a * b + sin(a), float32 over contiguous inputs (or its first operand alone with `unary`).
ir::Kernel multiply_add_sine(bool unary) {
  ir::KernelBuilder b;
  const auto a = b.load(DType::Float32, ir::Layout::Contiguous);
  const auto s = b.unary(ir::OpCode::Sin, a, DType::Float32);
  if (unary) {
    b.output(s);
    return b.build();
  }
  const auto c = b.load(DType::Float32, ir::Layout::Contiguous);
  b.output(b.binary(ir::OpCode::Add, b.binary(ir::OpCode::Mul, a, c, DType::Float32), s,
                    DType::Float32));
  return b.build();
}

DeviceInfo host_device() {
  DeviceInfo info;
  info.backend = "cpu";
  info.name = "native test";
  info.max_allocation_bytes = std::uint64_t{1} << 30;
  info.global_memory_bytes = std::uint64_t{1} << 30;
  return info;
}

class NativeTier : public ::testing::Test {
 protected:
  void SetUp() override {
    compiler_ = std::make_shared<Compiler>();
    if (!compiler_->available()) GTEST_SKIP() << compiler_->unavailable_reason();
  }
  std::shared_ptr<Compiler> compiler_;
};

// Runs `kernel` natively over `inputs` (n elements each) into a fresh output.
std::vector<float> run(CompiledDevice& device, const ir::Kernel& kernel,
                       const std::vector<std::vector<float>>& inputs, std::int64_t n) {
  const auto exe = device.prepare(kernel);
  std::vector<Operand> operands;
  for (const auto& in : inputs)
    operands.push_back({{const_cast<float*>(in.data()), in.size() * sizeof(float)},
                        DType::Float32,
                        0,
                        Strides{1}});
  std::vector<float> out(static_cast<std::size_t>(n));
  const Operand output{{out.data(), out.size() * sizeof(float)}, DType::Float32, 0, Strides{1}};
  LaunchArgs args;
  args.shape = Shape{n};
  args.inputs = operands;
  args.outputs = {&output, 1};
  device.launch(*exe, args);
  return out;
}

TEST_F(NativeTier, KernelsRunOnHostBuffersWithinTheirErrorBound) {
  CompiledDevice device(host_device(), std::make_unique<cpu::native::Driver>(compiler_));
  for (const std::int64_t n : {1, 7, 1000, 100003}) {
    std::vector<float> a(n), b(n);
    for (std::int64_t i = 0; i < n; ++i) {
      a[i] = static_cast<float>(i % 977) * 0.37f - 150.0f;
      b[i] = 1.0f + static_cast<float>(i % 13);
    }
    // Two programs in turn, each loaded under a name of its own: one must never stand in for the
    // other (dlopen returns what it loaded before for a path it has seen).
    const std::vector<float> y = run(device, multiply_add_sine(false), {a, b}, n);
    const std::vector<float> s = run(device, multiply_add_sine(true), {a}, n);
    for (std::int64_t i = 0; i < n; ++i) {
      // a*b rounds once (no contraction into an fma) and sin is within a few ulp: the sum
      // errs by at most a few ulp of the larger term.
      const double product = static_cast<double>(a[i] * b[i]);
      const double sine = std::sin(static_cast<double>(a[i]));
      const double ulp = std::numeric_limits<float>::epsilon();
      ASSERT_NEAR(s[i], sine, 4 * ulp) << "sin at " << i;
      ASSERT_NEAR(y[i], product + sine, 4 * ulp * (std::fabs(product) + 1)) << "at " << i;
    }
  }
}

// Over each row of x: sum(sin(x) * x), argmin(x) and max(x), folded in one pass.
ir::Kernel row_statistics() {
  ir::KernelBuilder b;
  const auto x = b.load(DType::Float32, ir::Layout::Contiguous);
  b.output(
      b.binary(ir::OpCode::Mul, b.unary(ir::OpCode::Sin, x, DType::Float32), x, DType::Float32));
  b.output(x);
  b.output(x);
  b.reduce(ir::ReduceOp::Sum, ir::ReduceOver::TrailingAxes);
  b.reduce(ir::ReduceOp::ArgMin, ir::ReduceOver::TrailingAxes);
  b.reduce(ir::ReduceOp::Max, ir::ReduceOver::TrailingAxes);
  return b.build();
}

TEST_F(NativeTier, FusedReductionsFoldEveryRowWithinTheirErrorBound) {
  CompiledDevice device(host_device(), std::make_unique<cpu::native::Driver>(compiler_));
  const auto exe = device.prepare(row_statistics());
  // One long row (parts and a final pass), rows of a few blocks, and short rows (one item each).
  for (const auto& [rows, length] :
       {std::pair<std::int64_t, std::int64_t>{1, 100003}, {3, 1000}, {1000, 7}, {2, 257}}) {
    const std::int64_t n = rows * length;
    std::vector<float> x(n);
    for (std::int64_t i = 0; i < n; ++i)
      x[i] = static_cast<float>((i * 7919) % 10007) * 0.01f - 50.0f;
    x[n - 1] = std::numeric_limits<float>::quiet_NaN();  // the last row's max and argmin are NaN's
    std::vector<float> sums(rows), maxima(rows);
    std::vector<std::int64_t> argmins(rows);
    const Operand input{{x.data(), x.size() * sizeof(float)}, DType::Float32, 0, Strides{1}};
    const Operand outputs[] = {
        {{sums.data(), sums.size() * sizeof(float)}, DType::Float32, 0, Strides{1}},
        {{argmins.data(), argmins.size() * sizeof(std::int64_t)}, DType::Int64, 0, Strides{1}},
        {{maxima.data(), maxima.size() * sizeof(float)}, DType::Float32, 0, Strides{1}}};
    LaunchArgs args;
    args.shape = Shape{rows, length};
    args.inputs = {&input, 1};
    args.outputs = outputs;
    device.launch(*exe, args);
    for (std::int64_t r = 0; r < rows; ++r) {
      const float* row = x.data() + r * length;
      double sum = 0, magnitude = 0;
      std::int64_t argmin = 0;
      float max = row[0];
      for (std::int64_t k = 0; k < length; ++k) {
        const double y = std::sin(static_cast<double>(row[k])) * row[k];
        if (std::isnan(row[k])) continue;
        sum += y;
        magnitude += std::fabs(y);
        if (row[k] < row[argmin]) argmin = k;
        max = std::max(max, row[k]);
      }
      const bool nan_row = r == rows - 1;
      // Each term errs by a few ulp (sin, then the product); pairwise within blocks of
      // kFoldBlock and Kahan across them add a few more of the magnitude.
      const double eps = std::numeric_limits<float>::epsilon();
      if (nan_row) {
        EXPECT_TRUE(std::isnan(sums[r])) << sums[r];
        EXPECT_TRUE(std::isnan(maxima[r])) << maxima[r];
        EXPECT_EQ(argmins[r], length - 1);
      } else {
        EXPECT_NEAR(sums[r], sum, 16 * eps * magnitude) << rows << "x" << length << " row " << r;
        EXPECT_EQ(maxima[r], max) << "row " << r;
        EXPECT_EQ(argmins[r], argmin) << "row " << r;
      }
    }
  }
}

TEST_F(NativeTier, SourceThatDoesNotCompileIsACompileErrorWithTheLog) {
  try {
    compiler_->compile("void sy_map(const void* b, long long i, long long n) { nonsense; }\n");
    FAIL() << "compiled";
  } catch (const CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("nonsense"), std::string::npos) << e.what();
  }
}

TEST_F(NativeTier, ABinaryThatIsNoSharedObjectIsRefusedNotLoaded) {
  cpu::native::Driver driver(compiler_);
  const std::vector<std::string_view> entries = {codegen::kMapEntry};
  const std::vector<std::byte> junk(64, std::byte{0x5a});
  EXPECT_EQ(driver.load(junk, entries), nullptr);
  // A real shared object without the entry point is refused too.
  const std::vector<std::byte> other = compiler_->compile("int sy_other(void) { return 1; }\n");
  EXPECT_EQ(driver.load(other, entries), nullptr);
}

TEST(NativeTierWithoutACompiler, IsUnavailableWithTheReason) {
  ::setenv("SWITCHYARD_CC", "/nonexistent/cc", 1);
  const Compiler missing;
  ::setenv("SWITCHYARD_CC", "false", 1);  // runs, and fails
  const Compiler broken;
  ::unsetenv("SWITCHYARD_CC");
  for (const Compiler* c : {&missing, &broken}) {
    EXPECT_FALSE(c->available());
    EXPECT_NE(c->unavailable_reason().find("SWITCHYARD_CC"), std::string::npos)
        << c->unavailable_reason();
    EXPECT_THROW(c->compile("int x;\n"), CompileError);
  }
}

}  // namespace
}  // namespace switchyard
