// Query pipelines: LINQ-style chains over the elements of an array.
//
//   namespace q = switchyard::pipeline;
//   using q::_1;
//   const auto query = q::from(a).map(_1 * 2 + 1).where(_1 > 0);
//   const double s = query.sum().item<double>();      // one pass over a
//   std::printf("%s", query.report().to_string().c_str());
//
// Stages are expressions in the same lazy graph as every array operation, so a pipeline fuses
// into as few kernels as its operations allow: map → where → sum (count, min, max, aggregate) is
// one pass over memory, `where` acting as a mask and nothing compacted; scan, sort, argsort and
// to_array compact the kept elements first (their count is known only then). A terminal runs at
// once and leaves a report of what ran where, how long each stage took and why it ran there.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "switchyard/algorithms.hpp"
#include "switchyard/array.hpp"
#include "switchyard/explain.hpp"
#include "switchyard/ops.hpp"

namespace switchyard::pipeline {

// An element-wise function of the elements a stage sees, written with the placeholder _1
// (`_1 * 2 + 1`, `sin(_1) > 0.5`, `where(_1 > 0, _1, -_1)`) or any callable Array → Array.
// Applying it records the expression; it runs when the pipeline's terminal does.
class Lambda {
 public:
  using Function = std::function<Array(const Array&)>;
  template <class F, class = std::enable_if_t<std::is_invocable_r_v<Array, F, const Array&> &&
                                              !std::is_same_v<std::decay_t<F>, Lambda>>>
  Lambda(F f) : f_(std::move(f)) {}
  Array operator()(const Array& x) const { return f_(x); }

 private:
  Function f_;
};

inline const Lambda _1{[](const Array& x) { return x; }};

#define SWITCHYARD_LAMBDA_BINARY(op)                        \
  inline Lambda operator op(Lambda a, Lambda b) {           \
    return [a, b](const Array& x) { return a(x) op b(x); }; \
  }                                                         \
  inline Lambda operator op(Lambda a, Scalar b) {           \
    return [a, b](const Array& x) { return a(x) op b; };    \
  }                                                         \
  inline Lambda operator op(Scalar a, Lambda b) {           \
    return [a, b](const Array& x) { return a op b(x); };    \
  }
SWITCHYARD_LAMBDA_BINARY(+)
SWITCHYARD_LAMBDA_BINARY(-)
SWITCHYARD_LAMBDA_BINARY(*)
SWITCHYARD_LAMBDA_BINARY(/)
SWITCHYARD_LAMBDA_BINARY(%)
SWITCHYARD_LAMBDA_BINARY(==)
SWITCHYARD_LAMBDA_BINARY(!=)
SWITCHYARD_LAMBDA_BINARY(<)
SWITCHYARD_LAMBDA_BINARY(<=)
SWITCHYARD_LAMBDA_BINARY(>)
SWITCHYARD_LAMBDA_BINARY(>=)
SWITCHYARD_LAMBDA_BINARY(&)
SWITCHYARD_LAMBDA_BINARY(|)
SWITCHYARD_LAMBDA_BINARY(^)
SWITCHYARD_LAMBDA_BINARY(<<)
SWITCHYARD_LAMBDA_BINARY(>>)
#undef SWITCHYARD_LAMBDA_BINARY

#define SWITCHYARD_LAMBDA_FUNCTION(fn)                             \
  inline Lambda fn(Lambda a) {                                     \
    return [a](const Array& x) { return ::switchyard::fn(a(x)); }; \
  }
SWITCHYARD_LAMBDA_FUNCTION(negative)
SWITCHYARD_LAMBDA_FUNCTION(abs)
SWITCHYARD_LAMBDA_FUNCTION(sign)
SWITCHYARD_LAMBDA_FUNCTION(logical_not)
SWITCHYARD_LAMBDA_FUNCTION(exp)
SWITCHYARD_LAMBDA_FUNCTION(log)
SWITCHYARD_LAMBDA_FUNCTION(sqrt)
SWITCHYARD_LAMBDA_FUNCTION(sin)
SWITCHYARD_LAMBDA_FUNCTION(cos)
SWITCHYARD_LAMBDA_FUNCTION(tan)
SWITCHYARD_LAMBDA_FUNCTION(tanh)
SWITCHYARD_LAMBDA_FUNCTION(arcsin)
SWITCHYARD_LAMBDA_FUNCTION(arccos)
SWITCHYARD_LAMBDA_FUNCTION(arctan)
SWITCHYARD_LAMBDA_FUNCTION(sinh)
SWITCHYARD_LAMBDA_FUNCTION(cosh)
SWITCHYARD_LAMBDA_FUNCTION(arcsinh)
SWITCHYARD_LAMBDA_FUNCTION(arccosh)
SWITCHYARD_LAMBDA_FUNCTION(arctanh)
SWITCHYARD_LAMBDA_FUNCTION(expm1)
SWITCHYARD_LAMBDA_FUNCTION(log1p)
SWITCHYARD_LAMBDA_FUNCTION(log2)
SWITCHYARD_LAMBDA_FUNCTION(log10)
SWITCHYARD_LAMBDA_FUNCTION(signbit)
SWITCHYARD_LAMBDA_FUNCTION(floor)
SWITCHYARD_LAMBDA_FUNCTION(ceil)
#undef SWITCHYARD_LAMBDA_FUNCTION

inline Lambda operator-(Lambda a) {
  return negative(std::move(a));
}
inline Lambda operator~(Lambda a) {
  return [a](const Array& x) { return ~a(x); };
}
inline Lambda minimum(Lambda a, Lambda b) {
  return [a, b](const Array& x) { return ::switchyard::minimum(a(x), b(x)); };
}
inline Lambda maximum(Lambda a, Lambda b) {
  return [a, b](const Array& x) { return ::switchyard::maximum(a(x), b(x)); };
}
inline Lambda where(Lambda cond, Lambda a, Lambda b) {
  return [cond, a, b](const Array& x) { return ::switchyard::where(cond(x), a(x), b(x)); };
}
inline Lambda astype(Lambda a, DType dtype) {
  return [a, dtype](const Array& x) { return a(x).astype(dtype); };
}

// One kernel or library op a terminal ran.
struct StageReport {
  std::string work;                    // "mul,add,gt,where,sum float32", "sort float32"
  std::vector<std::string> operators;  // fused into it
  std::int64_t elements = 0;
  std::string device;  // where it ran (after any fallback)
  std::string reason;  // why the scheduler chose it
  double compile_s = 0, transfer_s = 0, execute_s = 0, total_s = 0;
  bool cache_hit = false;  // its program was already compiled for that device
  int fallbacks = 0;
};

// What the last terminal of a query ran: its stages in order, their times, and the throughput.
struct Report {
  std::string terminal;             // "sum", "sort", ...
  std::int64_t elements = 0;        // elements entering the pipeline
  std::vector<StageReport> stages;  // one per kernel or library op
  std::vector<std::string> fusion_stops;
  double compile_s = 0, transfer_s = 0, execute_s = 0;
  double total_s = 0;      // the terminal's wall time, everything included
  bool cache_hit = false;  // every stage's program was already compiled
  double elements_per_s() const {
    return total_s > 0 ? static_cast<double>(elements) / total_s : 0;
  }
  std::string to_string() const;
};

class Query {
 public:
  // Applies f to every element (select is LINQ's name for the same stage).
  Query map(const Lambda& f) const;
  Query select(const Lambda& f) const { return map(f); }
  // Keeps the elements for which predicate (a bool function) is true.
  Query where(const Lambda& predicate) const;

  // ---- terminals: each runs now, and report() then describes what it ran.
  Array sum() const;  // of the kept elements, NumPy's sum dtype (0 when none is kept)
  Array min() const;  // ValueError when no element is kept
  Array max() const;
  Array count() const;  // int64
  // The fold of op over the kept elements: Sum, Prod (1 when none), Min, Max.
  Array aggregate(Accumulate op) const;
  Array scan(Accumulate op = Accumulate::Sum) const;  // inclusive, over the kept elements
  Array sort() const;                                 // the kept elements, ascending, NaN last
  // Positions in the source (flat, row-major) of the kept elements, in ascending order of
  // their values; ties keep source order.
  Array argsort() const;
  Array to_array() const;  // the kept elements, in source order

  // The last terminal's report, shared by copies of this query.
  const Report& report() const { return *report_; }

 private:
  friend Query from(const Array& a);
  Query(Array source, Array values, std::optional<Array> keep);
  Query next(Array values, std::optional<Array> keep) const;
  template <class Work>
  Array run(const char* terminal, const Work& work) const;
  Array masked_fold(Accumulate op, const char* terminal) const;
  Array kept_values() const;

  Array source_;               // flat
  Array values_;               // the mapped elements, lazy
  std::optional<Array> keep_;  // the combined where() mask, lazy; absent: every element
  std::shared_ptr<Report> report_;
};

// A query over a's elements in row-major order.
Query from(const Array& a);

}  // namespace switchyard::pipeline
