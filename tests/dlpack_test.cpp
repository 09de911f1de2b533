// DLPack import and export: zero-copy both ways, deleter honoured exactly once.
#include <dlpack/dlpack.h>
#include <gtest/gtest.h>

#include "switchyard/switchyard.hpp"

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
  t->dl_tensor.device.device_type = kDLCUDA;
  EXPECT_THROW(from_dlpack(t), DLPackError);
  t->dl_tensor.device.device_type = kDLCPU;
  t->dl_tensor.dtype = {kDLFloat, 16, 1};
  EXPECT_THROW(from_dlpack(t), DLPackError);
  t->dl_tensor.dtype = {kDLFloat, 64, 4};
  EXPECT_THROW(from_dlpack(t), DLPackError);
  EXPECT_EQ(deletes, 0);
  t->deleter(t);
  EXPECT_EQ(deletes, 1);
  EXPECT_THROW(from_dlpack(nullptr), DLPackError);
}

}  // namespace
}  // namespace switchyard
