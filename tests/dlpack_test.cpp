// DLPack import and export: zero-copy both ways, deleter honoured exactly once.
#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <limits>

#include "switchyard/dlpack_types.hpp"
#include "switchyard/switchyard.hpp"
#include "test_support.hpp"

namespace switchyard {
namespace {

TEST(DLPack, ExportViewsTheSameMemoryAndKeepsItAlive) {
  DLManagedTensor* t = nullptr;
  {
    const Array a = Array::arange(0, 12, 1, DType::Float32).reshape({3, 4}).transpose();
    t = to_dlpack(a);
  }  // the tensor alone keeps the storage alive now
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->dl_tensor.device.device_type, kDLCPU);
  EXPECT_EQ(t->dl_tensor.ndim, 2);
  EXPECT_EQ(t->dl_tensor.shape[0], 4);
  EXPECT_EQ(t->dl_tensor.strides[0], 1);
  EXPECT_EQ(t->dl_tensor.strides[1], 4);
  EXPECT_EQ(t->dl_tensor.dtype.code, kDLFloat);
  const float* p = static_cast<const float*>(t->dl_tensor.data);
  EXPECT_EQ(p[1 * 4 + 2], 6.0f);  // element (2, 1) of the transpose is element (1, 2) of the base
  t->deleter(t);
}

TEST(DLPack, ExportOfASliceCarriesTheByteOffset) {
  const Array a = Array::arange(0, 10, 1, DType::Int64);
  DLManagedTensor* t = to_dlpack(a.slice(0, 3, std::nullopt));
  EXPECT_EQ(t->dl_tensor.byte_offset, 3 * sizeof(std::int64_t));
  const auto* base = static_cast<const std::int64_t*>(t->dl_tensor.data);
  EXPECT_EQ(base[t->dl_tensor.byte_offset / 8], 3);
  t->deleter(t);
}

struct Owner {
  std::vector<double> data;
  std::int64_t shape[2];
  std::int64_t strides[2];
  DLManagedTensor tensor{};
  int* deletes;
};

DLManagedTensor* make_tensor(int* deletes, bool with_strides) {
  auto* o = new Owner{{0, 1, 2, 3, 4, 5}, {2, 3}, {1, 2}, {}, deletes};
  o->tensor.dl_tensor = {o->data.data(),
                         {kDLCPU, 0},
                         2,
                         {kDLFloat, 64, 1},
                         o->shape,
                         with_strides ? o->strides : nullptr,
                         0};
  o->tensor.manager_ctx = o;
  o->tensor.deleter = [](DLManagedTensor* self) {
    auto* owner = static_cast<Owner*>(self->manager_ctx);
    ++*owner->deletes;
    delete owner;
  };
  return &o->tensor;
}

TEST(DLPack, ImportIsZeroCopyAndCallsTheDeleterOnce) {
  int deletes = 0;
  {
    DLManagedTensor* t = make_tensor(&deletes, true);
    double* raw = static_cast<double*>(t->dl_tensor.data);
    const Array a = from_dlpack(t);  // column-major 2x3
    EXPECT_EQ(a.shape(), (Shape{2, 3}));
    EXPECT_EQ(a.to_vector<double>(), (std::vector<double>{0, 2, 4, 1, 3, 5}));
    raw[0] = 42;  // the array sees the producer's memory
    EXPECT_EQ(a.to_vector<double>()[0], 42);
    const Array view = a.transpose();
    EXPECT_EQ(deletes, 0);
  }
  EXPECT_EQ(deletes, 1);
}

TEST(DLPack, RoundTripThroughExportAndImport) {
  const Array a = Array::uniform({5, 7}, 3);
  const Array b = from_dlpack(to_dlpack(a));
  EXPECT_EQ(b.buffer() == a.buffer(), false);             // a new owner...
  EXPECT_EQ(b.to_vector<float>(), a.to_vector<float>());  // ...of the same bytes
}

TEST(DLPack, RejectsForeignDevicesAndTypesLeavingTheTensorToTheCaller) {
  int deletes = 0;
  DLManagedTensor* t = make_tensor(&deletes, false);
  t->dl_tensor.device.device_type = kDLVulkan;  // kDLCUDA is imported where a GPU is present
  testing_support::expect_mentions(
      testing_support::error_message<DLPackError>([&] { (void)from_dlpack(t); }),
      {"kDLVulkan (7)", "expected host memory (kDLCPU", "kDLCUDA"});
  t->dl_tensor.device.device_type = kDLCPU;
  t->dl_tensor.dtype = {kDLFloat, 16, 1};
  EXPECT_THROW(from_dlpack(t), DLPackError);
  t->dl_tensor.dtype = {kDLFloat, 64, 4};
  EXPECT_THROW(from_dlpack(t), DLPackError);
  EXPECT_EQ(deletes, 0);
  t->deleter(t);
  EXPECT_EQ(deletes, 1);
  EXPECT_THROW(from_dlpack(static_cast<DLManagedTensor*>(nullptr)), DLPackError);
}

TEST(DLPack, ATensorImportedTwiceIsADLPackErrorAndIsDeletedOnce) {
  int deletes = 0;
  DLManagedTensor* t = make_tensor(&deletes, true);
  {
    const Array a = from_dlpack(t);
    try {
      from_dlpack(t);
      ADD_FAILURE() << "a second import of a live tensor was accepted";
    } catch (const DLPackError& e) {
      EXPECT_NE(std::string(e.what()).find("already imported"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("expected"), std::string::npos) << e.what();
    }
    EXPECT_THROW(from_dlpack(t), DLPackError);
    EXPECT_EQ(deletes, 0);
    EXPECT_EQ(a.to_vector<double>(), (std::vector<double>{0, 2, 4, 1, 3, 5}));  // still intact
  }
  EXPECT_EQ(deletes, 1);
}

TEST(DLPack, AnExportedTensorImportedTwiceRunsItsDeleterOnce) {
  const Array source = Array::arange(0, 6, 1, DType::Float32);
  DLManagedTensor* t = to_dlpack(source);
  {
    const Array a = from_dlpack(t);
    EXPECT_THROW(from_dlpack(t), DLPackError);
    EXPECT_EQ(a.to_vector<float>(), source.to_vector<float>());
  }
  // The first import's deleter released the export; a new tensor imports again.
  const Array b = from_dlpack(to_dlpack(source));
  EXPECT_EQ(b.size(), 6);
}

TEST(DLPack, ARejectedTensorStaysTheCallersAndImportsOnceFixed) {
  int deletes = 0;
  DLManagedTensor* t = make_tensor(&deletes, true);
  const std::int64_t good[2] = {1, 2};
  const std::int64_t wrapping[2] = {std::int64_t{1} << 62, std::int64_t{1} << 62};
  t->dl_tensor.shape[0] = 2, t->dl_tensor.shape[1] = 2;
  t->dl_tensor.strides = const_cast<std::int64_t*>(wrapping);
  // Reaches of 2^62 elements on both axes summed to 2^63, which wrapped negative before.
  EXPECT_THROW(from_dlpack(t), IndexError);
  t->dl_tensor.strides = const_cast<std::int64_t*>(good);
  t->dl_tensor.byte_offset = std::uint64_t{1} << 63;
  EXPECT_THROW(from_dlpack(t), IndexError);
  t->dl_tensor.byte_offset = std::numeric_limits<std::uint64_t>::max() - 7;
  EXPECT_THROW(from_dlpack(t), IndexError);
  t->dl_tensor.byte_offset = 0;
  t->dl_tensor.shape[0] = -2;
  EXPECT_THROW(from_dlpack(t), ValueError);
  t->dl_tensor.shape[0] = 2;
  EXPECT_EQ(deletes, 0);
  {
    const Array a = from_dlpack(t);
    EXPECT_EQ(a.to_vector<double>(), (std::vector<double>{0, 2, 1, 3}));
  }
  EXPECT_EQ(deletes, 1);
}

TEST(DLPack, BoolBytesOtherThanZeroOrOneAreRejectedOnlyWhereTheViewReadsThem) {
  // Six bytes seen as bool: element 2 holds 2. A view of the first two elements never reads it.
  std::vector<std::uint8_t> bytes = {1, 0, 2, 1, 0, 1};
  std::int64_t shape[1] = {6}, strides[1] = {1};
  DLManagedTensor t{};
  t.dl_tensor = {bytes.data(), {kDLCPU, 0}, 1, {6 /* kDLBool */, 8, 1}, shape, strides, 0};
  testing_support::expect_mentions(
      testing_support::error_message<DLPackError>([&] { (void)from_dlpack(&t); }),
      {"byte 2", "element 2", "expected 0 or 1"});
  shape[0] = 2;
  const Array ok = from_dlpack(&t);  // no deleter: the bytes stay the test's
  EXPECT_EQ(ok.dtype(), DType::Bool);
  EXPECT_EQ(sum(ok.astype(DType::Int32)).item<std::int64_t>(), 1);
}

TEST(DLPack, NegativeStridesAndEmptyTensorsImport) {
  int deletes = 0;
  DLManagedTensor* t = make_tensor(&deletes, true);
  const std::int64_t reversed[1] = {-1};
  t->dl_tensor.ndim = 1;
  t->dl_tensor.shape[0] = 6;
  t->dl_tensor.strides = const_cast<std::int64_t*>(reversed);
  t->dl_tensor.byte_offset = 5 * sizeof(double);  // the first element is the last in memory
  EXPECT_EQ(from_dlpack(t).to_vector<double>(), (std::vector<double>{5, 4, 3, 2, 1, 0}));
  EXPECT_EQ(deletes, 1);

  DLManagedTensor* e = make_tensor(&deletes, false);
  e->dl_tensor.data = nullptr;
  e->dl_tensor.shape[0] = 0;
  const Array empty = from_dlpack(e);
  EXPECT_EQ(empty.shape(), (Shape{0, 3}));
}

// A stride on an axis of extent 1 reaches nothing, so a producer may write any value there (even
// past half the int64 range): the parts of such a complex tensor are still its parts.
TEST(DLPack, AnyStrideOnAnAxisOfExtentOneImports) {
  std::complex<float> data[3] = {{1, -1}, {2, -2}, {3, -3}};
  std::int64_t shape[2] = {1, 3};
  std::int64_t strides[2] = {std::numeric_limits<std::int64_t>::max() / 2 + 7, 1};
  DLManagedTensor t{};
  t.dl_tensor = {data, {kDLCPU, 0}, 2, {kDLComplex, 64, 1}, shape, strides, 0};
  t.deleter = [](DLManagedTensor*) {};
  const Array a = from_dlpack(&t);
  EXPECT_EQ(real(a).to_vector<float>(), (std::vector<float>{1, 2, 3}));
  EXPECT_EQ(imag(a).to_vector<float>(), (std::vector<float>{-1, -2, -3}));
}

}  // namespace
}  // namespace switchyard
