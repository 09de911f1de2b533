// Generated OpenCL C must build on PoCL, generated CUDA C through NVRTC and generated GLSL through
// glslc, for every op, dtype, layout, reduction and vector width; entry points must take the
// arguments codegen.hpp documents. Values are checked in opencl_backend_test.cpp; here only that
// the code builds.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "codegen/codegen.hpp"
#include "codegen/launch_plan.hpp"
#include "codegen/library_kernels.hpp"
#include "switchyard/error.hpp"

namespace switchyard {
namespace {

using codegen::Dialect;
using codegen::Target;
using ir::KernelBuilder;
using ir::Layout;
using ir::OpCode;

constexpr DType kAllTypes[] = {DType::Bool, DType::Int32, DType::Int64, DType::Float32,
                               DType::Float64};

// Every op the IR defines on dtype t, over contiguous, strided and broadcast inputs and a
// scalar, with outputs of every dtype (float64 only with `fp64`).
ir::Kernel every_op(DType t, bool fp64 = true) {
  KernelBuilder b;
  const auto x = b.load(t, Layout::Contiguous), y = b.load(t, Layout::Strided);
  const auto z = b.load(t, Layout::Broadcast), s = b.scalar(t);
  auto bin = [&](OpCode op, std::int32_t p, std::int32_t q) { return b.binary(op, p, q, t); };
  std::int32_t v = bin(OpCode::Add, x, y);
  v = bin(OpCode::Mul, v, z);
  v = bin(OpCode::Max, v, s);
  v = bin(OpCode::Min, v, x);
  v = b.unary(OpCode::Abs, v, t);
  v = b.unary(OpCode::Sign, v, t);
  if (t != DType::Bool) {
    for (OpCode op : {OpCode::Sub, OpCode::FloorDiv, OpCode::Mod, OpCode::Pow}) v = bin(op, v, y);
    v = b.unary(OpCode::Neg, v, t);
  }
  if (is_integer(t)) {
    for (OpCode op : {OpCode::And, OpCode::Or, OpCode::Xor, OpCode::ShiftLeft, OpCode::ShiftRight})
      v = bin(op, v, y);
    v = b.unary(OpCode::Not, v, t);
  }
  if (is_floating(t)) {
    for (OpCode op :
         {OpCode::Exp,   OpCode::Log,   OpCode::Sqrt,  OpCode::Sin,   OpCode::Cos,   OpCode::Tan,
          OpCode::Tanh,  OpCode::Asin,  OpCode::Acos,  OpCode::Atan,  OpCode::Sinh,  OpCode::Cosh,
          OpCode::Asinh, OpCode::Acosh, OpCode::Atanh, OpCode::Expm1, OpCode::Log1p, OpCode::Log2,
          OpCode::Log10, OpCode::Floor, OpCode::Ceil,  OpCode::Round, OpCode::Trunc})
      v = b.unary(op, v, t);
    for (OpCode op : {OpCode::IsNan, OpCode::IsInf, OpCode::IsFinite, OpCode::SignBit})
      v = b.where(b.unary(op, v, DType::Bool), v, x);
    v = bin(OpCode::Div, v, x);
    for (OpCode op :
         {OpCode::Atan2, OpCode::Hypot, OpCode::CopySign, OpCode::NextAfter, OpCode::LogAddExp})
      v = bin(op, v, y);
  }
  std::int32_t m = b.binary(OpCode::Eq, v, x, DType::Bool);
  for (OpCode op : {OpCode::Ne, OpCode::Lt, OpCode::Le, OpCode::Gt, OpCode::Ge})
    m = b.binary(OpCode::Xor, m, b.binary(op, v, y, DType::Bool), DType::Bool);
  m = b.binary(OpCode::And, m, b.binary(OpCode::Or, m, m, DType::Bool), DType::Bool);
  m = b.unary(OpCode::Not, m, DType::Bool);
  v = b.where(m, v, y);
  b.output(v);
  b.output(m);
  for (DType to : kAllTypes)
    if (to != t && (fp64 || to != DType::Float64)) b.output(b.cast(b.cast(v, to), t));
  return b.build();
}

ir::Kernel reduction(DType t, ir::ReduceOp op) {
  KernelBuilder b;
  const auto x = b.load(t, Layout::Contiguous), y = b.load(t, Layout::Strided);
  b.output(b.binary(OpCode::Max, x, y, t));
  b.reduce(op, ir::ReduceOver::All);
  return b.build();
}

// Five folds of different ops and result dtypes in one kernel: the values, a product, a bool
// count, an arg op and an int32 min, each with its own state, tree and arguments.
ir::Kernel several_reductions(DType t, ir::ReduceOver over) {
  KernelBuilder b;
  const auto x = b.load(t, Layout::Contiguous), y = b.load(t, Layout::Strided);
  const int axes = over == ir::ReduceOver::All ? 1 : 2;
  for (auto [value, op] : {std::pair(x, ir::ReduceOp::Sum),
                           std::pair(b.binary(OpCode::Mul, x, y, t), ir::ReduceOp::Sum),
                           std::pair(b.binary(OpCode::Gt, x, y, DType::Bool), ir::ReduceOp::Sum),
                           std::pair(y, ir::ReduceOp::ArgMax),
                           std::pair(b.cast(x, DType::Int32), ir::ReduceOp::Min)}) {
    b.output(value);
    b.reduce(op, over, axes);
  }
  return b.build();
}

// Arguments codegen.hpp's ABI gives each entry point of `k`.
std::vector<std::pair<std::string, cl_uint>> expected_entries(const ir::Kernel& k) {
  cl_uint operands = static_cast<cl_uint>(k.scalars.size());
  for (const auto& in : k.inputs) operands += in.layout == Layout::Strided ? 3 : 2;
  if (!k.has_reduction)
    return {{"sy_map", 3 + operands + 2 * static_cast<cl_uint>(k.outputs.size())}};
  cl_uint partial = 5 + operands, final = 2, rows = 4 + operands;
  for (const auto& r : k.reductions) {
    const bool arg = r.op == ir::ReduceOp::ArgMin || r.op == ir::ReduceOp::ArgMax;
    partial += arg ? 4 : 2;  // partials [, partial indices], each with an offset
    final += arg ? 4 : 3;    // partials [, partial indices], out, out offset
    rows += 2;               // out, out offset
  }
  return {{"sy_reduce_partial", partial}, {"sy_reduce_final", final}, {"sy_reduce_rows", rows}};
}

class OpenCLCompiler {
 public:
  OpenCLCompiler() {
    cl_platform_id platform;
    cl_uint count = 0;
    if (clGetPlatformIDs(1, &platform, &count) != CL_SUCCESS || count == 0) return;
    if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device_, nullptr) != CL_SUCCESS) return;
    context_ = clCreateContext(nullptr, 1, &device_, nullptr, nullptr, nullptr);
    cl_device_fp_config fp64 = 0;
    clGetDeviceInfo(device_, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp64, &fp64, nullptr);
    fp64_ = fp64 != 0;
  }
  ~OpenCLCompiler() {
    if (context_) clReleaseContext(context_);
  }
  bool available() const { return context_ != nullptr; }
  bool fp64() const { return fp64_; }

  // Empty when the source builds and has the expected entry points; otherwise what failed.
  std::string check(const std::string& source, const ir::Kernel& k) {
    const char* text = source.c_str();
    cl_program p = clCreateProgramWithSource(context_, 1, &text, nullptr, nullptr);
    std::string problem;
    if (clBuildProgram(p, 1, &device_, "-cl-std=CL1.2", nullptr, nullptr) != CL_SUCCESS) {
      std::size_t n = 0;
      clGetProgramBuildInfo(p, device_, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n);
      std::string log(n, '\0');
      clGetProgramBuildInfo(p, device_, CL_PROGRAM_BUILD_LOG, n, log.data(), nullptr);
      problem = "build failed:\n" + log;
    }
    for (const auto& [entry, args] :
         problem.empty() ? expected_entries(k) : decltype(expected_entries(k)){}) {
      cl_int err;
      cl_kernel kernel = clCreateKernel(p, entry.c_str(), &err);
      if (err != CL_SUCCESS) {
        problem += "no entry point " + entry + "\n";
        continue;
      }
      cl_uint n = 0;
      clGetKernelInfo(kernel, CL_KERNEL_NUM_ARGS, sizeof n, &n, nullptr);
      if (n != args)
        problem += entry + " takes " + std::to_string(n) + " arguments, expected " +
                   std::to_string(args) + "\n";
      clReleaseKernel(kernel);
    }
    clReleaseProgram(p);
    return problem.empty() ? "" : problem + "source:\n" + source;
  }

 private:
  cl_device_id device_ = nullptr;
  cl_context context_ = nullptr;
  bool fp64_ = false;
};

// NVRTC loaded at run time (as the CUDA backend does), so this test needs no GPU and no CUDA
// headers; the few declarations it uses are NVRTC's stable C ABI.
using NvrtcProgram = void*;
using NvrtcResult = int;  // 0 is NVRTC_SUCCESS
class CudaCompiler {
 public:
  CudaCompiler() {
    lib_ = dlopen("libnvrtc.so", RTLD_NOW);
    if (!lib_) lib_ = dlopen("/usr/local/cuda/lib64/libnvrtc.so", RTLD_NOW);
    if (!lib_) return;
    create_ = reinterpret_cast<decltype(create_)>(dlsym(lib_, "nvrtcCreateProgram"));
    compile_ = reinterpret_cast<decltype(compile_)>(dlsym(lib_, "nvrtcCompileProgram"));
    log_size_ = reinterpret_cast<decltype(log_size_)>(dlsym(lib_, "nvrtcGetProgramLogSize"));
    log_ = reinterpret_cast<decltype(log_)>(dlsym(lib_, "nvrtcGetProgramLog"));
    destroy_ = reinterpret_cast<decltype(destroy_)>(dlsym(lib_, "nvrtcDestroyProgram"));
  }
  // NVRTC stays loaded, as in the CUDA backend: unloading it leaves the memory its own static
  // C++ runtime keeps in a module LeakSanitizer can no longer name (tests/sanitizers/lsan.supp).
  bool available() const { return create_ && compile_ && log_size_ && log_ && destroy_; }

  std::string check(const std::string& source) {
    NvrtcProgram p;
    create_(&p, source.c_str(), "kernel.cu", 0, nullptr, nullptr);
    const char* options[] = {"--gpu-architecture=compute_80", "--std=c++17"};
    const NvrtcResult r = compile_(p, 2, options);
    std::size_t n = 0;
    log_size_(p, &n);
    std::string log(n, '\0');
    log_(p, log.data());
    destroy_(&p);
    return r == 0 ? "" : "NVRTC failed:\n" + log + "source:\n" + source;
  }

 private:
  void* lib_ = nullptr;
  NvrtcResult (*create_)(NvrtcProgram*, const char*, const char*, int, const char* const*,
                         const char* const*) = nullptr;
  NvrtcResult (*compile_)(NvrtcProgram, int, const char* const*) = nullptr;
  NvrtcResult (*log_size_)(NvrtcProgram, std::size_t*) = nullptr;
  NvrtcResult (*log_)(NvrtcProgram, char*) = nullptr;
  NvrtcResult (*destroy_)(NvrtcProgram*) = nullptr;
};

class CodegenOpenCL : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { cl_ = new OpenCLCompiler; }
  static void TearDownTestSuite() { delete cl_; }
  void SetUp() override {
    if (!cl_->available()) GTEST_SKIP() << "no OpenCL platform (install pocl-opencl-icd)";
  }
  static std::vector<DType> types() {
    std::vector<DType> v;
    for (DType t : kAllTypes)
      if (t != DType::Float64 || cl_->fp64()) v.push_back(t);
    return v;
  }
  static OpenCLCompiler* cl_;
};
OpenCLCompiler* CodegenOpenCL::cl_ = nullptr;

TEST_F(CodegenOpenCL, EveryOpBuildsAtEveryWidth) {
  for (DType t : types())
    for (int width : {1, 8, 16}) {
      const Target target{Dialect::OpenCL, cl_->fp64(), width, 64, width > 1};
      const ir::Kernel k = every_op(t);
      EXPECT_EQ(cl_->check(codegen::render(k, target), k), "") << name(t) << " width " << width;
    }
}

TEST_F(CodegenOpenCL, EveryReductionBuilds) {
  for (DType t : types())
    for (int op = 0; op <= static_cast<int>(ir::ReduceOp::ArgMax); ++op) {
      const Target target{Dialect::OpenCL, cl_->fp64(), 8, 64, true};
      const ir::Kernel k = reduction(t, static_cast<ir::ReduceOp>(op));
      EXPECT_EQ(cl_->check(codegen::render(k, target), k), "")
          << name(t) << " " << ir::name(k.reductions[0].op);
    }
}

TEST_F(CodegenOpenCL, SeveralReductionsBuildAtEveryWidth) {
  for (DType t : types())
    for (ir::ReduceOver over : {ir::ReduceOver::All, ir::ReduceOver::TrailingAxes})
      for (int width : {1, 16}) {
        const Target target{Dialect::OpenCL, cl_->fp64(), width, 64, width > 1};
        const ir::Kernel k = several_reductions(t, over);
        EXPECT_EQ(cl_->check(codegen::render(k, target), k), "") << name(t) << " width " << width;
      }
}

TEST_F(CodegenOpenCL, ScalarGpuStyleReductionBuilds) {
  const Target target{Dialect::OpenCL, cl_->fp64(), 1, 256, false};
  for (auto op : {ir::ReduceOp::Sum, ir::ReduceOp::ArgMax}) {
    const ir::Kernel k = reduction(DType::Float32, op);
    EXPECT_EQ(cl_->check(codegen::render(k, target), k), "");
  }
}

class CodegenCuda : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { nvrtc_ = new CudaCompiler; }
  static void TearDownTestSuite() { delete nvrtc_; }
  void SetUp() override {
    if (!nvrtc_->available()) GTEST_SKIP() << "libnvrtc not found (CUDA toolkit not installed)";
  }
  static CudaCompiler* nvrtc_;
};
CudaCompiler* CodegenCuda::nvrtc_ = nullptr;

TEST_F(CodegenCuda, EveryOpBuilds) {
  for (DType t : kAllTypes) {
    const Target target{Dialect::Cuda, true, 1, 256, false};
    EXPECT_EQ(nvrtc_->check(codegen::render(every_op(t), target)), "") << name(t);
  }
}

TEST_F(CodegenCuda, EveryReductionBuilds) {
  for (DType t : kAllTypes)
    for (int op = 0; op <= static_cast<int>(ir::ReduceOp::ArgMax); ++op) {
      const Target target{Dialect::Cuda, true, 1, 256, false};
      EXPECT_EQ(nvrtc_->check(codegen::render(reduction(t, static_cast<ir::ReduceOp>(op)), target)),
                "")
          << name(t) << " op " << op;
    }
}

TEST_F(CodegenCuda, SeveralReductionsBuild) {
  const Target target{Dialect::Cuda, true, 1, 256, false};
  for (DType t : kAllTypes)
    for (ir::ReduceOver over : {ir::ReduceOver::All, ir::ReduceOver::TrailingAxes})
      EXPECT_EQ(nvrtc_->check(codegen::render(several_reductions(t, over), target)), "") << name(t);
}

// Every library op (codegen/library_kernels.hpp) on every dtype, with each flag it takes.
std::vector<LibraryOp> every_library_op() {
  std::vector<LibraryOp> ops;
  for (DType t : kAllTypes) {
    for (auto scan : {ir::ReduceOp::Sum, ir::ReduceOp::Prod, ir::ReduceOp::Min, ir::ReduceOp::Max})
      ops.push_back({.kind = LibraryOp::Kind::Scan, .dtype = t, .scan = scan});
    for (bool indices : {false, true}) {
      ops.push_back({.kind = LibraryOp::Kind::Sort, .dtype = t, .indices = indices});
      ops.push_back({.kind = LibraryOp::Kind::Compact, .dtype = t, .indices = indices});
    }
    ops.push_back({.kind = LibraryOp::Kind::Gather, .dtype = t});
  }
  return ops;
}

std::string describe(const LibraryOp& op) {
  return std::to_string(static_cast<int>(op.kind)) + " " + std::string(name(op.dtype)) + " " +
         std::string(ir::name(op.scan)) + (op.indices ? " indices" : "");
}

TEST_F(CodegenCuda, EveryLibraryKernelBuilds) {
  const Target target{Dialect::Cuda, true, 1, 256, false};
  for (const LibraryOp& op : every_library_op())
    EXPECT_EQ(nvrtc_->check(codegen::render_library(op, target)), "") << describe(op);
}

TEST(Codegen, LibraryScanOfFloat64WithoutItIsADTypeErrorButSortsMoveBits) {
  const Target target{Dialect::OpenCL, false, 1, 64, false};
  EXPECT_THROW(
      codegen::render_library({.kind = LibraryOp::Kind::Scan, .dtype = DType::Float64}, target),
      DTypeError);
  for (auto kind : {LibraryOp::Kind::Sort, LibraryOp::Kind::Compact, LibraryOp::Kind::Gather}) {
    const std::string source =
        codegen::render_library({.kind = kind, .dtype = DType::Float64}, target);
    EXPECT_EQ(source.find("double"), std::string::npos) << source;
  }
}

TEST(Codegen, LibraryKernelsNeedAPowerOfTwoGroupOfAtLeastOneDigitPerItem) {
  const LibraryOp op{.kind = LibraryOp::Kind::Sort, .dtype = DType::Int32};
  for (int local : {8, 48, 2048})
    EXPECT_THROW(codegen::render_library(op, Target{Dialect::OpenCL, true, 1, local, false}),
                 ValueError)
        << local;
}

TEST(Codegen, Float64OnATargetWithoutItIsADTypeError) {
  const Target target{Dialect::OpenCL, false, 1, 64, false};
  EXPECT_THROW(codegen::render(every_op(DType::Float64), target), DTypeError);
  EXPECT_NO_THROW(codegen::render(reduction(DType::Float32, ir::ReduceOp::Sum), target));
}

TEST(Codegen, OpOutsideItsDTypesIsADTypeError) {
  KernelBuilder b;
  b.output(b.unary(OpCode::Sin, b.load(DType::Int32, Layout::Contiguous), DType::Int32));
  EXPECT_THROW(codegen::render(b.build(), Target{}), DTypeError);
}

TEST(Codegen, TargetOutsideItsRangesIsAValueError) {
  const ir::Kernel k = every_op(DType::Float32);
  EXPECT_THROW(codegen::render(k, Target{Dialect::OpenCL, true, 3, 64, false}), ValueError);
  EXPECT_THROW(codegen::render(k, Target{Dialect::Cuda, true, 8, 64, false}), ValueError);
  EXPECT_THROW(codegen::render(k, Target{Dialect::OpenCL, true, 1, 100, false}), ValueError);
}

// The launch plan every backend follows gives each entry point exactly the arguments the ABI
// lists, points every partial at scratch of the right size or at the output, and folds with a
// final pass exactly when a row is split into parts; on a CPU-like and a GPU-like target, over
// shapes that take each path (map, one item per row, one part per row, several parts).
TEST(LaunchPlan, EveryLaunchHasTheABIsArgumentsAndItsScratch) {
  using Kind = codegen::KernelArg::Kind;
  const Target cpu_like{Dialect::OpenCL, true, 8, 64, true},
      gpu_like{Dialect::Cuda, true, 1, 256, false};
  std::vector<ir::Kernel> kernels = {
      every_op(DType::Float32), several_reductions(DType::Float64, ir::ReduceOver::All),
      several_reductions(DType::Float32, ir::ReduceOver::TrailingAxes)};
  for (int op = 0; op <= static_cast<int>(ir::ReduceOp::ArgMax); ++op)
    kernels.push_back(reduction(DType::Int32, static_cast<ir::ReduceOp>(op)));
  const std::vector<Shape> shapes = {{0}, {1}, {7, 3}, {3, 100'000}, {2, 3, 5000}, {5000, 4, 4}};
  int paths[4] = {};  // map, by rows, one part per row, several parts
  for (const Target& t : {cpu_like, gpu_like}) {
    for (const ir::Kernel& k : kernels) {
      const auto entries = expected_entries(k);
      for (const Shape& shape : shapes) {
        SCOPED_TRACE(::testing::Message() << "rank " << shape.size() << ", " << shape.back()
                                          << " last, local size " << t.local_size);
        const codegen::KernelPlan plan = codegen::plan_kernel(k, shape, t, 64);
        if (element_count(shape) == 0 && !k.has_reduction) {
          EXPECT_TRUE(plan.launches.empty());
          continue;
        }
        std::vector<int> scratch_uses(plan.scratch_bytes.size());
        for (const codegen::KernelLaunch& l : plan.launches) {
          const auto expected = std::find_if(entries.begin(), entries.end(),
                                             [&](const auto& e) { return e.first == l.entry; });
          ASSERT_NE(expected, entries.end()) << l.entry;
          EXPECT_EQ(l.args.size(), expected->second) << l.entry;
          EXPECT_GE(l.groups, 1) << l.entry;
          for (const codegen::KernelArg& a : l.args)
            if (a.kind == Kind::Scratch) ++scratch_uses.at(static_cast<std::size_t>(a.value));
        }
        if (!k.has_reduction) {
          ++paths[0];
          EXPECT_LE(plan.launches.at(0).groups, 64);
          continue;
        }
        const ir::FoldedRows rows = ir::folded_rows(k.reductions[0], shape);
        const std::string_view first = plan.launches.at(0).entry;
        if (first == codegen::kReduceRowsEntry) {
          ++paths[1];
          EXPECT_EQ(plan.launches.size(), 1u);
          EXPECT_TRUE(plan.scratch_bytes.empty());
          continue;
        }
        const std::int64_t parts = plan.launches[0].args.at(2).value;
        EXPECT_EQ(plan.launches[0].groups, rows.rows * parts);
        ++paths[parts == 1 ? 2 : 3];
        // A final pass exactly when rows are split, reading every scratch buffer the partial
        // pass wrote; one part per row writes the output directly (Arg ops' values aside).
        EXPECT_EQ(plan.launches.size(), parts == 1 ? 1u : 2u);
        for (std::size_t s = 0; s < scratch_uses.size(); ++s)
          EXPECT_EQ(scratch_uses[s], parts == 1 ? 1 : 2) << "scratch " << s;
        std::size_t expected_scratch = 0;
        for (std::size_t o = 0; o < k.outputs.size(); ++o) {
          const bool arg = k.reductions[o].op == ir::ReduceOp::ArgMin ||
                           k.reductions[o].op == ir::ReduceOp::ArgMax;
          expected_scratch += parts > 1 ? (arg ? 2 : 1) : (arg ? 1 : 0);
        }
        ASSERT_EQ(plan.scratch_bytes.size(), expected_scratch);
        for (std::size_t bytes : plan.scratch_bytes)
          EXPECT_GE(bytes, static_cast<std::size_t>(rows.rows * parts)) << "one slot per group";
      }
    }
  }
  for (int path = 0; path < 4; ++path) EXPECT_GT(paths[path], 0) << "path " << path << " untested";
}

// glslc (shaderc), run on each entry point of a GLSL program as a Vulkan backend builds it: the
// source once per entry, with SY_ENTRY_<entry> defined; spirv-val too where installed.
class GlslCompiler {
 public:
  GlslCompiler() {
    available_ = std::system("glslc --version > /dev/null 2>&1") == 0;
    validator_ = std::system("spirv-val --version > /dev/null 2>&1") == 0;
    std::string dir = (std::filesystem::temp_directory_path() / "sy_glsl_XXXXXX").string();
    if (available_ && mkdtemp(dir.data())) dir_ = dir;
    available_ = available_ && !dir_.empty();
  }
  ~GlslCompiler() {
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }
  bool available() const { return available_; }

  // Empty when every entry compiles (and validates); otherwise the messages and the source.
  std::string check(const std::string& source, const std::vector<std::string>& entries) {
    const std::string path = dir_ + "/kernel.comp", spv = dir_ + "/kernel.spv",
                      log = dir_ + "/log.txt";
    std::ofstream(path) << source;
    std::string problem;
    for (const std::string& entry : entries) {
      std::string command = "glslc -fshader-stage=compute --target-env=vulkan1.2 -DSY_ENTRY_" +
                            entry + " -o " + spv + " " + path + " > " + log + " 2>&1";
      if (validator_)
        command += " && spirv-val --target-env vulkan1.2 " + spv + " > " + log + " 2>&1";
      if (std::system(command.c_str()) != 0) {
        std::ifstream in(log);
        problem += entry + " failed:\n" + std::string(std::istreambuf_iterator<char>(in), {});
      }
    }
    return problem.empty() ? "" : problem + "source:\n" + source;
  }

 private:
  bool available_ = false, validator_ = false;
  std::string dir_;
};

class CodegenGlsl : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { glslc_ = new GlslCompiler; }
  static void TearDownTestSuite() { delete glslc_; }
  void SetUp() override {
    if (!glslc_->available()) GTEST_SKIP() << "glslc not found on PATH (install glslc or shaderc)";
  }
  static std::string check(const ir::Kernel& k) {
    std::vector<std::string> entries;
    for (const auto& e : expected_entries(k)) entries.push_back(e.first);
    return glslc_->check(codegen::render(k, kTarget), entries);
  }
  static constexpr DType kTypes[] = {DType::Bool, DType::Int32, DType::Int64, DType::Float32,
                                     DType::Float64};
  static constexpr Target kTarget{Dialect::Glsl, true, 1, 256, false};
  static GlslCompiler* glslc_;
};
GlslCompiler* CodegenGlsl::glslc_ = nullptr;

TEST_F(CodegenGlsl, EveryOpBuilds) {
  for (DType t : kTypes) EXPECT_EQ(check(every_op(t)), "") << name(t);
}

// Each float64 function alone, so that every helper's dependencies are defined by the helper
// mechanism itself and not by a neighbour's; and float64 reached by casts from every dtype.
TEST_F(CodegenGlsl, EachFloat64OpBuildsAlone) {
  const DType t = DType::Float64;
  for (int op = static_cast<int>(OpCode::Neg); op <= static_cast<int>(OpCode::Where); ++op) {
    const OpCode o = static_cast<OpCode>(op);
    if (o == OpCode::Not || o == OpCode::Cast || o == OpCode::And || o == OpCode::Or ||
        o == OpCode::Xor || o == OpCode::ShiftLeft || o == OpCode::ShiftRight)
      continue;
    KernelBuilder b;
    const auto x = b.load(t, Layout::Contiguous), y = b.load(t, Layout::Contiguous);
    if (o == OpCode::Where)
      b.output(b.where(b.binary(OpCode::Lt, x, y, DType::Bool), x, y));
    else if (ir::is_classification(o))
      b.output(b.unary(o, x, DType::Bool));
    else if (ir::is_comparison(o))
      b.output(b.binary(o, x, y, DType::Bool));
    else if (ir::arity(o) == 1)
      b.output(b.unary(o, x, t));
    else
      b.output(b.binary(o, x, y, t));
    EXPECT_EQ(check(b.build()), "") << ir::name(o);
  }
  for (DType from : kTypes) {
    KernelBuilder b;
    const auto x = b.load(from, Layout::Strided);
    b.output(b.cast(x, t));
    b.output(b.cast(b.cast(x, t), from));
    EXPECT_EQ(check(b.build()), "") << name(from);
  }
}

// Programs without float64 ask nothing of it on a device without shaderFloat64; with it, only
// float32 sin, cos and tan go through float64 (GLSL's builtins may be far off at large
// arguments).
TEST_F(CodegenGlsl, Float32ProgramsDeclareNoDouble) {
  codegen::Target no_fp64 = kTarget;
  no_fp64.fp64 = false;
  for (DType t : {DType::Bool, DType::Int32, DType::Int64, DType::Float32})
    EXPECT_EQ(codegen::render(every_op(t, false), no_fp64).find("double"), std::string::npos)
        << name(t);
  ir::KernelBuilder b;
  b.output(
      b.unary(ir::OpCode::Exp, b.load(DType::Float32, ir::Layout::Contiguous), DType::Float32));
  EXPECT_EQ(codegen::render(b.build(), kTarget).find("double"), std::string::npos);
  ir::KernelBuilder c;
  c.output(
      c.unary(ir::OpCode::Cos, c.load(DType::Float32, ir::Layout::Contiguous), DType::Float32));
  EXPECT_NE(codegen::render(c.build(), kTarget).find("sy_cos_f64(double("), std::string::npos);
}

TEST_F(CodegenGlsl, EveryReductionBuilds) {
  for (DType t : kTypes)
    for (int op = 0; op <= static_cast<int>(ir::ReduceOp::ArgMax); ++op)
      EXPECT_EQ(check(reduction(t, static_cast<ir::ReduceOp>(op))), "") << name(t) << " op " << op;
}

TEST_F(CodegenGlsl, SeveralReductionsBuild) {
  for (DType t : kTypes)
    for (ir::ReduceOver over : {ir::ReduceOver::All, ir::ReduceOver::TrailingAxes})
      EXPECT_EQ(check(several_reductions(t, over)), "") << name(t);
}

TEST_F(CodegenGlsl, ABrokenSourceFails) {
  std::string source = codegen::render(every_op(DType::Float32, false), kTarget);
  source.replace(source.find("void main() {"), 13, "void main() {\n  undeclared = 1;");
  EXPECT_NE(glslc_->check(source, {"sy_map"}), "");
}

// Each entry's argument block has one member per argument plan_kernel passes, in its order,
// of the type codegen.hpp gives that kind of argument.
TEST(CodegenGlslABI, ArgumentBlocksFollowTheLaunchPlan) {
  using Kind = codegen::KernelArg::Kind;
  const Target target{Dialect::Glsl, true, 1, 256, false};
  std::vector<ir::Kernel> kernels = {every_op(DType::Int64), every_op(DType::Float64),
                                     several_reductions(DType::Float32, ir::ReduceOver::All),
                                     several_reductions(DType::Bool, ir::ReduceOver::TrailingAxes)};
  for (int op = 0; op <= static_cast<int>(ir::ReduceOp::ArgMax); ++op)
    kernels.push_back(reduction(DType::Int32, static_cast<ir::ReduceOp>(op)));
  std::set<std::string_view> launched;
  for (const ir::Kernel& k : kernels) {
    const std::string source = codegen::render(k, target);
    for (const Shape& shape : std::vector<Shape>{{1 << 20}, {5000, 4, 4}, {7, 3}}) {
      for (const codegen::KernelLaunch& l : codegen::plan_kernel(k, shape, target, 64).launches) {
        launched.insert(l.entry);
        const std::string open = "readonly buffer sy_args_" + std::string(l.entry) + " {\n";
        const std::size_t begin = source.find(open);
        ASSERT_NE(begin, std::string::npos) << l.entry;
        std::istringstream members(
            source.substr(begin + open.size(), source.find("};", begin) - begin - open.size()));
        for (const codegen::KernelArg& a : l.args) {
          std::string type, member;
          members >> type >> member;
          std::string expected;
          switch (a.kind) {
            case Kind::Index:
            case Kind::InputOffset:
            case Kind::OutputOffset:
              expected = "int64_t";
              break;
            case Kind::Rank:
              expected = "int";
              break;
            case Kind::Shape:
            case Kind::InputStrides:
              expected = "sy_dims";
              break;
            case Kind::Input:
            case Kind::Output:
            case Kind::Scratch:
              expected = type.rfind("sy_buf_", 0) == 0 ? type : "sy_buf_<type>";
              break;
            case Kind::Scalar:
              expected =
                  std::vector<std::string>{"uint8_t", "int", "int64_t", "float", "double"}.at(
                      static_cast<std::size_t>(k.scalars.at(static_cast<std::size_t>(a.value))));
              break;
          }
          EXPECT_EQ(type, expected) << l.entry << " " << member;
        }
        std::string rest;
        EXPECT_FALSE(members >> rest) << l.entry << " has more members than arguments";
      }
    }
  }
  EXPECT_EQ(launched.size(), 4u) << "every entry point launched";
}

TEST(CodegenGlslABI, VectorsFloat64WithoutFp64AndLibraryKernelsAreRefused) {
  EXPECT_THROW(
      codegen::render(every_op(DType::Float32), Target{Dialect::Glsl, false, 8, 64, false}),
      ValueError);
  EXPECT_THROW(
      codegen::render(every_op(DType::Float64), Target{Dialect::Glsl, false, 1, 64, false}),
      DTypeError);
  EXPECT_THROW(
      codegen::render(every_op(DType::Float32), Target{Dialect::Glsl, false, 1, 64, false}),
      DTypeError);  // its casts to float64
}

// The library kernels' GLSL (translated from their C text, codegen/library_glsl.hpp): every op
// on every dtype with each flag, and gemm and gemv in each transposition at every group size.
TEST_F(CodegenGlsl, EveryLibraryKernelBuilds) {
  std::vector<LibraryOp> ops = every_library_op();
  for (DType t : {DType::Float32, DType::Float64})
    for (auto kind : {LibraryOp::Kind::Gemm, LibraryOp::Kind::Gemv})
      for (int transpose = 0; transpose < 4; ++transpose)
        ops.push_back({.kind = kind,
                       .dtype = t,
                       .transpose_a = (transpose & 1) != 0,
                       .transpose_b = (transpose & 2) != 0});
  for (const LibraryOp& op : ops) {
    const bool product = op.kind == LibraryOp::Kind::Gemm || op.kind == LibraryOp::Kind::Gemv;
    for (int local : product ? std::vector<int>{16, 64, 256, 1024} : std::vector<int>{64}) {
      const std::string source =
          codegen::render_library(op, Target{Dialect::Glsl, true, 1, local, false});
      EXPECT_EQ(glslc_->check(source, codegen::library_entries(op)), "")
          << describe(op) << " transposes " << op.transpose_a << op.transpose_b << " local "
          << local;
    }
  }
}

// Ops that only move bits declare no double: a device without shaderFloat64 runs them.
TEST(CodegenGlslABI, LibraryKernelsThatMoveBitsDeclareNoDouble) {
  const Target target{Dialect::Glsl, false, 1, 64, false};
  for (auto kind : {LibraryOp::Kind::Sort, LibraryOp::Kind::Compact, LibraryOp::Kind::Gather}) {
    const std::string source =
        codegen::render_library({.kind = kind, .dtype = DType::Float64}, target);
    EXPECT_EQ(source.find("double"), std::string::npos) << source;
  }
  EXPECT_THROW(
      codegen::render_library({.kind = LibraryOp::Kind::Scan, .dtype = DType::Float64}, target),
      DTypeError);
  EXPECT_THROW(
      codegen::render_library({.kind = LibraryOp::Kind::Gemm, .dtype = DType::Float64}, target),
      DTypeError);
}

TEST(CodegenGlslABI, ProductsOfIntegersAndOpenCLProductsAreRefused) {
  const Target glsl{Dialect::Glsl, true, 1, 64, false};
  for (DType t : {DType::Bool, DType::Int32, DType::Int64})
    for (auto kind : {LibraryOp::Kind::Gemm, LibraryOp::Kind::Gemv})
      EXPECT_THROW(codegen::render_library({.kind = kind, .dtype = t}, glsl), DTypeError)
          << name(t);
  // CLBlast and cuBLAS run them there.
  for (Dialect d : {Dialect::OpenCL, Dialect::Cuda})
    EXPECT_THROW(codegen::render_library({.kind = LibraryOp::Kind::Gemm, .dtype = DType::Float32},
                                         Target{d, true, 1, 64, false}),
                 ValueError);
  EXPECT_THROW(
      codegen::render_library({.kind = LibraryOp::Kind::Fft, .dtype = DType::Float32}, glsl),
      ValueError);
}

// Each library entry's argument block has one 8-byte member per argument plan_library passes,
// in its order: a buffer reference for memory, int64_t for a number.
TEST(CodegenGlslABI, LibraryArgumentBlocksFollowThePlans) {
  using Kind = codegen::LibraryArg::Kind;
  const Target target{Dialect::Glsl, true, 1, 64, false};
  LibraryArgs x;
  x.m = 40, x.n = 24, x.k = 33, x.lda = 33, x.ldb = 24, x.ldc = 24, x.batch = 3;
  x.stride_a = 40 * 33, x.stride_b = 33 * 24, x.stride_c = 40 * 24;
  x.rows = 3, x.length = 5000, x.inner = 2, x.count = 7;
  std::vector<LibraryOp> ops = every_library_op();
  ops.push_back({.kind = LibraryOp::Kind::Gemm, .dtype = DType::Float32});
  ops.push_back({.kind = LibraryOp::Kind::Gemv, .dtype = DType::Float64, .transpose_a = true});
  std::set<std::string> launched;
  for (const LibraryOp& op : ops) {
    const std::string source = codegen::render_library(op, target);
    for (const codegen::LibraryLaunch& l : codegen::plan_library(op, x, target).launches) {
      launched.insert(l.entry);
      EXPECT_GE(l.groups, 1) << l.entry;
      EXPECT_LE(l.groups, 65535) << l.entry << ": Vulkan's least maxComputeWorkGroupCount";
      const std::string open = "readonly buffer sy_args_" + l.entry + " {\n";
      const std::size_t begin = source.find(open);
      ASSERT_NE(begin, std::string::npos) << l.entry;
      std::istringstream members(
          source.substr(begin + open.size(), source.find("};", begin) - begin - open.size()));
      for (const codegen::LibraryArg& a : l.args) {
        std::string type, member;
        members >> type >> member;
        if (a.kind == Kind::Number)
          EXPECT_EQ(type, "int64_t") << l.entry << " " << member;
        else
          EXPECT_EQ(type.rfind("sy_ref_", 0), 0u) << l.entry << " " << type << " " << member;
      }
      std::string rest;
      EXPECT_FALSE(members >> rest) << l.entry << " has more members than arguments";
    }
  }
  EXPECT_EQ(launched.size(), 10u) << "every entry point launched";
}

// Each entry point is one section of the program, compiled with its SY_ENTRY_ macro defined.
TEST(CodegenGlslABI, LibraryProgramsDefineEveryEntryOnce) {
  for (const LibraryOp& op : every_library_op()) {
    const std::string source =
        codegen::render_library(op, Target{Dialect::Glsl, true, 1, 256, false});
    for (const std::string& e : codegen::library_entries(op)) {
      const std::string section = "#ifdef SY_ENTRY_" + e + "\n";
      const std::size_t at = source.find(section);
      EXPECT_NE(at, std::string::npos) << describe(op) << " " << e;
      EXPECT_EQ(source.find(section, at + 1), std::string::npos) << describe(op) << " " << e;
    }
  }
}

}  // namespace
}  // namespace switchyard
