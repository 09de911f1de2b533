#include "backends/opencl/opencl_driver.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <map>
#include <mutex>
#include <string_view>

#include "backends/opencl/opencl_error.hpp"
#include "switchyard/error.hpp"

namespace switchyard::opencl {
namespace {

// A vector width codegen accepts: a power of two in [1, 16].
int usable_width(int preferred) {
  return static_cast<int>(std::bit_floor(static_cast<unsigned>(std::clamp(preferred, 1, 16))));
}

cl_mem mem(const DeviceMemory& m) {
  return static_cast<cl_mem>(m.handle);
}

// A program loaded on the device, with a kernel for each entry point.
class Program final : public Module {
 public:
  ProgramHandle program;
  std::map<std::string, KernelHandle, std::less<>> kernels;
  std::mutex mutex;  // kernel arguments are state of the cl_kernel objects
};

std::string build_log(cl_program program, cl_device_id device) {
  std::size_t n = 0;
  clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n);
  std::string log(n, '\0');
  clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, n, log.data(), nullptr);
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log;
}

std::vector<std::byte> binary_of(cl_program program, const DeviceInfo& info) {
  std::size_t size = 0;
  check(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr),
        "reading a program binary's size", info);
  std::vector<std::byte> bytes(size);
  unsigned char* data = reinterpret_cast<unsigned char*>(bytes.data());
  check(clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof data, &data, nullptr),
        "reading a program binary", info);
  return bytes;
}

// PoCL aborts the process (an assertion in pocl_binary_get_kernels_metadata) when it is given one
// of its binaries without the program's bitcode, and it exported one in a test run where many
// processes built the same program in its shared cache directory: kept, that binary crashed
// every later process that loaded it. Its binaries (magic "poclbin") carry the bitcode as a file
// named program.bc; OpenCLBackend.DriverLoadsItsOwnBinariesAndRefusesOthers checks that this
// PoCL's do, so a PoCL that names it otherwise fails that test instead of losing its programs.
bool pocl_binary_without_bitcode(std::span<const std::byte> binary) {
  const std::string_view bytes(reinterpret_cast<const char*>(binary.data()), binary.size());
  return bytes.starts_with("poclbin") && bytes.find("program.bc") == std::string_view::npos;
}

// What build() returns on a driver that caches its programs itself (Traits::caches_its_programs):
// this header and the source. PoCL exports a binary only after compiling each of its kernels
// for any work-group size, machine code no launch runs (a launch compiles its own, for its
// size): that doubled the cost of every program's first run, or more for programs of several
// kernels.
constexpr std::string_view kSourceRecord = "switchyard opencl source\n";

}  // namespace

Driver::Driver(DeviceInfo info, Traits traits)
    : info_(std::move(info)),
      traits_(std::move(traits)),
      context_([&] {
        cl_int err = CL_SUCCESS;
        cl_context c = clCreateContext(nullptr, 1, &traits_.device, nullptr, nullptr, &err);
        check(err, "creating a context", info_);
        return c;
      }()),
      queue_([&] {
        cl_int err = CL_SUCCESS;
        cl_command_queue q = clCreateCommandQueue(context_.get(), traits_.device, 0, &err);
        check(err, "creating a command queue", info_);
        return q;
      }()) {}

std::uint64_t Driver::allocate(std::size_t bytes) {
  cl_int err = CL_SUCCESS;
  cl_mem m = clCreateBuffer(context(), CL_MEM_READ_WRITE, bytes, nullptr, &err);
  if (is_out_of_memory(err)) {
    last_refusal_.store(err);
    return 0;
  }
  check(err, "allocating " + std::to_string(bytes) + " bytes", info_);
  return reinterpret_cast<std::uintptr_t>(m);
}

void Driver::release(std::uint64_t block) {
  // OpenCL defers the release until queued commands using the buffer finish.
  clReleaseMemObject(reinterpret_cast<cl_mem>(block));
}

std::string Driver::refusal_name() const {
  const cl_int refusal = last_refusal_.load();
  return error_name(refusal == CL_SUCCESS ? CL_MEM_OBJECT_ALLOCATION_FAILURE : refusal);
}

void Driver::copy_from_host(DeviceMemory dst, std::size_t dst_offset, const void* src,
                            std::size_t bytes) {
  check(
      clEnqueueWriteBuffer(queue(), mem(dst), CL_TRUE, dst_offset, bytes, src, 0, nullptr, nullptr),
      "copying " + std::to_string(bytes) + " bytes to the device", info_);
}

void Driver::copy_to_host(void* dst, DeviceMemory src, std::size_t src_offset, std::size_t bytes) {
  check(
      clEnqueueReadBuffer(queue(), mem(src), CL_TRUE, src_offset, bytes, dst, 0, nullptr, nullptr),
      "copying " + std::to_string(bytes) + " bytes to the host", info_);
}

void Driver::copy_within(DeviceMemory dst, std::size_t dst_offset, DeviceMemory src,
                         std::size_t src_offset, std::size_t bytes) {
  check(clEnqueueCopyBuffer(queue(), mem(src), mem(dst), src_offset, dst_offset, bytes, 0, nullptr,
                            nullptr),
        "copying " + std::to_string(bytes) + " bytes within the device", info_);
  // The interface promises the copy is done on return.
  check(clFinish(queue()), "copying within the device", info_);
}

codegen::Target Driver::target_for(const ir::Kernel& kernel) const {
  const bool cpu = info_.kind == DeviceKind::CPU;
  codegen::Target t;
  t.dialect = codegen::Dialect::OpenCL;
  t.fp64 = info_.fp64;
  t.blocked = cpu;
  if (cpu) {
    // One width for the whole kernel, set by its widest element: float16 and double8 both fill
    // the 512-bit registers PoCL targets.
    const auto wide = [](DType d) { return size_of(d) == 8; };
    bool has_wide = std::any_of(kernel.body.begin(), kernel.body.end(),
                                [&](const ir::Instr& i) { return wide(i.dtype); });
    t.vector_width =
        usable_width(has_wide ? traits_.preferred_double_width : traits_.preferred_float_width);
    // A CPU runs a group's items in a loop on one thread: a small group keeps the local tree
    // short and leaves many groups to spread over the cores.
    t.local_size = 16;
  } else {
    t.vector_width = 1;
    t.local_size = static_cast<int>(std::min<std::size_t>(
        256, std::bit_floor(std::max<std::size_t>(traits_.max_work_group_size, 2))));
  }
  return t;
}

std::int64_t Driver::max_groups(const Module&, std::string_view) const {
  const std::int64_t units = std::max(info_.compute_units, 1);
  return info_.kind == DeviceKind::CPU ? units * 4 : units * 32;
}

std::string Driver::identity() const {
  return info_.name + "|" + info_.vendor;
}

std::string Driver::versions() const {
  return info_.driver_version + "|" + traits_.platform_version + "|" + traits_.device_version;
}

std::string Driver::build_options() const {
  std::string o = "-cl-std=CL1.2";
  // Without this flag OpenCL allows 2.5 ulp float32 division and 3 ulp sqrt; every other
  // backend rounds them correctly.
  if (traits_.correctly_rounded_divide_sqrt) o += " -cl-fp32-correctly-rounded-divide-sqrt";
  return o;
}

ProgramHandle Driver::compile(const std::string& source) const {
  const char* text = source.c_str();
  cl_int err = CL_SUCCESS;
  ProgramHandle program(clCreateProgramWithSource(context(), 1, &text, nullptr, &err));
  check(err, "creating a program from source", info_);
  const std::string options = build_options();
  err = clBuildProgram(program.get(), 1, &traits_.device, options.c_str(), nullptr, nullptr);
  if (err == CL_BUILD_PROGRAM_FAILURE || err == CL_INVALID_BUILD_OPTIONS)
    throw CompileError(error_name(err) + ": OpenCL C did not build on " + info_.id() + " (" +
                       info_.name + ") with options '" + options + "'; build log:\n" +
                       build_log(program.get(), traits_.device));
  check(err, "building a program", info_);
  return program;
}

std::vector<std::byte> Driver::build(const std::string& source, std::span<const std::string_view>) {
  const ProgramHandle program = compile(source);
  if (traits_.caches_its_programs) {
    std::vector<std::byte> record(kSourceRecord.size() + source.size());
    std::memcpy(record.data(), kSourceRecord.data(), kSourceRecord.size());
    std::memcpy(record.data() + kSourceRecord.size(), source.data(), source.size());
    return record;
  }
  std::vector<std::byte> binary = binary_of(program.get(), info_);
  if (pocl_binary_without_bitcode(binary))
    throw DeviceError("CL_INVALID_BINARY: " + info_.id() + " (" + info_.name +
                      ") exported a program binary without its bitcode; it is not kept");
  return binary;
}

ProgramHandle Driver::program_from(std::span<const std::byte> binary) const {
  const std::string_view bytes(reinterpret_cast<const char*>(binary.data()), binary.size());
  if (bytes.starts_with(kSourceRecord)) {
    // The driver's own cache makes this build a lookup; a record it no longer has compiles anew.
    try {
      return compile(std::string(bytes.substr(kSourceRecord.size())));
    } catch (const CompileError&) {
      return {};  // another device's source
    }
  }
  if (binary.empty() || pocl_binary_without_bitcode(binary)) return {};
  const std::size_t size = binary.size();
  const auto* data = reinterpret_cast<const unsigned char*>(binary.data());
  cl_int status = CL_SUCCESS, err = CL_SUCCESS;
  ProgramHandle program(
      clCreateProgramWithBinary(context(), 1, &traits_.device, &size, &data, &status, &err));
  if (err != CL_SUCCESS || status != CL_SUCCESS) return {};
  const std::string options = build_options();
  if (clBuildProgram(program.get(), 1, &traits_.device, options.c_str(), nullptr, nullptr) !=
      CL_SUCCESS)
    return {};
  return program;
}

std::unique_ptr<Module> Driver::load(std::span<const std::byte> binary,
                                     std::span<const std::string_view> entries) {
  ProgramHandle program = program_from(binary);
  if (!program) return nullptr;
  auto loaded = std::make_unique<Program>();
  loaded->program = std::move(program);
  for (std::string_view entry : entries) {
    cl_int err = CL_SUCCESS;
    KernelHandle kernel(clCreateKernel(loaded->program.get(), std::string(entry).c_str(), &err));
    if (is_out_of_memory(err)) check(err, "creating kernel " + std::string(entry), info_);
    if (err != CL_SUCCESS) return nullptr;  // another program's binary
    loaded->kernels.emplace(entry, std::move(kernel));
  }
  return loaded;
}

void Driver::launch(Module& module, std::string_view entry, std::int64_t groups, int local_size,
                    const LaunchArguments& args) {
  auto* program = dynamic_cast<Program*>(&module);
  const auto found = program ? program->kernels.find(entry) : decltype(program->kernels.end()){};
  if (!program || found == program->kernels.end())
    throw ValueError("launch of " + std::string(entry) + " on " + info_.id() +
                     ": the program was not built for it here");
  if (groups <= 0) return;
  cl_kernel kernel = found->second.get();
  // Every launch passes here: error messages are built only when a call fails.
  const std::lock_guard lock(program->mutex);
  for (std::size_t i = 0; i < args.list.size(); ++i) {
    const LaunchArgument& a = args.list[i];
    const cl_mem m = a.memory ? mem(a.allocation) : nullptr;
    const cl_int err =
        a.memory ? clSetKernelArg(kernel, static_cast<cl_uint>(i), sizeof m, &m)
                 : clSetKernelArg(kernel, static_cast<cl_uint>(i), a.size, &args.values[a.offset]);
    if (err != CL_SUCCESS)
      check(err, "setting argument " + std::to_string(i) + " of " + std::string(entry), info_);
  }
  const auto local = static_cast<std::size_t>(local_size);
  const std::size_t global = static_cast<std::size_t>(groups) * local;
  const cl_int err =
      clEnqueueNDRangeKernel(queue(), kernel, 1, nullptr, &global, &local, 0, nullptr, nullptr);
  if (err != CL_SUCCESS)
    check(err,
          "launching " + std::string(entry) + " (" + std::to_string(groups) + " groups of " +
              std::to_string(local) + ")",
          info_);
}

void Driver::synchronize() {
  check(clFinish(queue()), "waiting for the device", info_);
}

}  // namespace switchyard::opencl
