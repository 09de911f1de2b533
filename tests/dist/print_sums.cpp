// Prints the reproducible sum, norm and mean of a distributed array as their float64 bit patterns
// in hexadecimal, and a digest of its reproducible cumsum (FNV-1a over its elements' float64 bit
// patterns), on rank 0, for python/tests/dist/print_sums.py to print the same from Python: the
// two must agree in every bit. Arguments: rows, columns (0 for a vector), block_rows,
// float32|float64. Element i is (h(i) >> 11)·2^-53 - 0.5 with h(i) = i·0x9E3779B97F4A7C15 mod 2^64:
// exact in float64, all 53 bits used, so the order of adding shows in the result.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "switchyard/dist.hpp"
#include "switchyard/switchyard.hpp"

namespace {

namespace dist = switchyard::dist;
using switchyard::Array;

std::string bits(double value) {
  std::uint64_t pattern = 0;
  std::memcpy(&pattern, &value, sizeof value);
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(pattern));
  return text;
}

std::uint64_t digest(const std::vector<double>& values) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (const double v : values) {
    std::uint64_t pattern = 0;
    std::memcpy(&pattern, &v, sizeof v);
    h = (h ^ pattern) * 0x100000001b3ull;
  }
  return h;
}

template <class T>
Array hashed_values(std::int64_t n, const switchyard::Shape& shape) {
  std::vector<T> values(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    const std::uint64_t h = static_cast<std::uint64_t>(i) * 0x9E3779B97F4A7C15ull;
    values[i] = static_cast<T>(static_cast<double>(h >> 11) * 0x1p-53 - 0.5);
  }
  return Array::from_vector(values, shape);
}

}  // namespace

int main(int argc, char** argv) {
  dist::Environment mpi(argc, argv);
  if (argc != 5) {
    std::fprintf(stderr, "usage: %s rows columns block_rows float32|float64\n", argv[0]);
    return 2;
  }
  const std::int64_t rows = std::stoll(argv[1]), columns = std::stoll(argv[2]);
  const std::int64_t block_rows = std::stoll(argv[3]);
  const switchyard::Shape shape =
      columns == 0 ? switchyard::Shape{rows} : switchyard::Shape{rows, columns};
  const std::int64_t n = rows * (columns == 0 ? 1 : columns);
  const Array global = std::string(argv[4]) == "float32" ? hashed_values<float>(n, shape)
                                                         : hashed_values<double>(n, shape);
  const dist::Communicator comm;
  const dist::DistArray a =
      dist::DistArray::distribute(global, dist::Layout::row_blocks(rows, comm.size(), block_rows));
  const double sum = dist::sum(a), norm = dist::norm(a), mean = dist::mean(a);
  const std::uint64_t scan = digest(dist::gather(dist::cumsum(a)).to_vector<double>());
  if (comm.rank() == 0)
    std::printf("%s %s %s %016llx\n", bits(sum).c_str(), bits(norm).c_str(), bits(mean).c_str(),
                static_cast<unsigned long long>(scan));
  return 0;
}
