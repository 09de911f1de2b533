// The arguments of one launch of a generated kernel's plan (codegen/launch_plan.hpp), each
// handed to `to`, which a backend writes for its driver:
//   to.index(std::int64_t)                     an index
//   to.rank(int)                               the iteration space's rank
//   to.dims(const Dims&)                       a shape or strides (sy_dims)
//   to.memory(const DeviceMemory&)             an input's, output's or scratch buffer's memory
//   to.scalar(DType, const ScalarValue&)       a scalar, in the kernel's dtype for it
#pragma once

#include <vector>

#include "codegen/launch_plan.hpp"
#include "ir/launch.hpp"
#include "switchyard/device.hpp"
#include "switchyard/error.hpp"

namespace switchyard {

// A launch whose operand counts are not the kernel's is a ValueError naming both.
inline void check_launch_counts(const ir::Kernel& k, const LaunchArgs& args,
                                const DeviceInfo& info) {
  if (args.inputs.size() != k.inputs.size() || args.scalars.size() != k.scalars.size() ||
      args.outputs.size() != k.outputs.size())
    throw ValueError("launch on " + info.id() + " with " + std::to_string(args.inputs.size()) +
                     " inputs, " + std::to_string(args.scalars.size()) + " scalars and " +
                     std::to_string(args.outputs.size()) + " outputs: the kernel expects " +
                     std::to_string(k.inputs.size()) + ", " + std::to_string(k.scalars.size()) +
                     " and " + std::to_string(k.outputs.size()));
}

template <class Packer>
void pack_arguments(const codegen::KernelLaunch& launch, const ir::Kernel& kernel,
                    const LaunchArgs& args, const std::vector<DeviceMemory>& scratch, Packer& to) {
  using Kind = codegen::KernelArg::Kind;
  for (const codegen::KernelArg& arg : launch.args) {
    const auto slot = static_cast<std::size_t>(arg.value);
    switch (arg.kind) {
      case Kind::Index:
        to.index(arg.value);
        break;
      case Kind::Rank:
        to.rank(static_cast<int>(args.shape.size()));
        break;
      case Kind::Shape:
        to.dims(args.shape);
        break;
      case Kind::Input:
        to.memory(args.inputs[slot].memory);
        break;
      case Kind::InputOffset:
        to.index(args.inputs[slot].offset);
        break;
      case Kind::InputStrides:
        to.dims(args.inputs[slot].strides);
        break;
      case Kind::Scalar:
        to.scalar(kernel.scalars[slot], args.scalars[slot]);
        break;
      case Kind::Output:
        to.memory(args.outputs[slot].memory);
        break;
      case Kind::OutputOffset:
        to.index(args.outputs[slot].offset);
        break;
      case Kind::Scratch:
        to.memory(scratch[slot]);
        break;
    }
  }
}

}  // namespace switchyard
