// Placement of a whole step: the kernels and library calls that run together every time (a
// captured function's launches), placed together. Kernel by kernel, a chain can be trapped on a
// device by where its data already is; over the group, moving data is paid once and only when the
// whole step finishes sooner for it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "scheduler/workload.hpp"

namespace switchyard::scheduler {

struct GroupStep {
  Workload work;               // as described when it ran: external inputs where they were then
  std::vector<int> producers;  // per work.inputs: the earlier step that wrote it; -1: from outside
  int candidate = 0;           // where it runs now (a scheduler model index)
  bool returns = false;        // writes an output of the group, read after it
};

// One way to place the group and what it is expected to cost.
struct GroupAlternative {
  std::string name;                  // "as recorded", "each kernel's best" or "all on <device>"
  std::vector<int> candidates;       // per step
  std::string all_on;                // the device every step runs on, for "all on <device>"
  double predicted_s = 0;            // its steps' expected times, data moved as it moves it
  std::optional<double> measured_s;  // whole runs of exactly this placement, when it has run
  int samples = 0;                   // behind measured_s
  double expected_s = 0;             // predicted, replaced by measured as samples build up
};

struct GroupDecision {
  std::vector<GroupAlternative> alternatives;  // the placement it runs with now first
  int chosen = 0;                              // index into alternatives
  bool moves() const { return chosen != 0; }
};

}  // namespace switchyard::scheduler
