// The one translation unit that includes VkFFT (a 32k-line header) with its OpenCL backend.
#include "backends/opencl/opencl_fft.hpp"

#include "backends/opencl/opencl_api.hpp"
#include "backends/opencl/opencl_fft_limits.hpp"
// VkFFT reads the device's limits through the capped query (opencl_fft_limits.hpp says why).
#define clGetDeviceInfo switchyard::opencl::limited_device_info
#define VKFFT_BACKEND 3
#include <vkFFT.h>
#undef clGetDeviceInfo

#include "backends/opencl/opencl_driver.hpp"
#include "backends/opencl/opencl_error.hpp"
#include "backends/vkfft_routine.hpp"

namespace switchyard::opencl {
namespace {

cl_mem mem(const DeviceMemory& m) {
  return static_cast<cl_mem>(m.handle);
}

// VkFFT keeps pointers to the handles and sizes it was configured with: they live beside it.
struct Application final : VkfftRoutine::Plan {
  cl_device_id device;
  cl_context context;
  cl_command_queue queue;
  VkFFTApplication app{};
  ~Application() override { deleteVkFFT(&app); }
};

class FftRoutine final : public VkfftRoutineOver<Driver> {
 public:
  using VkfftRoutineOver::VkfftRoutineOver;

 private:
  std::unique_ptr<Plan> make_plan(const Shape& shape, FftKind kind) override {
    auto plan = std::make_unique<Application>();
    plan->device = driver_.id(), plan->context = driver_.context(), plan->queue = driver_.queue();
    VkFFTConfiguration config{};
    describe_transform(config, op(), kind, shape.rows, shape.m, shape.n, runs_inverse(),
                       plan->buffer_bytes, plan->real_bytes);
    config.device = &plan->device;
    config.context = &plan->context;
    config.commandQueue = &plan->queue;
    const PlanLimits limits = plan_limits(device().info());
    const PlanLimitsScope scope(limits);
    const VkFFTResult result = initializeVkFFT(&plan->app, config);
    return planned(std::move(plan), result, device().info());
  }

  void append(Plan& plan, const Buffers& buffers) override {
    cl_command_queue queue = driver_.queue();
    cl_mem buffer = mem(buffers.buffer), input = mem(buffers.input), output = mem(buffers.output);
    VkFFTLaunchParams params{};
    params.commandQueue = &queue;
    params.buffer = &buffer;
    if (input) params.inputBuffer = &input;
    if (output) params.outputBuffer = &output;
    auto& app = static_cast<Application&>(plan).app;
    check_vkfft(VkFFTAppend(&app, runs_inverse() ? 1 : -1, &params), "launching an fft",
                device().info());
  }

  void copy(DeviceMemory dst, std::size_t dst_offset, DeviceMemory src, std::size_t src_offset,
            std::size_t bytes) override {
    check(clEnqueueCopyBuffer(driver_.queue(), mem(src), mem(dst), src_offset, dst_offset, bytes, 0,
                              nullptr, nullptr),
          "copying an fft's data", device().info());
  }

  void copy_rows(DeviceMemory dst, DeviceMemory src, std::size_t rows, std::size_t row_bytes,
                 std::size_t src_pitch) override {
    const std::size_t origin[3] = {0, 0, 0};
    const std::size_t region[3] = {row_bytes, rows, 1};
    check(clEnqueueCopyBufferRect(driver_.queue(), mem(src), mem(dst), origin, origin, region,
                                  src_pitch, 0, row_bytes, 0, 0, nullptr, nullptr),
          "keeping an fft's half spectrum", device().info());
  }
};

}  // namespace

std::shared_ptr<LibraryRoutine<switchyard::Device>> make_fft_routine(Driver& driver,
                                                                     switchyard::Device& device,
                                                                     const LibraryOp& op) {
  return std::make_shared<FftRoutine>(driver, device, op);
}

}  // namespace switchyard::opencl
