// Captured replay (switchyard/capture.hpp): a Recording is the sequence of launches one run of a
// function made, with every operand's buffer classified so that the launches can be made again
// for new inputs without the graph, fusion, planning or the scheduler. A Recorder, active on one
// thread while the function first runs, builds it from hooks in the executor and in Buffer.
//
// Buffers a launch touches are, on replay:
//   Input        the function's input i (rebound, offsets moved with the new input's offset)
//   Intermediate made by an earlier launch; kept by the recording and rewritten every replay
//   Fresh        made by a launch and returned (a view of it) by the function: new every replay
//   Constant     anything else read (arrays from outside the function, made by factories
//                inside it): kept and read as they are at replay time
// Launches may write only into buffers made by earlier launches or made inside the function and
// not read before (concatenate's result), so a replay changes nothing the caller can see before it
// succeeds, and a replay that fails can simply run the function again.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "backends/backend.hpp"
#include "runtime/executor.hpp"
#include "runtime/replay_graph.hpp"
#include "scheduler/scheduler.hpp"

namespace switchyard::runtime {

enum class SlotKind : std::uint8_t { Input, Intermediate, Fresh, Constant };

struct Slot {
  SlotKind kind;
  int input = -1;                  // Input: which input of the function
  std::int64_t input_offset = 0;   // Input: that input's offset when recorded
  std::shared_ptr<Buffer> buffer;  // Intermediate, Constant (Fresh: only while recording)
  Device* device = nullptr;        // Fresh: where its launch allocates it
  std::size_t bytes = 0;           // Fresh
};

// An operand of a recorded launch: a view of a slot's buffer.
struct RecordedOperand {
  std::uint32_t slot = 0;
  DType dtype = DType::Float32;
  std::int64_t offset = 0;  // for Input slots: relative to the input's own offset
  Strides strides;
  bool whole = true;  // outputs: the launch overwrites the whole buffer (no copy in needed)
  // An intermediate that only host-addressable devices touch: its memory is bound once, when
  // recording ends, and its validity never changes (the host copy is the only one).
  bool bound_once = false;
};

struct RecordedStep {
  Device* device = nullptr;
  Parallelism parallelism = Parallelism::Auto;
  std::shared_ptr<Executable> executable;
  bool library = false;
  // Whether the launch can be recorded into a launch graph: elementwise kernels and BLAS
  // products. Reductions and the other library ops take temporary memory for each launch, which
  // a graph would go on using after it was freed.
  bool graph_safe = false;
  Shape shape;                                   // kernels: the iteration space
  std::vector<ScalarValue> scalars;              // kernels
  std::vector<RecordedOperand> inputs, outputs;  // where each operand's memory comes from
  // The launch's operands, filled in when recorded; a replay binds only memory (and an input's
  // offset). Library ops keep theirs in library_args (a, b inputs; c, d, e outputs).
  std::vector<Operand> input_operands, output_operands;
  LibraryArgs library_args;
  Operand& launch_input(std::size_t i) {
    return library ? (i == 0 ? library_args.a : library_args.b) : input_operands[i];
  }
  Operand& launch_output(std::size_t i) {
    if (!library) return output_operands[i];
    return i == 0 ? library_args.c : i == 1 ? library_args.d : library_args.e;
  }
};

// One output of the function: a view of a slot.
struct RecordedOutput {
  std::uint32_t slot = 0;
  DType dtype = DType::Float32;
  Shape shape;
  Strides strides;
  std::int64_t offset = 0;
  bool empty = false;  // no elements: made fresh on the host, no slot
};

// A view as replay hands it back.
struct ReplayedView {
  std::shared_ptr<Buffer> buffer;
  const RecordedOutput* output;
};

class Recording {
 public:
  std::size_t kernels() const;
  std::size_t library_calls() const;
  const std::vector<RecordedStep>& steps() const { return steps_; }
  // The devices the recorded launches run on ("cpu:0", ...), in order of first use.
  std::vector<std::string> devices() const;
  // Whether a replay writes `buffer` (an input that is one must be copied first).
  bool writes(const Buffer* buffer) const;
  // Whether the function is worth recording again because the scheduler may place it better: a
  // kernel that was compiling for another device while this was recorded is ready now, or the
  // scheduler was replaced (devices calibrated since).
  bool placement_outdated() const;
  // The scheduler's decision for the whole step (scheduler/group.hpp): the placement it was
  // recorded with, each kernel's best, and every step on one device. nullopt when its launches
  // cannot be placed together (none, or one placed without a model).
  std::optional<scheduler::GroupDecision> placement_decision() const;
  bool placed_by_current_scheduler() const;  // not replaced since (calibration adds devices)

  // Makes the recorded launches again over `inputs` (one per function input, shaped as when
  // recorded) and returns the function's outputs. Device failures propagate as the backends'
  // typed errors (injected faults included); only Intermediate and Fresh buffers have been
  // written by then. Not for two threads at once.
  // The views live in the recording until the next replay: move the buffers out.
  std::span<ReplayedView> replay(std::span<const View> inputs);

 private:
  friend class Recorder;
  friend class ReplayGraph;
  void run_all(std::span<const View> inputs);
  void run(RecordedStep& step, std::span<const View> inputs);
  void bind(const RecordedOperand& o, Operand& operand, std::span<const View> inputs,
            Device& device, bool output);
  void bind_once();

  std::vector<Slot> slots_;
  std::vector<RecordedStep> steps_;
  std::vector<RecordedOutput> outputs_;
  std::vector<std::shared_ptr<Buffer>> bound_;  // per slot, for the replay under way
  std::vector<ReplayedView> replayed_;          // what replay() returns, reused
  // Kernels compiling in the background while recording: (device, kernel hash).
  std::vector<std::pair<Device*, std::uint64_t>> compiling_;
  // For the one metrics record per replay, made once.
  std::uint64_t id_ = 0;
  std::string label_, device_id_;
  std::int64_t elements_ = 0;
  // The launches as the scheduler sees them, for placing the whole step and learning what whole
  // replays take; empty when a launch had no model. scheduler_: the one that placed them.
  std::vector<scheduler::GroupStep> group_;
  scheduler::Scheduler* scheduler_ = nullptr;
  std::int64_t replays_ = 0;
  // The launches as one launch graph, where the device has them; tried on the first replay.
  std::unique_ptr<ReplayGraph> graph_;
  bool graph_tried_ = false;
};

// Builds a Recording while a function runs on this thread. At most one per thread is active;
// runtime::realize and run_library report to it.
class Recorder {
 public:
  // Starts recording on this thread; `inputs` are the function's inputs, realised.
  explicit Recorder(std::span<const View> inputs);
  ~Recorder();
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  static Recorder* active();

  // ---- hooks (executor, Buffer)
  // Before a kernel writes into existing storage: throws ValueError unless an earlier recorded
  // launch made it, or the function made it and no launch has read it yet.
  void check_destinations(std::span<const View> destinations) const;
  // Throws ValueError for library ops whose output size depends on the data.
  void check_library(const LibraryOp& op) const;
  // `work`: how the scheduler described the launch (for placing the whole step later).
  void record_kernel(const Candidate& c, std::shared_ptr<Executable> executable, const Group& group,
                     std::span<const View> outputs, const scheduler::Workload& work);
  void record_library(const Candidate& c, std::shared_ptr<Executable> executable,
                      const LibraryOp& op, const LibraryArgs& args, std::span<const View> inputs,
                      std::span<const View> outputs, const scheduler::Workload& work);
  // The scheduler chose another device for a kernel while it compiled for `device`.
  void note_compiling(Device& device, std::uint64_t kernel_hash) {
    recording_->compiling_.emplace_back(&device, kernel_hash);
  }
  // A buffer made while recording (by a factory, or a kernel's output).
  void note_created(const Buffer* buffer) { created_.insert(buffer); }
  // The host is about to read `buffer`: throws ValueError unless the buffer was made on the
  // host inside the function and no launch wrote it.
  void check_host_read(const Buffer& buffer) const;

  // Whether a recorded launch wrote `buffer` (the function's outputs must be such buffers).
  bool made_by_launch(const Buffer* buffer) const {
    const auto it = slot_index_.find(buffer);
    return it != slot_index_.end() && recording_->slots_[it->second].kind == SlotKind::Intermediate;
  }
  // Ends recording: `outputs` are the function's outputs, each realised and made by a recorded
  // launch (or empty). The recorder is spent after this.
  std::shared_ptr<Recording> finish(std::span<const View> outputs);

 private:
  std::uint32_t slot_of(const View& view);
  RecordedOperand read_operand(const View& view);
  RecordedOperand written_operand(const View& view, Device& device, bool fresh);
  void add_group_step(const Candidate& c, const scheduler::Workload& work);
  void link_group_steps();

  std::shared_ptr<Recording> recording_ = std::make_shared<Recording>();
  std::unordered_map<const Buffer*, std::uint32_t> slot_index_;
  std::unordered_set<const Buffer*> created_;
  bool groupable_ = true;  // every launch so far had a model: the step can be placed as a whole
  Recorder* previous_;
};

}  // namespace switchyard::runtime
