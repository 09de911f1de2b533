// A job in which one rank dies in the middle of a loop of reproducible sums, each an allgather,
// while the others wait for it in the next one. How it dies is argv[1]: "kill" (SIGKILL, no
// chance to clean up), "abort" (what an uncaught exception ends in) or "exit" (returning early
// without MPI_Finalize). job_ends.cmake runs it under mpiexec and checks that the whole job ends
// promptly with a non-zero status instead of leaving the other ranks waiting.
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "switchyard/dist.hpp"
#include "switchyard/switchyard.hpp"

namespace {

namespace dist = switchyard::dist;

constexpr int kDyingRank = 1;
constexpr int kDeathStep = 3;

[[noreturn]] void die(std::string_view how) {
  // Not naming the rank: the test looks for mpiexec's own report of which rank died.
  std::fprintf(stderr, "dying at step %d (%.*s)\n", kDeathStep, static_cast<int>(how.size()),
               how.data());
  if (how == "kill") std::raise(SIGKILL);
  if (how == "exit") std::exit(0);
  std::abort();
}

}  // namespace

int main(int argc, char** argv) {
  dist::Environment mpi(argc, argv);
  const dist::Communicator comm;
  const std::string_view how = argc > 1 ? argv[1] : "kill";
  const std::int64_t n = 1000;
  const dist::DistArray x =
      dist::DistArray::distribute(switchyard::Array::arange(static_cast<double>(n)),
                                  dist::Layout::row_blocks(n, comm.size(), 16));
  double total = 0;
  for (int step = 0; step < 10; ++step) {
    if (step == kDeathStep && comm.rank() == kDyingRank) die(how);
    total += dist::sum(x);
  }
  std::printf("rank %d: every step done, total %g\n", comm.rank(), total);
  return 0;
}
