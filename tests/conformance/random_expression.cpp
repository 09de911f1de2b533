#include "conformance/random_expression.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>

namespace switchyard::conformance {

enum class Op : std::uint8_t {
  Input,
  Constant,
  Add,
  Subtract,
  Multiply,
  Minimum,
  Maximum,
  Sin,
  Cos,
  Tanh,
  Exp,
  Abs,
  SqrtAbs,
  Where,
};

struct RandomExpression::Term {
  Op op = Op::Input;
  int input = 0;                     // Input: 0, 1, 2 for a, b, c; Where: the input compared
  int compared_with = -1;            // Where: the input it is compared with, or -1 for `constant`
  double constant = 0;               // Constant; Where: the scalar compared with
  std::shared_ptr<const Term> x, y;  // operands; Where: taken when the comparison holds, and not
  int depth = 0;
  double magnitude = 0;  // bound on |value| for inputs in [-2, 2]
};

namespace {

using Term = RandomExpression::Term;
using TermPtr = std::shared_ptr<const Term>;

constexpr double kInputMagnitude = 2;
// Magnitudes stay below this: + - * would otherwise grow them until the errors passed on dwarf
// the values (the float32 argument of sin near 1e6 is itself uncertain by 0.06).
constexpr double kMaxMagnitude = 16;
// exp is only drawn for arguments this small ("exp of small values"): its result stays below e^2.
constexpr double kMaxExpArgument = 2;
// Transcendental functions of every backend are accurate to a few ulps (SLEEF, Highway and
// OpenCL's full profile promise at most 4); twice that leaves room without hiding a wrong op.
constexpr double kTranscendentalUlps = 8;

class Generator {
 public:
  explicit Generator(std::uint64_t seed) : rng_(seed) {}

  // An operation at the root, so there is always something to compute.
  TermPtr operation(int depth_left) {
    switch (pick(3)) {
      case 0:
        return unary(depth_left);
      case 1:
        return binary(depth_left);
      default:
        return where(depth_left);
    }
  }

 private:
  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }

  // Multiples of 1/8 in [-2, 2]: exact in float32, so host and device compare the same scalar.
  double scalar() { return (pick(33) - 16) / 8.0; }

  // An array-valued term (never a bare constant): an input, or an operation while depth is left.
  TermPtr array_term(int depth_left) {
    if (depth_left == 0 || pick(4) == 0) return input(pick(3));
    return operation(depth_left - 1);
  }

  static TermPtr input(int which) {
    return std::make_shared<Term>(Term{Op::Input, which, -1, 0, {}, {}, 0, kInputMagnitude});
  }

  static TermPtr constant(double value) {
    return std::make_shared<Term>(Term{Op::Constant, 0, -1, value, {}, {}, 0, std::abs(value)});
  }

  TermPtr unary(int depth_left) {
    static constexpr Op kUnary[] = {Op::Sin, Op::Cos, Op::Tanh, Op::Exp, Op::Abs, Op::SqrtAbs};
    TermPtr x = array_term(depth_left);
    Op op = kUnary[pick(std::size(kUnary))];
    if (op == Op::Exp && x->magnitude > kMaxExpArgument) op = Op::Tanh;
    double magnitude = 1;
    if (op == Op::Exp) magnitude = std::exp(x->magnitude);
    if (op == Op::Abs) magnitude = x->magnitude;
    if (op == Op::SqrtAbs) magnitude = std::sqrt(x->magnitude);
    const int depth = x->depth + 1;
    return std::make_shared<Term>(Term{op, 0, -1, 0, std::move(x), {}, depth, magnitude});
  }

  TermPtr binary(int depth_left) {
    TermPtr x = array_term(depth_left);
    TermPtr y = pick(3) == 0 ? constant(scalar()) : array_term(depth_left);
    // Only the operations that keep the result's magnitude in bounds are candidates.
    const double sum = x->magnitude + y->magnitude, product = x->magnitude * y->magnitude;
    std::vector<Op> allowed = {Op::Minimum, Op::Maximum};
    if (sum <= kMaxMagnitude) allowed.insert(allowed.end(), {Op::Add, Op::Subtract});
    if (product <= kMaxMagnitude) allowed.push_back(Op::Multiply);
    const Op op = allowed[pick(static_cast<int>(allowed.size()))];
    const double magnitude = op == Op::Multiply ? product
                             : op == Op::Add || op == Op::Subtract
                                 ? sum
                                 : std::max(x->magnitude, y->magnitude);
    if (pick(2) == 0) std::swap(x, y);  // scalars first too: 1.5 - x
    const int depth = std::max(x->depth, y->depth) + 1;
    return std::make_shared<Term>(Term{op, 0, -1, 0, std::move(x), std::move(y), depth, magnitude});
  }

  TermPtr where(int depth_left) {
    Term t;
    t.op = Op::Where;
    t.input = pick(3);
    if (pick(3) == 0)
      t.constant = scalar();
    else
      t.compared_with = (t.input + 1 + pick(2)) % 3;
    t.x = array_term(depth_left);
    t.y = array_term(depth_left);
    t.depth = std::max(t.x->depth, t.y->depth) + 1;
    t.magnitude = std::max(t.x->magnitude, t.y->magnitude);
    return std::make_shared<Term>(std::move(t));
  }

  std::mt19937_64 rng_;
};

std::string input_name(int input) {
  return std::string(1, static_cast<char>('a' + input));
}

std::string number(double value) {
  char s[32];
  std::snprintf(s, sizeof s, "%g", value);
  return s;
}

std::string text_of(const Term& t);

std::string infix(const Term& t, const char* op) {
  std::string s = "(";
  return s.append(text_of(*t.x)).append(op).append(text_of(*t.y)).append(")");
}

std::string call(const char* fn, const Term& t) {
  std::string s = fn;
  s.append("(").append(text_of(*t.x));
  if (t.y) s.append(", ").append(text_of(*t.y));
  return s.append(")");
}

std::string text_of(const Term& t) {
  switch (t.op) {
    case Op::Input:
      return input_name(t.input);
    case Op::Constant:
      return number(t.constant);
    case Op::Add:
      return infix(t, " + ");
    case Op::Subtract:
      return infix(t, " - ");
    case Op::Multiply:
      return infix(t, " * ");
    case Op::Minimum:
      return call("minimum", t);
    case Op::Maximum:
      return call("maximum", t);
    case Op::Sin:
      return call("sin", t);
    case Op::Cos:
      return call("cos", t);
    case Op::Tanh:
      return call("tanh", t);
    case Op::Exp:
      return call("exp", t);
    case Op::Abs:
      return call("abs", t);
    case Op::SqrtAbs:
      return call("sqrt(abs", t) + ")";
    case Op::Where: {
      std::string s = "where(";
      s.append(input_name(t.input)).append(" > ");
      s.append(t.compared_with >= 0 ? input_name(t.compared_with) : number(t.constant));
      return s.append(", ").append(text_of(*t.x)).append(", ").append(text_of(*t.y)).append(")");
    }
  }
  return "?";
}

template <class X, class Y>
Array apply(Op op, const X& x, const Y& y) {
  switch (op) {
    case Op::Add:
      return add(x, y);
    case Op::Subtract:
      return subtract(x, y);
    case Op::Multiply:
      return multiply(x, y);
    case Op::Minimum:
      return minimum(x, y);
    default:
      return maximum(x, y);
  }
}

Array build_term(const Term& t, const Array* in) {
  switch (t.op) {
    case Op::Input:
      return in[t.input];
    case Op::Sin:
      return sin(build_term(*t.x, in));
    case Op::Cos:
      return cos(build_term(*t.x, in));
    case Op::Tanh:
      return tanh(build_term(*t.x, in));
    case Op::Exp:
      return exp(build_term(*t.x, in));
    case Op::Abs:
      return abs(build_term(*t.x, in));
    case Op::SqrtAbs:
      return sqrt(abs(build_term(*t.x, in)));
    case Op::Where: {
      const Array condition = t.compared_with >= 0 ? greater(in[t.input], in[t.compared_with])
                                                   : greater(in[t.input], Scalar(t.constant));
      return where(condition, build_term(*t.x, in), build_term(*t.y, in));
    }
    default:
      break;
  }
  // Binary: a constant operand is a Scalar (at most one side is).
  if (t.x->op == Op::Constant) return apply(t.op, Scalar(t.x->constant), build_term(*t.y, in));
  if (t.y->op == Op::Constant) return apply(t.op, build_term(*t.x, in), Scalar(t.y->constant));
  return apply(t.op, build_term(*t.x, in), build_term(*t.y, in));
}

// A first-order running error bound: each operation passes on its operands' errors (scaled by
// how much it amplifies them) and adds its own rounding, `ulp` relative (one ulp of the dtype,
// twice the unit roundoff), or flushing a subnormal to zero (`tiny`).
struct Rounding {
  double ulp, tiny;
  double of(double result) const { return ulp * std::abs(result) + tiny; }
};

BoundedValue evaluate_term(const Term& t, const double* in, const Rounding& r) {
  if (t.op == Op::Input) return {in[t.input], 0};
  if (t.op == Op::Constant) return {t.constant, 0};
  if (t.op == Op::Where) {
    const double other = t.compared_with >= 0 ? in[t.compared_with] : t.constant;
    return evaluate_term(in[t.input] > other ? *t.x : *t.y, in, r);
  }
  const BoundedValue x = evaluate_term(*t.x, in, r);
  const double transcendental = kTranscendentalUlps * r.ulp;
  switch (t.op) {
    case Op::Sin:
      return {std::sin(x.value), x.error + transcendental};  // |derivative| <= 1
    case Op::Cos:
      return {std::cos(x.value), x.error + transcendental};
    case Op::Tanh:
      return {std::tanh(x.value), x.error + transcendental};
    case Op::Exp: {
      const double v = std::exp(x.value);
      return {v, v * std::expm1(x.error) + transcendental * v};
    }
    case Op::Abs:
      return {std::abs(x.value), x.error};
    case Op::SqrtAbs: {
      // |sqrt(s) - sqrt(t)| <= sqrt(|s - t|), and <= |s - t| / sqrt(s) away from zero.
      const double v = std::sqrt(std::abs(x.value));
      const double passed = v > 0 ? std::min(std::sqrt(x.error), x.error / v) : std::sqrt(x.error);
      return {v, passed + r.of(v)};
    }
    default:
      break;
  }
  const BoundedValue y = evaluate_term(*t.y, in, r);
  switch (t.op) {
    case Op::Add: {
      const double v = x.value + y.value;
      return {v, x.error + y.error + r.of(v)};
    }
    case Op::Subtract: {
      const double v = x.value - y.value;
      return {v, x.error + y.error + r.of(v)};
    }
    case Op::Multiply: {
      const double v = x.value * y.value;
      return {v, std::abs(x.value) * y.error + std::abs(y.value) * x.error + x.error * y.error +
                     r.of(v)};
    }
    case Op::Minimum:
      return {std::min(x.value, y.value), std::max(x.error, y.error)};
    default:
      return {std::max(x.value, y.value), std::max(x.error, y.error)};
  }
}

}  // namespace

RandomExpression::RandomExpression(std::uint64_t seed, int max_depth)
    : root_(Generator(seed).operation(max_depth - 1)), text_(text_of(*root_)) {}

int RandomExpression::depth() const {
  return root_->depth;
}

Array RandomExpression::build(const Array& a, const Array& b, const Array& c) const {
  const Array inputs[] = {a, b, c};
  return build_term(*root_, inputs);
}

BoundedValue RandomExpression::evaluate(double a, double b, double c, DType dtype) const {
  const double inputs[] = {a, b, c};
  const Rounding rounding =
      dtype == DType::Float32
          ? Rounding{std::numeric_limits<float>::epsilon(), std::numeric_limits<float>::min()}
          : Rounding{std::numeric_limits<double>::epsilon(), std::numeric_limits<double>::min()};
  return evaluate_term(*root_, inputs, rounding);
}

}  // namespace switchyard::conformance
