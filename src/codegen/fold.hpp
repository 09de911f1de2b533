// How one reduction of a kernel folds its output's values: its state variables, identities and
// update rules, rendered for one width. State is `<p>acc` (dtype acc_dtype()), plus `<p>comp`
// (the Kahan compensation of floating sums) and `<p>idx` (int64 index of Arg ops), for a name
// prefix p.
#pragma once

#include <string>

#include "codegen/body.hpp"

namespace switchyard::codegen {

class Fold {
 public:
  // The fold of kernel.outputs[output] by kernel.reductions[output].
  Fold(const ir::Kernel& kernel, std::size_t output, const Spelling& s, Helpers& helpers);

  bool arg() const { return arg_; }
  bool kahan() const { return kahan_; }
  DType value_dtype() const { return value_; }  // dtype of the folded IR value
  DType acc_dtype() const { return acc_; }      // dtype of partials
  DType result_dtype() const { return arg_ ? DType::Int64 : acc_; }

  // Declares the state at its identity (Arg: index past every real one).
  std::string declare(const std::string& p, const std::string& indent) const;
  // Folds (x, ix) into the state. Lane-wise, any width; needs ix greater than every index
  // already folded, and for Arg ops `first` true on the state's first element.
  std::string add_next(const std::string& p, const std::string& x, const std::string& ix,
                       const std::string& first, const std::string& indent) const;
  // Folds (x, ix) into the state in any order (scalar width only).
  std::string add(const std::string& p, const std::string& x, const std::string& ix,
                  const std::string& indent) const;
  // Merges the partial result (xv, xi) into (dv, di) (scalar width only; no compensation).
  std::string merge(const std::string& dv, const std::string& di, const std::string& xv,
                    const std::string& xi, const std::string& indent) const;
  // The state's value (compensation applied).
  std::string value(const std::string& p) const;

 private:
  std::string identity() const;
  std::string arg_take() const;  // name of the scalar tie-breaking predicate for Arg ops

  const Spelling& s_;
  Helpers& helpers_;
  ir::ReduceOp op_;
  DType value_, acc_;
  bool arg_, kahan_;
};

}  // namespace switchyard::codegen
