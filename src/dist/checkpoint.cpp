// Checkpoint files with MPI-IO: each rank writes and reads its own rows at their global offset in
// one collective call, so no rank gathers the array. The header is rank 0's alone: it writes it,
// and on load it reads it first and broadcasts it, so every rank checks the same bytes and a bad
// file fails on every rank at once instead of leaving some waiting in a collective.
#include "switchyard/dist/checkpoint.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <climits>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "dist/collectives.hpp"
#include "dist/rows.hpp"

namespace switchyard::dist {
namespace {

static_assert(std::endian::native == std::endian::little,
              "checkpoint files are little-endian, written as this host stores its numbers");

constexpr std::array<char, 8> kMagic = {'S', 'Y', 'D', 'I', 'S', 'T', '\0', '\0'};
constexpr std::size_t kVersionAt = 8, kNdimAt = 12, kDTypeAt = 16, kDTypeBytes = 16, kStepAt = 32,
                      kShapeAt = 40;

using HeaderBytes = std::array<std::byte, kCheckpointHeaderBytes>;

struct Header {
  DType dtype;
  Shape shape;
  std::int64_t step;
};

template <class T>
void put(HeaderBytes& bytes, std::size_t at, T value) {
  std::memcpy(bytes.data() + at, &value, sizeof value);
}

template <class T>
T get(const HeaderBytes& bytes, std::size_t at) {
  T value;
  std::memcpy(&value, bytes.data() + at, sizeof value);
  return value;
}

HeaderBytes encode(const Header& header) {
  HeaderBytes bytes{};
  std::memcpy(bytes.data(), kMagic.data(), kMagic.size());
  put(bytes, kVersionAt, kCheckpointVersion);
  put(bytes, kNdimAt, static_cast<std::uint32_t>(header.shape.size()));
  const std::string_view dtype = name(header.dtype);
  std::memcpy(bytes.data() + kDTypeAt, dtype.data(), std::min(dtype.size(), kDTypeBytes - 1));
  put(bytes, kStepAt, header.step);
  for (int axis = 0; axis < header.shape.size(); ++axis)
    put(bytes, kShapeAt + 8 * static_cast<std::size_t>(axis), header.shape[axis]);
  return bytes;
}

// What rank 0 found at the path, broadcast as bytes: every rank decodes the same.
struct Found {
  std::int64_t file_bytes = -1;  // -1: the file could not be opened
  HeaderBytes header{};
};

Found read_on_rank_0(const std::filesystem::path& path, const Communicator& comm) {
  Found found;
  if (comm.rank() == 0) {
    std::ifstream in(path, std::ios::binary);
    std::error_code error;
    const std::uintmax_t size = std::filesystem::file_size(path, error);
    if (in && !error) {
      found.file_bytes = static_cast<std::int64_t>(size);
      in.read(reinterpret_cast<char*>(found.header.data()), kCheckpointHeaderBytes);
    }
  }
  check_mpi(MPI_Bcast(&found, sizeof found, MPI_BYTE, 0, comm.native()), "MPI_Bcast");
  return found;
}

CheckpointError bad_file(const std::filesystem::path& path, const std::string& why) {
  return CheckpointError("dist::load: " + path.string() + " " + why);
}

// The header's fields, checked; CheckpointError for a file that is not a version-1 checkpoint.
Header decode(const std::filesystem::path& path, const Found& found) {
  if (found.file_bytes < 0) throw bad_file(path, "cannot be opened: it is missing or unreadable");
  if (found.file_bytes < kCheckpointHeaderBytes)
    throw bad_file(path, "is truncated: " + std::to_string(found.file_bytes) +
                             " bytes, shorter than the " + std::to_string(kCheckpointHeaderBytes) +
                             "-byte header");
  const HeaderBytes& bytes = found.header;
  if (std::memcmp(bytes.data(), kMagic.data(), kMagic.size()) != 0)
    throw bad_file(path, "is not a switchyard::dist checkpoint (its first bytes are not SYDIST)");
  const auto version = get<std::uint32_t>(bytes, kVersionAt);
  if (version != kCheckpointVersion)
    throw bad_file(path, "has format version " + std::to_string(version) + "; this build reads " +
                             std::to_string(kCheckpointVersion));
  const auto ndim = get<std::uint32_t>(bytes, kNdimAt);
  if (ndim < 1 || ndim > static_cast<std::uint32_t>(kMaxRank))
    throw bad_file(path, "has a header with " + std::to_string(ndim) + " dimensions");
  const char* dtype_at = reinterpret_cast<const char*>(bytes.data() + kDTypeAt);
  Header header{DType::Bool, {}, get<std::int64_t>(bytes, kStepAt)};
  try {
    header.dtype = parse_dtype(std::string(dtype_at, strnlen(dtype_at, kDTypeBytes)));
  } catch (const DTypeError& e) {
    throw bad_file(path, std::string("has a header with an unknown dtype: ") + e.what());
  }
  for (std::uint32_t axis = 0; axis < ndim; ++axis)
    header.shape.push_back(get<std::int64_t>(bytes, kShapeAt + 8 * axis));
  if (std::ranges::any_of(header.shape, [](std::int64_t extent) { return extent < 0; }))
    throw bad_file(path, "has a header with a negative extent: " + to_string(header.shape));
  const std::int64_t want =
      kCheckpointHeaderBytes +
      element_count(header.shape) * static_cast<std::int64_t>(size_of(header.dtype));
  if (found.file_bytes != want)
    throw bad_file(path, (found.file_bytes < want ? "is truncated: " : "is too long: ") +
                             std::to_string(found.file_bytes) + " bytes, where its header (" +
                             std::string(name(header.dtype)) + " " + to_string(header.shape) +
                             ") says " + std::to_string(want));
  return header;
}

void require_expected(const std::filesystem::path& path, const Header& header,
                      const LoadOptions& options) {
  if (options.dtype && *options.dtype != header.dtype)
    throw DTypeError("dist::load: " + path.string() + " holds " + std::string(name(header.dtype)) +
                     ", expected " + std::string(name(*options.dtype)));
  if (options.shape && !(*options.shape == header.shape))
    throw ShapeError("dist::load: " + path.string() + " holds shape " + to_string(header.shape) +
                     ", expected " + to_string(*options.shape));
}

// MPI-IO can fail on some ranks only (a full disk, a short read): every rank learns whether any
// failed and throws, so none goes on to a collective the others have left.
void agree(const Communicator& comm, int code, const std::string& call) {
  int failed = code != MPI_SUCCESS ? 1 : 0, any = 0;
  check_mpi(MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, comm.native()), "MPI_Allreduce");
  if (!any) return;
  check_mpi(code, call.c_str());
  throw CommunicationError(call + " failed on another rank");
}

// MPI-IO's counts are int: a rank reads or writes less than 2 GiB of rows in one call.
int byte_count(const Communicator& comm, std::size_t bytes) {
  const bool fits = bytes <= static_cast<std::size_t>(INT_MAX);
  agree(comm, fits ? MPI_SUCCESS : MPI_ERR_COUNT, "checkpoint rows over 2 GiB on one rank");
  return static_cast<int>(bytes);
}

// An MPI file open on every rank of comm, closed (collectively) on every way out.
class File {
 public:
  File(const Communicator& comm, const std::filesystem::path& path, int mode) {
    agree(comm, MPI_File_open(comm.native(), path.c_str(), mode, MPI_INFO_NULL, &file_),
          "MPI_File_open of " + path.string());
  }
  ~File() { MPI_File_close(&file_); }
  File(const File&) = delete;
  File& operator=(const File&) = delete;

  MPI_File native() const { return file_; }

 private:
  MPI_File file_ = MPI_FILE_NULL;
};

}  // namespace

void save(const DistArray& a, const std::filesystem::path& path, std::int64_t step) {
  const Communicator& comm = a.communicator();
  const Layout& layout = a.layout();
  const auto row_bytes = static_cast<std::int64_t>(row_elements(a.shape()) * a.local().itemsize());
  // A replicated array's ranks all hold every row: rank 0 writes them.
  const bool writes = !layout.is_replicated() || comm.rank() == 0;
  const std::vector<std::byte> rows = writes ? host_bytes(a.local()) : std::vector<std::byte>{};
  const MPI_Offset at = kCheckpointHeaderBytes + layout.first_row(comm.rank()) * row_bytes;
  const int count = byte_count(comm, rows.size());

  File file(comm, path, MPI_MODE_CREATE | MPI_MODE_WRONLY);
  // The exact size: a longer file it replaces would otherwise keep its tail.
  agree(comm, MPI_File_set_size(file.native(), kCheckpointHeaderBytes + layout.rows() * row_bytes),
        "MPI_File_set_size");
  const HeaderBytes header = encode({a.dtype(), a.shape(), step});
  const int header_code = comm.rank() == 0 ? MPI_File_write_at(file.native(), 0, header.data(),
                                                               static_cast<int>(header.size()),
                                                               MPI_BYTE, MPI_STATUS_IGNORE)
                                           : MPI_SUCCESS;
  const int rows_code =
      MPI_File_write_at_all(file.native(), at, rows.data(), count, MPI_BYTE, MPI_STATUS_IGNORE);
  agree(comm, header_code, "MPI_File_write_at of the header");
  agree(comm, rows_code, "MPI_File_write_at_all");
}

Checkpoint load(const std::filesystem::path& path, const Communicator& comm,
                const LoadOptions& options) {
  const Header header = decode(path, read_on_rank_0(path, comm));
  require_expected(path, header, options);
  const Layout layout = Layout::row_blocks(header.shape[0], comm.size(), options.block_rows);
  const auto row_bytes =
      static_cast<std::int64_t>(row_elements(header.shape) * size_of(header.dtype));
  const std::int64_t mine = layout.rows_of(comm.rank());
  std::vector<std::byte> rows(static_cast<std::size_t>(mine * row_bytes));
  const MPI_Offset at = kCheckpointHeaderBytes + layout.first_row(comm.rank()) * row_bytes;
  const int count = byte_count(comm, rows.size());

  File file(comm, path, MPI_MODE_RDONLY);
  agree(comm,
        MPI_File_read_at_all(file.native(), at, rows.data(), count, MPI_BYTE, MPI_STATUS_IGNORE),
        "MPI_File_read_at_all");
  Array local =
      Array::from_host(rows.data(), rows.size(), with_rows(header.shape, mine), header.dtype);
  return {DistArray(std::move(local), layout, comm), header.step};
}

}  // namespace switchyard::dist
