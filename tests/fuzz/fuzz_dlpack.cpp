// switchyard::from_dlpack on a DLManagedTensor whose ndim, shape, strides, dtype and
// byte_offset come from the fuzz bytes, over one fixed 256-byte buffer. A tensor the importer
// accepts must only reach inside that buffer: the harness reads every element back (ASan reports
// any read outside it) and checks that the deleter runs exactly once.
#include <dlpack/dlpack.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "fuzz_support.hpp"
#include "switchyard/array.hpp"
#include "switchyard/dlpack.hpp"
#include "switchyard/error.hpp"

namespace {

// Takes bytes from the front of the fuzz input; zeros once it runs out.
struct Bytes {
  const std::uint8_t* data;
  std::size_t size;
  template <class T>
  T take() {
    T v{};
    const std::size_t n = size < sizeof v ? size : sizeof v;
    std::memcpy(&v, data, n);
    data += n, size -= n;
    return v;
  }
};

constexpr std::size_t kBufferBytes = 256;
int deleter_calls = 0;

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  switchyard::fuzz::quiet_cpu_runtime();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Bytes in{data, size};
  // A heap buffer of exactly kBufferBytes, so ASan sees any reach past either end.
  auto* buffer = static_cast<std::uint8_t*>(std::malloc(kBufferBytes));
  const auto flags = in.take<std::uint8_t>();
  // Distinct bytes, except that a bool tensor holds 0s and 1s as DLPack producers write them
  // (FUZZ_DLPACK_RAW_BOOL=1 keeps other bytes: see crashes/fuzz_dlpack/README.md).
  static const bool raw_bool = std::getenv("FUZZ_DLPACK_RAW_BOOL") != nullptr;
  // The dtype code follows the ndim byte; 6 is kDLBool.
  const bool bool_storage = in.size > 2 && in.data[1] == 6 && !raw_bool;
  for (std::size_t i = 0; i < kBufferBytes; ++i)
    buffer[i] = static_cast<std::uint8_t>(bool_storage ? i & 1 : i);

  std::int64_t shape[8], strides[8];
  DLManagedTensor managed{};
  DLTensor& t = managed.dl_tensor;
  t.data = buffer;
  t.device = {(flags & 0x80) ? kDLCUDAHost : kDLCPU, 0};
  t.ndim = in.take<std::int8_t>() % 9;  // -8..8: the importer must reject < 0 and > kMaxRank
  t.dtype = {in.take<std::uint8_t>(), in.take<std::uint8_t>(), in.take<std::uint16_t>()};
  const int dims = t.ndim > 0 ? t.ndim : 0;
  // Small values mostly (bit 0 of flags: full 64-bit range), so real layouts are reached often.
  for (int i = 0; i < dims; ++i)
    shape[i] = (flags & 1) ? in.take<std::int64_t>() : in.take<std::int8_t>();
  for (int i = 0; i < dims; ++i)
    strides[i] = (flags & 1) ? in.take<std::int64_t>() : in.take<std::int8_t>();
  t.shape = shape;
  t.strides = (flags & 2) ? nullptr : strides;
  t.byte_offset = (flags & 1) ? in.take<std::uint64_t>() : in.take<std::uint8_t>();
  managed.manager_ctx = nullptr;
  managed.deleter = [](DLManagedTensor*) { ++deleter_calls; };

  deleter_calls = 0;
  bool imported = false;
  try {
    const switchyard::Array a = switchyard::from_dlpack(&managed);
    imported = true;
    (void)a.to_vector<double>();
  } catch (const switchyard::Error&) {
  }
  // Accepted: the array owned the tensor and released it once. Rejected: the caller keeps it.
  if (deleter_calls != (imported ? 1 : 0)) std::abort();
  std::free(buffer);
  return 0;
}
