// The fusion pass counted: how many kernels some lazy work becomes (through explain), which
// operators each kernel holds and where fusion stopped, with every value checked against a host
// loop in float64. Pinned to cpu:0, so counts and values do not depend on the scheduler.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "conformance/conformance.hpp"
#include "expr/fusion.hpp"
#include "fusion_support.hpp"
#include "switchyard/switchyard.hpp"

namespace switchyard {
namespace {

using conformance::expect_close;
using conformance::expect_within;
using conformance::host_array;
using conformance::random_values;
using testing_support::count;
using testing_support::evaluated;
using testing_support::Fusion;
using testing_support::requested;
using testing_support::sorted;
using testing_support::stopped_for;

// ---- elementwise chains

struct ChainInputs {
  std::vector<double> a, b, k;
  Array fa, fb, ik;  // float32, float32, int32
};

ChainInputs chain_inputs(std::int64_t n) {
  ChainInputs in;
  in.a = random_values(n, DType::Float32, 11, -2, 2);
  in.b = random_values(n, DType::Float32, 12, -2, 2);
  in.k = random_values(n, DType::Int32, 13, -4, 4);
  in.fa = host_array(in.a, {n}, DType::Float32);
  in.fb = host_array(in.b, {n}, DType::Float32);
  in.ik = host_array(in.k, {n}, DType::Int32);
  return in;
}

// One call of a chain, on the library and on the host.
struct Step {
  std::vector<std::string> operators;
  std::function<Array(const Array& x, const ChainInputs&)> apply;
  std::function<double(double x, double a, double b, double k)> host;
};

// Unary, binary, scalar (also first), where with a comparison, and an int32 operand that
// promotes the float32 chain to float64.
const std::vector<Step>& chain_steps() {
  static const std::vector<Step> steps = {
      {{"add"},
       [](const Array& x, const ChainInputs& in) { return x + in.fa; },
       [](double x, double a, double, double) { return x + a; }},
      {{"sin"},
       [](const Array& x, const ChainInputs&) { return sin(x); },
       [](double x, double, double, double) { return std::sin(x); }},
      {{"mul"},
       [](const Array& x, const ChainInputs&) { return x * 0.75; },
       [](double x, double, double, double) { return x * 0.75; }},
      {{"sub"},
       [](const Array& x, const ChainInputs& in) { return x - in.fb; },
       [](double x, double, double b, double) { return x - b; }},
      {{"gt", "where"},
       [](const Array& x, const ChainInputs& in) { return where(greater(x, in.fb), x, in.fa); },
       [](double x, double a, double b, double) { return x > b ? x : a; }},
      {{"abs"},
       [](const Array& x, const ChainInputs&) { return abs(x); },
       [](double x, double, double, double) { return std::abs(x); }},
      {{"add"},
       [](const Array& x, const ChainInputs& in) { return x + in.ik; },
       [](double x, double, double, double k) { return x + k; }},
      {{"max"},
       [](const Array& x, const ChainInputs&) { return maximum(x, -0.5); },
       [](double x, double, double, double) { return std::max(x, -0.5); }},
      {{"cos"},
       [](const Array& x, const ChainInputs&) { return cos(x); },
       [](double x, double, double, double) { return std::cos(x); }},
      {{"sub"},
       [](const Array& x, const ChainInputs&) { return 1.5 - x; },
       [](double x, double, double, double) { return 1.5 - x; }},
  };
  return steps;
}

TEST_F(Fusion, ElementwiseChainOfAnyLengthIsOneKernel) {
  const std::int64_t n = 1000;
  const ChainInputs in = chain_inputs(n);
  for (const int length : {2, 10, 30}) {
    SCOPED_TRACE(length);
    std::vector<double> expected = in.a;
    std::vector<std::string> operators;
    for (int s = 0; s < length; ++s) {
      const Step& step = chain_steps()[s % chain_steps().size()];
      for (std::int64_t i = 0; i < n; ++i)
        expected[i] = step.host(expected[i], in.a[i], in.b[i], in.k[i]);
      operators.insert(operators.end(), step.operators.begin(), step.operators.end());
    }
    // Built under explain too: a graph outgrowing its bound is realised while it is built.
    Array y = in.fa;
    const Explanation e = explain([&] {
      for (int s = 0; s < length; ++s) y = chain_steps()[s % chain_steps().size()].apply(y, in);
      eval(y);
    });
    const bool promoted = length > 6;  // the int32 operand came in
    EXPECT_EQ(y.dtype(), promoted ? DType::Float64 : DType::Float32);
    ASSERT_EQ(e.kernels.size(), 1u) << e.to_string();
    EXPECT_TRUE(e.fusion_stops.empty()) << e.to_string();
    EXPECT_EQ(requested(e.kernels[0]), sorted(operators));
    if (promoted) {
      EXPECT_GE(count(e.kernels[0], "cast"), 1);
    }
    // The float32 steps before the promotion bound the error.
    std::vector<double> tolerances;
    for (double x : expected)
      tolerances.push_back(conformance::tolerance(DType::Float32, true) *
                           std::max(1.0, std::abs(x)));
    expect_within(y, expected, tolerances, "chain of " + std::to_string(length));
  }
}

TEST_F(Fusion, BroadcastingColumnsAgainstRowsIsOneKernel) {
  const std::int64_t rows = 37, cols = 53;
  const auto vx = random_values(rows, DType::Float32, 21),
             vw = random_values(cols, DType::Float32, 22);
  const Array x = host_array(vx, {rows}, DType::Float32),
              w = host_array(vw, {cols}, DType::Float32);
  // x[:, None] as a stored (n, 1) view, and pending results given new axes.
  const Array stored = x.expand_dims(1) * w.expand_dims(0) + 1.0;
  const Array column = (x + 1.0).expand_dims(1), row = (w * 2.0).expand_dims(0);
  const Array pending = column * row - column;
  ASSERT_EQ(pending.shape(), (Shape{rows, cols}));
  std::vector<double> expected_stored, expected_pending;
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t j = 0; j < cols; ++j) {
      expected_stored.push_back(vx[i] * vw[j] + 1);
      expected_pending.push_back((vx[i] + 1) * (vw[j] * 2) - (vx[i] + 1));
    }
  for (const auto& [y, ops] :
       {std::pair{stored, std::vector<std::string>{"add", "mul"}},
        std::pair{pending, std::vector<std::string>{"add", "mul", "mul", "sub"}}}) {
    const Explanation e = evaluated(y);
    ASSERT_EQ(e.kernels.size(), 1u) << e.to_string();
    // `column` is used twice and computed once.
    EXPECT_EQ(requested(e.kernels[0]), ops);
  }
  expect_close(stored, expected_stored, false, "x[:, None] * w[None, :] + 1");
  expect_close(pending, expected_pending, false, "(x + 1)[:, None] * (w * 2)[None, :] - ...");
}

TEST_F(Fusion, ViewsOfPendingResultsStayInTheirConsumersKernel) {
  const std::int64_t rows = 7, cols = 9;
  const auto va = random_values(rows * cols, DType::Float32, 31);
  const auto vb = random_values(rows * cols, DType::Float32, 32);
  const Array a = host_array(va, {rows, cols}, DType::Float32);
  const Array b = host_array(vb, {rows, cols}, DType::Float32);
  const Array p = a * 2.0 - b;  // pending
  auto p_at = [&](std::int64_t i, std::int64_t j) {
    return va[i * cols + j] * 2 - vb[i * cols + j];
  };
  struct ViewCase {
    const char* name;
    Array view;
    std::function<double(std::int64_t i, std::int64_t j)> at;  // the view's (i, j) in p
  };
  const std::vector<ViewCase> cases = {
      {"p[::2]", p.slice(0, std::nullopt, std::nullopt, 2),
       [&](auto i, auto j) { return p_at(2 * i, j); }},
      {"p[:, ::-1]", p.slice(1, std::nullopt, std::nullopt, -1),
       [&](auto i, auto j) { return p_at(i, cols - 1 - j); }},
      {"p.T", p.transpose(), [&](auto i, auto j) { return p_at(j, i); }},
      {"p[-2]", p[-2], [&](auto, auto j) { return p_at(rows - 2, j); }},
      {"p[:, 1::3].T[::-2]",
       p.slice(1, 1, std::nullopt, 3).transpose().slice(0, std::nullopt, std::nullopt, -2),
       [&](auto i, auto j) { return p_at(j, 1 + 3 * (2 - 2 * i)); }},
  };
  for (const ViewCase& c : cases) {
    SCOPED_TRACE(c.name);
    const Array y = sin(c.view) + c.view;
    const Explanation e = evaluated(y);
    ASSERT_EQ(e.kernels.size(), 1u) << e.to_string();
    EXPECT_EQ(requested(e.kernels[0]), sorted({"add", "mul", "sin", "sub"}));
    const std::int64_t r = y.ndim() == 2 ? y.shape()[0] : 1, k = y.shape()[y.ndim() - 1];
    std::vector<double> expected;
    for (std::int64_t i = 0; i < r; ++i)
      for (std::int64_t j = 0; j < k; ++j) expected.push_back(std::sin(c.at(i, j)) + c.at(i, j));
    expect_close(y, expected, true, std::string("sin(v) + v for v = ") + c.name);
  }
  EXPECT_TRUE(p.pending()) << "views computed their values without realising p";
}

// ---- several results of one kernel

TEST_F(Fusion, ResultsOfOneShapeEvaluatedTogetherShareOneKernel) {
  const std::int64_t n = 513;
  const auto va = random_values(n, DType::Float32, 41), vb = random_values(n, DType::Float32, 42);
  const Array a = host_array(va, {n}, DType::Float32), b = host_array(vb, {n}, DType::Float32);
  const Array y1 = a * b, y2 = sin(a) + b, y3 = where(greater(a, b), a, b) - 1.0;
  const Explanation e = evaluated(y1, y2, y3);
  ASSERT_EQ(e.kernels.size(), 1u) << e.to_string();
  EXPECT_EQ(requested(e.kernels[0]), sorted({"mul", "sin", "add", "gt", "where", "sub"}));
  EXPECT_FALSE(y1.pending() || y2.pending() || y3.pending());
  std::vector<double> e1, e2, e3;
  for (std::int64_t i = 0; i < n; ++i) {
    e1.push_back(va[i] * vb[i]);
    e2.push_back(std::sin(va[i]) + vb[i]);
    e3.push_back(std::max(va[i], vb[i]) - 1);
  }
  expect_close(y1, e1, false, "a * b");
  expect_close(y2, e2, true, "sin(a) + b");
  expect_close(y3, e3, false, "where(a > b, a, b) - 1");
}

TEST_F(Fusion, MoreResultsOfOneShapeThanALaunchWritesAreSplitIntoKernels) {
  const std::int64_t n = 100;
  const auto va = random_values(n, DType::Float32, 45);
  const Array a = host_array(va, {n}, DType::Float32);
  std::vector<Array> results;
  for (int k = 0; k < 20; ++k) results.push_back(a * static_cast<double>(k));
  const Explanation e = explain([&] { eval(results); });
  EXPECT_EQ(e.kernels.size(), 2u) << e.to_string();  // 16 outputs, then 4
  for (int k = 0; k < 20; ++k) {
    std::vector<double> expected;
    for (double v : va) expected.push_back(v * k);
    expect_close(results[k], expected, false, "a * k");
  }
}

// Each result reads two arrays of its own: together they read more inputs than one launch takes,
// so the kernel is split until each part fits (before, the launch refused them all).
TEST_F(Fusion, ResultsReadingMoreInputsThanALaunchTakesAreSplitIntoKernels) {
  const std::int64_t n = 50;
  const int count = 12;
  std::vector<std::vector<double>> values;
  std::vector<Array> inputs, results;
  for (int k = 0; k < 2 * count; ++k) {
    values.push_back(random_values(n, DType::Float32, 100 + k));
    inputs.push_back(host_array(values.back(), {n}, DType::Float32));
  }
  for (int k = 0; k < count; ++k) results.push_back(inputs[2 * k] * inputs[2 * k + 1]);
  const Explanation e = explain([&] { eval(results); });
  EXPECT_GE(e.kernels.size(), 2u) << e.to_string();
  for (int k = 0; k < count; ++k) {
    std::vector<double> expected;
    for (std::int64_t i = 0; i < n; ++i)
      expected.push_back(values[2 * k][i] * values[2 * k + 1][i]);
    expect_close(results[k], expected, false, "a_k * b_k");
  }
}

TEST_F(Fusion, ResultsOfTwoShapesAreTwoKernels) {
  const auto va = random_values(100, DType::Float32, 43),
             vc = random_values(60, DType::Float32, 44);
  const Array a = host_array(va, {100}, DType::Float32), c = host_array(vc, {60}, DType::Float32);
  const Array y = a * 3.0, z = c + 2.0;
  const Explanation e = evaluated(y, z);
  EXPECT_EQ(e.kernels.size(), 2u) << e.to_string();
  EXPECT_TRUE(stopped_for(e, "iteration-space")) << e.to_string();
  std::vector<double> ey, ez;
  for (double v : va) ey.push_back(v * 3);
  for (double v : vc) ez.push_back(v + 2);
  expect_close(y, ey, false, "a * 3");
  expect_close(z, ez, false, "c + 2");
}

// ---- each value once

TEST_F(Fusion, IdenticalSubexpressionsBuiltSeparatelyAreComputedOnce) {
  const std::int64_t n = 300;
  const auto va = random_values(n, DType::Float32, 51), vk = random_values(n, DType::Int32, 52);
  const Array a = host_array(va, {n}, DType::Float32), k = host_array(vk, {n}, DType::Int32);
  const Array y = sin(a) + sin(a);  // two sin nodes of one input
  const Explanation e = evaluated(y);
  ASSERT_EQ(e.kernels.size(), 1u) << e.to_string();
  EXPECT_EQ(e.kernels[0].operators, (std::vector<std::string>{"sin", "add"}));
  // The same through the cast an int32 operand of sin needs: one cast, one sin.
  const Array z = sin(k) + sin(k);
  const Explanation ez = evaluated(z);
  ASSERT_EQ(ez.kernels.size(), 1u) << ez.to_string();
  EXPECT_EQ(ez.kernels[0].operators, (std::vector<std::string>{"cast", "sin", "add"}));
  std::vector<double> ey, ek;
  for (std::int64_t i = 0; i < n; ++i) {
    ey.push_back(2 * std::sin(va[i]));
    ek.push_back(2 * std::sin(vk[i]));
  }
  expect_close(y, ey, true, "sin(a) + sin(a)");
  expect_close(z, ek, true, "sin(k) + sin(k) for int32 k");
}

TEST_F(Fusion, AnInputUsedFiveTimesIsLoadedOnce) {
  const std::int64_t n = 200;
  const auto va = random_values(n, DType::Float32, 53);
  const Array a = host_array(va, {n}, DType::Float32);
  const Array y = a * a + a * 0.5 - abs(a) + a;
  // explain reports operators, not loads; the fusion pass's plan shows the kernel's inputs.
  const auto planned = expr::plan({y.node()});
  ASSERT_EQ(planned.size(), 1u);
  EXPECT_EQ(planned[0].group.inputs.size(), 1u);
  EXPECT_EQ(planned[0].group.kernel->inputs.size(), 1u);
  const Explanation e = evaluated(y);
  ASSERT_EQ(e.kernels.size(), 1u) << e.to_string();
  EXPECT_EQ(requested(e.kernels[0]), sorted({"mul", "mul", "add", "abs", "sub", "add"}));
  std::vector<double> expected;
  for (double x : va) expected.push_back(x * x + x * 0.5 - std::abs(x) + x);
  expect_close(y, expected, false, "a * a + a * 0.5 - abs(a) + a");
}

// An op over computed arrays is planned without walking the graph (expr/eager_plan.hpp); its
// kernel must still be the one the fusion pass defines: inputs and scalars in the order the op
// reads them, one input per distinct view, each with its layout. Built here by hand.
TEST_F(Fusion, AnEagerOpIsPlannedAsTheKernelItsIrDefines) {
  const std::int64_t n = 6;
  const Array a = host_array(random_values(n, DType::Float32, 3), {n}, DType::Float32);
  const Array b = host_array(random_values(n, DType::Float32, 4), {n}, DType::Float32);
  const Array one = host_array({0.5}, {1}, DType::Float32);
  const Array m =
      host_array(random_values(n, DType::Float32, 5), {2, 3}, DType::Float32).transpose();
  const Array c = a > b;
  eval(c);
  using ir::Layout;
  using ir::OpCode;
  constexpr DType f32 = DType::Float32;
  auto planned_signature = [](const Array& y) {
    const auto planned = expr::plan({y.node()});
    EXPECT_EQ(planned.size(), 1u);
    EXPECT_EQ(planned[0].group.signature, planned[0].group.kernel->hash());
    return planned[0].group.signature;
  };
  auto built = [](const std::function<std::int32_t(ir::KernelBuilder&)>& body) {
    ir::KernelBuilder k;
    k.output(body(k));
    return k.build().hash();
  };
  EXPECT_EQ(planned_signature(a + b), built([](ir::KernelBuilder& k) {
              const auto x = k.load(f32, Layout::Contiguous);
              return k.binary(OpCode::Add, x, k.load(f32, Layout::Contiguous), f32);
            }));
  EXPECT_EQ(planned_signature(a * a), built([](ir::KernelBuilder& k) {
              const auto x = k.load(f32, Layout::Contiguous);
              return k.binary(OpCode::Mul, x, x, f32);
            }));
  EXPECT_EQ(planned_signature(2.0 - a), built([](ir::KernelBuilder& k) {
              const auto s = k.scalar(f32);
              return k.binary(OpCode::Sub, s, k.load(f32, Layout::Contiguous), f32);
            }));
  EXPECT_EQ(planned_signature(where(c, a, one)), built([](ir::KernelBuilder& k) {
              const auto cond = k.load(DType::Bool, Layout::Contiguous);
              const auto x = k.load(f32, Layout::Contiguous);
              return k.where(cond, x, k.load(f32, Layout::Broadcast));
            }));
  EXPECT_EQ(planned_signature(sin(m)), built([](ir::KernelBuilder& k) {
              return k.unary(OpCode::Sin, k.load(f32, Layout::Strided), f32);
            }));
  EXPECT_EQ(planned_signature(b.astype(DType::Float64)), built([](ir::KernelBuilder& k) {
              return k.cast(k.load(f32, Layout::Contiguous), DType::Float64);
            }));
  // The same op over other dtypes or layouts is another kernel.
  EXPECT_NE(planned_signature(a + b), planned_signature(a + one));
  EXPECT_NE(planned_signature(a + b), planned_signature(a * b));
}

// So is a reduction of a computed array: its input over the reduction's space (the reduced axes
// last), the output, then the fold over those axes.
TEST_F(Fusion, AnEagerReductionIsPlannedAsTheKernelItsIrDefines) {
  using ir::Layout;
  using ir::ReduceOp;
  using ir::ReduceOver;
  constexpr DType f32 = DType::Float32;
  const Array m = host_array(random_values(6, f32, 6), {2, 3}, f32);
  auto planned = [](const Array& y) {
    const auto kernels = expr::plan({y.node()});
    EXPECT_EQ(kernels.size(), 1u);
    EXPECT_EQ(kernels[0].group.signature, kernels[0].group.kernel->hash());
    return kernels[0];
  };
  auto built = [](Layout layout, ReduceOp op, ReduceOver over, int axes) {
    ir::KernelBuilder k;
    k.output(k.load(f32, layout));
    k.reduce(op, over, axes);
    return k.build().hash();
  };
  EXPECT_EQ(planned(sum(m)).group.signature,
            built(Layout::Contiguous, ReduceOp::Sum, ReduceOver::All, 2));
  EXPECT_EQ(planned(max(m, 1)).group.signature,
            built(Layout::Contiguous, ReduceOp::Max, ReduceOver::TrailingAxes, 1));
  const auto columns = planned(sum(m, 0));
  EXPECT_EQ(columns.group.signature,
            built(Layout::Strided, ReduceOp::Sum, ReduceOver::TrailingAxes, 1));
  EXPECT_EQ(columns.group.shape, (Shape{3, 2}));
  EXPECT_EQ(columns.group.inputs[0].strides, (Strides{1, 3}));
  EXPECT_EQ(planned(argmin(m.transpose(), 1)).group.signature,
            built(Layout::Strided, ReduceOp::ArgMin, ReduceOver::TrailingAxes, 1));
}

}  // namespace
}  // namespace switchyard
