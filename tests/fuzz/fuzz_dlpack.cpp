// switchyard::from_dlpack on a DLManagedTensor whose ndim, shape, strides, dtype and
// byte_offset come from the fuzz bytes, over one fixed 256-byte buffer. The importer's own
// arithmetic (reach, offsets, sizes; UBSan reports any overflow) runs on every input. DLPack
// carries no buffer size, so only a tensor that really lies inside the buffer (as computed here
// in 128-bit arithmetic) is read back (or, for bool, whose elements import reads, imported): then
// every element read must stay inside it (ASan). In every case the deleter runs exactly once when
// the import succeeds and never when it fails.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "fuzz_support.hpp"
#include "switchyard/array.hpp"
#include "switchyard/dlpack.hpp"
#include "switchyard/dlpack_types.hpp"
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

// Whether the tensor's elements, at most 4096, all lie in [buffer, buffer + kBufferBytes).
bool inside_buffer(const DLTensor& t, std::size_t itemsize) {
  __int128 lo = static_cast<__int128>(t.byte_offset), hi = lo;
  // Zero strides repeat one element any number of times: a count cap keeps reads small.
  __int128 count = 1;
  for (int i = 0; i < t.ndim; ++i) {
    if (t.shape[i] < 0) return false;
    if (t.shape[i] == 0) return true;  // no element is read
    count = std::min(count * t.shape[i], __int128{1} << 40);
  }
  if (count > 4096) return false;
  for (int i = 0; i < t.ndim; ++i) {
    __int128 stride = 1;
    if (t.strides) {
      stride = t.strides[i];
    } else {
      for (int k = i + 1; k < t.ndim; ++k)  // clamped: past 2^32 it is rejected below
        stride = std::min(stride * t.shape[k], __int128{1} << 40);
    }
    if (t.shape[i] == 1) continue;  // any stride: the dimension adds no reach
    // Past these the tensor cannot fit in 256 bytes (and the product below stays in range).
    if (t.shape[i] > (std::int64_t{1} << 32) || stride > (__int128{1} << 32) ||
        stride < -(__int128{1} << 32))
      return false;
    const __int128 reach =
        (static_cast<__int128>(t.shape[i]) - 1) * stride * static_cast<__int128>(itemsize);
    (reach < 0 ? lo : hi) += reach;
  }
  return lo >= 0 && hi + static_cast<__int128>(itemsize) <= static_cast<__int128>(kBufferBytes);
}

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
  // Distinct bytes, except that a bool tensor mostly holds 0s and 1s as DLPack producers write
  // them, so that its reads are reached; bit 6 of flags keeps other bytes, which import must
  // refuse. The dtype code follows the ndim byte; 6 is kDLBool.
  const bool bool_storage = in.size > 2 && in.data[1] == 6 && !(flags & 0x40);
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
    const bool readable =
        t.ndim >= 0 && t.dtype.lanes == 1 && inside_buffer(t, (t.dtype.bits + 7) / 8);
    // Import reads a bool tensor's elements (to refuse bytes other than 0 and 1), so one that
    // claims memory outside the buffer is not handed over.
    const bool is_bool = t.dtype.code == 6 && t.dtype.bits == 8;
    if (is_bool && !readable) {
      std::free(buffer);
      return 0;
    }
    const switchyard::Array a = switchyard::from_dlpack(&managed);
    imported = true;
    if (readable) (void)a.to_vector<double>();
  } catch (const switchyard::Error&) {
  }
  // Accepted: the array owned the tensor and released it once. Rejected: the caller keeps it.
  if (deleter_calls != (imported ? 1 : 0)) std::abort();
  std::free(buffer);
  return 0;
}
