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
int calibrate(bool quick);
int explain(const std::string& op, double n_elements, const std::string& resident);

}  // namespace switchyard::cli
