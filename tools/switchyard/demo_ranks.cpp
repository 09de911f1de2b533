// `switchyard demo --ranks N`: the decomposed workloads (docs/scaling.md) across N MPI ranks on
// this machine. The launcher starts `mpiexec -n N switchyard demo-rank`; each rank runs every
// workload on its rows, and rank 0 prints the time per call beside whether the result has the
// bits of the same run on one rank (MPI_COMM_SELF, computed there too).
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "commands.hpp"
#include "median_time.hpp"
#include "switchyard/apps/field_dist.hpp"
#include "switchyard/apps/nn_dist.hpp"
#include "switchyard/apps/oscillators_dist.hpp"
#include "switchyard/apps/query_dist.hpp"
#include "switchyard/error.hpp"
#include "switchyard/runtime.hpp"

extern char** environ;

namespace switchyard::cli {
namespace {

namespace field = apps::field;
namespace nn = apps::nn;
namespace osc = apps::oscillators;
namespace query = apps::query;

constexpr std::int64_t kBlockRows = 64;

// A workload's answer as bytes, to compare runs bit for bit.
using Bits = std::vector<unsigned char>;

void append(Bits& bits, const void* data, std::size_t bytes) {
  const std::size_t at = bits.size();
  bits.resize(at + bytes);
  if (bytes > 0) std::memcpy(bits.data() + at, data, bytes);
}

template <class T>
void append(Bits& bits, const std::vector<T>& values) {
  append(bits, values.data(), values.size() * sizeof(T));
}

struct Workload {
  std::string name, size;
  // Makes this rank's share of the inputs over `comm`; returns the timed call, which computes the
  // answer and returns its bits.
  std::function<std::function<Bits()>(const dist::Communicator& comm)> prepare;
};

std::vector<Workload> workloads(bool quick) {
  const std::int64_t field_side = quick ? 128 : 1024, batch = quick ? 256 : 2048;
  const std::int64_t oscillators = quick ? 256 : 2048, events = quick ? 100'000 : 4'000'000;
  return {
      {"field", std::to_string(field_side) + "x" + std::to_string(field_side),
       [=](const dist::Communicator& comm) {
         const field::DistGrid grid =
             field::distribute({.width = field_side, .height = field_side}, comm, kBlockRows);
         return [grid] {
           const field::Stats s = field::statistics(grid, {}, 0.5);
           Bits bits;
           append(bits, &s, sizeof s);
           return bits;
         };
       }},
      {"mlp", "2 steps of " + std::to_string(batch),
       [=](const dist::Communicator& comm) {
         const nn::DistBatch data =
             nn::distribute(nn::make_classification(batch, 784, 10, 1), comm, kBlockRows);
         // The second step's loss is computed from the first's allreduced gradients.
         return [data] {
           nn::DistTrainer trainer(nn::MLP({784, 256, 10}, 8), std::make_shared<nn::Adam>());
           const std::vector<double> losses = {trainer.train_step(data), trainer.train_step(data)};
           Bits bits;
           append(bits, losses);
           return bits;
         };
       }},
      {"oscillators", std::to_string(oscillators) + ", 20 steps",
       [=](const dist::Communicator& comm) {
         const osc::DistNetwork net =
             osc::distribute(osc::random_network(oscillators, 1, 2), comm, kBlockRows);
         const Array theta0 = osc::random_phases(oscillators, 2);
         return [net, theta0] {
           const osc::Result r = osc::simulate(net, theta0, {.dt = 0.01, .steps = 20});
           Bits bits;
           append(bits, r.phases.to_vector<double>());
           append(bits, r.order);
           return bits;
         };
       }},
      {"query", std::to_string(events) + " events",
       [=](const dist::Communicator& comm) {
         const query::DistEvents e =
             query::distribute(query::synthetic_events(events, 1), comm, kBlockRows);
         return [e] {
           const query::DistResult r = query::run(e, {.threshold = 0.5, .top_k = 10});
           Bits bits;
           append(bits, &r.count, sizeof r.count);
           append(bits, &r.total, sizeof r.total);
           append(bits, r.top_revenue);
           append(bits, r.top_events);
           return bits;
         };
       }},
  };
}

std::string host_device() {
  for (const DeviceInfo& d : devices())
    if (d.host_addressable) return d.id();
  throw ValueError("demo --ranks: no host device (the cpu backend is disabled)");
}

// What mpiexec's processes get beyond this one's environment, unless it sets them: the settings
// ctest runs MPI tests with (SWITCHYARD_MPI_TEST_ENVIRONMENT in cmake/Dependencies.cmake: Open
// MPI's for more ranks than cores on one machine, which MPICH ignores), and the CPU's kernels as
// the interpreter's in every rank, so that each rank computes with the same code
// (docs/scaling.md).
std::vector<std::string> rank_environment() {
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) env.emplace_back(*e);
  std::string settings = SWITCHYARD_MPI_ENVIRONMENT ",SWITCHYARD_NATIVE=off";
  for (std::size_t at = 0; at < settings.size();) {
    const std::size_t end = std::min(settings.find(',', at), settings.size());
    const std::string setting = settings.substr(at, end - at);
    if (!std::getenv(setting.substr(0, setting.find('=')).c_str())) env.push_back(setting);
    at = end + 1;
  }
  return env;
}

}  // namespace

int demo_ranks(int ranks, bool quick) {
  if (ranks < 1)
    throw ValueError("demo --ranks: expected at least 1 rank, given " + std::to_string(ranks));
  std::vector<std::string> args = {
      SWITCHYARD_MPIEXEC, SWITCHYARD_MPIEXEC_NUMPROC_FLAG, std::to_string(ranks),
      std::filesystem::read_symlink("/proc/self/exe").string(), "demo-rank"};
  if (quick) args.emplace_back("--quick");
  const std::vector<std::string> env = rank_environment();
  std::vector<char*> argv, envp;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  for (const std::string& e : env) envp.push_back(const_cast<char*>(e.c_str()));
  argv.push_back(nullptr), envp.push_back(nullptr);
  pid_t pid = 0;
  if (const int err = posix_spawn(&pid, argv[0], nullptr, nullptr, argv.data(), envp.data()))
    throw ValueError(std::string("demo --ranks: cannot start ") + argv[0] + ": " +
                     std::strerror(err));
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  std::fprintf(stderr, "switchyard: mpiexec ended by signal %d\n", WTERMSIG(status));
  return 1;
}

int demo_rank(bool quick) {
  int argc = 0;
  char** argv = nullptr;
  const dist::Environment mpi(argc, argv);
  const dist::Communicator world, self(MPI_COMM_SELF);
  // The same kind of device on every rank, so that the bits compare (a CPU and a GPU round
  // differently): each rank's share runs on the host, whose cores the ranks split.
  const std::string host = host_device();
  const DeviceScope on_host(host);
  const int rounds = quick ? 1 : 5;  // after an untimed one, which compiles and first touches
  if (world.rank() == 0)
    std::printf(
        "%d ranks on this machine, each rank's rows on %s, reproducible sums\n\n"
        "%-12s %-20s %12s  %s\n",
        world.size(), host.c_str(), "workload", "size", "time / call", "bits of 1 rank");
  int differ = 0;
  for (const Workload& w : workloads(quick)) {
    const std::function<Bits()> call = w.prepare(world);
    Bits bits;
    // Each timed call starts on every rank at once.
    const double seconds = bench::median_s(
        rounds, [&] { bits = call(); }, [&] { MPI_Barrier(world.native()); });
    if (world.rank() != 0) continue;
    const bool same = w.prepare(self)() == bits;
    differ += !same;
    std::printf("%-12s %-20s %9.2f ms  %s\n", w.name.c_str(), w.size.c_str(), seconds * 1e3,
                same ? "same" : "DIFFERENT");
  }
  return differ == 0 ? 0 : 1;
}

}  // namespace switchyard::cli
