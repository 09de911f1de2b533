// Seeded random expression trees over three arrays a, b, c, for holding the fusion pass to a host
// reference on expressions nobody wrote by hand. Each tree is built twice: on the library (lazy,
// so it runs fused) and on the host in float64, where every element also carries a bound on the
// error a correct device may make computing it in float32 or float64.
//
// Only operations that are safe on inputs in [-2, 2] are drawn: + - * with arrays or scalars,
// minimum, maximum, sin, cos, tanh, exp of values of magnitude <= 2, abs, sqrt(abs(x)), and
// where(x > y, p, q) comparing two inputs or an input with a scalar (exact on both sides, so the
// branch taken never depends on rounding). Magnitudes stay below 16, so that rounding errors stay
// small against the values.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "switchyard/switchyard.hpp"

namespace switchyard::conformance {

// An element's float64 value and how far from it a correct device result may lie.
struct BoundedValue {
  double value = 0;
  double error = 0;
};

class RandomExpression {
 public:
  // A tree at most `max_depth` operations deep, drawn from `seed` alone (the same tree on every
  // machine and run).
  RandomExpression(std::uint64_t seed, int max_depth);

  // "maximum(sin(a), (b * 0.5))": enough to rebuild the expression by hand.
  const std::string& text() const { return text_; }
  int depth() const;

  // The expression on the library's arrays; nothing runs until it is evaluated.
  Array build(const Array& a, const Array& b, const Array& c) const;

  // One element on the host in float64, with the error bound of a device computing in `dtype`
  // (float32 or float64). The bound grows with every operation the value passes through.
  BoundedValue evaluate(double a, double b, double c, DType dtype) const;

  struct Term;  // a node of the tree (defined with the generator)

 private:
  std::shared_ptr<const Term> root_;
  std::string text_;
};

}  // namespace switchyard::conformance
