#include "backends/cuda/cuda_compiler.hpp"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <sstream>

#include "backends/cuda/cuda_api.hpp"
#include "backends/cuda/cuda_error.hpp"
#include "switchyard/error.hpp"

namespace switchyard::cuda {
namespace {

void require_nvrtc() {
  if (!nvrtc_library().available())
    throw CompileError("cannot compile CUDA kernels: " + nvrtc_library().unavailable_reason);
}

std::vector<int> supported_architectures() {
  int count = 0;
  check(nvrtc().nvrtcGetNumSupportedArchs(&count), "nvrtcGetNumSupportedArchs");
  std::vector<int> archs(static_cast<std::size_t>(count));
  check(nvrtc().nvrtcGetSupportedArchs(archs.data()), "nvrtcGetSupportedArchs");
  std::sort(archs.begin(), archs.end());
  return archs;
}

std::string numbered(const std::string& source) {
  std::istringstream in(source);
  std::string out, line;
  for (int n = 1; std::getline(in, line); ++n) {
    char prefix[16];
    std::snprintf(prefix, sizeof prefix, "%4d  ", n);
    out += prefix + line + "\n";
  }
  return out;
}

std::string program_log(nvrtcProgram program) {
  std::size_t size = 0;
  check(nvrtc().nvrtcGetProgramLogSize(program, &size), "nvrtcGetProgramLogSize");
  std::string log(size, '\0');
  check(nvrtc().nvrtcGetProgramLog(program, log.data()), "nvrtcGetProgramLog");
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log;
}

std::vector<std::byte> image(nvrtcProgram program, bool cubin) {
  std::size_t size = 0;
  std::vector<std::byte> bytes;
  if (cubin) {
    check(nvrtc().nvrtcGetCUBINSize(program, &size), "nvrtcGetCUBINSize");
    bytes.resize(size);
    check(nvrtc().nvrtcGetCUBIN(program, reinterpret_cast<char*>(bytes.data())), "nvrtcGetCUBIN");
  } else {
    check(nvrtc().nvrtcGetPTXSize(program, &size), "nvrtcGetPTXSize");  // counts the NUL
    bytes.resize(size);
    check(nvrtc().nvrtcGetPTX(program, reinterpret_cast<char*>(bytes.data())), "nvrtcGetPTX");
  }
  return bytes;
}

}  // namespace

std::string CompileTarget::option() const {
  return std::string("--gpu-architecture=") + (cubin ? "sm_" : "compute_") +
         std::to_string(architecture);
}

CompileTarget compile_target(int compute_capability) {
  require_nvrtc();
  const std::vector<int> archs = supported_architectures();
  if (std::find(archs.begin(), archs.end(), compute_capability) != archs.end())
    return {compute_capability, true};
  if (archs.empty() || archs.front() > compute_capability)
    throw CompileError("NVRTC (" + nvrtc_version() + ") cannot build for compute capability " +
                       std::to_string(compute_capability / 10) + "." +
                       std::to_string(compute_capability % 10) +
                       ": the GPU is older than every architecture it supports");
  // The newest architecture older than the GPU; PTX for it runs on the GPU after the driver's JIT.
  const auto older = std::lower_bound(archs.begin(), archs.end(), compute_capability) - 1;
  return {*older, false};
}

std::string nvrtc_version() {
  require_nvrtc();
  int major = 0, minor = 0;
  check(nvrtc().nvrtcVersion(&major, &minor), "nvrtcVersion");
  return "nvrtc " + std::to_string(major) + "." + std::to_string(minor);
}

std::vector<std::byte> compile(const std::string& source, const CompileTarget& target) {
  require_nvrtc();
  nvrtcProgram raw = nullptr;
  check(
      nvrtc().nvrtcCreateProgram(&raw, source.c_str(), "switchyard_kernel.cu", 0, nullptr, nullptr),
      "nvrtcCreateProgram");
  const std::unique_ptr<_nvrtcProgram, void (*)(nvrtcProgram)> program(
      raw, [](nvrtcProgram p) { nvrtc().nvrtcDestroyProgram(&p); });
  const std::string arch = target.option();
  const char* options[] = {arch.c_str()};
  const nvrtcResult result = nvrtc().nvrtcCompileProgram(raw, 1, options);
  if (result != NVRTC_SUCCESS)
    throw CompileError("NVRTC could not compile a generated kernel for " + arch + " (" +
                       nvrtc().nvrtcGetErrorString(result) + "):\n" + program_log(raw) +
                       "\nsource:\n" + numbered(source) +
                       "This is a bug in Switchyard's code generator; please report it with "
                       "this message.");
  return image(raw, target.cubin);
}

std::string build_identity(const std::string& device_name, int compute_capability) {
  return device_name + " sm_" + std::to_string(compute_capability);
}

std::string build_versions(const std::string& driver_version) {
  return driver_version + " " + nvrtc_version();
}

}  // namespace switchyard::cuda
