// Kernel IR: building, validation and the stable hash.
#include <gtest/gtest.h>

#include "expr/kernel_ir.hpp"
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

TEST(KernelIR, HashIsStableAndSensitiveToEveryField) {
  const Kernel k = axpb_sin(DType::Float32);
  EXPECT_EQ(k.hash(), axpb_sin(DType::Float32).hash());
  EXPECT_NE(k.hash(), axpb_sin(DType::Float64).hash());
  EXPECT_NE(k.hash(), axpb_sin(DType::Float32, Layout::Strided).hash());
  Kernel reduced = k;
  reduced.has_reduction = true;
  reduced.reduction = {ReduceOp::Sum, ReduceOver::All};
  EXPECT_NE(k.hash(), reduced.hash());
  Kernel other_reduction = reduced;
  other_reduction.reduction.over = ReduceOver::LastAxis;
  EXPECT_NE(reduced.hash(), other_reduction.hash());
}

TEST(KernelIR, ValidationRejectsBadOperands) {
  Kernel k = axpb_sin(DType::Float32);
  k.body[3].a = 7;  // reads a later instruction
  EXPECT_THROW(k.validate(), ValueError);
  Kernel no_out = axpb_sin(DType::Float32);
  no_out.outputs.clear();
  EXPECT_THROW(no_out.validate(), ValueError);
  Kernel two_reduced = axpb_sin(DType::Float32);
  two_reduced.outputs.push_back(two_reduced.outputs[0]);
  two_reduced.has_reduction = true;
  EXPECT_THROW(two_reduced.validate(), ValueError);
}

TEST(KernelIR, CountsWork) {
  const Kernel k = axpb_sin(DType::Float32);
  EXPECT_EQ(k.transcendental_count(), 1);
  EXPECT_EQ(k.arithmetic_count(), 2);
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
