#include "backends/opencl/opencl_kernel.hpp"

#include <deque>
#include <optional>

#include "backends/opencl/opencl_compiler.hpp"
#include "backends/opencl/opencl_device.hpp"
#include "backends/opencl/opencl_error.hpp"
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

// Sets a kernel's arguments in order.
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

 private:
  cl_kernel kernel_;
  const DeviceInfo& info_;
  cl_uint index_ = 0;
};

void add_scalar(Args& args, DType to, const ScalarValue& s) {
  visit_dtype(to, [&](auto zero) {
    using T = decltype(zero);
    const T v = is_floating(s.dtype) ? static_cast<T>(s.f) : static_cast<T>(s.i);
    if constexpr (std::is_same_v<T, bool>)
      args.add(static_cast<cl_uchar>(v));
    else
      args.add(v);
  });
}

// `rank, shape` and then the inputs and scalars, as every entry point but sy_reduce_final takes.
void add_operands(Args& a, const ir::Kernel& k, const LaunchArgs& args) {
  a.add(static_cast<cl_int>(args.shape.size())).add(dims64(args.shape));
  for (std::size_t i = 0; i < k.inputs.size(); ++i) {
    a.memory(args.inputs[i].memory).index(args.inputs[i].offset);
    if (k.inputs[i].layout == ir::Layout::Strided) a.add(dims64(args.inputs[i].strides));
  }
  for (std::size_t j = 0; j < k.scalars.size(); ++j) add_scalar(a, k.scalars[j], args.scalars[j]);
}

void check_counts(const ir::Kernel& k, const LaunchArgs& args, const DeviceInfo& info) {
  if (args.inputs.size() != k.inputs.size() || args.scalars.size() != k.scalars.size() ||
      args.outputs.size() != k.outputs.size())
    throw ValueError("launch on " + info.id() + " with " + std::to_string(args.inputs.size()) +
                     " inputs, " + std::to_string(args.scalars.size()) + " scalars and " +
                     std::to_string(args.outputs.size()) + " outputs: the kernel expects " +
                     std::to_string(k.inputs.size()) + ", " + std::to_string(k.scalars.size()) +
                     " and " + std::to_string(k.outputs.size()));
}

bool is_arg(ir::ReduceOp op) {
  return op == ir::ReduceOp::ArgMin || op == ir::ReduceOp::ArgMax;
}

// Scratch memory that goes back to the pool when the launch has been enqueued: the in-order
// queue runs whoever reuses it after this launch's kernels.
class Scratch {
 public:
  Scratch(Device& d, std::size_t bytes) : device_(d), memory_(d.scratch(bytes)) {}
  ~Scratch() { device_.release_scratch(memory_); }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  const DeviceMemory& memory() const { return memory_; }

 private:
  Device& device_;
  DeviceMemory memory_;
};

// Where sy_reduce_partial puts one output's partial results: scratch that sy_reduce_final
// folds, or, with one part per row, the output itself (Arg ops still keep their values in
// scratch, their indices being the result).
class OutputPartials {
 public:
  OutputPartials(Device& d, const ir::Kernel& k, std::size_t output, const Operand& out,
                 bool direct, std::size_t count)
      : out_(out), arg_(is_arg(k.reductions[output].op)) {
    if (!direct || arg_) values_.emplace(d, count * size_of(codegen::partial_dtype(k, output)));
    if (!direct && arg_) indices_.emplace(d, count * sizeof(cl_long));
  }
  bool arg() const { return arg_; }
  const DeviceMemory& values() const { return values_ ? values_->memory() : out_.memory; }
  std::int64_t values_offset() const { return values_ ? 0 : out_.offset; }
  const DeviceMemory& indices() const { return indices_ ? indices_->memory() : out_.memory; }
  std::int64_t indices_offset() const { return indices_ ? 0 : out_.offset; }

 private:
  const Operand& out_;
  bool arg_;
  std::optional<Scratch> values_, indices_;
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

void Program::launch(const LaunchArgs& args) {
  check_counts(kernel_, args, device_.info());
  std::lock_guard lock(mutex_);
  if (kernel_.has_reduction)
    launch_reduction(args);
  else
    launch_map(args);
}

void Program::enqueue(cl_kernel kernel, std::int64_t groups, const char* entry) {
  const std::size_t local = static_cast<std::size_t>(target_.local_size);
  const std::size_t global = static_cast<std::size_t>(groups) * local;
  check(clEnqueueNDRangeKernel(device_.queue(), kernel, 1, nullptr, &global, &local, 0, nullptr,
                               nullptr),
        std::string("launching ") + entry + " (" + std::to_string(groups) + " groups of " +
            std::to_string(local) + ")",
        device_.info());
}

void Program::launch_map(const LaunchArgs& args) {
  const std::int64_t n = element_count(args.shape);
  const codegen::MapPlan plan = codegen::plan_map(n, target_, device_.max_groups());
  if (plan.groups == 0) return;
  Args a(map_.get(), device_.info());
  a.index(n);
  add_operands(a, kernel_, args);
  for (const Operand& out : args.outputs) a.memory(out.memory).index(out.offset);
  enqueue(map_.get(), plan.groups, "sy_map");
}

void Program::launch_reduction(const LaunchArgs& args) {
  const codegen::ReducePlan plan = codegen::plan_reduction(
      ir::folded_rows(kernel_.reductions[0], args.shape), target_, device_.max_groups());
  if (plan.groups == 0) return;
  if (plan.by_rows) {
    Args a(rows_.get(), device_.info());
    a.index(plan.rows).index(plan.row_len);
    add_operands(a, kernel_, args);
    for (const Operand& out : args.outputs) a.memory(out.memory).index(out.offset);
    return enqueue(rows_.get(), plan.groups, "sy_reduce_rows");
  }
  // With one part per row the partials are the result (codegen.hpp); only Arg ops still need
  // somewhere to put the values.
  const bool direct = !plan.final_pass();
  const std::size_t count = static_cast<std::size_t>(plan.rows * plan.parts);
  std::deque<OutputPartials> partials;
  for (std::size_t o = 0; o < kernel_.outputs.size(); ++o)
    partials.emplace_back(device_, kernel_, o, args.outputs[o], direct, count);

  Args a(partial_.get(), device_.info());
  a.index(plan.rows).index(plan.row_len).index(plan.parts);
  add_operands(a, kernel_, args);
  for (const OutputPartials& p : partials) {
    a.memory(p.values()).index(p.values_offset());
    if (p.arg()) a.memory(p.indices()).index(p.indices_offset());
  }
  enqueue(partial_.get(), plan.groups, "sy_reduce_partial");
  if (direct) return;

  Args f(final_.get(), device_.info());
  f.index(plan.rows).index(plan.parts);
  for (std::size_t o = 0; o < partials.size(); ++o) {
    f.memory(partials[o].values());
    if (partials[o].arg()) f.memory(partials[o].indices());
    f.memory(args.outputs[o].memory).index(args.outputs[o].offset);
  }
  enqueue(final_.get(), plan.rows, "sy_reduce_final");
}

}  // namespace switchyard::opencl
