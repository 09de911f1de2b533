// FFTs on a Vulkan device through VkFFT's Vulkan path (backends/vkfft_routine.hpp), recorded into
// the driver's command buffer in order with its other work: the one translation unit that includes
// VkFFT (a 32k-line header) with its Vulkan backend, which compiles its shaders with glslang
// (linked in, as for shaderc).

// Everything vkFFT.h and vulkan_fft_glslang.hpp include, included here first, at global scope:
// inside the namespace below their includes are then empty.
#include <glslang/Include/glslang_c_interface.h>
#include <glslang/build_info.h>
#include <inttypes.h>
#include <locale.h>
#include <math.h>
#include <memory.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cstddef>
#include <cstring>
#include <memory>
#include <span>
#include <vector>

#include "backends/vkfft_routine.hpp"
#include "backends/vulkan/vulkan_api.hpp"  // vulkan.h without prototypes: the loader is dlopen'd
#include "backends/vulkan/vulkan_driver.hpp"
#include "switchyard/error.hpp"

namespace switchyard::vulkan {
namespace {

// VkFFT calls Vulkan by name (vkCreateBuffer(...)). Here those names are pointers to the
// functions of the device the calling thread plans or appends for (FunctionsScope), as the
// library must not link libvulkan.so.
#define SY_VK_POINTER(name) thread_local PFN_##name name = nullptr;
SY_VK_INSTANCE_FUNCTIONS(SY_VK_POINTER)
SY_VK_DEVICE_FUNCTIONS(SY_VK_POINTER)
#undef SY_VK_POINTER

// The library includes vkFFT.h a second time, with its OpenCL backend (opencl_fft.cpp): the same
// type names with other members there. Checked with `nm -C` on both objects: every VkFFT function
// is static inline, a local symbol (t) in each, none external; and inside this unnamed namespace
// its types and functions have internal linkage and names of their own
// (switchyard::vulkan::(anonymous)::VkFFTApplication), so no name has two definitions.
#include "backends/vulkan/vulkan_fft_glslang.hpp"
#define VKFFT_BACKEND 0
#include <vkFFT.h>
#undef glslang_resource_t
#undef glslang_input_t
#undef glslang_shader_create
#undef glslang_shader_preprocess
#undef glslang_shader_parse

// Points this thread's names above at `h`'s functions while it lives.
class FunctionsScope {
 public:
  explicit FunctionsScope(const Driver::Handles& h) {
#define SY_VK_SET(name) name = h.instance.name;
    SY_VK_INSTANCE_FUNCTIONS(SY_VK_SET)
#undef SY_VK_SET
#define SY_VK_SET(name) name = h.functions.name;
    SY_VK_DEVICE_FUNCTIONS(SY_VK_SET)
#undef SY_VK_SET
  }
  ~FunctionsScope() {
#define SY_VK_CLEAR(name) name = nullptr;
    SY_VK_INSTANCE_FUNCTIONS(SY_VK_CLEAR)
    SY_VK_DEVICE_FUNCTIONS(SY_VK_CLEAR)
#undef SY_VK_CLEAR
  }
  FunctionsScope(const FunctionsScope&) = delete;
  FunctionsScope& operator=(const FunctionsScope&) = delete;
};

// glslang's process state, set up once and kept: shaderc's compiles share it (glslang counts its
// users), and VkFFT then neither sets it up nor tears it down per plan.
void initialize_compiler(const DeviceInfo& info) {
  static const bool ready = glslang_initialize_process() != 0;
  if (!ready) throw DeviceError("glslang did not initialise: no FFT on " + info.id());
}

// VkFFT keeps pointers to the handles and sizes it was configured with, and to the buffers of
// its last append: they live beside it.
struct Application final : VkfftRoutine::Plan {
  explicit Application(Driver& driver) : driver(driver) {}
  ~Application() override {
    try {
      driver.synchronize();   // recorded work may still use its pipelines and descriptor sets
    } catch (const Error&) {  // a lost device: nothing left to wait for
    }
    driver.with_handles([&](const Driver::Handles& h) {
      const FunctionsScope scope(h);
      deleteVkFFT(&app);
    });
  }

  Driver& driver;
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  VkCommandPool pool = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;
  VkBuffer buffer = VK_NULL_HANDLE, input = VK_NULL_HANDLE, output = VK_NULL_HANDLE;
  std::uint64_t batch = 0;  // the driver's command buffer the last append went into
  VkFFTApplication app{};
};

class FftRoutine final : public VkfftRoutineOver<Driver> {
 public:
  using VkfftRoutineOver::VkfftRoutineOver;

 private:
  std::unique_ptr<Plan> make_plan(const Shape& shape, FftKind kind) override {
    initialize_compiler(device().info());
    auto plan = std::make_unique<Application>(driver_);
    VkFFTConfiguration config{};
    describe_transform(config, op(), kind, shape.rows, shape.m, shape.n, runs_inverse(),
                       plan->buffer_bytes, plan->real_bytes);
    config.isCompilerInitialized = 1;
    // GLSL leaves the precision of sin and cos to the driver: twiddles come from tables computed
    // on the host instead.
    config.useLUT = 1;
    VkFFTResult result = VKFFT_SUCCESS;
    // Planning may submit work of its own (the tables' upload) and wait for it, so it holds the
    // driver's lock: other work on the device waits for the plan's shader compiles.
    driver_.with_handles([&](const Driver::Handles& h) {
      plan->physical = h.physical, plan->device = h.device, plan->queue = h.queue;
      plan->pool = h.pool, plan->fence = h.fence;
      config.physicalDevice = &plan->physical;
      config.device = &plan->device;
      config.queue = &plan->queue;
      config.commandPool = &plan->pool;
      config.fence = &plan->fence;
      const FunctionsScope scope(h);
      result = initializeVkFFT(&plan->app, config);
    });
    return planned(std::move(plan), result, device().info());
  }

  // Appending rewrites the application's descriptor sets: an earlier append of it still in the
  // open command buffer is submitted first (Application::batch).
  void append(Plan& plan, const Buffers& buffers) override {
    auto& a = static_cast<Application&>(plan);
    VkFFTResult result = VKFFT_SUCCESS;
    const auto commands = [&](VkCommandBuffer command_buffer, const Driver::Handles& h) {
      a.buffer = Driver::buffer(buffers.buffer);
      a.input = Driver::buffer(buffers.input);
      a.output = Driver::buffer(buffers.output);
      // VkFFT rewrites its descriptor sets only when it is given a VkBuffer* other than the last
      // one (it compares the pointers, not the buffers): forgetting the last ones makes it write
      // these.
      a.app.configuration.buffer = nullptr;
      a.app.configuration.inputBuffer = nullptr;
      a.app.configuration.outputBuffer = nullptr;
      VkFFTLaunchParams params{};
      params.commandBuffer = &command_buffer;
      params.buffer = &a.buffer;
      if (a.input) params.inputBuffer = &a.input;
      if (a.output) params.outputBuffer = &a.output;
      const FunctionsScope scope(h);
      result = VkFFTAppend(&a.app, runs_inverse() ? 1 : -1, &params);
    };
    driver_.record_commands(commands, &a.batch);
    check_vkfft(result, "launching an fft", device().info());
  }

  void copy(DeviceMemory dst, std::size_t dst_offset, DeviceMemory src, std::size_t src_offset,
            std::size_t bytes) override {
    const VkBufferCopy region{.srcOffset = src_offset, .dstOffset = dst_offset, .size = bytes};
    copy_regions(dst, src, {&region, 1});
  }

  void copy_rows(DeviceMemory dst, DeviceMemory src, std::size_t rows, std::size_t row_bytes,
                 std::size_t src_pitch) override {
    std::vector<VkBufferCopy> regions(rows);
    for (std::size_t r = 0; r < rows; ++r)
      regions[r] = {.srcOffset = r * src_pitch, .dstOffset = r * row_bytes, .size = row_bytes};
    copy_regions(dst, src, regions);
  }

  void copy_regions(DeviceMemory dst, DeviceMemory src, std::span<const VkBufferCopy> regions) {
    driver_.record_commands([&](VkCommandBuffer command_buffer, const Driver::Handles& h) {
      h.functions.vkCmdCopyBuffer(command_buffer, Driver::buffer(src), Driver::buffer(dst),
                                  static_cast<std::uint32_t>(regions.size()), regions.data());
    });
  }
};

}  // namespace

// VkFFT runs the FFTs; codegen's library kernels, which CompiledDevice builds, every other op.
std::shared_ptr<LibraryRoutine<switchyard::Device>> Driver::prepare_library(
    const LibraryOp& op, switchyard::Device& device) {
  if (op.kind != LibraryOp::Kind::Fft) return nullptr;
  return std::make_shared<FftRoutine>(*this, device, op);
}

}  // namespace switchyard::vulkan
