// DLPack 1.x (DLManagedTensorVersioned): version and flags, read-only imports, the version check,
// and exports of the layouts that break naive code (pending, strided, reversed, 0-d, empty).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/buffer.hpp"
#include "switchyard/dlpack_types.hpp"
#include "switchyard/switchyard.hpp"
#include "test_support.hpp"

namespace switchyard {
namespace {

using testing_support::error_message;
using testing_support::expect_mentions;

// A producer's versioned tensor over memory the test keeps (so it can be inspected after the
// deleter ran); the deleter counts its calls.
struct VersionedOwner {
  std::int64_t shape[1];
  DLManagedTensorVersioned tensor{};
  int* deletes;
};

DLManagedTensorVersioned* make_versioned(std::vector<double>& data, int* deletes,
                                         std::uint64_t flags = 0) {
  auto* o = new VersionedOwner{{static_cast<std::int64_t>(data.size())}, {}, deletes};
  o->tensor.version = {1, 0};
  o->tensor.flags = flags;
  o->tensor.dl_tensor = {data.data(), {kDLCPU, 0}, 1, {kDLFloat, 64, 1}, o->shape, nullptr, 0};
  o->tensor.manager_ctx = o;
  o->tensor.deleter = [](DLManagedTensorVersioned* self) {
    auto* owner = static_cast<VersionedOwner*>(self->manager_ctx);
    ++*owner->deletes;
    delete owner;
  };
  return &o->tensor;
}

// The element at DLPack index `index` of a host tensor.
template <class T>
T element(const DLTensor& t, std::initializer_list<std::int64_t> index) {
  std::int64_t at = 0, d = 0;
  for (const std::int64_t i : index) at += i * t.strides[d++];
  return static_cast<const T*>(t.data)[static_cast<std::int64_t>(t.byte_offset / sizeof(T)) + at];
}

TEST(DLPackVersioned, ExportCarriesVersionOneZeroAndNoFlags) {
  const Array a = Array::arange(0, 6, 1, DType::Float32);
  DLManagedTensorVersioned* t = to_dlpack_versioned(a);
  EXPECT_EQ(t->version.major, 1u);
  EXPECT_EQ(t->version.minor, 0u);
  EXPECT_EQ(t->flags, 0u);
  EXPECT_EQ(t->dl_tensor.device.device_type, kDLCPU);
  EXPECT_EQ(element<float>(t->dl_tensor, {4}), 4.0f);
  t->deleter(t);
}

TEST(DLPackVersioned, RoundTripSharesTheDataPointerAndWritesAfterMarkModified) {
  const Array a = Array::arange(0, 8, 1, DType::Float64);
  DLManagedTensorVersioned* t = to_dlpack_versioned(a);
  double* data = static_cast<double*>(t->dl_tensor.data);
  const Array b = from_dlpack(t);
  DLManagedTensorVersioned* again = to_dlpack_versioned(b);
  EXPECT_EQ(again->dl_tensor.data, data);  // one memory: no copy either way
  again->deleter(again);

  data[3] = 42;  // a producer's write, as through the first export
  a.mark_modified();
  b.mark_modified();
  EXPECT_EQ(a.to_vector<double>()[3], 42);
  EXPECT_EQ(b.to_vector<double>()[3], 42);

  b.slice(0, 5, 6).fill(7.0);  // Switchyard's write may stay on a device: export brings it home
  DLManagedTensorVersioned* home = to_dlpack_versioned(b);
  EXPECT_EQ(home->dl_tensor.data, data);
  home->deleter(home);
  a.mark_modified();
  EXPECT_EQ(a.to_vector<double>(), (std::vector<double>{0, 1, 2, 42, 4, 7, 6, 7}));
}

TEST(DLPackVersioned, ACopiedExportIsFlaggedAndSharesNothing) {
  const Array a = Array::arange(0, 4, 1, DType::Int64);
  DLManagedTensorVersioned* shared = to_dlpack_versioned(a);
  DLManagedTensorVersioned* copied = to_dlpack_versioned(a, kDLPackHost, /*copy=*/true);
  EXPECT_EQ(shared->flags & DLPACK_FLAG_BITMASK_IS_COPIED, 0u);
  EXPECT_EQ(copied->flags, DLPACK_FLAG_BITMASK_IS_COPIED);
  EXPECT_NE(copied->dl_tensor.data, shared->dl_tensor.data);
  static_cast<std::int64_t*>(copied->dl_tensor.data)[0] = 9;
  a.mark_modified();
  EXPECT_EQ(a.to_vector<std::int64_t>()[0], 0);
  shared->deleter(shared);
  copied->deleter(copied);
}

TEST(DLPackVersioned, AReadOnlyTensorImportsAsACopyAndIsReleasedAtOnce) {
  std::vector<double> data = {1, 2, 3};
  int deletes = 0;
  const Array a = from_dlpack(make_versioned(data, &deletes, DLPACK_FLAG_BITMASK_READ_ONLY));
  EXPECT_EQ(deletes, 1);  // the copy no longer needs the producer's memory
  EXPECT_EQ(a.to_vector<double>(), data);
  EXPECT_NE(a.buffer()->host_data(), reinterpret_cast<std::byte*>(data.data()));
  a.fill(5.0);
  EXPECT_EQ(a.to_vector<double>(), (std::vector<double>{5, 5, 5}));
  EXPECT_EQ(data, (std::vector<double>{1, 2, 3}));  // never written
}

TEST(DLPackVersioned, AWritableTensorImportsInPlaceAndIsDeletedOnce) {
  std::vector<double> data = {1, 2, 3};
  int deletes = 0;
  {
    const Array a = from_dlpack(make_versioned(data, &deletes));
    EXPECT_EQ(a.buffer()->host_data(), reinterpret_cast<std::byte*>(data.data()));
    const Array view = a.slice(0, 1, std::nullopt);
    EXPECT_EQ(deletes, 0);
  }
  EXPECT_EQ(deletes, 1);
}

TEST(DLPackVersioned, MajorVersionTwoIsRejectedWithoutCallingTheDeleter) {
  std::vector<double> data = {1, 2};
  int deletes = 0;
  DLManagedTensorVersioned* t = make_versioned(data, &deletes);
  t->version = {2, 0};
  expect_mentions(error_message<DLPackError>([&] { (void)from_dlpack(t); }),
                  {"version 2.0", "expected major version 1", "deleter not called"});
  EXPECT_EQ(deletes, 0);
  t->version = {1, 7};  // a later minor version keeps the layout
  { EXPECT_EQ(from_dlpack(t).to_vector<double>(), data); }
  EXPECT_EQ(deletes, 1);
}

TEST(DLPackVersioned, ATensorImportedTwiceIsADLPackErrorAndIsDeletedOnce) {
  std::vector<double> data = {1, 2};
  int deletes = 0;
  DLManagedTensorVersioned* t = make_versioned(data, &deletes);
  {
    const Array a = from_dlpack(t);
    expect_mentions(error_message<DLPackError>([&] { (void)from_dlpack(t); }),
                    {"already imported", "expected"});
    EXPECT_EQ(deletes, 0);
  }
  EXPECT_EQ(deletes, 1);
  DLManagedTensorVersioned* null = nullptr;
  EXPECT_THROW(from_dlpack(null), DLPackError);
}

TEST(DLPackVersioned, HostAddressableCudaMemoryImportsAsHostMemory) {
  std::vector<double> data = {1, 2, 3};
  for (const DLDeviceType type : {kDLCUDAHost, kDLCUDAManaged}) {
    int deletes = 0;
    DLManagedTensorVersioned* t = make_versioned(data, &deletes);
    t->dl_tensor.device = {type, 0};
    const Array a = from_dlpack(t);
    EXPECT_EQ(a.buffer()->host_data(), reinterpret_cast<std::byte*>(data.data()));
    EXPECT_EQ(dlpack_device(a), kDLPackHost);
  }
}

TEST(DLPackVersioned, OtherDevicesAreRejectedNamingWhatIsSupported) {
  const Array a = Array::arange(0, 3, 1, DType::Float32);
  expect_mentions(error_message<DLPackError>([&] {
                    (void)to_dlpack_versioned(a, {kDLOpenCL, 0});
                  }),
                  {"kDLOpenCL (4)", "expected the host (kDLCPU) or a CUDA device (kDLCUDA)"});
  std::vector<double> data = {1};
  int deletes = 0;
  DLManagedTensorVersioned* t = make_versioned(data, &deletes);
  t->dl_tensor.device = {kDLROCM, 0};
  expect_mentions(error_message<DLPackError>([&] { (void)from_dlpack(t); }),
                  {"kDLROCM (10)", "kDLCPU", "kDLCUDA"});
  EXPECT_EQ(deletes, 0);
  t->deleter(t);
}

TEST(DLPackVersioned, APendingArrayIsComputedForExport) {
  const Array x = Array::arange(0, 5, 1, DType::Float64);
  const Array y = x * 2.0 + 1.0;
  ASSERT_TRUE(y.pending());
  DLManagedTensorVersioned* t = to_dlpack_versioned(y);
  for (std::int64_t i = 0; i < 5; ++i)
    EXPECT_EQ(element<double>(t->dl_tensor, {i}), 2.0 * i + 1) << i;
  t->deleter(t);
  EXPECT_EQ(dlpack_device(y), kDLPackHost);
}

TEST(DLPackVersioned, StridedAndReversedViewsExportWithTheirStrides) {
  const Array a = Array::arange(0, 12, 1, DType::Int32).reshape({3, 4});
  const Array reversed = a.slice(1, std::nullopt, std::nullopt, -1);  // columns 3, 2, 1, 0
  DLManagedTensorVersioned* t = to_dlpack_versioned(reversed);
  EXPECT_EQ(t->dl_tensor.strides[0], 4);
  EXPECT_EQ(t->dl_tensor.strides[1], -1);
  EXPECT_EQ(t->dl_tensor.byte_offset, 3 * sizeof(std::int32_t));
  EXPECT_EQ(element<std::int32_t>(t->dl_tensor, {1, 0}), 7);
  EXPECT_EQ(element<std::int32_t>(t->dl_tensor, {2, 3}), 8);
  const Array back = from_dlpack(t);
  EXPECT_EQ(back.to_vector<std::int32_t>(), reversed.to_vector<std::int32_t>());

  const Array stepped = a.slice(0, 0, std::nullopt, 2).slice(1, 1, std::nullopt, 2);  // rows 0, 2
  DLManagedTensorVersioned* s = to_dlpack_versioned(stepped);
  EXPECT_EQ(s->dl_tensor.shape[0], 2);
  EXPECT_EQ(s->dl_tensor.shape[1], 2);
  EXPECT_EQ(s->dl_tensor.strides[0], 8);
  EXPECT_EQ(s->dl_tensor.strides[1], 2);
  EXPECT_EQ(from_dlpack(s).to_vector<std::int32_t>(), (std::vector<std::int32_t>{1, 3, 9, 11}));
}

TEST(DLPackVersioned, ZeroDimensionalAndEmptyArraysRoundTrip) {
  const Array scalar = Array::full({}, 2.5, DType::Float64);
  DLManagedTensorVersioned* t = to_dlpack_versioned(scalar);
  EXPECT_EQ(t->dl_tensor.ndim, 0);
  EXPECT_EQ(*static_cast<const double*>(t->dl_tensor.data), 2.5);
  const Array back = from_dlpack(t);
  EXPECT_EQ(back.shape(), Shape{});
  EXPECT_EQ(back.item<double>(), 2.5);

  const Array empty = Array::zeros({0, 3}, DType::Complex64);
  DLManagedTensorVersioned* e = to_dlpack_versioned(empty);
  EXPECT_EQ(e->dl_tensor.ndim, 2);
  EXPECT_EQ(e->dl_tensor.shape[0], 0);
  EXPECT_EQ(e->dl_tensor.dtype.code, kDLComplex);
  const Array empty_back = from_dlpack(e);
  EXPECT_EQ(empty_back.shape(), (Shape{0, 3}));
  EXPECT_EQ(empty_back.size(), 0);
}

}  // namespace
}  // namespace switchyard
