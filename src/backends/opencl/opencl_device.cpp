#include "backends/opencl/opencl_device.hpp"

#include <algorithm>
#include <bit>

#include "backends/opencl/opencl_error.hpp"
#include "backends/opencl/opencl_kernel.hpp"
#include "backends/opencl/opencl_library.hpp"
#include "switchyard/error.hpp"

namespace switchyard::opencl {
namespace {

// A vector width codegen accepts: a power of two in [1, 16].
int usable_width(int preferred) {
  return static_cast<int>(std::bit_floor(static_cast<unsigned>(std::clamp(preferred, 1, 16))));
}

template <class T>
T& executable_as(Executable& exe, const DeviceInfo& info) {
  if (auto* e = dynamic_cast<T*>(&exe)) return *e;
  throw ValueError("executable launched on " + info.id() +
                   " was not prepared by this backend: prepare it on the device that runs it");
}

}  // namespace

Device::Device(cl_device_id id, DeviceInfo info, DeviceTraits traits)
    : switchyard::Device(std::move(info)),
      id_(id),
      traits_(std::move(traits)),
      context_([&] {
        cl_int err = CL_SUCCESS;
        cl_context c = clCreateContext(nullptr, 1, &id, nullptr, nullptr, &err);
        check(err, "creating a context", this->info());
        return c;
      }()),
      queue_([&] {
        cl_int err = CL_SUCCESS;
        cl_command_queue q = clCreateCommandQueue(context_.get(), id, 0, &err);
        check(err, "creating a command queue", this->info());
        return q;
      }()),
      pool_(
          [this](std::size_t bytes) -> MemoryPool::Block {
            cl_int err = CL_SUCCESS;
            cl_mem m = clCreateBuffer(context_.get(), CL_MEM_READ_WRITE, bytes, nullptr, &err);
            if (is_out_of_memory(err)) {
              last_refusal_.store(err);
              return 0;
            }
            check(err, "allocating " + std::to_string(bytes) + " bytes", this->info());
            return reinterpret_cast<std::uintptr_t>(m);
          },
          // OpenCL defers the release until queued commands using the buffer finish.
          [](MemoryPool::Block block) { clReleaseMemObject(reinterpret_cast<cl_mem>(block)); },
          {.largest = this->info().max_allocation_bytes}) {}

Device::~Device() {
  clFinish(queue_.get());
}

codegen::Target Device::target_for(const ir::Kernel& kernel) const {
  const bool cpu = info().kind == DeviceKind::CPU;
  codegen::Target t;
  t.dialect = codegen::Dialect::OpenCL;
  t.fp64 = info().fp64;
  t.blocked = cpu;
  if (cpu) {
    // One width for the whole kernel, set by its widest element: float16 and double8 both fill
    // the 512-bit registers PoCL targets.
    const auto wide = [](DType d) { return size_of(d) == 8; };
    bool has_wide = std::any_of(kernel.body.begin(), kernel.body.end(),
                                [&](const ir::Instr& i) { return wide(i.dtype); });
    t.vector_width =
        usable_width(has_wide ? traits_.preferred_double_width : traits_.preferred_float_width);
    // A CPU runs a group's items in a loop on one thread: a small group keeps the local tree
    // short and leaves many groups to spread over the cores.
    t.local_size = 16;
  } else {
    t.vector_width = 1;
    t.local_size = static_cast<int>(std::min<std::size_t>(
        256, std::bit_floor(std::max<std::size_t>(traits_.max_work_group_size, 2))));
  }
  return t;
}

std::int64_t Device::max_groups() const {
  const std::int64_t units = std::max(info().compute_units, 1);
  return info().kind == DeviceKind::CPU ? units * 4 : units * 32;
}

std::string Device::build_options() const {
  std::string o = "-cl-std=CL1.2";
  // Without this flag OpenCL allows 2.5 ulp float32 division and 3 ulp sqrt; every other
  // backend rounds them correctly.
  if (traits_.correctly_rounded_divide_sqrt) o += " -cl-fp32-correctly-rounded-divide-sqrt";
  return o;
}

std::string Device::cache_device() const {
  return info().name + "|" + info().vendor;
}

std::string Device::cache_driver() const {
  return info().driver_version + "|" + traits_.platform_version + "|" + traits_.device_version;
}

DeviceMemory Device::do_allocate(std::size_t bytes) {
  if (const MemoryPool::Block block = pool_.allocate(bytes))
    return {reinterpret_cast<void*>(block), bytes};
  throw OutOfMemory(error_name(last_refusal_.load()) + ": cannot allocate " +
                    std::to_string(bytes) + " bytes on " + info().id() + " (" + info().name +
                    "), which has " + std::to_string(info().global_memory_bytes) +
                    " bytes of which " + std::to_string(pool_.in_use_bytes()) +
                    " are in use by Switchyard, even after releasing pooled memory: free arrays "
                    "or use a smaller problem");
}

void Device::do_free(DeviceMemory memory) {
  pool_.free(reinterpret_cast<std::uintptr_t>(memory.handle), memory.bytes);
}

void Device::do_copy_from_host(DeviceMemory dst, std::size_t dst_offset, const void* src,
                               std::size_t bytes) {
  check(clEnqueueWriteBuffer(queue(), static_cast<cl_mem>(dst.handle), CL_TRUE, dst_offset, bytes,
                             src, 0, nullptr, nullptr),
        "copying " + std::to_string(bytes) + " bytes to the device", info());
}

void Device::do_copy_to_host(void* dst, DeviceMemory src, std::size_t src_offset,
                             std::size_t bytes) {
  check(clEnqueueReadBuffer(queue(), static_cast<cl_mem>(src.handle), CL_TRUE, src_offset, bytes,
                            dst, 0, nullptr, nullptr),
        "copying " + std::to_string(bytes) + " bytes to the host", info());
}

void Device::do_copy_within(DeviceMemory dst, std::size_t dst_offset, DeviceMemory src,
                            std::size_t src_offset, std::size_t bytes) {
  check(
      clEnqueueCopyBuffer(queue(), static_cast<cl_mem>(src.handle), static_cast<cl_mem>(dst.handle),
                          src_offset, dst_offset, bytes, 0, nullptr, nullptr),
      "copying " + std::to_string(bytes) + " bytes within the device", info());
  // The interface promises the copy is done on return.
  check(clFinish(queue()), "copying within the device", info());
}

std::shared_ptr<Executable> Device::do_prepare(const ir::Kernel& kernel) {
  return std::make_shared<Program>(*this, kernel);
}

std::shared_ptr<Executable> Device::do_prepare_library(const LibraryOp& op) {
  return prepare_library(*this, op);
}

void Device::do_launch(Executable& exe, const LaunchArgs& args) {
  executable_as<Program>(exe, info()).launch(args);
}

void Device::do_launch_library(Executable& exe, const LibraryArgs& args) {
  routine_on<Device>(exe, *this).launch(args);
}

void Device::do_synchronize() {
  check(clFinish(queue()), "waiting for the device", info());
}

}  // namespace switchyard::opencl
