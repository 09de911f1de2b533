// Saving a distributed array to one file and loading it back, on any number of ranks: a
// simulation's checkpoint and restart. Both are collective (MPI-IO): every rank reads or writes
// its own rows at their place in the file, so a file written on 3 ranks loads on 1, 2 or 4, in
// any block size, with the same bits.
//
// The file, little-endian, the same from C++ and Python's switchyard.dist:
//   bytes   0..8     magic "SYDIST\0\0"
//           8..12    format version, uint32 (1)
//          12..16    ndim, uint32 (1 to 8)
//          16..32    dtype name, ASCII padded with NULs ("float64", "int64", ...)
//          32..40    step, int64: the caller's step count when it saved
//          40..104   shape, 8 int64 (the extents past ndim are 0)
//         104..128   zeros
//         128..      the global array's elements in C order
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>

#include "switchyard/dist/dist_array.hpp"

namespace switchyard::dist {

// A file that is not a checkpoint this version can load: missing or unreadable, shorter than its
// header says, another format (magic) or a later version. Raised on every rank at once.
class CheckpointError : public Error {
 public:
  using Error::Error;
};

inline constexpr std::uint32_t kCheckpointVersion = 1;
inline constexpr std::int64_t kCheckpointHeaderBytes = 128;

// Writes a's global array, and `step`, to `path` (replaced if it exists). Rank 0 writes the header;
// each rank writes its own rows (rank 0 all of them when a is replicated). Any layout.
// CommunicationError, on every rank, when the file cannot be written.
void save(const DistArray& a, const std::filesystem::path& path, std::int64_t step = 0);

struct LoadOptions {
  std::int64_t block_rows = kDefaultBlockRows;  // of the row-block layout the array is loaded in
  std::optional<DType> dtype = std::nullopt;    // what the file must hold: DTypeError otherwise
  std::optional<Shape> shape = std::nullopt;    // ShapeError otherwise
};

struct Checkpoint {
  DistArray array;  // in Layout::row_blocks(rows, comm.size(), options.block_rows)
  std::int64_t step;
};

// The array saved at `path`, each rank reading its own rows. Rank 0 reads and checks the header
// and broadcasts it, so a bad file raises the same error on every rank: CheckpointError for a
// missing, truncated or foreign file, DTypeError or ShapeError for one that holds other than
// `options` expects.
Checkpoint load(const std::filesystem::path& path, const Communicator& comm = {},
                const LoadOptions& options = {});

}  // namespace switchyard::dist
