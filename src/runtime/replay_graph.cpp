#include "runtime/replay_graph.hpp"

#include <algorithm>

#include "core/checked.hpp"
#include "core/log.hpp"
#include "runtime/buffer.hpp"
#include "runtime/fault_injection.hpp"
#include "runtime/recording.hpp"

namespace switchyard::runtime {
namespace {

bool graph_possible(const Recording& r, std::span<const View> inputs) {
  const auto& steps = r.steps();
  if (steps.empty()) return false;
  Device& device = *steps.front().device;
  if (device.info().host_addressable || !device.supports_graphs()) return false;
  const bool one_device = std::all_of(steps.begin(), steps.end(), [&](const RecordedStep& s) {
    return s.device == &device && s.graph_safe;
  });
  // An input is copied into its staging buffer as one block.
  const bool contiguous_inputs = std::all_of(inputs.begin(), inputs.end(), [](const View& v) {
    return classify(v.shape, v.strides) == ir::Layout::Contiguous;
  });
  return one_device && contiguous_inputs;
}

}  // namespace

std::unique_ptr<ReplayGraph> ReplayGraph::build(Recording& recording,
                                                std::span<const View> inputs) {
  if (!graph_possible(recording, inputs)) return nullptr;
  std::unique_ptr<ReplayGraph> graph(new ReplayGraph(*recording.steps().front().device));
  try {
    if (graph->record(recording, inputs)) return graph;
  } catch (const Error& e) {
    logf(LogLevel::Debug, "captured replay on {}: no launch graph ({}); replaying launch by launch",
         graph->device_->info().id(), e.what());
  }
  return nullptr;
}

bool ReplayGraph::record(Recording& r, std::span<const View> inputs) {
  Device& device = *device_;
  held_.assign(r.slots_.size(), nullptr);
  held_memory_.assign(r.slots_.size(), {});
  // Every operand's memory is bound before the graph records: nothing may allocate or copy then.
  auto memory_of = [&](const RecordedOperand& o, Operand& operand, bool output) {
    const Slot& slot = r.slots_[o.slot];
    if (slot.kind == SlotKind::Input || slot.kind == SlotKind::Fresh) {
      if (!held_[o.slot]) {
        const View* in = slot.kind == SlotKind::Input ? &inputs[slot.input] : nullptr;
        held_[o.slot] = allocate_output(device, in ? byte_count(in->shape, in->dtype) : slot.bytes);
        held_memory_[o.slot] = held_[o.slot]->write_on(device);
      }
      operand.memory = held_memory_[o.slot];
      if (slot.kind == SlotKind::Input) operand.offset = o.offset;  // staging starts at the view
      return;
    }
    operand.memory = output ? slot.buffer->write_on(device) : slot.buffer->read_on(device);
  };
  for (RecordedStep& step : r.steps_) {
    for (std::size_t i = 0; i < step.outputs.size(); ++i)
      memory_of(step.outputs[i], step.launch_output(i), true);
    for (std::size_t i = 0; i < step.inputs.size(); ++i)
      memory_of(step.inputs[i], step.launch_input(i), false);
  }
  device.synchronize();  // uploads of constants are done before recording starts
  device.begin_graph();
  try {
    for (RecordedStep& step : r.steps_) {
      if (step.library)
        device.launch(*step.executable, step.library_args);
      else
        device.launch(*step.executable, LaunchArgs{step.shape, step.input_operands, step.scalars,
                                                   step.output_operands, step.parallelism});
    }
  } catch (const Error&) {
    try {
      device.end_graph();  // leaves recording mode; what it recorded is of no use
    } catch (const Error&) {
    }
    throw;
  }
  graph_ = device.end_graph();
  return graph_ != nullptr;
}

void ReplayGraph::run(Recording& r, std::span<const View> inputs) {
  Device& device = *device_;
  for (std::size_t s = 0; s < r.slots_.size(); ++s) {
    const Slot& slot = r.slots_[s];
    if (slot.kind == SlotKind::Input && held_[s]) {
      const View& in = inputs[slot.input];
      device.copy_within(held_memory_[s], 0, in.buffer->read_on(device),
                         static_cast<std::size_t>(in.offset) * size_of(in.dtype),
                         byte_count(in.shape, in.dtype));
    } else if (slot.kind == SlotKind::Constant) {
      slot.buffer->read_on(device);  // an outside array written since is uploaded again
    }
  }
  maybe_inject(device.info(), FaultStage::Launch);
  device.launch_graph(*graph_);
  for (std::size_t s = 0; s < r.slots_.size(); ++s) {
    if (r.slots_[s].kind != SlotKind::Fresh || !held_[s]) continue;
    auto fresh = allocate_output(device, r.slots_[s].bytes);
    device.copy_within(fresh->write_on(device), 0, held_memory_[s], 0, r.slots_[s].bytes);
    fresh->mark_written(device);
    r.bound_[s] = std::move(fresh);
  }
  device.synchronize();
}

}  // namespace switchyard::runtime
