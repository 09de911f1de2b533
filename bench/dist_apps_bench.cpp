// The decomposed workloads' time per call across the ranks of an MPI job, for docs/scaling.md:
//   field  statistics() of one frame of a 2048-wide grid of ROWS rows (float32)
//   mlp    one train_step() of an MLP 784 → 256 → 10 (float32, Adam) on a batch of ROWS rows
// each in Summation::Reproducible and Summation::Fast, in row blocks of 64. Strong scaling: the
// same ROWS at every rank count; weak: ROWS times the ranks.
// Method: one untimed call (compiles and first touches), then the median of ROUNDS calls, each
// started together after a barrier; rank 0 prints one line per mode.
//
// Usage: mpiexec -n R dist_apps_bench field|mlp ROWS [ROUNDS]        (ROUNDS default 7)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "median_time.hpp"
#include "switchyard/apps/field_dist.hpp"
#include "switchyard/apps/nn_dist.hpp"

namespace sy = switchyard;
namespace field = switchyard::apps::field;
namespace nn = switchyard::apps::nn;

namespace {

constexpr std::int64_t kBlockRows = 64;

// Each timed call starts on every rank at once.
double median_s(const sy::dist::Communicator& comm, int rounds, const std::function<void()>& work) {
  return sy::bench::median_s(rounds, work, [&] { MPI_Barrier(comm.native()); });
}

const char* name(sy::dist::Summation mode) {
  return mode == sy::dist::Summation::Reproducible ? "reproducible" : "fast";
}

void report(const sy::dist::Communicator& comm, const char* workload, std::int64_t rows,
            sy::dist::Summation mode, double seconds) {
  if (comm.rank() == 0)
    std::printf("%-5s ranks %d  rows %6lld  %-12s  %8.2f ms\n", workload, comm.size(),
                static_cast<long long>(rows), name(mode), seconds * 1e3);
}

void field_bench(const sy::dist::Communicator& comm, std::int64_t rows, int rounds) {
  const field::DistGrid grid = field::distribute({.width = 2048, .height = rows}, comm, kBlockRows);
  for (const auto mode : {sy::dist::Summation::Reproducible, sy::dist::Summation::Fast})
    report(comm, "field", rows, mode,
           median_s(comm, rounds, [&] { field::statistics(grid, {}, 0.5, mode); }));
}

void mlp_bench(const sy::dist::Communicator& comm, std::int64_t rows, int rounds) {
  const nn::DistBatch batch =
      nn::distribute(nn::make_classification(rows, 784, 10, 1), comm, kBlockRows);
  for (const auto mode : {sy::dist::Summation::Reproducible, sy::dist::Summation::Fast}) {
    nn::DistTrainer trainer(nn::MLP({784, 256, 10}, 8), std::make_shared<nn::Adam>(), mode);
    report(comm, "mlp", rows, mode, median_s(comm, rounds, [&] { trainer.train_step(batch); }));
  }
}

}  // namespace

int main(int argc, char** argv) {
  sy::dist::Environment mpi(argc, argv);
  const std::string workload = argc > 1 ? argv[1] : "";
  if (argc < 3 || (workload != "field" && workload != "mlp")) {
    std::fprintf(stderr, "usage: dist_apps_bench field|mlp ROWS [ROUNDS]\n");
    return 2;
  }
  const std::int64_t rows = std::atoll(argv[2]);
  const int rounds = argc > 3 ? std::atoi(argv[3]) : 7;
  const sy::dist::Communicator comm;
  if (workload == "field")
    field_bench(comm, rows, rounds);
  else
    mlp_bench(comm, rows, rounds);
  return 0;
}
