#include "multi_reduction_cases.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <utility>

#include "conformance/reference.hpp"

namespace switchyard::testing_support {
namespace {

using ir::KernelBuilder;
using ir::Layout;
using ir::OpCode;
using ir::ReduceOp;
using ir::ReduceOver;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Outputs are written this many elements into their memory, to catch ignored offsets.
constexpr std::int64_t kOutputOffset = 2;

// ---- inputs

// How a launch reads an input, compared with a row-major array of the launch shape.
enum class Access {
  Contiguous,
  Transposed,  // stored with the axes in reverse order
  Reversed,    // the last axis runs backwards (negative stride)
  Broadcast,   // axes 0 and 2 have extent 1 in memory (zero strides)
  Splat,       // one element read everywhere
};

std::string name(Access a) {
  static const char* const kNames[] = {"contiguous", "transposed", "reversed", "broadcast",
                                       "splat"};
  return kNames[static_cast<int>(a)];
}

std::int64_t product(const Shape& s, int begin, int end) {
  std::int64_t n = 1;
  for (int d = begin; d < end; ++d) n *= s[d];
  return n;
}

Strides row_major(const Shape& s) {
  Strides st = Strides::filled(s.size(), 1);
  for (int d = s.size() - 2; d >= 0; --d) st[d] = st[d + 1] * s[d + 1];
  return st;
}

// Values every dtype holds exactly, with many repeats so that the arg ops meet ties: quarters in
// [-2.25, 3.75] (integers in [-9, 15]), whose mean is far enough from zero that a block lost or
// folded twice moves a sum well past its tolerance; bools are true at about every third element.
double pattern(DType t, std::int64_t i, unsigned seed) {
  const std::int64_t k = (i * 7919 + seed * 104729) % 25;
  if (t == DType::Bool) return k % 3 == 0;
  return is_floating(t) ? (k - 9) * 0.25 : static_cast<double>(k - 9);
}

HostInput input(DType t, const Shape& shape, Access access, unsigned seed) {
  HostInput in{t, Layout::Strided, {}, 0, row_major(shape)};
  const int rank = shape.size();
  std::int64_t stored = product(shape, 0, rank);
  switch (access) {
    case Access::Contiguous:
      in.layout = Layout::Contiguous;
      break;
    case Access::Transposed: {
      Shape reversed;
      for (int d = rank - 1; d >= 0; --d) reversed.push_back(shape[d]);
      const Strides st = row_major(reversed);
      for (int d = 0; d < rank; ++d) in.strides[d] = st[rank - 1 - d];
      in.offset = 3;
      break;
    }
    case Access::Reversed:
      in.strides[rank - 1] = -1;
      in.offset = std::max<std::int64_t>(shape[rank - 1] - 1, 0);
      break;
    case Access::Broadcast: {
      Shape source = shape;
      for (int d : {0, 2})
        if (d < rank) source[d] = 1;
      in.strides = row_major(source);
      for (int d : {0, 2})
        if (d < rank) in.strides[d] = 0;
      stored = product(source, 0, rank);
      in.offset = 1;
      break;
    }
    case Access::Splat:
      in.layout = Layout::Broadcast;
      in.strides = Strides::filled(rank, 0);
      stored = 1;
      in.offset = 2;
      break;
  }
  in.storage.resize(in.offset + stored);
  for (std::size_t i = 0; i < in.storage.size(); ++i) in.storage[i] = pattern(t, i, seed);
  return in;
}

std::string describe(const std::string& what, DType t, const Shape& shape, ReduceOver over,
                     int axes, Access access) {
  return what + " " + std::string(switchyard::name(t)) + " " + to_string(shape) +
         (over == ReduceOver::All ? " all" : " trailing " + std::to_string(axes)) + " " +
         name(access);
}

// ---- cases

ReductionCase sum_and_sum_of_squares(DType t, const Shape& shape, ReduceOver over, int axes,
                                     Access access) {
  ReductionCase c{describe("sum, sum of squares", t, shape, over, axes, access), {}, shape, {}, {}};
  c.inputs.push_back(input(t, shape, access, 1));
  KernelBuilder b;
  const auto x = b.load(t, c.inputs[0].layout);
  b.output(x);
  b.reduce(ReduceOp::Sum, over, axes);
  b.output(b.binary(OpCode::Mul, x, x, t));
  b.reduce(ReduceOp::Sum, over, axes);
  c.kernel = b.build();
  c.folded = {{ReduceOp::Sum, t, [](auto in) { return in[0]; }},
              {ReduceOp::Sum, t, [](auto in) { return in[0] * in[0]; }}};
  return c;
}

// `with_nan`: one stored value is NaN (float dtypes).
ReductionCase min_max_argmax(DType t, const Shape& shape, ReduceOver over, int axes, Access access,
                             bool with_nan) {
  ReductionCase c{describe(with_nan ? "min, max, argmax with NaN" : "min, max, argmax", t, shape,
                           over, axes, access),
                  {},
                  shape,
                  {},
                  {}};
  c.inputs.push_back(input(t, shape, access, 2));
  if (with_nan) c.inputs[0].storage[c.inputs[0].storage.size() * 2 / 3] = kNaN;
  KernelBuilder b;
  const auto x = b.load(t, c.inputs[0].layout);
  for (ReduceOp op : {ReduceOp::Min, ReduceOp::Max, ReduceOp::ArgMax}) {
    b.output(x);
    b.reduce(op, over, axes);
    c.folded.push_back({op, t, [](auto in) { return in[0]; }});
  }
  c.kernel = b.build();
  return c;
}

// A bool count (int64) beside the max and argmin of float32 values: three result dtypes.
ReductionCase count_beside_max(const Shape& shape, ReduceOver over, int axes, Access flags,
                               Access values) {
  ReductionCase c{describe("count, max, argmin", DType::Float32, shape, over, axes, flags) +
                      " flags, " + name(values) + " values",
                  {},
                  shape,
                  {input(DType::Bool, shape, flags, 3), input(DType::Float32, shape, values, 4)},
                  {}};
  KernelBuilder b;
  const auto f = b.load(DType::Bool, c.inputs[0].layout);
  const auto v = b.load(DType::Float32, c.inputs[1].layout);
  b.output(f);
  b.reduce(ReduceOp::Sum, over, axes);
  b.output(v);
  b.reduce(ReduceOp::Max, over, axes);
  b.output(v);
  b.reduce(ReduceOp::ArgMin, over, axes);
  c.kernel = b.build();
  c.folded = {{ReduceOp::Sum, DType::Bool, [](auto in) { return in[0]; }},
              {ReduceOp::Max, DType::Float32, [](auto in) { return in[1]; }},
              {ReduceOp::ArgMin, DType::Float32, [](auto in) { return in[1]; }}};
  return c;
}

// Sum of x*w for a splat w, beside the product of x and a bool count.
ReductionCase weighted_sum_prod_count(const Shape& shape, ReduceOver over, int axes,
                                      Access access) {
  ReductionCase c{
      describe("weighted sum, prod, count", DType::Float32, shape, over, axes, access),
      {},
      shape,
      {input(DType::Float32, shape, access, 5), input(DType::Float32, shape, Access::Splat, 6),
       input(DType::Bool, shape, access, 7)},
      {}};
  KernelBuilder b;
  const auto x = b.load(DType::Float32, c.inputs[0].layout);
  const auto w = b.load(DType::Float32, c.inputs[1].layout);
  const auto flag = b.load(DType::Bool, c.inputs[2].layout);
  b.output(b.binary(OpCode::Mul, x, w, DType::Float32));
  b.reduce(ReduceOp::Sum, over, axes);
  b.output(x);
  b.reduce(ReduceOp::Prod, over, axes);
  b.output(flag);
  b.reduce(ReduceOp::Sum, over, axes);
  c.kernel = b.build();
  c.folded = {{ReduceOp::Sum, DType::Float32, [](auto in) { return in[0] * in[1]; }},
              {ReduceOp::Prod, DType::Float32, [](auto in) { return in[0]; }},
              {ReduceOp::Sum, DType::Bool, [](auto in) { return in[2]; }}};
  return c;
}

// Four folds of one input: what a caller computing mean, variance and the extremes asks for.
ReductionCase four_folds(const Shape& shape, ReduceOver over, int axes, bool with_nan) {
  const DType t = DType::Float32;
  ReductionCase c{describe(with_nan ? "sum, sum of squares, argmax, min with NaN"
                                    : "sum, sum of squares, argmax, min",
                           t, shape, over, axes, Access::Contiguous),
                  {},
                  shape,
                  {input(t, shape, Access::Contiguous, 8)},
                  {}};
  if (with_nan) c.inputs[0].storage[c.inputs[0].storage.size() / 3 + 5] = kNaN;
  KernelBuilder b;
  const auto x = b.load(t, Layout::Contiguous);
  const auto squared = b.binary(OpCode::Mul, x, x, t);
  for (auto [value, op] : {std::pair(x, ReduceOp::Sum), std::pair(squared, ReduceOp::Sum),
                           std::pair(x, ReduceOp::ArgMax), std::pair(x, ReduceOp::Min)}) {
    b.output(value);
    b.reduce(op, over, axes);
  }
  c.kernel = b.build();
  const auto plain = [](auto in) { return in[0]; };
  c.folded = {{ReduceOp::Sum, t, plain},
              {ReduceOp::Sum, t, [](auto in) { return in[0] * in[0]; }},
              {ReduceOp::ArgMax, t, plain},
              {ReduceOp::Min, t, plain}};
  return c;
}

// ---- references

// The IR header's row split, written out: the last `axes` axes (All: every axis) are folded.
std::pair<std::int64_t, std::int64_t> rows_and_length(const ReductionCase& c) {
  const ir::Reduction& r = c.kernel.reductions[0];
  const int rank = c.shape.size();
  const int lead = r.over == ReduceOver::All ? 0 : std::max(rank - r.axes, 0);
  return {product(c.shape, 0, lead), product(c.shape, lead, rank)};
}

// A fold of one row in float64: sums also keep the magnitude they grew from, for tolerances.
struct RowFold {
  double value = 0, magnitude = 0;
  std::int64_t index = -1;
  std::uint64_t wrapped = 0;  // integer sums and products, two's complement

  void add(ReduceOp op, DType t, double v, std::int64_t k) {
    const bool first = k == 0, sum = op == ReduceOp::Sum;
    if (sum || op == ReduceOp::Prod) {
      if (first) value = sum ? 0 : 1, wrapped = sum ? 0 : 1;
      value = sum ? value + v : value * v;
      magnitude += std::fabs(v);
      if (!is_floating(t)) {
        const auto i = static_cast<std::uint64_t>(static_cast<std::int64_t>(v));
        wrapped = sum ? wrapped + i : wrapped * i;
      }
      return;
    }
    const bool is_max = op == ReduceOp::Max || op == ReduceOp::ArgMax;
    if (first || (!std::isnan(value) && (std::isnan(v) || (is_max ? v > value : v < value))))
      value = v, index = k;
  }
};

// ---- running a case

std::vector<std::byte> to_bytes(DType t, const std::vector<double>& values) {
  std::vector<std::byte> bytes(values.size() * size_of(t));
  for (std::size_t i = 0; i < values.size(); ++i)
    visit_dtype(t, [&](auto zero) {
      using T = decltype(zero);
      const T v = static_cast<T>(values[i]);
      std::memcpy(bytes.data() + i * sizeof(T), &v, sizeof(T));
    });
  return bytes;
}

double element(DType t, const std::byte* bytes, std::int64_t i) {
  return visit_dtype(t, [&](auto zero) {
    using T = decltype(zero);
    T v;
    std::memcpy(&v, bytes + i * sizeof(T), sizeof(T));
    return static_cast<double>(v);
  });
}

DeviceMemory upload(Device& device, const std::vector<std::byte>& bytes) {
  const DeviceMemory m = device.allocate(std::max<std::size_t>(bytes.size(), 8));
  if (!bytes.empty()) device.copy_from_host(m, 0, bytes.data(), bytes.size());
  return m;
}

}  // namespace

std::vector<ReductionCase> multi_reduction_cases(bool fp64) {
  constexpr auto All = ReduceOver::All, Trailing = ReduceOver::TrailingAxes;
  constexpr auto F32 = DType::Float32;
  const std::int64_t big = (1 << 20) + 3;
  std::vector<ReductionCase> cases;
  // Over every element: empty, one, odd and above 2^20 elements, 1-D and strided 3-D.
  for (std::int64_t n : {std::int64_t{0}, std::int64_t{1}, std::int64_t{7}, big})
    cases.push_back(sum_and_sum_of_squares(F32, {n}, All, 1, Access::Contiguous));
  for (std::int64_t n : {std::int64_t{1}, std::int64_t{7}, big})
    cases.push_back(min_max_argmax(F32, {n}, All, 1, Access::Contiguous, n > 1));
  cases.push_back(min_max_argmax(DType::Int32, {big}, All, 1, Access::Reversed, false));
  cases.push_back(count_beside_max({big}, All, 1, Access::Contiguous, Access::Contiguous));
  cases.push_back(sum_and_sum_of_squares(F32, {3, 5, 7}, All, 1, Access::Transposed));
  cases.push_back(weighted_sum_prod_count({0}, All, 1, Access::Contiguous));
  // 1 to 3 trailing axes of 3-D and 4-D launches, each family through a different access.
  constexpr Access kAccesses[] = {Access::Contiguous, Access::Transposed, Access::Reversed,
                                  Access::Broadcast};
  for (const Shape& shape : {Shape{4, 5, 6}, Shape{3, 4, 5, 6}})
    for (int axes : {1, 2, 3}) {
      auto access = [&](int k) { return kAccesses[(axes + shape.size() + k) % 4]; };
      cases.push_back(sum_and_sum_of_squares(F32, shape, Trailing, axes, access(0)));
      cases.push_back(min_max_argmax(F32, shape, Trailing, axes, access(1), axes == 2));
      cases.push_back(count_beside_max(shape, Trailing, axes, access(2), access(3)));
    }
  cases.push_back(weighted_sum_prod_count({4, 3, 5}, Trailing, 2, Access::Transposed));
  // Rows long enough to be split, many short rows, fewer axes than asked for, and empty rows.
  cases.push_back(four_folds({3, 7, 50001}, Trailing, 2, true));
  cases.push_back(count_beside_max({300, 4, 7}, Trailing, 2, Access::Reversed, Access::Broadcast));
  cases.push_back(sum_and_sum_of_squares(F32, {5, 3}, Trailing, 3, Access::Transposed));
  cases.push_back(weighted_sum_prod_count({3, 0, 4}, Trailing, 2, Access::Contiguous));
  cases.push_back(weighted_sum_prod_count({4, 5, 0}, Trailing, 1, Access::Contiguous));
  cases.push_back(weighted_sum_prod_count({0, 5}, Trailing, 1, Access::Contiguous));
  if (fp64) {
    cases.push_back(sum_and_sum_of_squares(DType::Float64, {big}, All, 1, Access::Contiguous));
    cases.push_back(
        min_max_argmax(DType::Float64, {4, 5, 6}, Trailing, 2, Access::Transposed, true));
  }
  return cases;
}

std::vector<ReductionCase> large_multi_reduction_cases() {
  const std::int64_t n = (1 << 23) + (1 << 21) + 5;  // 42 MB of float32
  return {four_folds({n}, ReduceOver::All, 1, false),
          four_folds({2500, 4201}, ReduceOver::TrailingAxes, 1, true),
          four_folds({3, 5, 700001}, ReduceOver::TrailingAxes, 2, true)};
}

std::vector<std::vector<double>> run_case(Device& device, const ReductionCase& c,
                                          Parallelism parallelism) {
  std::vector<Operand> inputs;
  for (const HostInput& in : c.inputs)
    inputs.push_back(
        {upload(device, to_bytes(in.dtype, in.storage)), in.dtype, in.offset, in.strides});
  const std::int64_t rows = rows_and_length(c).first;
  std::vector<Operand> outputs;
  for (std::size_t o = 0; o < c.folded.size(); ++o) {
    const DType r = ir::reduce_result(c.folded[o].op, c.folded[o].dtype);
    const std::vector<std::byte> garbage((kOutputOffset + rows) * size_of(r), std::byte{0x7f});
    outputs.push_back({upload(device, garbage), r, kOutputOffset, {}});
  }
  const auto exe = device.prepare(c.kernel);
  device.launch(*exe, LaunchArgs{c.shape, inputs, {}, outputs, parallelism});
  device.synchronize();
  std::vector<std::vector<double>> results;
  for (const Operand& out : outputs) {
    std::vector<std::byte> bytes(rows * size_of(out.dtype));
    if (rows > 0)
      device.copy_to_host(bytes.data(), out.memory, kOutputOffset * size_of(out.dtype),
                          bytes.size());
    std::vector<double>& values = results.emplace_back(rows);
    for (std::int64_t r = 0; r < rows; ++r) values[r] = element(out.dtype, bytes.data(), r);
    device.free(out.memory);
  }
  for (const Operand& in : inputs) device.free(in.memory);
  return results;
}

void expect_case_matches(Device& device, const ReductionCase& c) {
  SCOPED_TRACE(c.name + " on " + device.info().id());
  const auto [rows, length] = rows_and_length(c);
  const std::vector<std::vector<double>> got = run_case(device, c);
  const int rank = c.shape.size();
  std::vector<double> at(c.inputs.size());
  std::int64_t index[kMaxRank];
  for (std::int64_t r = 0; r < rows; ++r) {
    std::vector<RowFold> want(c.folded.size());
    for (std::int64_t k = 0; k < length; ++k) {
      std::int64_t rest = r * length + k;
      for (int d = rank - 1; d >= 0; --d) index[d] = rest % c.shape[d], rest /= c.shape[d];
      for (std::size_t i = 0; i < c.inputs.size(); ++i) {
        std::int64_t position = c.inputs[i].offset;
        for (int d = 0; d < rank; ++d) position += index[d] * c.inputs[i].strides[d];
        at[i] = c.inputs[i].storage[position];
      }
      for (std::size_t o = 0; o < c.folded.size(); ++o)
        want[o].add(c.folded[o].op, c.folded[o].dtype, c.folded[o].at(at), k);
    }
    for (std::size_t o = 0; o < c.folded.size(); ++o) {
      const FoldedValue& f = c.folded[o];
      const RowFold& w = want[o];
      const double g = got[o][r];
      const std::string where = "output " + std::to_string(o) + " (" + std::string(ir::name(f.op)) +
                                ") row " + std::to_string(r);
      if (f.op == ReduceOp::ArgMin || f.op == ReduceOp::ArgMax) {
        ASSERT_EQ(g, static_cast<double>(w.index)) << where;
      } else if (length == 0) {
        ASSERT_EQ(g, f.op == ReduceOp::Prod ? 1 : 0) << where;
      } else if (std::isnan(w.value)) {
        ASSERT_TRUE(std::isnan(g)) << where << ": " << g;
      } else if (f.op == ReduceOp::Min || f.op == ReduceOp::Max) {
        ASSERT_EQ(g, w.value) << where;
      } else if (!is_floating(f.dtype)) {
        ASSERT_EQ(g, static_cast<double>(static_cast<std::int64_t>(w.wrapped))) << where;
      } else {
        // reference.hpp's bounds in the fold's result dtype (pairwise for sums, `length`
        // roundings for products), each term one product of inputs, rounded once.
        const DType result = ir::reduce_result(f.op, f.dtype);
        const double tol =
            f.op == ReduceOp::Sum
                ? conformance::sum_error_bound(result, length, w.magnitude, w.value, 1)
                : conformance::dot_error_bound(result, length, std::fabs(w.value), w.value, 1);
        ASSERT_NEAR(g, w.value, tol) << where;
      }
    }
  }
}

}  // namespace switchyard::testing_support
