// The dense Kuramoto network (oscillators.hpp) across the ranks of an MPI job: each rank holds
// a run of rows of K and ω and integrates its own phases; every stage of a step allgathers the
// N phases, the only communication, and each rank computes its rows of the coupling from them.
// The result is bit-identical for any number of ranks when each computes on the same kind of
// device (a CPU and a GPU round differently).
//
//   namespace osc = switchyard::apps::oscillators;
//   const osc::DistNetwork net = osc::distribute(osc::random_network(4096, 1, 2), comm);
//   const osc::Result run = osc::simulate(net, osc::random_phases(4096, 2), {.dt = 0.01});
#pragma once

#include <filesystem>

#include "switchyard/apps/oscillators.hpp"
#include "switchyard/dist.hpp"

namespace switchyard::apps::oscillators {

struct DistNetwork {
  dist::DistArray coupling;     // this rank's rows of K, (rows, N)
  dist::DistArray frequencies;  // this rank's ω, (rows, 1), in K's dtype
};

// This rank's rows of a network every rank holds whole (made from one seed, read from one file),
// in row blocks of block_rows.
DistNetwork distribute(const Network& network, const dist::Communicator& comm = {},
                       std::int64_t block_rows = dist::kDefaultBlockRows);

// Integrates from θ0 (N, the same on every rank). The Result is the same on every rank: the
// whole of θ after the last step, and r at each recorded step, computed from the N phases each
// rank has then. Throws ValueError, on every rank at once, at the first recorded step whose
// phases are NaN or infinite.
Result simulate(const DistNetwork& network, const Array& theta0, const Options& options = {});

// A checkpoint: θ after `result`'s last step, which is step `step`, saved with dist::save as an
// (N,) array in K's dtype. It restarts on any number of ranks, with the bits of a run that never
// stopped:
//   const osc::Resume from = osc::load_checkpoint(path, net);
//   osc::simulate(net, from.theta, {.steps = 2000, .first_step = from.step});
void save_checkpoint(const std::filesystem::path& path, const DistNetwork& network,
                     const Result& result, std::int64_t step);

struct Resume {
  Array theta;        // θ (N) on every rank, for simulate's theta0
  std::int64_t step;  // for Options::first_step
};

// The checkpoint at `path`, read on network's ranks; dist::load's errors, and DTypeError or
// ShapeError when it holds other than N phases in K's dtype.
Resume load_checkpoint(const std::filesystem::path& path, const DistNetwork& network);

}  // namespace switchyard::apps::oscillators
