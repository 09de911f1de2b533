#include "runtime/executor.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <optional>
#include <unordered_map>

#include "backends/registry.hpp"
#include "core/checked.hpp"
#include "core/log.hpp"
#include "runtime/attempts.hpp"
#include "runtime/buffer.hpp"
#include "runtime/executable_cache.hpp"
#include "runtime/explain_recorder.hpp"
#include "runtime/fault_injection.hpp"
#include "runtime/metrics.hpp"
#include "runtime/recording.hpp"
#include "runtime/result_destination.hpp"
#include "runtime/trace.hpp"
#include "scheduler/cost_model.hpp"
#include "switchyard/fallback.hpp"
#include "switchyard/shape.hpp"

namespace switchyard::runtime {
namespace {

thread_local Candidate pinned;

// The choice this thread's last plan made, for the same work coming again before any history
// moves or any kernel's readiness changes (a tiny op in a loop): asking the scheduler again costs
// a readiness check per candidate and a hashed lookup under a lock, ~0.3 us, 10-15% of such an
// op.
struct LastChoice {
  static constexpr std::size_t kMaxInputs = 4;
  const scheduler::Scheduler* scheduler = nullptr;  // never freed (Placement keeps every one)
  std::uint64_t history_generation = 0;             // History::generation(), of every series
  std::uint64_t readiness = 0;                      // readiness_epoch()
  std::uint64_t compiled = 0;                       // bit c: compiled on candidate c
  std::uint64_t signature = 0;
  std::int64_t elements = 0;
  bool result_to_host = false;
  int result_to_device = -1;
  std::size_t input_count = 0;
  std::array<scheduler::InputPlacement, kMaxInputs> inputs{};
  Candidate first;
  scheduler::Reason reason = scheduler::Reason::Forced;

  bool same_work(const scheduler::Workload& w) const {
    if (w.signature != signature || w.elements != elements || w.result_to_host != result_to_host ||
        w.result_to_device != result_to_device || w.inputs.size() != input_count)
      return false;
    for (std::size_t i = 0; i < input_count; ++i)
      if (w.inputs[i].on_host != inputs[i].on_host ||
          w.inputs[i].device_mask != inputs[i].device_mask)
        return false;
    return true;
  }
};
// This thread's last choices, one slot per signature's low bits: a loop body of several kernels
// finds each one's choice again (with one slot, each kernel displaced the one before).
constexpr std::size_t kLastChoices = 8;
thread_local std::array<LastChoice, kLastChoices> last_choices;

double seconds_between(TraceClock::time_point a, TraceClock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

}  // namespace

ir::Layout classify(const Shape& shape, const Strides& strides) {
  bool all_zero = true, contiguous = true;
  std::int64_t expected = 1;
  for (int i = shape.size() - 1; i >= 0; --i) {
    if (shape[i] == 1) continue;
    all_zero = all_zero && strides[i] == 0;
    contiguous = contiguous && strides[i] == expected;
    // Extents beside a zero one may multiply past int64: such an empty view has no layout to
    // speak of, and the product must not overflow.
    if (const auto next = checked::mul(expected, shape[i]))
      expected = *next;
    else
      contiguous = false;
  }
  if (all_zero) return ir::Layout::Broadcast;
  return contiguous ? ir::Layout::Contiguous : ir::Layout::Strided;
}

namespace {

// What one attempt on one candidate measured.
struct StageTimes {
  double compile_s = 0, transfer_s = 0, execute_s = 0;
  std::uint64_t bytes_moved = 0;
  bool cache_hit = true;
};

// Runs `acquire`, which takes `bytes` of memory on `device` (where faults may be injected). Out
// of memory is the memory pools' to handle (core/memory_pool.hpp): once they throw it, the
// device has no room.
template <class Acquire>
auto acquire_memory(Device& device, std::size_t bytes, const Acquire& acquire) {
  maybe_inject(device.info(), FaultStage::Allocate, bytes);
  return acquire();
}

// The operand for `a` on `device`, copying it there first when needed (timed and traced).
Operand operand_on(Device& device, const View& a, StageTimes& t) {
  Buffer& b = *a.buffer;
  if (b.valid_on(device) || b.unwritten()) return {b.read_on(device), a.dtype, a.offset, a.strides};
  maybe_inject(device.info(), FaultStage::Allocate, b.bytes());
  const auto start = TraceClock::now();
  const DeviceMemory memory = b.read_on(device);
  const auto end = TraceClock::now();
  t.transfer_s += seconds_between(start, end);
  t.bytes_moved += b.bytes();
  if (tracing())
    trace_complete(device.info(), TraceStage::Transfer, "to " + device.info().id(), start, end);
  return {memory, a.dtype, a.offset, a.strides};
}

// Launches through `launch`, waiting for the device so that the time is the execution's and an
// asynchronous launch error surfaces here, where fallback can catch it.
template <class Launch>
void timed_launch(Device& device, std::string_view label, StageTimes& t, const Launch& launch) {
  maybe_inject(device.info(), FaultStage::Launch);
  const auto start = TraceClock::now();
  launch();
  if (!device.info().host_addressable) device.synchronize();
  const auto end = TraceClock::now();
  t.execute_s = seconds_between(start, end);
  if (tracing()) trace_complete(device.info(), TraceStage::Execute, label, start, end);
}

// Whether an execution goes into the scheduler's history. A kernel's first launch after
// preparing pays one-off costs (lazy driver state, first touch of workspaces), so only
// steady-state runs count. Recording costs ~0.3 µs (robust estimates over the sample window):
// runs of 20 µs or more are always recorded, shorter ones one in eight, which bounds the cost
// at a few percent of any op while a kernel run in a loop still fills its window quickly.
bool worth_recording(const StageTimes& t) {
  constexpr double kAlwaysRecord_s = 20e-6;
  constexpr unsigned kShortRunSampling = 8;
  thread_local unsigned short_runs = 0;
  if (!t.cache_hit) return false;
  return t.execute_s + t.transfer_s >= kAlwaysRecord_s || ++short_runs % kShortRunSampling == 0;
}

// The order in which candidates are tried: the scheduler's choice first; the rest of its ranking
// only once that fails (so the hot path ranks nothing).
class Plan {
 public:
  // `inputs`: the storage w.inputs describes, in that order.
  Plan(const scheduler::Workload& w, std::span<const Buffer* const> inputs,
       const ir::Kernel* kernel, std::string_view label)
      : w_(w) {
    const Choices& choices = Placement::instance().current();
    candidates_ = &choices.candidates;
    if (pinned.device) {
      // Pinned work is not scheduled, but what it measures still teaches the scheduler.
      first_ = pinned;
      learner_ = choices.scheduler.get();
      for (const Candidate& c : choices.candidates)
        if (c.device == pinned.device && c.parallelism == pinned.parallelism)
          first_.model = c.model;
      // The host pinned without saying inline or parallel ("cpu:0") runs as the one of its
      // modelled candidates the cost model predicts faster, so its time is learnt under that
      // model. A prediction is arithmetic only: no history lookup on this path.
      if (first_.model < 0 && learner_ && pinned.parallelism == Parallelism::Auto) {
        double fastest_s = 0;
        for (const Candidate& c : choices.candidates) {
          if (c.device != pinned.device) continue;
          const auto& model = learner_->models()[c.model];
          const double s = scheduler::predict(w, model, model.id.device, true).total_s();
          if (first_.model < 0 || s < fastest_s) first_ = c, fastest_s = s;
        }
      }
      if (log_enabled(LogLevel::Debug))  // the id is a string made on each call
        log(LogLevel::Debug, fmt::format("decision: {} on {} (pinned by a device scope)", label,
                                         pinned.device->info().id()));
      return;
    }
    scheduler_ = learner_ = choices.scheduler.get();
    if (!scheduler_) {
      rest_ = Placement::instance().priority_order();
      std::erase_if(rest_, [&](const Candidate& c) { return !has_routine(c); });
      first_ = rest_.front();
      rest_.erase(rest_.begin());
      logf(LogLevel::Debug, "decision: {} on {} (no calibrated models: backend priority)", label,
           first_.device->info().id());
      return;
    }
    // The same work as this thread's last plan of it, nothing moved since: the same choice.
    LastChoice& last = last_choices[w.signature % kLastChoices];
    const std::uint64_t history_generation = scheduler_->history().generation();
    const std::uint64_t readiness = readiness_epoch();
    if (last.scheduler == scheduler_ && last.history_generation == history_generation &&
        last.readiness == readiness && last.same_work(w)) {
      first_ = last.first;
      reason_ = last.reason;
      remembered_compiled_ = last.compiled;
      wants_inputs_on_ = first_.device;
      return;
    }
    const auto& models = scheduler_->models();
    compiled_.resize(models.size());
    bool all_compiled = true;
    std::uint64_t compiled_mask = 0;
    for (std::size_t i = 0; i < models.size(); ++i) {
      compiled_[i] = ready(*choices.candidates[i].device, w.signature);
      all_compiled = all_compiled && compiled_[i];
      compiled_mask |= std::uint64_t{compiled_[i]} << i;
    }
    scheduler::Scheduler::ChoiceDetails choice;
    first_ = choices.candidates[scheduler_->choose(w, compiled_, &choice)];
    reason_ = choice.reason;
    best_expected_s_ = choice.best_expected_s;
    scheduler::Rent& rent = choice.rent;
    if (!has_routine(first_)) {  // only when no candidate fits: the best one with the routine
      for (const auto& e : scheduler_->decide(w, compiled_).ranking)
        if (has_routine(choices.candidates[e.candidate])) {
          first_ = choices.candidates[e.candidate];
          break;
        }
      rent.candidate = -1;
    }
    if (rent.candidate >= 0 && rent_is_due(rent, inputs)) {
      first_ = choices.candidates[rent.candidate];
      reason_ = scheduler::Reason::MovingReusedData;
    }
    // A run placed to measure a device, or to wait for a compile elsewhere, says nothing about
    // where this work wants its inputs.
    if (reason_ != scheduler::Reason::Exploring &&
        reason_ != scheduler::Reason::CompileInBackground)
      wants_inputs_on_ =
          rent.candidate >= 0 ? choices.candidates[rent.candidate].device : first_.device;
    logf(LogLevel::Debug, "decision: {} ({} elements) on {}: {}", label, w.elements,
         scheduler_->models()[first_.model].name, scheduler::describe(reason_));
    if (!all_compiled && kernel && reason_ == scheduler::Reason::CompileInBackground) {
      const auto decision = scheduler_->decide(w, compiled_);
      background_ = choices.candidates[decision.ranking.front().candidate].device;
      compile_in_background(*background_, *kernel, label);
    }
    // Kept only when using it again cannot differ from asking the scheduler: nothing charged per
    // run (exploring, rent), no compile under way for it, ranked at the version history has now
    // (not a choice the scheduler kept while history moved), few inputs.
    const bool per_run_charges = reason_ == scheduler::Reason::Exploring || rent_charged(rent);
    last = {};
    if (!per_run_charges && reason_ != scheduler::Reason::CompileInBackground &&
        has_routine(first_) && w.inputs.size() <= LastChoice::kMaxInputs &&
        choice.version == scheduler_->version(w)) {
      last.scheduler = scheduler_;
      last.history_generation = history_generation;
      last.readiness = readiness;
      last.compiled = compiled_mask;
      last.signature = w.signature;
      last.elements = w.elements;
      last.result_to_host = w.result_to_host;
      last.result_to_device = w.result_to_device;
      last.input_count = w.inputs.size();
      std::copy(w.inputs.begin(), w.inputs.end(), last.inputs.begin());
      last.first = first_;
      last.reason = reason_;
    }
  }

  const Candidate& first() const { return first_; }
  // The next candidate after `tried` failed, or nullopt when none is left.
  std::optional<Candidate> next(const std::vector<Device*>& failed_devices) {
    if (!ranked_ && scheduler_) {
      ranked_ = true;
      for (const auto& e : scheduler_->decide(w_, compiled()).ranking)
        rest_.push_back((*candidates_)[e.candidate]);
      // Devices still being calibrated in the background have no model yet, but can take the
      // work when every modelled one fails.
      for (const Candidate& c : Placement::instance().priority_order())
        if (std::none_of(rest_.begin(), rest_.end(),
                         [&](const Candidate& r) { return r.device == c.device; }))
          rest_.push_back(c);
    }
    while (!rest_.empty()) {
      const Candidate c = rest_.front();
      rest_.erase(rest_.begin());
      const bool failed =
          std::find(failed_devices.begin(), failed_devices.end(), c.device) != failed_devices.end();
      if (!failed && has_routine(c) && !device_health().disabled(c.device->info())) return c;
    }
    return std::nullopt;
  }
  // Charges this run's rent to each input that is not on the rent's candidate; due once what one
  // of them was charged reaches the cost of moving the inputs there.
  bool rent_is_due(const scheduler::Rent& rent, std::span<const Buffer* const> inputs) const {
    bool due = false;
    for (std::size_t i = 0; i < inputs.size(); ++i)
      if (!input_on(rent.candidate, i) &&
          inputs[i]->charge_rent(rent.candidate, rent.lost_s) >= rent.move_s)
        due = true;
    return due;
  }
  // Whether any input is away from the rent's candidate: only those are charged.
  bool rent_charged(const scheduler::Rent& rent) const {
    if (rent.candidate < 0) return false;
    for (std::size_t i = 0; i < w_.inputs.size(); ++i)
      if (!input_on(rent.candidate, i)) return true;
    return false;
  }
  // Whether input i is valid where candidate c runs.
  bool input_on(int c, std::size_t i) const {
    const auto& model = scheduler_->models()[c];
    const scheduler::InputPlacement& in = w_.inputs[i];
    return model.host_addressable ? in.on_host : (in.device_mask >> model.id.device & 1u) != 0;
  }
  bool more_possible() const { return !pinned.device && (scheduler_ || !rest_.empty()); }
  // Whether c's device has what the work needs (dense solvers, float64: Device::has).
  bool has_routine(const Candidate& c) const { return (w_.needs & ~c.device->has()) == 0; }
  scheduler::Scheduler* scheduler() const { return scheduler_; }
  // The scheduler whose history learns from this run (also for pinned work).
  scheduler::Scheduler* learner() const { return learner_; }
  scheduler::Reason reason() const { return reason_; }
  // When exploring: the best candidate's expected time.
  double best_expected_s() const { return best_expected_s_; }
  const std::vector<bool>& compiled() const {
    if (remembered_compiled_)  // made only when asked: rarely, on the path that reused a choice
      for (std::size_t c = 0; c < scheduler_->models().size(); ++c)
        compiled_.push_back((*remembered_compiled_ >> c & 1) != 0);
    remembered_compiled_.reset();
    return compiled_;
  }
  Device* compiling_in_background() const { return background_; }
  // Where this work would have its inputs: where it runs, or where it would run faster were they
  // there (the rent's candidate); null for work the scheduler did not place, or placed to learn.
  Device* wants_inputs_on() const { return wants_inputs_on_; }

 private:
  const scheduler::Workload& w_;
  const std::vector<Candidate>* candidates_;  // of the scheduler this plan uses
  scheduler::Scheduler* scheduler_ = nullptr;
  scheduler::Scheduler* learner_ = nullptr;
  mutable std::vector<bool> compiled_;
  mutable std::optional<std::uint64_t> remembered_compiled_;  // compiled_ as LastChoice kept it
  Candidate first_;
  std::vector<Candidate> rest_;
  bool ranked_ = false;
  scheduler::Reason reason_ = scheduler::Reason::Forced;
  double best_expected_s_ = 0;
  Device* background_ = nullptr;
  Device* wants_inputs_on_ = nullptr;
};

// Runs `attempt` on the plan's candidates until one succeeds; records metrics, history, traces
// and explain reports; throws AllDevicesFailed listing every attempt when all fail.
template <class Attempt_>
auto execute(const scheduler::Workload& w, std::span<const Buffer* const> inputs,
             const ir::Kernel* kernel, const std::shared_ptr<const std::string>& shared_label,
             const Attempt_& attempt) {
  const std::string_view label = *shared_label;
  const auto start = TraceClock::now();
  Plan plan(w, inputs, kernel, label);
  // What wrote the inputs learns where they are wanted (result_destination.hpp).
  if (Device* wanted = plan.wants_inputs_on())
    for (const Buffer* in : inputs) in->note_wanted_on(wanted);
  std::vector<runtime::Attempt> attempts;
  std::vector<Device*> failed_devices;
  std::optional<Candidate> candidate = plan.first();
  // A device disabled for failing repeatedly is not tried again, unless the work is pinned there.
  if (plan.more_possible() && device_health().disabled(candidate->device->info()))
    candidate = plan.next(failed_devices);
  const Candidate chosen = candidate ? *candidate : Candidate{};
  ExplainRecorder* explain = ExplainRecorder::active();
  if (explain && candidate)
    explain->begin(w, label, plan.scheduler(), plan.compiled(), *candidate, plan.reason(),
                   plan.compiling_in_background());
  while (candidate) {
    Device& device = *candidate->device;
    std::string_view stage = "allocate";
    StageTimes t;
    const auto attempt_start = TraceClock::now();
    try {
      auto out = [&] {
        const PinnedReads pinned(plan.reason() == scheduler::Reason::Forced);
        return attempt(*candidate, stage, t);
      }();
      const auto end = TraceClock::now();
      const double total_s = seconds_between(start, end);
      const std::string& device_id = device.id();
      device_health().record_success(device_id);
      double predicted_s = 0;
      if (plan.learner() && candidate->model >= 0) {
        const auto& model = plan.learner()->models()[candidate->model];
        predicted_s = scheduler::predict(w, model, model.id.device, t.cache_hit).total_s();
        // The whole run as the caller waited for it, compile aside: moving the inputs in, the
        // outputs' allocation and the backend's own work around the launch count too (on PoCL
        // they took longer than the launch itself for small work).
        const double rest_s = seconds_between(attempt_start, end) - t.compile_s - t.execute_s;
        // A run made to explore is always recorded: measuring it is why it ran there.
        const bool exploring = plan.reason() == scheduler::Reason::Exploring && t.cache_hit;
        if (exploring || worth_recording(t))
          plan.learner()->record(w, candidate->model, t.execute_s, std::max(rest_s, t.transfer_s));
      }
      const bool explored = plan.reason() == scheduler::Reason::Exploring;
      record_execution({device_id, w.signature, label, w.elements, t.bytes_moved, t.compile_s,
                        t.transfer_s, t.execute_s, total_s, t.cache_hit, predicted_s,
                        static_cast<int>(attempts.size()), scheduler::describe(plan.reason()),
                        explored,
                        explored ? std::max(0.0, total_s - plan.best_expected_s()) : 0.0});
      if (explain)
        explain->finish(*candidate, {total_s, t.compile_s, t.transfer_s, t.execute_s, t.cache_hit,
                                     static_cast<int>(attempts.size()), predicted_s});
      const Provenance provenance{shared_label,
                                  w.elements,
                                  chosen.device,
                                  chosen.parallelism,
                                  plan.reason(),
                                  &device,
                                  candidate->parallelism,
                                  static_cast<int>(attempts.size()),
                                  t.cache_hit,
                                  total_s,
                                  t.compile_s,
                                  t.transfer_s,
                                  t.execute_s,
                                  predicted_s,
                                  w.signature};
      for (const View& v : out) v.buffer->set_provenance(provenance);
      if (Device* compiling = plan.compiling_in_background())
        if (Recorder* recorder = Recorder::active())
          recorder->note_compiling(*compiling, w.signature);
      return out;
    } catch (const Error& e) {
      const bool device_failure = dynamic_cast<const CompileError*>(&e) ||
                                  dynamic_cast<const OutOfMemory*>(&e) ||
                                  dynamic_cast<const DeviceError*>(&e);
      if (!device_failure) throw;
      // Counted whether or not the work moves on: pinned work and work with fallback off fail
      // on their device too.
      record_failed_attempt(device.info().id());
      if (!fallback_enabled() || !plan.more_possible()) throw;
      attempts.push_back(make_attempt(device.info().id(), stage, e));
      device_health().record_failure(device.info().id(), e);
      if (tracing()) trace_instant(device.info(), "fallback: " + attempts.back().message);
      failed_devices.push_back(&device);
      candidate = plan.next(failed_devices);
      log_fallback(attempts.back(), label, candidate ? candidate->device->info().id() : "");
    }
  }
  throw_all_failed(attempts, label);
}

std::uint64_t bytes_read(std::span<const View> inputs) {
  std::uint64_t bytes = 0;
  for (const auto& in : inputs)
    bytes += classify(in.shape, in.strides) == ir::Layout::Broadcast
                 ? size_of(in.dtype)
                 : byte_count(in.shape, in.dtype);
  return bytes;
}

DType output_dtype(const ir::Kernel& kernel, std::size_t i) {
  return kernel.has_reduction ? ir::reduce_result(kernel.reductions[i].op, kernel.outputs[i].dtype)
                              : kernel.outputs[i].dtype;
}

// Writes the reduction's identity (sum 0, prod 1) into an output whose reduced span is empty.
void fill_identity(const View& out, ir::ReduceOp op) {
  std::byte* data = out.buffer->host_data();
  visit_dtype(out.dtype, [&](auto zero) {
    using T = decltype(zero);
    const T identity = op == ir::ReduceOp::Prod ? T(1) : T(0);
    for (std::int64_t i = 0; i < element_count(out.shape); ++i)
      std::memcpy(data + (out.offset + i) * sizeof(T), &identity, sizeof(T));
  });
  out.buffer->mark_host_written();
}

View contiguous_view(std::shared_ptr<Buffer> buffer, DType dtype, const Shape& shape) {
  return {std::move(buffer), dtype, shape, contiguous_strides(shape), 0};
}

}  // namespace

std::shared_ptr<Buffer> allocate_output(Device& device, std::size_t bytes) {
  return acquire_memory(device, bytes, [&] { return Buffer::allocate_on(device, bytes); });
}

namespace {

// An output of work with no elements. One with no elements either is made where the thread's
// device scope points: an empty array is on the device it was made for, as the array API's
// `device=` says. Others (a reduction's identities over an empty span) are written on the host.
std::shared_ptr<Buffer> empty_output(std::size_t bytes) {
  if (bytes > 0 || !pinned.device) return Buffer::allocate_host(bytes);
  std::shared_ptr<Buffer> buffer = allocate_output(*pinned.device, 0);
  buffer->mark_written(*pinned.device);
  return buffer;
}

thread_local int making_library_operands = 0;

}  // namespace

MakingLibraryOperands::MakingLibraryOperands() {
  ++making_library_operands;
}
MakingLibraryOperands::~MakingLibraryOperands() {
  --making_library_operands;
}

const Candidate& pinned_candidate() {
  return pinned;
}
void pin_candidate(const Candidate& candidate) {
  pinned = candidate;
}

std::string kernel_label(const ir::Kernel& kernel) {
  std::string label;
  for (const auto& i : kernel.body) {
    if (i.op == ir::OpCode::Load || i.op == ir::OpCode::Scalar) continue;
    if (!label.empty()) label += ',';
    label += ir::name(i.op);
  }
  for (const ir::Reduction& r : kernel.reductions)
    label += (label.empty() ? "" : ",") + std::string(ir::name(r.op));
  if (label.empty()) label = "copy";
  return label + " " + std::string(name(kernel.outputs[0].dtype));
}

namespace {

// Labels are made once per kernel and thread: every execution's metrics record names its kernel.
// Labels by signature, made once per thread and shared with the provenance of what each kernel
// writes, so that recording it never allocates.
template <class Make>
const std::shared_ptr<const std::string>& cached_label(std::uint64_t signature, const Make& make) {
  thread_local std::unordered_map<std::uint64_t, std::shared_ptr<const std::string>> labels;
  auto it = labels.find(signature);
  if (it == labels.end())
    it = labels.emplace(signature, std::make_shared<const std::string>(make())).first;
  return it->second;
}

}  // namespace

std::vector<View> realize(const Group& g) {
  const ir::Kernel& kernel = *g.kernel;
  const std::size_t n_outputs = kernel.outputs.size();
  const bool in_place = !g.destinations.empty();
  std::vector<std::size_t> out_bytes(n_outputs);
  std::uint64_t total_out_bytes = 0;
  for (std::size_t i = 0; i < n_outputs; ++i) {
    out_bytes[i] = byte_count(g.output_shapes[i], output_dtype(kernel, i));
    total_out_bytes += out_bytes[i];
  }
  const std::int64_t elements = element_count(g.shape);
  if (elements == 0) {
    std::vector<View> outs;
    for (std::size_t i = 0; i < n_outputs; ++i) {
      outs.push_back(in_place ? g.destinations[i]
                              : contiguous_view(empty_output(out_bytes[i]), output_dtype(kernel, i),
                                                g.output_shapes[i]));
      if (kernel.has_reduction && out_bytes[i] > 0)
        fill_identity(outs.back(), kernel.reductions[i].op);
    }
    return outs;
  }
  if (g.inputs.size() > kMaxKernelInputs || n_outputs > kMaxKernelOutputs)
    throw ValueError("a kernel reads " + std::to_string(g.inputs.size()) + " inputs and writes " +
                     std::to_string(n_outputs) + " outputs: expected at most " +
                     std::to_string(kMaxKernelInputs) + " inputs and " +
                     std::to_string(kMaxKernelOutputs) + " outputs");

  scheduler::Workload w =
      scheduler::describe(kernel, g.signature, elements, bytes_read(g.inputs), total_out_bytes);
  const Buffer* buffers[kMaxKernelInputs + kMaxKernelOutputs];
  std::size_t placed = 0;
  for (const View& in : g.inputs) buffers[placed++] = in.buffer.get();
  // Where a destination lives counts as an input's does: the part of it the kernel leaves
  // unwritten comes along to the device that runs it.
  for (const View& d : g.destinations) buffers[placed++] = d.buffer.get();
  add_residency(w, std::span(buffers, placed));
  if (making_library_operands > 0) w.result_to_host = false, w.result_to_device = -1;
  const auto& label = cached_label(w.signature, [&] { return kernel_label(kernel); });
  Recorder* recorder = Recorder::active();
  if (recorder) recorder->check_destinations(g.destinations);

  return execute(
      w, std::span(buffers, placed), &kernel, label,
      [&](const Candidate& c, std::string_view& stage, StageTimes& t) {
        Device& device = *c.device;
        std::vector<View> outs;
        for (std::size_t i = 0; i < n_outputs; ++i)
          outs.push_back(in_place ? g.destinations[i]
                                  : contiguous_view(allocate_output(device, out_bytes[i]),
                                                    output_dtype(kernel, i), g.output_shapes[i]));
        Operand operands[kMaxKernelInputs], results[kMaxKernelOutputs];
        for (std::size_t i = 0; i < n_outputs; ++i) {
          const View& out = outs[i];
          auto memory = [&] { return out.buffer->write_on(device); };
          // A destination's memory there is taken now (a fresh output's already was);
          // one that is only partly written keeps the rest: it is brought there whole.
          if (!in_place)
            results[i] = {memory(), out.dtype, out.offset, out.strides};
          else if (out_bytes[i] == out.buffer->bytes())
            results[i] = {acquire_memory(device, out_bytes[i], memory), out.dtype, out.offset,
                          out.strides};
          else
            results[i] = operand_on(device, out, t);
        }
        stage = "transfer";
        for (std::size_t i = 0; i < g.inputs.size(); ++i)
          operands[i] = operand_on(device, g.inputs[i], t);
        stage = "compile";
        const Prepared prepared = prepare(device, kernel, w.signature, *label);
        t.compile_s = prepared.compile_s;
        t.cache_hit = prepared.cache_hit;
        stage = "launch";
        const LaunchArgs args{g.shape, std::span(operands, g.inputs.size()), g.scalars,
                              std::span(results, n_outputs), c.parallelism};
        timed_launch(device, *label, t, [&] { device.launch(*prepared.executable, args); });
        for (const View& out : outs) out.buffer->mark_written(device);
        if (recorder) recorder->record_kernel(c, prepared.executable, g, outs, w);
        return outs;
      });
}

std::string library_label(const LibraryOp& op) {
  static constexpr std::string_view kNames[] = {"gemm",    "gemv",   "scan", "sort",
                                                "compact", "gather", "fft",  "solver"};
  static constexpr std::string_view kSolvers[] = {"svd", "qr", "cholesky", "solve", "eigh", "lu"};
  std::string label(kNames[static_cast<int>(op.kind)]);
  if (op.kind == LibraryOp::Kind::Solver) label = kSolvers[static_cast<int>(op.solver)];
  if (op.kind == LibraryOp::Kind::Scan) label += std::string(" ") + std::string(name(op.scan));
  if (op.kind == LibraryOp::Kind::Sort && op.indices) label = "argsort";
  if (op.kind == LibraryOp::Kind::Compact && op.indices) label = "nonzero";
  return label + " " + std::string(name(op.dtype));
}

// What a device lacks to run `op`, for messages: a dense solver, a routine, float64.
std::string lack(const LibraryOp& op) {
  if (op.kind == LibraryOp::Kind::Solver) return "no dense solver";
  return "no " + library_label(op) + " routine";
}

// An op some devices have no routine for (Device::runs) runs only where one is: work pinned
// elsewhere, or a machine with none, is a ValueError naming what would take it.
void require_a_routine(const LibraryOp& op) {
  if (pinned.device && !pinned.device->runs(op.kind))
    throw ValueError(library_label(op) + " cannot run on " + pinned.device->info().id() +
                     ": it has " + lack(op) +
                     "; expected a device with one (cpu:0 has every routine), or no device scope "
                     "so that the scheduler places it");
  const auto devices = Registry::instance().devices();
  if (std::none_of(devices.begin(), devices.end(), [&](Device* d) { return d->runs(op.kind); }))
    throw ValueError(library_label(op) + ": no device here has a routine for it (" + lack(op) +
                     " on any device; the cpu backend's LAPACK is disabled or unavailable)");
}

std::vector<View> run_library(const LibraryOp& op, const LibraryArgs& args,
                              std::span<const View> inputs,
                              std::span<const LibraryOutput> outputs) {
  if (inputs.size() > 2 || outputs.empty() || outputs.size() > 3)
    throw ValueError("library op " + library_label(op) + " with " + std::to_string(inputs.size()) +
                     " inputs and " + std::to_string(outputs.size()) +
                     " outputs: expected up to 2 inputs and 3 outputs");
  require_a_routine(op);
  Recorder* recorder = Recorder::active();
  if (recorder) recorder->check_library(op);
  scheduler::Workload w = scheduler::describe(op, args);
  const Buffer* buffers[2] = {};
  for (std::size_t i = 0; i < inputs.size(); ++i) buffers[i] = inputs[i].buffer.get();
  add_residency(w, std::span(buffers, inputs.size()));
  const auto& label = cached_label(w.signature, [&] { return library_label(op); });
  return execute(
      w, std::span(buffers, inputs.size()), nullptr, label,
      [&](const Candidate& c, std::string_view& stage, StageTimes& t) {
        Device& device = *c.device;
        std::vector<View> outs;
        for (const LibraryOutput& o : outputs)
          outs.push_back(contiguous_view(allocate_output(device, byte_count(o.shape, o.dtype)),
                                         o.dtype, o.shape));
        stage = "transfer";
        LibraryArgs placed = args;
        Operand* in_slots[2] = {&placed.a, &placed.b};
        for (std::size_t i = 0; i < inputs.size(); ++i)
          *in_slots[i] = operand_on(device, inputs[i], t);
        Operand* out_slots[3] = {&placed.c, &placed.d, &placed.e};
        for (std::size_t i = 0; i < outs.size(); ++i)
          *out_slots[i] = {outs[i].buffer->write_on(device), outs[i].dtype, 0, outs[i].strides};
        stage = "compile";
        const Prepared prepared = prepare(device, op, *label);
        t.compile_s = prepared.compile_s;
        t.cache_hit = prepared.cache_hit;
        stage = "launch";
        timed_launch(device, *label, t, [&] { device.launch(*prepared.executable, placed); });
        for (const View& out : outs) out.buffer->mark_written(device);
        if (recorder) recorder->record_library(c, prepared.executable, op, placed, inputs, outs, w);
        return outs;
      });
}

}  // namespace switchyard::runtime
