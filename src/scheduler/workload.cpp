#include "scheduler/workload.hpp"

#include <xxhash.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>

namespace switchyard::scheduler {

Workload describe(const ir::Kernel& kernel, std::uint64_t signature, std::int64_t elements,
                  std::uint64_t bytes_read, std::uint64_t bytes_written) {
  Workload w;
  w.signature = signature;
  w.kind = kernel.has_reduction ? WorkKind::Reduction : WorkKind::Elementwise;
  w.elements = elements;
  w.bytes_read = bytes_read;
  w.bytes_written = bytes_written;
  // Each reduction folds every element once more: one cheap operation beyond the body.
  w.arithmetic_per_element = kernel.arithmetic_count() + static_cast<int>(kernel.reductions.size());
  w.transcendental_per_element = kernel.transcendental_count();
  w.ir_operations = static_cast<int>(kernel.body.size());
  if (kernel.uses_float64()) w.needs = kNeedsFloat64;
  return w;
}

std::uint64_t library_signature(const LibraryOp& op) {
  // Every field that selects the routine: two ops that differ in one must not share a cache
  // entry (a Qr run with an Svd's routine writes where no output is).
  const std::array<std::uint8_t, 17> bytes = {'s',
                                              'w',
                                              'l',
                                              'b',
                                              static_cast<std::uint8_t>(op.kind),
                                              static_cast<std::uint8_t>(op.dtype),
                                              static_cast<std::uint8_t>(op.transpose_a),
                                              static_cast<std::uint8_t>(op.transpose_b),
                                              static_cast<std::uint8_t>(op.scan),
                                              static_cast<std::uint8_t>(op.exclusive),
                                              static_cast<std::uint8_t>(op.indices),
                                              static_cast<std::uint8_t>(op.fft),
                                              static_cast<std::uint8_t>(op.inverse),
                                              static_cast<std::uint8_t>(op.rank),
                                              static_cast<std::uint8_t>(op.solver),
                                              static_cast<std::uint8_t>(op.vectors),
                                              static_cast<std::uint8_t>(op.complete)};
  return XXH64(bytes.data(), bytes.size(), 0);
}

namespace {

double log2_at_least_1(double n) {
  return std::max(1.0, std::log2(std::max(n, 1.0)));
}

// A count computed in double, as an element count: a product of broadcast operands' extents can
// pass what int64 holds (a size bucket needs no more).
std::int64_t count_of(double n) {
  return static_cast<std::int64_t>(std::min(n, 0x1p62));
}

}  // namespace

Workload describe(const LibraryOp& op, const LibraryArgs& args) {
  using Kind = LibraryOp::Kind;
  const double m = static_cast<double>(args.m), n = static_cast<double>(args.n),
               k = static_cast<double>(args.k), batch = static_cast<double>(args.batch);
  const double rows = static_cast<double>(args.rows), length = static_cast<double>(args.length);
  const double element_bytes = static_cast<double>(size_of(op.dtype));
  const double elements = rows * length;  // rows × length ops
  Workload w;
  w.signature = library_signature(op);
  w.elements = static_cast<std::int64_t>(elements);
  w.needs = needs_routine(op.kind) | (op.dtype == DType::Float64 ? kNeedsFloat64 : Needs{0});
  auto bytes = [&](double count, double each) { return static_cast<std::uint64_t>(count * each); };
  switch (op.kind) {
    // A product's size is its multiply-adds: history, cached choices and model corrections are
    // kept by size, and two products with one m·n but another k (x·W₁ and δ·W₂ᵀ of an MLP step,
    // k 784 and 10) differ in cost as much as their k.
    case Kind::Gemm:
      w.kind = WorkKind::Gemm;
      w.elements = count_of(batch * m * n * k);
      w.flops = 2 * batch * m * n * k;
      w.bytes_read = bytes(batch * (m * k + k * n), element_bytes);
      w.bytes_written = bytes(batch * m * n, element_bytes);
      break;
    case Kind::Gemv:
      w.kind = WorkKind::Gemv;
      w.elements = args.m * args.n;
      w.flops = 2 * m * n;
      w.bytes_read = bytes(m * n + n, element_bytes);
      w.bytes_written = bytes(m, element_bytes);
      break;
    case Kind::Scan:
      w.kind = WorkKind::Scan;
      w.arithmetic_per_element = 2;
      w.bytes_read = w.bytes_written = bytes(elements, element_bytes);
      break;
    case Kind::Sort:
      // Log-linear: a comparison sort's rounds (or a radix sort's passes) grow with log n.
      w.kind = WorkKind::Sort;
      w.arithmetic_per_element = log2_at_least_1(length);
      w.memory_passes = log2_at_least_1(length) / 4;
      w.bytes_read = bytes(elements, element_bytes);
      w.bytes_written = bytes(elements, element_bytes + (op.indices ? 8 : 0));
      break;
    case Kind::Compact:
      w.kind = WorkKind::Compact;
      w.elements = args.length;
      w.arithmetic_per_element = 2;
      w.memory_passes = 2;  // count the mask, then move what it keeps
      w.data_dependent_size = true;
      w.bytes_read = bytes(length, element_bytes + 1);
      w.bytes_written = bytes(length, op.indices ? 8 : element_bytes);
      break;
    case Kind::Gather: {
      const double out = rows * static_cast<double>(args.count) * static_cast<double>(args.inner);
      w.kind = WorkKind::Gather;
      w.elements = static_cast<std::int64_t>(out);
      w.random_access = true;
      w.bytes_read = bytes(out, element_bytes) + bytes(static_cast<double>(args.count), 8);
      w.bytes_written = bytes(out, element_bytes);
      break;
    }
    case Kind::Solver: {
      // LAPACK's operation counts, dominated by the cubic term: one factorisation per matrix.
      w.kind = WorkKind::Solver;
      const double small = std::min(m, n), large = std::max(m, n);
      const double cubic = op.solver == LibraryOp::SolverKind::Svd
                               ? 4 * large * small * small + 22 * small * small * small
                           : op.solver == LibraryOp::SolverKind::Eigh ? 9 * n * n * n
                           : op.solver == LibraryOp::SolverKind::Qr   ? 4 * large * small * small
                           : op.solver == LibraryOp::SolverKind::Solve
                               ? 2 * n * n * n / 3 + 2 * n * n * k
                               : n * n * n / 3 * 2;
      w.elements = static_cast<std::int64_t>(batch * m * n);
      w.flops = batch * cubic;
      w.bytes_read = bytes(
          batch * (m * n + (op.solver == LibraryOp::SolverKind::Solve ? n * k : 0)), element_bytes);
      w.bytes_written = w.bytes_read;
      break;
    }
    case Kind::Fft: {
      // 5·N·log2(N) flops per complex transform of N points (the usual FFT count).
      const double points = op.rank == 2 ? m * n : n;
      w.kind = WorkKind::Fft;
      w.elements = static_cast<std::int64_t>(rows * points);
      w.flops = 5 * rows * points * log2_at_least_1(points);
      w.memory_passes = std::max(1.0, std::ceil(log2_at_least_1(points) / 12));
      w.bytes_read = w.bytes_written = bytes(rows * points, 2 * element_bytes);
      break;
    }
  }
  return w;
}

int size_bucket(std::int64_t elements) {
  if (elements <= 0) return 0;
  // floor(4·log2(x)) for x = elements + 1, without a logarithm (on every decision's path): x's
  // binary exponent, then which quarter power of two its mantissa (in [1, 2)) reaches.
  const auto bits = std::bit_cast<std::uint64_t>(static_cast<double>(elements) + 1);
  const int octave = static_cast<int>(bits >> 52) - 1023;
  const double mantissa =
      std::bit_cast<double>((bits & 0xFFFFFFFFFFFFFull) | 0x3FF0000000000000ull);
  constexpr double kQuarter[] = {1.189207115002721, 1.4142135623730951, 1.681792830507429};
  int quarter = 0;
  while (quarter < 3 && mantissa >= kQuarter[quarter]) ++quarter;
  return 4 * octave + quarter;
}

double bucket_elements(int bucket) {
  return std::exp2((bucket + 0.5) / 4) - 1;
}

Workload scaled(const Workload& w, double factor) {
  const auto scale = [factor](std::uint64_t bytes) {
    return static_cast<std::uint64_t>(std::llround(static_cast<double>(bytes) * factor));
  };
  Workload s = w;
  s.elements = std::llround(static_cast<double>(w.elements) * factor);
  s.bytes_read = scale(w.bytes_read);
  s.bytes_written = scale(w.bytes_written);
  s.flops = w.flops * factor;
  for (auto& in : s.inputs) in.bytes = scale(in.bytes);
  return s;
}

}  // namespace switchyard::scheduler
