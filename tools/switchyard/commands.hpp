// The subcommands of the `switchyard` program.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace switchyard::cli {

int info(bool json);
// `switchyard demo`: every workload (or the one named) at its small and large size, or at n.
struct DemoOptions {
  std::string workload;  // empty: all
  std::optional<std::int64_t> n;
  bool quick = false;  // small sizes, one timed run each (for tests)
  // Over the table: explain's report of auto's run for each row where auto is more than 10%
  // slower than the best device.
  bool explain = false;
  std::string json_path = "switchyard-demo.json";
};
int demo(const DemoOptions& options);
// `switchyard demo --ranks N` (where MPI was found at build time, SWITCHYARD_CLI_RANKS): the
// decomposed workloads across N ranks, started through mpiexec, each rank running demo_rank.
int demo_ranks(int ranks, bool quick);
int demo_rank(bool quick);
int calibrate(bool quick);
int explain(const std::string& op, double n_elements, const std::string& resident);

}  // namespace switchyard::cli
