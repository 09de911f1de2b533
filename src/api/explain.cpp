// explain() of an array (include/switchyard/explain.hpp): pending, the explanation of computing
// it now; computed, the kernel its storage records as having written it.
#include <optional>
#include <string>

#include "runtime/buffer.hpp"
#include "runtime/explain_recorder.hpp"
#include "scheduler/scheduler.hpp"
#include "switchyard/array.hpp"
#include "switchyard/explain.hpp"
#include "switchyard/ops.hpp"

namespace switchyard {

Explanation explain(const Array& a) {
  if (!a) throw ValueError("explain of a null Array: expected an array");
  if (a.pending()) return explain([&] { eval(a); });
  Explanation e;
  const std::optional<runtime::Provenance> p = a.buffer()->provenance();
  if (!p) {
    e.notes.push_back(
        "computed before this call, by no kernel: its values were written from the host");
    return e;
  }
  e.notes.push_back(
      "computed before this call, by the kernel below (explain the work as it runs to see every "
      "candidate's figures)");
  KernelReport r;
  r.kernel = *p->label;
  r.operators = runtime::operators_of(r.kernel);
  r.elements = p->elements;
  r.chosen = runtime::candidate_name({p->chosen, p->chosen_parallelism});
  r.reason = std::string(scheduler::describe(p->reason));
  r.ran_on = runtime::candidate_name({p->ran_on, p->ran_parallelism});
  r.actual_s = p->total_s;
  r.predicted_s = p->predicted_s;
  r.compile_s = p->compile_s;
  r.transfer_s = p->transfer_s;
  r.execute_s = p->execute_s;
  r.cache_hit = p->cache_hit;
  r.fallbacks = p->fallbacks;
  e.kernels.push_back(std::move(r));
  e.advice = runtime::advise(e.kernels);
  return e;
}

}  // namespace switchyard
