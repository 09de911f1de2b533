#include "backends/cuda/cuda_api.hpp"

#include <dlfcn.h>

#include <vector>

namespace switchyard::cuda {
namespace {

// Two steps so that a name cuda.h defines as a macro expands to its versioned symbol first.
#define SWITCHYARD_CUDA_SYMBOL(name) SWITCHYARD_CUDA_STRINGIFY(name)
#define SWITCHYARD_CUDA_STRINGIFY(name) #name

// Calls f(symbol, pointer member) for every entry in the library's .def file.
template <class F>
void for_each_entry(DriverApi& api, F&& f) {
#define SWITCHYARD_CUDA_ENTRY(name) f(SWITCHYARD_CUDA_SYMBOL(name), api.name);
#include "backends/cuda/cuda_driver_functions.def"
#undef SWITCHYARD_CUDA_ENTRY
}

template <class F>
void for_each_entry(NvrtcApi& api, F&& f) {
#define SWITCHYARD_CUDA_ENTRY(name) f(SWITCHYARD_CUDA_SYMBOL(name), api.name);
#include "backends/cuda/nvrtc_functions.def"
#undef SWITCHYARD_CUDA_ENTRY
}

template <class F>
void for_each_entry(CublasApi& api, F&& f) {
#define SWITCHYARD_CUDA_ENTRY(name) f(SWITCHYARD_CUDA_SYMBOL(name), api.name);
#include "backends/cuda/cublas_functions.def"
#undef SWITCHYARD_CUDA_ENTRY
}

template <class F>
void for_each_entry(CufftApi& api, F&& f) {
#define SWITCHYARD_CUDA_ENTRY(name) f(SWITCHYARD_CUDA_SYMBOL(name), api.name);
#include "backends/cuda/cufft_functions.def"
#undef SWITCHYARD_CUDA_ENTRY
}

// The first of `candidates` that dlopen finds, with every entry point resolved; `missing_hint`
// says what the user can do when none is found.
template <class Api>
Library<Api> load(const std::vector<std::string>& candidates, const std::string& missing_hint) {
  Library<Api> library;
  void* handle = nullptr;
  std::string first_error;
  for (const std::string& name : candidates) {
    handle = ::dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle) break;
    if (first_error.empty()) first_error = ::dlerror();
  }
  if (!handle) {
    library.unavailable_reason =
        candidates.front() + " not found: " + missing_hint + " (" + first_error + ")";
    return library;
  }
  std::string missing;
  for_each_entry(library.api, [&](const char* symbol, auto& pointer) {
    pointer = reinterpret_cast<std::remove_reference_t<decltype(pointer)>>(::dlsym(handle, symbol));
    if (!pointer) missing += (missing.empty() ? "" : ", ") + std::string(symbol);
  });
  if (!missing.empty())
    library.unavailable_reason =
        candidates.front() + " lacks " + missing + ": it is older than the CUDA " +
        std::to_string(CUDA_VERSION / 1000) + " headers Switchyard was built with; update it";
  return library;
}

// The library by its soname for the CUDA major version we were built against, then the
// unversioned development name; each on the loader's search path first, then in the toolkit
// directory found at build time (so a toolkit outside LD_LIBRARY_PATH still works).
std::vector<std::string> toolkit_candidates(const std::string& stem, int major) {
  std::vector<std::string> names = {stem + ".so." + std::to_string(major), stem + ".so"};
#ifdef SWITCHYARD_CUDA_LIBRARY_DIR
  for (std::size_t i = 0, n = names.size(); i < n; ++i)
    names.push_back(std::string(SWITCHYARD_CUDA_LIBRARY_DIR) + "/" + names[i]);
#endif
  return names;
}

Library<DriverApi> load_driver() {
  // Only the driver's soname: the toolkit's stubs/libcuda.so answers every call with
  // CUDA_ERROR_STUB_LIBRARY and must never be picked up.
  auto library = load<DriverApi>({"libcuda.so.1"}, "no NVIDIA driver on this machine");
  if (!library.available()) return library;
  if (const CUresult r = library.api.cuInit(0); r != CUDA_SUCCESS) {
    const char* name = nullptr;
    const char* text = nullptr;
    library.api.cuGetErrorName(r, &name);
    library.api.cuGetErrorString(r, &text);
    library.unavailable_reason = std::string("cuInit failed: ") + (name ? name : "unknown error") +
                                 " (" + (text ? text : "no description") + ")";
  }
  return library;
}

}  // namespace

const Library<DriverApi>& driver_library() {
  static const Library<DriverApi> library = load_driver();
  return library;
}

const Library<NvrtcApi>& nvrtc_library() {
  static const Library<NvrtcApi> library =
      load<NvrtcApi>(toolkit_candidates("libnvrtc", CUDA_VERSION / 1000),
                     "install the CUDA toolkit's NVRTC or add its lib64 to LD_LIBRARY_PATH");
  return library;
}

const Library<CublasApi>& cublas_library() {
  static const Library<CublasApi> library =
      load<CublasApi>(toolkit_candidates("libcublas", CUBLAS_VER_MAJOR),
                      "install the CUDA toolkit's cuBLAS or add its lib64 to LD_LIBRARY_PATH");
  return library;
}

const Library<CufftApi>& cufft_library() {
  static const Library<CufftApi> library =
      load<CufftApi>(toolkit_candidates("libcufft", CUFFT_VER_MAJOR),
                     "install the CUDA toolkit's cuFFT or add its lib64 to LD_LIBRARY_PATH");
  return library;
}

}  // namespace switchyard::cuda
