// DLPack with CUDA device memory: exports to a CUDA device, imports used in place there, and the
// errors where this process has no CUDA device. Tests that need a GPU skip without one.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "backends/registry.hpp"
#include "switchyard/dlpack_types.hpp"
#include "switchyard/switchyard.hpp"
#include "test_support.hpp"

namespace switchyard {
namespace {

using testing_support::error_message;
using testing_support::expect_mentions;

// The process's first CUDA device, or null.
Device* first_cuda_device() {
  for (Device* device : Registry::instance().devices())
    if (device->info().backend == "cuda") return device;
  return nullptr;
}

// Why there is no CUDA device, for skip messages.
std::string why_no_cuda() {
  for (const BackendStatus& status : Registry::instance().backends())
    if (status.backend->name() == "cuda")
      return status.reason.empty() ? "no CUDA device" : status.reason;
  return "this build has no CUDA backend";
}

// A producer's CUDA tensor over device memory the test allocated; the deleter frees it and
// counts its calls.
struct CudaOwner {
  Device* device;
  DeviceMemory memory;
  std::int64_t shape[1];
  DLManagedTensorVersioned tensor{};
  int* deletes;
};

DLManagedTensorVersioned* make_cuda_tensor(Device& device, const std::vector<float>& values,
                                           int* deletes) {
  const std::size_t bytes = values.size() * sizeof(float);
  auto* o = new CudaOwner{
      &device, device.allocate(bytes), {static_cast<std::int64_t>(values.size())}, {}, deletes};
  device.copy_from_host(o->memory, 0, values.data(), bytes);
  o->tensor.version = {1, 0};
  o->tensor.dl_tensor = {
      o->memory.handle, {kDLCUDA, device.info().index}, 1, {kDLFloat, 32, 1}, o->shape, nullptr, 0};
  o->tensor.manager_ctx = o;
  o->tensor.deleter = [](DLManagedTensorVersioned* self) {
    auto* owner = static_cast<CudaOwner*>(self->manager_ctx);
    ++*owner->deletes;
    owner->device->free(owner->memory);
    delete owner;
  };
  return &o->tensor;
}

std::vector<float> read_back(Device& device, const DLTensor& t, std::size_t count) {
  std::vector<float> out(count);
  device.copy_to_host(out.data(), {t.data, t.byte_offset + count * sizeof(float)}, t.byte_offset,
                      count * sizeof(float));
  return out;
}

TEST(DLPackCuda, WithoutACudaDeviceBothDirectionsSayWhy) {
  if (first_cuda_device()) GTEST_SKIP() << "a CUDA device is present";
  const std::string why = why_no_cuda();
  const Array a = Array::arange(0, 4, 1, DType::Float32);
  expect_mentions(error_message<DLPackError>([&] { (void)to_dlpack(a, dlpack_cuda(0)); }),
                  {"to_dlpack on CUDA device 0", why.c_str(), "expected a CUDA device"});
  std::vector<float> host = {1, 2};
  std::int64_t shape[1] = {2};
  int deletes = 0;
  DLManagedTensor t{};
  t.dl_tensor = {host.data(), {kDLCUDA, 0}, 1, {kDLFloat, 32, 1}, shape, nullptr, 0};
  t.manager_ctx = &deletes;
  t.deleter = [](DLManagedTensor* self) { ++*static_cast<int*>(self->manager_ctx); };
  expect_mentions(error_message<DLPackError>([&] { (void)from_dlpack(&t); }),
                  {"from_dlpack on CUDA device 0", why.c_str()});
  EXPECT_EQ(deletes, 0);
}

class DLPackCudaDevice : public ::testing::Test {
 protected:
  void SetUp() override {
    gpu_ = first_cuda_device();
    if (!gpu_) GTEST_SKIP() << "no CUDA device: " << why_no_cuda();
  }
  Device* gpu_ = nullptr;
};

TEST_F(DLPackCudaDevice, ExportBringsTheDataToTheDeviceAndImportUsesItInPlace) {
  const Array a = Array::arange(0, 10, 1, DType::Float32);
  const DLPackDevice cuda = dlpack_cuda(gpu_->info().index);
  DLManagedTensorVersioned* t = to_dlpack_versioned(a, cuda);
  EXPECT_EQ(t->dl_tensor.device.device_type, kDLCUDA);
  EXPECT_EQ(t->dl_tensor.device.device_id, gpu_->info().index);
  EXPECT_EQ(t->flags, 0u);
  EXPECT_EQ(read_back(*gpu_, t->dl_tensor, 10), a.to_vector<float>());
  void* data = t->dl_tensor.data;

  const Array b = from_dlpack(t);
  EXPECT_EQ(b.locations(), std::vector<std::string>{gpu_->info().id()});
  EXPECT_EQ(dlpack_device(b), cuda);
  DLManagedTensorVersioned* again = to_dlpack_versioned(b, cuda);
  EXPECT_EQ(again->dl_tensor.data, data);  // the same device memory, no copy
  again->deleter(again);
  EXPECT_EQ(b.to_vector<float>(), a.to_vector<float>());
  EXPECT_EQ(sum(b).item<double>(), 45.0);
}

TEST_F(DLPackCudaDevice, WritesThroughACudaExportAreSeenAfterMarkModified) {
  const Array a = Array::zeros({4}, DType::Float32);
  const DLPackDevice cuda = dlpack_cuda(gpu_->info().index);
  DLManagedTensor* t = to_dlpack(a, cuda);
  const std::vector<float> written = {1, 2, 3, 4};
  gpu_->copy_from_host({t->dl_tensor.data, 4 * sizeof(float)}, 0, written.data(),
                       4 * sizeof(float));
  mark_modified(a, cuda);
  EXPECT_EQ(dlpack_device(a), cuda);
  EXPECT_EQ(a.to_vector<float>(), written);
  t->deleter(t);
}

TEST_F(DLPackCudaDevice, AnImportedCudaTensorIsDeletedOnceAfterItsLastArray) {
  int deletes = 0;
  {
    const Array a = from_dlpack(make_cuda_tensor(*gpu_, {1, 2, 3, 4}, &deletes));
    const Array doubled = a * 2.0f;
    EXPECT_EQ(doubled.to_vector<float>(), (std::vector<float>{2, 4, 6, 8}));
    EXPECT_EQ(deletes, 0);
  }
  EXPECT_EQ(deletes, 1);
}

TEST_F(DLPackCudaDevice, AReadOnlyCudaTensorImportsAsACopy) {
  int deletes = 0;
  DLManagedTensorVersioned* t = make_cuda_tensor(*gpu_, {5, 6}, &deletes);
  t->flags = DLPACK_FLAG_BITMASK_READ_ONLY;
  const Array a = from_dlpack(t);
  EXPECT_EQ(deletes, 1);
  EXPECT_EQ(a.to_vector<float>(), (std::vector<float>{5, 6}));
}

TEST_F(DLPackCudaDevice, ACudaExportOfAStridedViewKeepsItsOffsetAndStrides) {
  const Array a = Array::arange(0, 12, 1, DType::Float32).reshape({3, 4});
  const Array column = a.slice(1, 2, 3).squeeze(1);  // 2, 6, 10
  DLManagedTensorVersioned* t = to_dlpack_versioned(column, dlpack_cuda(gpu_->info().index));
  EXPECT_EQ(t->dl_tensor.strides[0], 4);
  EXPECT_EQ(t->dl_tensor.byte_offset, 2 * sizeof(float));
  EXPECT_EQ(from_dlpack(t).to_vector<float>(), (std::vector<float>{2, 6, 10}));
}

}  // namespace
}  // namespace switchyard
