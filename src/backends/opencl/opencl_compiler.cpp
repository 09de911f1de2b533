#include "backends/opencl/opencl_compiler.hpp"

#include <vector>

#include "backends/opencl/opencl_device.hpp"
#include "backends/opencl/opencl_error.hpp"
#include "switchyard/error.hpp"

namespace switchyard::opencl {
namespace {

std::string build_log(cl_program program, cl_device_id device) {
  std::size_t n = 0;
  clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n);
  std::string log(n, '\0');
  clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, n, log.data(), nullptr);
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log;
}

std::vector<std::byte> binary_of(const Device& device, cl_program program) {
  std::size_t size = 0;
  check(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr),
        "reading a program binary's size", device.info());
  std::vector<std::byte> bytes(size);
  unsigned char* data = reinterpret_cast<unsigned char*>(bytes.data());
  check(clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof data, &data, nullptr),
        "reading a program binary", device.info());
  return bytes;
}

// Empty when the driver rejects the binary (another driver build, a damaged entry).
ProgramHandle load_binary(const Device& device, const std::vector<std::byte>& bytes,
                          const std::string& options) {
  if (bytes.empty()) return {};
  const cl_device_id id = device.id();
  const std::size_t size = bytes.size();
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
  cl_int status = CL_SUCCESS, err = CL_SUCCESS;
  ProgramHandle p(clCreateProgramWithBinary(device.context(), 1, &id, &size, &data, &status, &err));
  if (err != CL_SUCCESS || status != CL_SUCCESS) return {};
  if (clBuildProgram(p.get(), 1, &id, options.c_str(), nullptr, nullptr) != CL_SUCCESS) return {};
  return p;
}

}  // namespace

ProgramHandle build_source(const Device& device, const std::string& source,
                           const std::string& options) {
  const char* text = source.c_str();
  cl_int err = CL_SUCCESS;
  ProgramHandle p(clCreateProgramWithSource(device.context(), 1, &text, nullptr, &err));
  check(err, "creating a program from source", device.info());
  const cl_device_id id = device.id();
  err = clBuildProgram(p.get(), 1, &id, options.c_str(), nullptr, nullptr);
  if (err == CL_BUILD_PROGRAM_FAILURE || err == CL_INVALID_BUILD_OPTIONS)
    throw CompileError(error_name(err) + ": OpenCL C did not build on " + device.info().id() +
                       " (" + device.info().name + ") with options '" + options +
                       "'; build log:\n" + build_log(p.get(), id));
  check(err, "building a program", device.info());
  return p;
}

ProgramHandle cached_program(const Device& device, const std::string& source,
                             const std::string& options) {
  const auto key =
      KernelCacheKey::for_source(source, device.cache_device(), device.cache_driver(), options);
  ProgramHandle built;
  const std::vector<std::byte> bytes = KernelCache::instance().get_or_build(key, [&] {
    built = build_source(device, source, options);
    return binary_of(device, built.get());
  });
  if (built) return built;
  if (ProgramHandle loaded = load_binary(device, bytes, options)) return loaded;
  return build_source(device, source, options);
}

}  // namespace switchyard::opencl
