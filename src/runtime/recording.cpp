#include "runtime/recording.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>

#include "core/checked.hpp"
#include "runtime/attempts.hpp"
#include "runtime/buffer.hpp"
#include "runtime/executable_cache.hpp"
#include "runtime/fault_injection.hpp"
#include "runtime/metrics.hpp"
#include "runtime/placement.hpp"
#include "runtime/trace.hpp"
#include "switchyard/error.hpp"

namespace switchyard::runtime {
namespace {

thread_local Recorder* active_recorder = nullptr;

const char* const kWriteAdvice =
    "a captured function may write only into arrays it computed itself (a replay must change "
    "nothing the caller sees until it succeeds); expected the function to return the new values "
    "instead, e.g. `theta = step(theta)`";

}  // namespace

// ---- Recording

std::size_t Recording::kernels() const {
  return std::count_if(steps_.begin(), steps_.end(),
                       [](const RecordedStep& s) { return !s.library; });
}

std::size_t Recording::library_calls() const {
  return steps_.size() - kernels();
}

std::vector<std::string> Recording::devices() const {
  std::vector<std::string> ids;
  for (const RecordedStep& s : steps_)
    if (std::find(ids.begin(), ids.end(), s.device->info().id()) == ids.end())
      ids.push_back(s.device->info().id());
  return ids;
}

bool Recording::writes(const Buffer* buffer) const {
  return std::any_of(slots_.begin(), slots_.end(), [&](const Slot& s) {
    return s.kind == SlotKind::Intermediate && s.buffer.get() == buffer;
  });
}

bool Recording::placement_outdated() const {
  if (!group_.empty() && !placed_by_current_scheduler()) return true;
  return std::any_of(compiling_.begin(), compiling_.end(),
                     [](const auto& c) { return ready(*c.first, c.second); });
}

bool Recording::placed_by_current_scheduler() const {
  return scheduler_ == Placement::instance().scheduler();
}

std::optional<scheduler::GroupDecision> Recording::placement_decision() const {
  if (group_.empty() || !placed_by_current_scheduler()) return std::nullopt;
  return scheduler_->decide_group(group_);
}

void Recording::bind(const RecordedOperand& o, Operand& operand, std::span<const View> inputs,
                     Device& device, bool output) {
  if (o.bound_once) return;
  const Slot& slot = slots_[o.slot];
  Buffer* buffer;
  switch (slot.kind) {
    case SlotKind::Input:
      buffer = inputs[slot.input].buffer.get();
      operand.offset = o.offset + inputs[slot.input].offset;
      break;
    case SlotKind::Fresh: {
      std::shared_ptr<Buffer>& fresh = bound_[o.slot];
      if (!fresh) fresh = allocate_output(*slot.device, slot.bytes);
      buffer = fresh.get();
      break;
    }
    default:
      buffer = slot.buffer.get();
  }
  operand.memory = output && o.whole ? buffer->write_on(device) : buffer->read_on(device);
}

void Recording::run(RecordedStep& step, std::span<const View> inputs) {
  Device& device = *step.device;
  for (std::size_t i = 0; i < step.outputs.size(); ++i)
    bind(step.outputs[i], step.launch_output(i), inputs, device, true);
  for (std::size_t i = 0; i < step.inputs.size(); ++i)
    bind(step.inputs[i], step.launch_input(i), inputs, device, false);
  maybe_inject(device.info(), FaultStage::Launch);
  if (step.library)
    device.launch(*step.executable, step.library_args);
  else
    device.launch(*step.executable, LaunchArgs{step.shape, step.input_operands, step.scalars,
                                               step.output_operands, step.parallelism});
  for (const RecordedOperand& o : step.outputs) {
    if (o.bound_once) continue;
    const Slot& slot = slots_[o.slot];
    (slot.kind == SlotKind::Fresh ? *bound_[o.slot] : *slot.buffer).mark_written(device);
  }
}

void Recording::bind_once() {
  std::vector<bool> host_only(slots_.size(), true);
  for (const RecordedStep& step : steps_)
    if (!step.device->info().host_addressable) {
      for (const RecordedOperand& o : step.inputs) host_only[o.slot] = false;
      for (const RecordedOperand& o : step.outputs) host_only[o.slot] = false;
    }
  for (RecordedStep& step : steps_) {
    auto fix = [&](RecordedOperand& o, Operand& operand) {
      const Slot& slot = slots_[o.slot];
      if (slot.kind != SlotKind::Intermediate || !host_only[o.slot]) return;
      o.bound_once = true;
      operand.memory = slot.buffer->write_on(*step.device);  // the host copy itself
    };
    for (std::size_t i = 0; i < step.inputs.size(); ++i) fix(step.inputs[i], step.launch_input(i));
    for (std::size_t i = 0; i < step.outputs.size(); ++i)
      fix(step.outputs[i], step.launch_output(i));
  }
}

void Recording::run_all(std::span<const View> inputs) {
  Device* device = steps_.empty() ? nullptr : steps_.front().device;
  try {
    if (!graph_tried_) {
      graph_tried_ = true;
      graph_ = ReplayGraph::build(*this, inputs);
    }
    if (graph_) return graph_->run(*this, inputs);
    Device* waited = nullptr;
    for (RecordedStep& step : steps_) {
      device = step.device;
      run(step, inputs);
      // Errors of asynchronous launches surface here, before the outputs are handed out.
      if (!step.device->info().host_addressable && step.device != waited) {
        if (waited) (device = waited)->synchronize();
        waited = step.device;
      }
    }
    if (waited) (device = waited)->synchronize();
  } catch (const Error& e) {
    // Counted and logged as the executor does a failed attempt; the caller falls back.
    const Attempt failed = make_attempt(device->info().id(), "replay", e);
    device_health().record_failure(failed.device, e);
    record_failed_attempt(failed.device);
    log_fallback(failed, label_, "running the captured function again");
    throw;
  }
}

std::span<ReplayedView> Recording::replay(std::span<const View> inputs) {
  struct ClearFresh {  // the caller owns the outputs; the recording keeps none of them
    std::vector<std::shared_ptr<Buffer>>& bound;
    ~ClearFresh() {
      for (auto& b : bound) b.reset();
    }
  } clear{bound_};
  const auto start = TraceClock::now();
  run_all(inputs);
  replayed_.clear();
  for (const RecordedOutput& o : outputs_)
    replayed_.push_back({o.empty ? nullptr : bound_[o.slot], &o});
  // One metrics record and trace span per replay, not per launch: a replay is one unit of work.
  const auto end = TraceClock::now();
  const double total_s = std::chrono::duration<double>(end - start).count();
  record_execution({device_id_, id_, label_, elements_, 0, 0, 0, total_s, total_s, true, 0, 0,
                    "replay of a captured function"});
  // What the whole step took placed this way: decides, with the model, whether to place it anew.
  // Every replay until history's window is full, then one in eight (as the executor samples short
  // runs): recording hashes every launch, a noticeable share of a few-microsecond replay.
  ++replays_;
  if (!group_.empty() && (replays_ <= scheduler::History::kWindow || replays_ % 8 == 0) &&
      placed_by_current_scheduler())
    scheduler_->record_group(group_, total_s);
  if (tracing() && !steps_.empty())
    trace_complete(steps_.front().device->info(), TraceStage::Execute, label_, start, end);
  return replayed_;
}

// ---- Recorder

Recorder::Recorder(std::span<const View> inputs) : previous_(active_recorder) {
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const Buffer* b = inputs[i].buffer.get();
    if (slot_index_.count(b)) continue;  // an input aliasing an earlier one reads through it
    slot_index_.emplace(b, recording_->slots_.size());
    recording_->slots_.push_back(
        {SlotKind::Input, static_cast<int>(i), inputs[i].offset, nullptr, nullptr, 0});
  }
  active_recorder = this;
}

Recorder::~Recorder() {
  active_recorder = previous_;
}

Recorder* Recorder::active() {
  return active_recorder;
}

std::uint32_t Recorder::slot_of(const View& view) {
  const auto it = slot_index_.find(view.buffer.get());
  if (it != slot_index_.end()) return it->second;
  const auto slot = static_cast<std::uint32_t>(recording_->slots_.size());
  slot_index_.emplace(view.buffer.get(), slot);
  recording_->slots_.push_back({SlotKind::Constant, -1, 0, view.buffer, nullptr, 0});
  return slot;
}

RecordedOperand Recorder::read_operand(const View& view) {
  const std::uint32_t slot = slot_of(view);
  const Slot& s = recording_->slots_[slot];
  const std::int64_t offset =
      s.kind == SlotKind::Input ? view.offset - s.input_offset : view.offset;
  return {slot, view.dtype, offset, view.strides, true};
}

RecordedOperand Recorder::written_operand(const View& view, Device& device, bool fresh) {
  // Storage the function made (concatenate's result, zeros it fills) and no launch has read yet
  // is the function's own: written every replay like a launch's output.
  const bool made_here_unread =
      created_.count(view.buffer.get()) && !slot_index_.count(view.buffer.get());
  if (fresh || made_here_unread) {
    const auto slot = static_cast<std::uint32_t>(recording_->slots_.size());
    slot_index_[view.buffer.get()] = slot;
    recording_->slots_.push_back(
        {SlotKind::Intermediate, -1, 0, view.buffer, &device, view.buffer->bytes()});
    return {slot, view.dtype, view.offset, view.strides,
            fresh || byte_count(view.shape, view.dtype) == view.buffer->bytes()};
  }
  RecordedOperand o = read_operand(view);
  o.whole = byte_count(view.shape, view.dtype) == view.buffer->bytes();
  return o;
}

void Recorder::check_destinations(std::span<const View> destinations) const {
  for (const View& d : destinations) {
    if (d.buffer->borrowed() && created_.count(d.buffer.get()))
      throw ValueError(
          "cannot read an array's values on the host inside a captured function: a replay "
          "would not run that read again and would reuse the value it gave; expected the "
          "function to compute on arrays only, returning what the caller reads");
    const auto it = slot_index_.find(d.buffer.get());
    if (it == slot_index_.end() && created_.count(d.buffer.get())) continue;  // made here, unread
    if (it == slot_index_.end() || recording_->slots_[it->second].kind != SlotKind::Intermediate)
      throw ValueError(
          std::string("cannot write into ") +
          (it != slot_index_.end() && recording_->slots_[it->second].kind == SlotKind::Input
               ? "an input"
               : "an array not computed") +
          " inside a captured function: " + kWriteAdvice);
  }
}

void Recorder::check_library(const LibraryOp& op) const {
  if (op.kind == LibraryOp::Kind::Compact)
    throw ValueError(std::string(op.indices ? "nonzero" : "compress") +
                     " inside a captured function: its output size depends on the values, "
                     "which a replay cannot know in advance; expected operations whose output "
                     "shapes follow from the input shapes (e.g. where(mask, x, 0))");
}

void Recorder::check_host_read(const Buffer& buffer) const {
  const auto it = slot_index_.find(&buffer);
  const bool made_here_untouched =
      created_.count(&buffer) &&
      (it == slot_index_.end() || recording_->slots_[it->second].kind == SlotKind::Constant);
  if (!made_here_untouched)
    throw ValueError(
        "cannot read an array's values on the host inside a captured function (to_host, item, "
        "to_vector, printing, DLPack or NumPy export, a strided assign): a replay would not run "
        "that read again and would reuse the value it gave; expected the function to compute "
        "on arrays only, returning what the caller reads");
}

void Recorder::add_group_step(const Candidate& c, const scheduler::Workload& work) {
  Recording& r = *recording_;
  if (c.model < 0) groupable_ = false;  // pinned to a device without a model
  if (groupable_) r.group_.push_back({work, {}, c.model, false});
}

// Which earlier launch wrote each input of every launch, and which launches write an output of
// the function (slot kinds are final by now).
void Recorder::link_group_steps() {
  Recording& r = *recording_;
  if (!groupable_) return r.group_.clear();
  for (std::size_t i = 0; i < r.steps_.size(); ++i) {
    const RecordedStep& step = r.steps_[i];
    scheduler::GroupStep& g = r.group_[i];
    const auto writer = [&](std::uint32_t slot) {
      for (std::size_t j = i; j-- > 0;)
        for (const RecordedOperand& o : r.steps_[j].outputs)
          if (o.slot == slot) return static_cast<int>(j);
      return -1;
    };
    // The workload's inputs: the launch's inputs, then (kernels writing in place) its outputs.
    for (const RecordedOperand& o : step.inputs) g.producers.push_back(writer(o.slot));
    for (std::size_t k = 0; g.producers.size() < g.work.inputs.size(); ++k)
      g.producers.push_back(k < step.outputs.size() ? writer(step.outputs[k].slot) : -1);
    g.returns = std::any_of(step.outputs.begin(), step.outputs.end(), [&](const auto& o) {
      return r.slots_[o.slot].kind == SlotKind::Fresh;
    });
  }
  r.scheduler_ = Placement::instance().scheduler();
}

void Recorder::record_kernel(const Candidate& c, std::shared_ptr<Executable> executable,
                             const Group& group, std::span<const View> outputs,
                             const scheduler::Workload& work) {
  add_group_step(c, work);
  RecordedStep step;
  step.device = c.device;
  step.parallelism = c.parallelism;
  step.executable = std::move(executable);
  step.graph_safe = !group.kernel->has_reduction;
  step.shape = group.shape;
  step.scalars = group.scalars;
  for (const View& in : group.inputs) {
    step.inputs.push_back(read_operand(in));
    step.input_operands.push_back({{}, in.dtype, in.offset, in.strides});
  }
  const bool fresh = group.destinations.empty();
  for (const View& out : outputs) {
    step.outputs.push_back(written_operand(out, *c.device, fresh));
    step.output_operands.push_back({{}, out.dtype, out.offset, out.strides});
  }
  recording_->steps_.push_back(std::move(step));
}

void Recorder::record_library(const Candidate& c, std::shared_ptr<Executable> executable,
                              const LibraryOp& op, const LibraryArgs& args,
                              std::span<const View> inputs, std::span<const View> outputs,
                              const scheduler::Workload& work) {
  add_group_step(c, work);
  RecordedStep step;
  step.device = c.device;
  step.parallelism = c.parallelism;
  step.executable = std::move(executable);
  step.library = true;
  step.graph_safe = op.kind == LibraryOp::Kind::Gemm || op.kind == LibraryOp::Kind::Gemv;
  step.library_args = args;
  for (const View& in : inputs) step.inputs.push_back(read_operand(in));
  for (const View& out : outputs) step.outputs.push_back(written_operand(out, *c.device, true));
  recording_->steps_.push_back(std::move(step));
}

std::shared_ptr<Recording> Recorder::finish(std::span<const View> outputs) {
  Recording& r = *recording_;
  for (const View& out : outputs) {
    RecordedOutput o{0, out.dtype, out.shape, out.strides, out.offset, !out.buffer};
    if (out.buffer) {
      o.slot = slot_index_.at(out.buffer.get());
      Slot& slot = r.slots_[o.slot];
      slot.kind = SlotKind::Fresh;
      slot.buffer.reset();
    }
    r.outputs_.push_back(o);
  }
  r.bound_.assign(r.slots_.size(), nullptr);
  r.bind_once();
  link_group_steps();
  static std::atomic<std::uint64_t> next_id{1};
  r.id_ = next_id.fetch_add(1, std::memory_order_relaxed);
  r.label_ = "replay of " + std::to_string(r.steps_.size()) + " launches";
  r.device_id_ = r.steps_.empty() ? "host" : r.steps_.front().device->info().id();
  for (const RecordedStep& step : r.steps_)
    r.elements_ += step.library ? 0 : element_count(step.shape);
  return recording_;
}

}  // namespace switchyard::runtime
