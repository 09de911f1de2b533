#include <CLI/CLI.hpp>
#include <cstdio>

#include "commands.hpp"
#include "switchyard/error.hpp"

int main(int argc, char** argv) {
  CLI::App app{"switchyard: runs numerical work on every device this machine has"};
  app.require_subcommand(1);

  bool json = false;
  auto* info = app.add_subcommand(
      "info",
      "Host, SIMD target, backends and devices, settings (exit status 1 when a setting is bad)");
  info->add_flag("--json", json, "print JSON for scripts");
  switchyard::cli::DemoOptions demo_options;
  std::int64_t demo_n = 0;
  auto* demo = app.add_subcommand(
      "demo",
      "Runs each workload at a small and a large size on every device and on auto (exit status "
      "1, after the whole table, when auto failed some work or every device did)");
  demo->add_option("--workload", demo_options.workload,
                   "run one workload: oscillators, fractional, field, mlp, query");
  demo->add_option("--n", demo_n, "run at this size only (what n means depends on the workload)");
  demo->add_option("--json", demo_options.json_path, "where to write the table as JSON");
  demo->add_flag("--quick", demo_options.quick, "small sizes only, one timed run each");
  demo->add_flag("--explain", demo_options.explain,
                 "print explain's report of auto's run for each row where auto is >10% slower");
  int ranks = 0;
  demo->add_option("--ranks", ranks,
                   "run the workloads decomposed across this many MPI ranks instead (mpiexec)");
  // One rank of `demo --ranks`, as mpiexec starts it.
  auto* demo_rank = app.add_subcommand("demo-rank", "")->group("");
  demo_rank->add_flag("--quick", demo_options.quick);

  bool quick = false;
  auto* calibrate = app.add_subcommand(
      "calibrate",
      "Measures each device's launch, transfer, bandwidth, throughput and compile costs and saves "
      "the profile");
  calibrate->add_flag("--quick", quick, "the short calibration a first auto decision runs");

  std::string op = "a*b+sin(c)", resident;
  double n = 1e6;
  auto* explain =
      app.add_subcommand("explain", "Shows where each kernel of an expression runs and why");
  explain->add_option("--op", op, "expression over arrays a..z, e.g. \"sum(a*b+sin(c))\"");
  explain->add_option("--n", n, "elements per array, e.g. 1e6");
  explain->add_option("--resident", resident, "keep the inputs on this device first, e.g. opencl");

  CLI11_PARSE(app, argc, argv);
  try {
    if (info->parsed()) return switchyard::cli::info(json);
    if (calibrate->parsed()) return switchyard::cli::calibrate(quick);
    if (explain->parsed()) return switchyard::cli::explain(op, n, resident);
    if (demo_rank->parsed() || demo->count("--ranks") > 0) {
#ifdef SWITCHYARD_CLI_RANKS
      return demo_rank->parsed() ? switchyard::cli::demo_rank(demo_options.quick)
                                 : switchyard::cli::demo_ranks(ranks, demo_options.quick);
#else
      throw switchyard::ValueError(
          "demo --ranks: this switchyard was built without MPI; install Open MPI "
          "(libopenmpi-dev) or MPICH and build again");
#endif
    }
    if (demo_n != 0) demo_options.n = demo_n;
    return switchyard::cli::demo(demo_options);
  } catch (const switchyard::Error& e) {
    std::fprintf(stderr, "switchyard: %s\n", e.what());
    return 2;
  }
}
