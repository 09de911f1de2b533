// Query pipelines over the lazy graph: stages build expressions, terminals run them under
// runtime::outcomes_of() so each leaves a report of its kernels and library ops.
#include "switchyard/pipeline.hpp"

#include <chrono>
#include <cstdio>
#include <limits>
#include <type_traits>

#include "runtime/explain_recorder.hpp"
#include "switchyard/error.hpp"

namespace switchyard::pipeline {
namespace {

// A 0-d array of `dtype` holding the identity of op's fold: where(keep, values, identity) folds
// as if the dropped elements were absent.
Array identity(Accumulate op, DType dtype) {
  return visit_dtype(dtype, [&](auto zero) {
    using T = decltype(zero);
    using limits = std::numeric_limits<T>;
    T value{};
    switch (op) {
      case Accumulate::Sum:
        value = T(0);
        break;
      case Accumulate::Prod:
        value = T(1);
        break;
      case Accumulate::Min:
        value = limits::has_infinity ? limits::infinity() : limits::max();
        break;
      case Accumulate::Max:
        value = limits::has_infinity ? -limits::infinity() : limits::lowest();
        break;
    }
    if constexpr (std::is_same_v<T, bool>)
      return Array::full(Shape{}, value ? 1 : 0, DType::Bool);
    else
      return Array::from_vector(std::vector<T>{value}, Shape{});
  });
}

Array fold(const Array& values, Accumulate op) {
  switch (op) {
    case Accumulate::Sum:
      return switchyard::sum(values);
    case Accumulate::Prod:
      return switchyard::prod(values);
    case Accumulate::Min:
      return switchyard::min(values);
    case Accumulate::Max:
      return switchyard::max(values);
  }
  throw ValueError("aggregate: unknown operation");
}

const char* fold_name(Accumulate op) {
  static constexpr const char* kNames[] = {"sum", "prod", "min", "max"};
  return kNames[static_cast<int>(op)];
}

std::string seconds(double s) {
  char text[32];
  if (s < 1e-3)
    std::snprintf(text, sizeof text, "%.1f us", s * 1e6);
  else if (s < 1)
    std::snprintf(text, sizeof text, "%.2f ms", s * 1e3);
  else
    std::snprintf(text, sizeof text, "%.2f s", s);
  return text;
}

}  // namespace

Query from(const Array& a) {
  if (!a) throw ValueError("pipeline::from of a null Array: expected an array");
  const Array flat = a.ndim() == 1 ? a : a.reshape(Shape{a.size()});
  return Query(flat, flat, std::nullopt);
}

Query::Query(Array source, Array values, std::optional<Array> keep)
    : source_(std::move(source)),
      values_(std::move(values)),
      keep_(std::move(keep)),
      report_(std::make_shared<Report>()) {}

Query Query::next(Array values, std::optional<Array> keep) const {
  return Query(source_, std::move(values), std::move(keep));
}

Query Query::map(const Lambda& f) const {
  Array mapped = f(values_);
  if (!mapped || mapped.shape() != values_.shape())
    throw ShapeError("pipeline map: expected an element-wise function keeping the shape " +
                     to_string(values_.shape()) + ", given one giving " +
                     (mapped ? to_string(mapped.shape()) : std::string("a null array")));
  return next(std::move(mapped), keep_);
}

Query Query::where(const Lambda& predicate) const {
  Array keep = predicate(values_);
  if (!keep || keep.dtype() != DType::Bool || keep.shape() != values_.shape())
    throw DTypeError("pipeline where: expected a predicate giving bool of shape " +
                     to_string(values_.shape()) + ", given " +
                     (keep
                          ? std::string(name(keep.dtype())) + " of shape " + to_string(keep.shape())
                          : std::string("a null array")));
  return next(values_, keep_ ? *keep_ & keep : keep);
}

template <class Work>
Array Query::run(const char* terminal, const Work& work) const {
  Array result;
  const auto start = std::chrono::steady_clock::now();
  const Explanation e = runtime::outcomes_of([&] {
    result = work();
    eval(result);
  });
  Report r;
  r.terminal = terminal;
  r.elements = source_.size();
  r.total_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.cache_hit = true;
  for (const KernelReport& k : e.kernels) {
    r.stages.push_back({k.kernel, k.operators, k.elements, k.ran_on, k.reason, k.compile_s,
                        k.transfer_s, k.execute_s, k.actual_s, k.cache_hit, k.fallbacks});
    r.compile_s += k.compile_s;
    r.transfer_s += k.transfer_s;
    r.execute_s += k.execute_s;
    r.cache_hit = r.cache_hit && k.cache_hit;
  }
  r.fusion_stops = e.fusion_stops;
  *report_ = std::move(r);
  return result;
}

Array Query::masked_fold(Accumulate op, const char* terminal) const {
  return run(terminal, [&] {
    if (!keep_) {
      if (values_.size() == 0 && (op == Accumulate::Min || op == Accumulate::Max))
        throw ValueError(std::string("pipeline ") + terminal +
                         " of no elements: expected at least one (it has no identity)");
      return fold(values_, op);
    }
    const Array masked = switchyard::where(*keep_, values_, identity(op, values_.dtype()));
    if (op == Accumulate::Sum || op == Accumulate::Prod) return fold(masked, op);
    // Min and max need a kept element: count them in the same pass.
    const Array result = fold(masked, op), kept = switchyard::sum(*keep_);
    eval(result, kept);
    if (kept.item<std::int64_t>() == 0)
      throw ValueError(std::string("pipeline ") + terminal +
                       " of no kept elements: expected `where` to keep at least one");
    return result;
  });
}

Array Query::sum() const {
  return masked_fold(Accumulate::Sum, "sum");
}
Array Query::min() const {
  return masked_fold(Accumulate::Min, "min");
}
Array Query::max() const {
  return masked_fold(Accumulate::Max, "max");
}
Array Query::aggregate(Accumulate op) const {
  return masked_fold(op, fold_name(op));
}

Array Query::count() const {
  return run("count", [&] {
    return keep_ ? switchyard::sum(*keep_)
                 : Array::from_vector(std::vector<std::int64_t>{values_.size()}, Shape{});
  });
}

Array Query::kept_values() const {
  return keep_ ? compress(values_, *keep_) : values_;
}

Array Query::scan(Accumulate op) const {
  return run("scan", [&] { return switchyard::scan(kept_values(), op); });
}

Array Query::sort() const {
  return run("sort", [&] { return switchyard::sort(kept_values()); });
}

Array Query::argsort() const {
  return run("argsort", [&] {
    if (!keep_) return switchyard::argsort(values_);
    return take(flatnonzero(*keep_), switchyard::argsort(compress(values_, *keep_)));
  });
}

Array Query::to_array() const {
  return run("to_array", [&] { return kept_values(); });
}

std::string Report::to_string() const {
  std::string s = "pipeline " + terminal + " over " + std::to_string(elements) +
                  " elements: " + seconds(total_s) + " (compile " + seconds(compile_s) +
                  ", transfer " + seconds(transfer_s) + ", execute " + seconds(execute_s) + "), ";
  char rate[32];
  std::snprintf(rate, sizeof rate, "%.3g", elements_per_s());
  s += std::string(rate) + " elements/s, " + (cache_hit ? "all compiled" : "compiled now") + "\n";
  for (const StageReport& st : stages)
    s += "  " + st.work + " on " + st.device + ": " + seconds(st.total_s) + " (" + st.reason +
         (st.cache_hit ? "" : ", compiled") + ")\n";
  for (const std::string& stop : fusion_stops) s += "  fusion stopped: " + stop + "\n";
  return s;
}

}  // namespace switchyard::pipeline
