// The CUDA libraries, loaded at run time with dlopen so that one binary runs on machines without
// an NVIDIA driver: the driver API (libcuda.so.1), NVRTC, cuBLAS and cuFFT. The CUDA headers are
// used for their types only; nothing links against libcuda or libcudart.
//
// Each library is one struct of function pointers generated from its .def file, loaded once per
// process on first use and never unloaded.
#pragma once

#include <cublas_v2.h>
#include <cuda.h>
#include <cufft.h>
#include <nvrtc.h>

#include <string>

namespace switchyard::cuda {

#define SWITCHYARD_CUDA_ENTRY(name) decltype(&::name) name = nullptr;
struct DriverApi {
#include "backends/cuda/cuda_driver_functions.def"
};
struct NvrtcApi {
#include "backends/cuda/nvrtc_functions.def"
};
struct CublasApi {
#include "backends/cuda/cublas_functions.def"
};
struct CufftApi {
#include "backends/cuda/cufft_functions.def"
};
#undef SWITCHYARD_CUDA_ENTRY

template <class Api>
struct Library {
  Api api;
  std::string unavailable_reason;  // empty when every entry point was found
  bool available() const { return unavailable_reason.empty(); }
};

// The driver after a successful cuInit(0), or why not ("libcuda.so.1 not found: ...").
const Library<DriverApi>& driver_library();
const Library<NvrtcApi>& nvrtc_library();
const Library<CublasApi>& cublas_library();
const Library<CufftApi>& cufft_library();

// The entry points of a library already known to be available.
inline const DriverApi& driver() {
  return driver_library().api;
}
inline const NvrtcApi& nvrtc() {
  return nvrtc_library().api;
}
inline const CublasApi& cublas() {
  return cublas_library().api;
}
inline const CufftApi& cufft() {
  return cufft_library().api;
}

}  // namespace switchyard::cuda
