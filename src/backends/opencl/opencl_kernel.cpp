#include "backends/opencl/opencl_kernel.hpp"

#include "backends/kernel_arguments.hpp"
#include "backends/opencl/opencl_compiler.hpp"
#include "backends/opencl/opencl_device.hpp"
#include "backends/opencl/opencl_error.hpp"
#include "backends/scratch.hpp"
#include "codegen/launch_plan.hpp"
#include "switchyard/error.hpp"

namespace switchyard::opencl {
namespace {

// codegen.hpp's sy_dims.
struct Dims64 {
  cl_long v[kMaxRank] = {};
};

Dims64 dims64(const Dims& d) {
  Dims64 out;
  for (int i = 0; i < d.size(); ++i) out.v[i] = d[i];
  return out;
}

// Sets a kernel's arguments in order (a Packer for pack_arguments).
class Args {
 public:
  Args(cl_kernel kernel, const DeviceInfo& info) : kernel_(kernel), info_(info) {}

  template <class T>
  Args& add(const T& value) {
    check(clSetKernelArg(kernel_, index_, sizeof(T), &value),
          "setting kernel argument " + std::to_string(index_), info_);
    ++index_;
    return *this;
  }
  Args& memory(const DeviceMemory& m) { return add(static_cast<cl_mem>(m.handle)); }
  Args& index(std::int64_t v) { return add(static_cast<cl_long>(v)); }
  Args& rank(int r) { return add(static_cast<cl_int>(r)); }
  Args& dims(const Dims& d) { return add(dims64(d)); }
  Args& scalar(DType to, const ScalarValue& s) {
    visit_dtype(to, [&](auto zero) {
      using T = decltype(zero);
      const T v = is_floating(s.dtype) ? static_cast<T>(s.f) : static_cast<T>(s.i);
      if constexpr (std::is_same_v<T, bool>)
        add(static_cast<cl_uchar>(v));
      else
        add(v);
    });
    return *this;
  }

 private:
  cl_kernel kernel_;
  const DeviceInfo& info_;
  cl_uint index_ = 0;
};

}  // namespace

Program::Program(Device& device, const ir::Kernel& kernel)
    : device_(device), kernel_(kernel), target_(device.target_for(kernel)) {
  const std::string source = codegen::render(kernel_, target_);
  const std::string options = device.build_options();
  program_ = cached_program(device, source, options);
  auto make = [&](std::string_view entry) {
    cl_int err = CL_SUCCESS;
    KernelHandle k(clCreateKernel(program_.get(), std::string(entry).c_str(), &err));
    check(err, "creating kernel " + std::string(entry), device.info());
    return k;
  };
  if (kernel_.has_reduction) {
    partial_ = make(codegen::kReducePartialEntry);
    final_ = make(codegen::kReduceFinalEntry);
    rows_ = make(codegen::kReduceRowsEntry);
  } else {
    map_ = make(codegen::kMapEntry);
  }
}

cl_kernel Program::kernel_for(std::string_view entry) const {
  if (entry == codegen::kMapEntry) return map_.get();
  if (entry == codegen::kReducePartialEntry) return partial_.get();
  if (entry == codegen::kReduceFinalEntry) return final_.get();
  return rows_.get();
}

void Program::launch(const LaunchArgs& args) {
  check_launch_counts(kernel_, args, device_.info());
  const codegen::KernelPlan plan =
      codegen::plan_kernel(kernel_, args.shape, target_, device_.max_groups());
  const Scratch scratch(device_, plan.scratch_bytes);
  std::lock_guard lock(mutex_);
  for (const codegen::KernelLaunch& l : plan.launches) {
    cl_kernel kernel = kernel_for(l.entry);
    Args a(kernel, device_.info());
    pack_arguments(l, kernel_, args, scratch.memory(), a);
    const std::size_t local = static_cast<std::size_t>(target_.local_size);
    const std::size_t global = static_cast<std::size_t>(l.groups) * local;
    check(clEnqueueNDRangeKernel(device_.queue(), kernel, 1, nullptr, &global, &local, 0, nullptr,
                                 nullptr),
          "launching " + std::string(l.entry) + " (" + std::to_string(l.groups) + " groups of " +
              std::to_string(local) + ")",
          device_.info());
  }
}

}  // namespace switchyard::opencl
