#include "scheduler/workload.hpp"

#include <xxhash.h>

#include <array>
#include <cmath>

namespace switchyard::scheduler {

Workload describe(const ir::Kernel& kernel, std::int64_t elements, std::uint64_t bytes_read,
                  std::uint64_t bytes_written) {
  Workload w;
  w.signature = kernel.hash();
  w.kind = kernel.has_reduction ? WorkKind::Reduction : WorkKind::Elementwise;
  w.elements = elements;
  w.bytes_read = bytes_read;
  w.bytes_written = bytes_written;
  // Each reduction folds every element once more: one cheap operation beyond the body.
  w.arithmetic_per_element = kernel.arithmetic_count() + static_cast<int>(kernel.reductions.size());
  w.transcendental_per_element = kernel.transcendental_count();
  w.ir_operations = static_cast<int>(kernel.body.size());
  return w;
}

std::uint64_t library_signature(const LibraryOp& op) {
  const std::array<std::uint8_t, 8> bytes = {'s',
                                             'w',
                                             'l',
                                             'b',
                                             static_cast<std::uint8_t>(op.kind),
                                             static_cast<std::uint8_t>(op.dtype),
                                             static_cast<std::uint8_t>(op.transpose_a),
                                             static_cast<std::uint8_t>(op.transpose_b)};
  return XXH64(bytes.data(), bytes.size(), 0);
}

Workload describe(const LibraryOp& op, const LibraryArgs& args) {
  const double m = static_cast<double>(args.m), n = static_cast<double>(args.n),
               k = static_cast<double>(args.k);
  const double element_bytes = static_cast<double>(size_of(op.dtype));
  Workload w;
  w.signature = library_signature(op);
  if (op.kind == LibraryOp::Kind::Gemm) {
    w.kind = WorkKind::Gemm;
    w.elements = args.m * args.n;
    w.flops = 2 * m * n * k;
    w.bytes_read = static_cast<std::uint64_t>((m * k + k * n) * element_bytes);
    w.bytes_written = static_cast<std::uint64_t>(m * n * element_bytes);
  } else {
    w.kind = WorkKind::Gemv;
    w.elements = args.m;
    w.flops = 2 * m * n;
    w.bytes_read = static_cast<std::uint64_t>((m * n + n) * element_bytes);
    w.bytes_written = static_cast<std::uint64_t>(m * element_bytes);
  }
  return w;
}

int size_bucket(std::int64_t elements) {
  if (elements <= 0) return 0;
  return static_cast<int>(std::floor(4 * std::log2(static_cast<double>(elements) + 1)));
}

}  // namespace switchyard::scheduler
