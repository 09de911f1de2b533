// Kernel IR: building, validation, the stable hash and how reductions split a launch.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "ir/kernel_ir.hpp"
#include "switchyard/error.hpp"

namespace switchyard::ir {
namespace {

Kernel axpb_sin(DType t, Layout layout = Layout::Contiguous) {
  KernelBuilder b;
  const auto x = b.load(t, layout), y = b.load(t, Layout::Contiguous),
             z = b.load(t, Layout::Broadcast);
  b.output(b.binary(OpCode::Add, b.binary(OpCode::Mul, x, y, t), b.unary(OpCode::Sin, z, t), t));
  return b.build();
}

// x and x*x of one float input, each an output: the shape of sum(x) beside sum(x*x).
Kernel two_outputs(DType t) {
  KernelBuilder b;
  const auto x = b.load(t, Layout::Contiguous);
  b.output(x);
  b.output(b.binary(OpCode::Mul, x, x, t));
  return b.build();
}

Kernel folded(Kernel k, std::vector<Reduction> reductions) {
  k.has_reduction = true;
  k.reductions = std::move(reductions);
  return k;
}

TEST(KernelIR, HashIsStableAndSensitiveToEveryField) {
  const Kernel k = axpb_sin(DType::Float32);
  EXPECT_EQ(k.hash(), axpb_sin(DType::Float32).hash());
  EXPECT_NE(k.hash(), axpb_sin(DType::Float64).hash());
  EXPECT_NE(k.hash(), axpb_sin(DType::Float32, Layout::Strided).hash());
  const Kernel reduced = folded(k, {{ReduceOp::Sum, ReduceOver::All}});
  EXPECT_NE(k.hash(), reduced.hash());
  EXPECT_NE(reduced.hash(), folded(k, {{ReduceOp::Sum, ReduceOver::TrailingAxes}}).hash());
  EXPECT_NE(folded(k, {{ReduceOp::Sum, ReduceOver::TrailingAxes, 1}}).hash(),
            folded(k, {{ReduceOp::Sum, ReduceOver::TrailingAxes, 2}}).hash());
}

TEST(KernelIR, HashCoversEveryReduction) {
  const Kernel k = two_outputs(DType::Float32);
  const Reduction sum{ReduceOp::Sum, ReduceOver::TrailingAxes, 2};
  const Kernel sums = folded(k, {sum, sum});
  EXPECT_EQ(sums.hash(), folded(k, {sum, sum}).hash());
  EXPECT_NE(sums.hash(), folded(k, {sum, {ReduceOp::Max, ReduceOver::TrailingAxes, 2}}).hash());
  EXPECT_NE(sums.hash(), folded(k, {{ReduceOp::Max, ReduceOver::TrailingAxes, 2}, sum}).hash());
  EXPECT_NE(sums.hash(), folded(k, {{ReduceOp::Sum, ReduceOver::TrailingAxes, 3},
                                    {ReduceOp::Sum, ReduceOver::TrailingAxes, 3}})
                             .hash());
  Kernel one_output = folded(k, {sum});
  one_output.outputs.pop_back();
  EXPECT_NE(sums.hash(), one_output.hash());
}

TEST(KernelIR, ValidationRejectsBadOperands) {
  Kernel k = axpb_sin(DType::Float32);
  k.body[3].a = 7;  // reads a later instruction
  EXPECT_THROW(k.validate(), ValueError);
  Kernel no_out = axpb_sin(DType::Float32);
  no_out.outputs.clear();
  EXPECT_THROW(no_out.validate(), ValueError);
}

TEST(KernelIR, ValidationWantsOneReductionPerOutputOverTheSameElements) {
  const Kernel k = two_outputs(DType::Float32);
  const Reduction sum{ReduceOp::Sum, ReduceOver::TrailingAxes, 2};
  EXPECT_NO_THROW(folded(k, {sum, {ReduceOp::ArgMax, ReduceOver::TrailingAxes, 2}}).validate());
  EXPECT_THROW(folded(k, {sum}).validate(), ValueError);
  EXPECT_THROW(folded(k, {sum, sum, sum}).validate(), ValueError);
  EXPECT_THROW(folded(k, {}).validate(), ValueError);
  EXPECT_THROW(folded(k, {sum, {ReduceOp::Sum, ReduceOver::All, 2}}).validate(), ValueError);
  EXPECT_THROW(folded(k, {sum, {ReduceOp::Sum, ReduceOver::TrailingAxes, 1}}).validate(),
               ValueError);
  const Reduction none{ReduceOp::Sum, ReduceOver::TrailingAxes, 0};
  EXPECT_THROW(folded(k, {none, none}).validate(), ValueError);
  Kernel unflagged = folded(k, {sum, sum});
  unflagged.has_reduction = false;
  EXPECT_THROW(unflagged.validate(), ValueError);
}

TEST(KernelIR, BuilderFoldsOutputsInOrder) {
  KernelBuilder b;
  const auto x = b.load(DType::Float32, Layout::Contiguous);
  b.output(x);
  b.reduce(ReduceOp::Min, ReduceOver::TrailingAxes, 3);
  b.output(x);
  b.reduce(ReduceOp::ArgMax, ReduceOver::TrailingAxes, 3);
  const Kernel k = b.build();
  ASSERT_TRUE(k.has_reduction);
  ASSERT_EQ(k.reductions.size(), 2u);
  EXPECT_EQ(k.reductions[0].op, ReduceOp::Min);
  EXPECT_EQ(k.reductions[1].op, ReduceOp::ArgMax);
  EXPECT_EQ(k.reductions[1].axes, 3);

  KernelBuilder unfolded;
  unfolded.output(unfolded.load(DType::Float32, Layout::Contiguous));
  unfolded.output(unfolded.load(DType::Float32, Layout::Contiguous));
  unfolded.reduce(ReduceOp::Sum, ReduceOver::All);
  EXPECT_THROW(unfolded.build(), ValueError);
}

TEST(KernelIR, FoldedRowsSplitTheLaunchShape) {
  auto rows = [](ReduceOver over, std::int32_t axes, const Shape& shape) {
    const FoldedRows r = folded_rows({ReduceOp::Sum, over, axes}, shape);
    return std::to_string(r.rows) + " rows of " + std::to_string(r.length);
  };
  EXPECT_EQ(rows(ReduceOver::All, 1, {2, 3, 4}), "1 rows of 24");
  EXPECT_EQ(rows(ReduceOver::TrailingAxes, 1, {2, 3, 4}), "6 rows of 4");
  EXPECT_EQ(rows(ReduceOver::TrailingAxes, 2, {2, 3, 4}), "2 rows of 12");
  EXPECT_EQ(rows(ReduceOver::TrailingAxes, 3, {2, 3, 4}), "1 rows of 24");
  EXPECT_EQ(rows(ReduceOver::TrailingAxes, 2, {5, 0, 4}), "5 rows of 0");
  EXPECT_EQ(rows(ReduceOver::TrailingAxes, 1, {0, 4}), "0 rows of 4");
  EXPECT_EQ(rows(ReduceOver::All, 1, {0}), "1 rows of 0");
  EXPECT_EQ(rows(ReduceOver::TrailingAxes, 1, {}), "1 rows of 1");
}

TEST(KernelIR, CountsWork) {
  const Kernel k = axpb_sin(DType::Float32);
  EXPECT_EQ(k.transcendental_count(), 1);
  EXPECT_EQ(k.arithmetic_count(), 2);
}

TEST(KernelIR, EveryOpcodeHasItsOwnNameAndArity) {
  std::set<std::string_view> names;
  for (int i = 0; i < kOpCodeCount; ++i) {
    const auto op = static_cast<OpCode>(i);
    EXPECT_FALSE(name(op).empty()) << i;
    EXPECT_TRUE(names.insert(name(op)).second) << name(op) << " names two opcodes";
  }
  for (OpCode op : {OpCode::Asin, OpCode::Acosh, OpCode::Expm1, OpCode::Log10, OpCode::SignBit})
    EXPECT_EQ(arity(op), 1) << name(op);
  for (OpCode op : {OpCode::Hypot, OpCode::CopySign, OpCode::NextAfter, OpCode::LogAddExp,
                    OpCode::ShiftLeft, OpCode::ShiftRight})
    EXPECT_EQ(arity(op), 2) << name(op);
  EXPECT_EQ(name(OpCode::Where), "where");
  EXPECT_TRUE(is_transcendental(OpCode::Sinh) && is_transcendental(OpCode::LogAddExp));
  EXPECT_FALSE(is_transcendental(OpCode::CopySign) || is_transcendental(OpCode::NextAfter) ||
               is_transcendental(OpCode::ShiftLeft));
}

TEST(KernelIR, SignBitIsAClassification) {
  EXPECT_TRUE(is_classification(OpCode::SignBit));
  KernelBuilder b;
  const auto x = b.load(DType::Float64, Layout::Contiguous);
  b.output(b.unary(OpCode::SignBit, x, DType::Bool));
  EXPECT_NO_THROW(b.build());
  KernelBuilder wrong;
  const auto y = wrong.load(DType::Float64, Layout::Contiguous);
  wrong.output(wrong.unary(OpCode::SignBit, y, DType::Float64));
  EXPECT_THROW(wrong.build(), ValueError);
}

TEST(KernelIR, ReductionResultTypes) {
  EXPECT_EQ(reduce_result(ReduceOp::Sum, DType::Bool), DType::Int64);
  EXPECT_EQ(reduce_result(ReduceOp::Sum, DType::Int32), DType::Int64);
  EXPECT_EQ(reduce_result(ReduceOp::Sum, DType::Float32), DType::Float32);
  EXPECT_EQ(reduce_result(ReduceOp::Max, DType::Int32), DType::Int32);
  EXPECT_EQ(reduce_result(ReduceOp::ArgMax, DType::Float32), DType::Int64);
}

}  // namespace
}  // namespace switchyard::ir
