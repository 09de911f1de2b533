// Checkpoints across jobs of different rank counts, for CMakeLists.txt's tests that run this
// program twice and compare what the two runs print on rank 0 (same_output.cmake):
//
//   oscillators-first PATH   the oscillators' run of steps 0..2k whole, then 0..k saved to PATH
//   oscillators-resume PATH  the run resumed from PATH up to 2k
//       both print r at the recorded steps from k on and the final phases, bit by bit
//   array-save PATH ROWS COLUMNS BLOCK_ROWS DTYPE   an array made from a seed, saved to PATH
//   array-load PATH BLOCK_ROWS                      the array at PATH, loaded
//       both print the dtype, the shape (ROWSxCOLUMNS) and a digest of the elements' bytes
//       (FNV-1a), as python/tests/dist/checkpoint_files.py does, for checkpoints between C++ and
//       Python
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "switchyard/apps/oscillators_dist.hpp"
#include "switchyard/dist.hpp"
#include "switchyard/switchyard.hpp"

namespace {

namespace dist = switchyard::dist;
namespace osc = switchyard::apps::oscillators;
using switchyard::Array;

constexpr std::int64_t kNodes = 45, kHalf = 20, kBlockRows = 8;
const osc::Options kWhole{
    .dt = 0.01, .steps = 2 * kHalf, .method = osc::Method::RK4, .record_every = 3};

std::string bits(double value) {
  std::uint64_t pattern = 0;
  std::memcpy(&pattern, &value, sizeof value);
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(pattern));
  return text;
}

void print_from(const osc::Result& result) {
  for (std::size_t i = 0; i < result.order.size(); ++i)
    if (result.order_steps[i] >= kHalf)
      std::printf("r(%lld) %s\n", static_cast<long long>(result.order_steps[i]),
                  bits(result.order[i]).c_str());
  for (const double theta : result.phases.to_vector<double>())
    std::printf("theta %s\n", bits(theta).c_str());
}

osc::DistNetwork network() {
  return osc::distribute(osc::random_network(kNodes, /*seed=*/3, /*coupling_strength=*/2), {},
                         kBlockRows);
}

void oscillators_first(const std::string& path) {
  const osc::DistNetwork net = network();
  const Array theta0 = osc::random_phases(kNodes, 4);
  print_from(osc::simulate(net, theta0, kWhole));
  osc::Options first = kWhole;
  first.steps = kHalf;
  osc::save_checkpoint(path, net, osc::simulate(net, theta0, first), kHalf);
}

void oscillators_resume(const std::string& path) {
  const osc::DistNetwork net = network();
  const osc::Resume from = osc::load_checkpoint(path, net);
  osc::Options rest = kWhole;
  rest.first_step = from.step;
  print_from(osc::simulate(net, from.theta, rest));
}

void print_digest(const Array& a) {
  std::vector<unsigned char> bytes(a.nbytes());
  a.to_host(bytes.data(), bytes.size());
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (const unsigned char b : bytes) h = (h ^ b) * 0x100000001b3ull;
  std::string shape;
  for (const std::int64_t extent : a.shape()) {
    if (!shape.empty()) shape += 'x';
    shape += std::to_string(extent);
  }
  std::printf("%s %s %016llx\n", std::string(switchyard::name(a.dtype())).c_str(), shape.c_str(),
              static_cast<unsigned long long>(h));
}

void array_save(const std::string& path, std::int64_t rows, std::int64_t columns,
                std::int64_t block_rows, const std::string& dtype) {
  const switchyard::Shape shape =
      columns == 0 ? switchyard::Shape{rows} : switchyard::Shape{rows, columns};
  const Array global = Array::normal(shape, 7, 0, 1, switchyard::parse_dtype(dtype));
  const dist::Communicator comm;
  dist::save(dist::DistArray::distribute(
                 global, dist::Layout::row_blocks(rows, comm.size(), block_rows), comm),
             path);
  print_digest(global);
}

void array_load(const std::string& path, std::int64_t block_rows) {
  print_digest(dist::gather(dist::load(path, {}, {.block_rows = block_rows}).array));
}

}  // namespace

int main(int argc, char** argv) {
  dist::Environment mpi(argc, argv);
  const switchyard::DeviceScope cpu("cpu:0");  // the bits of the step depend on the device
  const std::vector<std::string> args(argv + 1, argv + argc);
  // Only rank 0 prints; every rank runs the collectives.
  if (dist::Communicator().rank() != 0) std::freopen("/dev/null", "w", stdout);
  if (args.size() == 2 && args[0] == "oscillators-first") {
    oscillators_first(args[1]);
  } else if (args.size() == 2 && args[0] == "oscillators-resume") {
    oscillators_resume(args[1]);
  } else if (args.size() == 6 && args[0] == "array-save") {
    array_save(args[1], std::stoll(args[2]), std::stoll(args[3]), std::stoll(args[4]), args[5]);
  } else if (args.size() == 3 && args[0] == "array-load") {
    array_load(args[1], std::stoll(args[2]));
  } else {
    std::fprintf(stderr, "usage: see the comment at the top of checkpoint_restart.cpp\n");
    return 2;
  }
  return 0;
}
