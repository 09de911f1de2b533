// Prints the decomposed workloads' reproducible results as float64 bit patterns in hexadecimal,
// on rank 0, for python/tests/dist/print_workloads.py to print the same from Python: the two
// must agree in every bit, at any rank counts.
//   field WIDTH HEIGHT BLOCK_ROWS float32|float64   the statistics at t = 0.5 and of 2 frames
//                                                    of animate (dt 0.1, t0 0.2)
//   mlp BLOCK_ROWS float32|float64 adam|sgd          3 steps on 90 rows of 6 features, 3 classes
//                                                    (MLP 6 → 8 → 3): each loss, and a digest
//                                                    (FNV-1a) of the trained weights' bits
//   oscillators NODES BLOCK_ROWS euler|rk4 matvec|direct
//                                                    20 steps of dt 0.01 (network seed 3,
//                                                    strength 2; phases seed 4): r every 5
//                                                    steps, and a digest of the last phases
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "switchyard/apps/field_dist.hpp"
#include "switchyard/apps/nn_dist.hpp"
#include "switchyard/apps/oscillators_dist.hpp"

namespace {

namespace dist = switchyard::dist;
namespace field = switchyard::apps::field;
namespace nn = switchyard::apps::nn;
namespace osc = switchyard::apps::oscillators;
using switchyard::DType;

std::uint64_t pattern(double value) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof value);
  return bits;
}

std::string hex(std::uint64_t bits) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(bits));
  return text;
}

std::uint64_t digest(const std::vector<double>& values) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (const double v : values) h = (h ^ pattern(v)) * 0x100000001b3ull;
  return h;
}

DType dtype_named(const std::string& name) {
  return name == "float32" ? DType::Float32 : DType::Float64;
}

std::vector<std::string> field_bits(char** argv, const dist::Communicator& comm) {
  const field::Grid grid{
      .width = std::stoll(argv[0]), .height = std::stoll(argv[1]), .dtype = dtype_named(argv[3])};
  const field::DistGrid spread = field::distribute(grid, comm, std::stoll(argv[2]));
  std::vector<field::Stats> stats{field::statistics(spread, {}, 0.5)};
  for (const field::Stats& s : field::animate(spread, {}, 2, 0.1, 0.2)) stats.push_back(s);
  std::vector<std::string> out;
  for (const field::Stats& s : stats)
    for (const double v : {s.mean, s.energy, s.coherence}) out.push_back(hex(pattern(v)));
  return out;
}

std::vector<std::string> mlp_bits(char** argv, const dist::Communicator& comm) {
  const DType dtype = dtype_named(argv[1]);
  const nn::Dataset data = nn::make_classification(90, 6, 3, /*seed=*/1, dtype);
  std::shared_ptr<const nn::Optimizer> optimizer;
  if (std::string(argv[2]) == "adam")
    optimizer = std::make_shared<nn::Adam>(0.01);
  else
    optimizer = std::make_shared<nn::SGD>(0.1, 0.9);
  nn::DistTrainer trainer(nn::MLP({6, 8, 3}, /*seed=*/2, dtype), optimizer);
  const nn::DistBatch batch = nn::distribute(data, comm, std::stoll(argv[0]));
  std::vector<std::string> out;
  for (int step = 0; step < 3; ++step) out.push_back(hex(pattern(trainer.train_step(batch))));
  std::vector<double> weights;
  for (const switchyard::Array& p : trainer.model().parameters()) {
    const std::vector<double> v = p.to_vector<double>();
    weights.insert(weights.end(), v.begin(), v.end());
  }
  out.push_back(hex(digest(weights)));
  return out;
}

std::vector<std::string> oscillator_bits(char** argv, const dist::Communicator& comm) {
  const std::int64_t nodes = std::stoll(argv[0]);
  const osc::Options options{
      .dt = 0.01,
      .steps = 20,
      .method = std::string(argv[2]) == "rk4" ? osc::Method::RK4 : osc::Method::Euler,
      .coupling = std::string(argv[3]) == "direct" ? osc::Coupling::Direct : osc::Coupling::MatVec,
      .record_every = 5};
  const osc::DistNetwork network = osc::distribute(
      osc::random_network(nodes, /*seed=*/3, /*coupling_strength=*/2), comm, std::stoll(argv[1]));
  const osc::Result run = osc::simulate(network, osc::random_phases(nodes, 4), options);
  std::vector<std::string> out;
  for (const double r : run.order) out.push_back(hex(pattern(r)));
  out.push_back(hex(digest(run.phases.to_vector<double>())));
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  dist::Environment mpi(argc, argv);
  const std::string workload = argc > 1 ? argv[1] : "";
  if (!(workload == "field" && argc == 6) && !(workload == "mlp" && argc == 5) &&
      !(workload == "oscillators" && argc == 6)) {
    std::fprintf(stderr,
                 "usage: %s field WIDTH HEIGHT BLOCK_ROWS DTYPE | mlp BLOCK_ROWS DTYPE adam|sgd | "
                 "oscillators NODES BLOCK_ROWS euler|rk4 matvec|direct\n",
                 argv[0]);
    return 2;
  }
  const dist::Communicator comm;
  const switchyard::DeviceScope cpu("cpu:0");
  const std::vector<std::string> bits = workload == "field" ? field_bits(argv + 2, comm)
                                        : workload == "mlp" ? mlp_bits(argv + 2, comm)
                                                            : oscillator_bits(argv + 2, comm);
  if (comm.rank() == 0) {
    for (std::size_t i = 0; i < bits.size(); ++i)
      std::printf("%s%s", i ? " " : "", bits[i].c_str());
    std::printf("\n");
  }
  return 0;
}
