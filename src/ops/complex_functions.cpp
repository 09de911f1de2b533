// Elementwise functions of complex arguments, composed from the real operations over the parts
// (complex_parts.hpp) so that each fuses and runs on every device. The values are NumPy 2's,
// special values included: C99 Annex G's, as the C libraries NumPy calls give them. The
// algorithms are those of FreeBSD's msun: Kahan's for tanh, Hull, Fairgrieve and Tang's for
// asinh, acos and their kin, with each branch of the C code a `where` over the whole array.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <string>
#include <vector>

#include "expr/node.hpp"
#include "ops/complex_parts.hpp"
#include "switchyard/complex.hpp"
#include "switchyard/ops.hpp"

namespace switchyard {
namespace {

using complex_parts::Parts;
using ir::OpCode;

constexpr double kInf = INFINITY;
constexpr double kNaN = NAN;
constexpr double kLn2 = std::numbers::ln2;
constexpr double kHalfPi = std::numbers::pi / 2;

// The float dtype of a complex argument's parts: its limits, and constants of it (scalars of the
// kernel, not inputs).
struct Real {
  DType dtype;
  double eps, max, min;  // epsilon, the largest finite value, the smallest normal one
  int digits;            // of the significand

  explicit Real(DType parts)
      : dtype(parts),
        eps(parts == DType::Float32 ? FLT_EPSILON : DBL_EPSILON),
        max(parts == DType::Float32 ? FLT_MAX : DBL_MAX),
        min(parts == DType::Float32 ? FLT_MIN : DBL_MIN),
        digits(parts == DType::Float32 ? FLT_MANT_DIG : DBL_MANT_DIG) {}

  Array operator()(double value) const {
    return Array(expr::make_scalar(ScalarValue{dtype, value, 0}));
  }
};

Array both(const Array& a, const Array& b) {
  return logical_and(a, b);
}
Array either(const Array& a, const Array& b) {
  return logical_or(a, b);
}
Array nonfinite(const Array& x) {
  return logical_not(isfinite(x));
}

// x + iy ↦ y + ix: asin, atan, sin and tan are asinh, atanh, sinh and tanh between two of these.
Parts reversed(const Parts& z) {
  return {z.im, z.re};
}

// ---- exponentials and logarithms

Parts exp_of(const Parts& z) {
  const Array &x = z.re, &y = z.im;
  const Real r(x.dtype());
  // exp(x) overflows before exp(x)·cos(y) may: past log(max), exp(x/2) twice.
  const Array big = x > std::log(r.max);
  const Array e = exp(where(big, x * 0.5, x));
  const Array scale = where(big, e, r(1));
  Array re = e * cos(y) * scale, im = e * sin(y) * scale;
  // exp(±inf + iy) for an infinite or NaN y: inf + NaN i and 0 ± 0i; exp(x ± 0i) = exp(x) ± 0i.
  const Array infinite = both(isinf(x), nonfinite(y));
  re = where(infinite, maximum(x, 0.0), re);
  im = where(y == 0.0, y, where(both(infinite, x < 0.0), copysign(0.0, y), im));
  return {re, im};
}

Parts expm1_of(const Parts& z) {
  const Array &x = z.re, &y = z.im;
  // NumPy's form, accurate near 0: expm1(x)·cos(y) − 2 sin²(y/2) + i·exp(x)·sin(y). Where a part
  // is infinite or NaN, exp(z) − 1 (the standard's special values).
  const Array s = sin(y * 0.5);
  const Parts e = exp_of(z);
  const Array special = either(nonfinite(x), nonfinite(y));
  // expm1(±0 ± 0i) = +0 ± 0i, the standard's zero (NumPy's form gives −0 for −0 + 0i).
  const Array zero = both(x == 0.0, y == 0.0);
  const Array re =
      where(special, e.re - 1.0, where(zero, Real(x.dtype())(0), expm1(x) * cos(y) - s * s * 2.0));
  const Array im = where(either(special, y == 0.0), e.im, exp(x) * sin(y));
  return {re, im};
}

// log|x + iy|, accurate where |z| is near 1 (there log1p(|z|² − 1)/2) and where |z| is past the
// largest float though its logarithm is not.
Array log_abs(const Array& x, const Array& y) {
  const Array ax = abs(x), ay = abs(y);
  const Array hi = maximum(ax, ay), lo = minimum(ax, ay);
  const Array h = hypot(x, y);
  const Array near_one = both(h > 0.5, h < 2.0);
  const Array overflows = both(isinf(h), both(isfinite(x), isfinite(y)));
  return where(near_one, log1p((hi - 1.0) * (hi + 1.0) + lo * lo) * 0.5,
               where(overflows, log(hypot(x * 0.5, y * 0.5)) + kLn2, log(h)));
}

Parts log_of(const Parts& z) {
  return {log_abs(z.re, z.im), arctan2(z.im, z.re)};
}

// log(1 + z); for |z| < 1/2, log|1 + z| as log1p(x(x + 2) + y²)/2, without the rounding of 1 + z.
Parts log1p_of(const Parts& z) {
  const Array &x = z.re, &y = z.im;
  const Array x1 = x + 1.0;
  const Array re = where(hypot(x, y) < 0.5, log1p(x * (x + 2.0) + y * y) * 0.5, log_abs(x1, y));
  return {re, arctan2(y, x1)};
}

Parts scaled(const Parts& z, double factor) {
  return {z.re * factor, z.im * factor};
}

// msun's csqrt: sqrt((|x| + |z|)/2) and y over twice that, with the parts scaled into range
// first where |z| would overflow or lose digits to underflow.
Parts sqrt_of(const Parts& z) {
  const Array &x = z.re, &y = z.im;
  const Real r(x.dtype());
  const Array ax = abs(x), ay = abs(y);
  const Array big = maximum(ax, ay) >= r.max * 0.25;
  const Array tiny = both(ax < r.min, ay < r.min);
  const int k = (r.digits + 1) / 2;
  const Array in = where(big, r(0.25), where(tiny, r(std::ldexp(1.0, 2 * k)), r(1)));
  const Array out = where(big, r(2), where(tiny, r(std::ldexp(1.0, -k)), r(1)));
  const Array xs = x * in, ys = y * in;
  const Array t = sqrt((abs(xs) + hypot(xs, ys)) * 0.5);
  const Array positive = x >= 0.0;
  Array re = where(positive, t, abs(ys) / (t * 2.0)) * out;
  Array im = where(positive, ys / (t * 2.0), copysign(t, ys)) * out;
  // sqrt(x ± inf i) = inf ± inf i, even for a NaN x; sqrt(±0 ± 0i) = +0 ± 0i.
  const Array zero = both(x == 0.0, y == 0.0);
  re = where(isinf(y), r(kInf), where(zero, r(0), re));
  im = where(either(isinf(y), zero), y, im);
  return {re, im};
}

// ---- hyperbolic and trigonometric functions

// cosh(x)·u and sinh(x)·v. Past |x| = 22 both are exp(|x|)/2 to the last digit, taken as
// exp(|x|/2) twice so that the product overflows only where it is past the largest float.
Parts cosh_sinh_times(const Array& x, const Array& u, const Array& v) {
  const Array moderate = abs(x) < 22.0;
  const Array h = exp(abs(x) * 0.5);
  const Array half = h * 0.5;
  return {where(moderate, cosh(x) * u, half * u * h),
          where(moderate, sinh(x) * v, copysign(half, x) * v * h)};
}

Parts sinh_of(const Parts& z) {
  const Array &x = z.re, &y = z.im;
  const Parts g = cosh_sinh_times(x, sin(y), cos(y));
  // sinh(±0 + iy) keeps its real zero and sinh(±inf + iy) is +inf (NumPy's sign) where y is
  // infinite or NaN; sinh(x ± 0i) keeps the imaginary zero.
  const Array y_special = nonfinite(y);
  const Array re = where(both(y_special, x == 0.0), x,
                         where(both(y_special, isinf(x)), Real(x.dtype())(kInf), g.im));
  return {re, where(y == 0.0, y, g.re)};
}

Parts cosh_of(const Parts& z) {
  const Array &x = z.re, &y = z.im;
  const Real r(x.dtype());
  const Parts g = cosh_sinh_times(x, cos(y), sin(y));
  const Array y_special = nonfinite(y);
  const Array re = where(both(y_special, isinf(x)), r(kInf), g.re);
  // The imaginary zero of cosh(x ± 0i) has the sign of x·y (of y for a NaN x), that of
  // cosh(±0 + iy) for an infinite or NaN y is +0 (NumPy's).
  const Array zero_im = where(isnan(x), y, copysign(0.0, x) * y);
  const Array im = where(y == 0.0, zero_im, where(both(y_special, x == 0.0), r(0), g.im));
  return {re, im};
}

// Kahan's tanh: with t = tan(y), β = 1 + t², s = sinh(x), ρ = sqrt(1 + s²),
// tanh(z) = (βρs + it) / (1 + βs²); past |x| = 22, ±1 + 4i·sin(y)cos(y)·exp(−2|x|).
Parts tanh_of(const Parts& z) {
  const Array &x = z.re, &y = z.im;
  const Real r(x.dtype());
  const Array ax = abs(x);
  const Array t = tan(y), s = sinh(x);
  const Array beta = t * t + 1.0;
  const Array d = beta * s * s + 1.0;
  const Array e = exp(negative(ax));
  const Array big = ax >= 22.0;
  // tanh(±inf + iy) = ±1 + 0i with the sign of y (the standard's; C's has the sign of sin(2y)).
  const Array big_im =
      where(both(isfinite(x), isfinite(y)), sin(y) * cos(y) * 4.0 * e * e, copysign(0.0, y));
  Array re = where(big, copysign(1.0, x), beta * sqrt(s * s + 1.0) * s / d);
  Array im = where(big, big_im, t / d);
  // A finite x with an infinite or NaN y: NaN, but for the real zero of tanh(±0 + iy); a NaN x:
  // NaN, but for the imaginary zero of tanh(NaN ± 0i).
  const Array finite_x = both(isfinite(x), nonfinite(y));
  re = where(finite_x, where(x == 0.0, x, r(kNaN)), re);
  im = where(finite_x, r(kNaN), where(both(isnan(x), y == 0.0), y, im));
  return {re, im};
}

// ---- inverse hyperbolic and trigonometric functions (Hull, Fairgrieve and Tang)

// For x, y ≥ 0 finite and below 1/ε, with A = (|z + i| + |z − i|)/2 and B = y/A:
// re = log(A + sqrt(A² − 1)) = Re asinh(z); the imaginary part asin(B) where `usable`, else
// atan2(new_y, root) with root = sqrt(A² − y²) (new_y and root scaled alike against underflow).
struct InverseParts {
  Array re, usable, b, root, new_y;
};

InverseParts inverse_parts(const Array& x, const Array& y) {
  const Real r(x.dtype());
  const Array yp1 = y + 1.0, ym1 = y - 1.0, one_my = 1.0 - y;
  const Array R = hypot(x, yp1), S = hypot(x, ym1);
  const Array A = maximum((R + S) * 0.5, 1.0);
  // f(a, b) = (hypot(a, b) − b)/2 without cancellation.
  auto f = [](const Array& a, const Array& b, const Array& hyp) {
    return where(b < 0.0, (hyp - b) * 0.5, where(b == 0.0, a * 0.5, a * a / (hyp + b) * 0.5));
  };
  const Array fp = f(x, yp1, R);
  const Array away = x >= abs(ym1) * r.eps;  // A − 1 and A − y are sums of the f
  const Array on_one = y == 1.0;

  const Array am1 = fp + f(x, one_my, S);
  const Array re_near =
      where(both(on_one, x < r.eps * r.eps / 128), sqrt(x),
            where(away, log1p(am1 + sqrt(am1 * (A + 1.0))),
                  where(y < 1.0, x / sqrt(one_my * yp1), log1p(ym1 + sqrt(ym1 * yp1)))));
  const Array re = where(A < 10.0, re_near, log(A + sqrt(A * A - 1.0)));

  const Array tiny = y < 4 * std::sqrt(r.min);
  const Array b = y / A;
  const Array amy = fp + f(x, ym1, S);
  const Array root_one = both(on_one, x < r.eps / 128);
  const double lift = 4 / (r.eps * r.eps);
  const Array lifted = both(logical_not(either(root_one, away)), y > 1.0);
  const Array root =
      where(tiny, A * (2 / r.eps),
            where(root_one, sqrt(x) * sqrt((A + y) * 0.5),
                  where(away, sqrt(amy * (A + y)),
                        where(y > 1.0, x * lift * y / sqrt(yp1 * ym1), sqrt(one_my * yp1)))));
  const Array new_y = where(tiny, y * (2 / r.eps), where(lifted, y * lift, y));
  return {re, both(logical_not(tiny), b <= 0.6417), b, root, new_y};
}

// Where both parts are below `bound` in magnitude: there asinh(z) = z, acos(z) = π/2 − z and
// atanh(z) = z to the last digit (bound √(6ε)/4, √(6ε)/4 and √(3ε)/2).
Array small(const Array& ax, const Array& ay, double bound) {
  return both(ax < bound, ay < bound);
}
// Where either part is past 1/ε: there the inverse functions are their asymptotes.
Array large(const Array& ax, const Array& ay) {
  const double bound = 1 / Real(ax.dtype()).eps;
  return either(ax > bound, ay > bound);
}

Parts asinh_of(const Parts& z) {
  const Array &x = z.re, &y = z.im;
  const Real r(x.dtype());
  const Array ax = abs(x), ay = abs(y);
  const InverseParts p = inverse_parts(ax, ay);
  const Array big = large(ax, ay);
  const Array tiny = small(ax, ay, std::sqrt(6 * r.eps) / 4);
  const Array re = where(big, log_abs(ax, ay) + kLn2, where(tiny, ax, p.re));
  const Array im = where(big, arctan2(ay, ax),
                         where(tiny, ay, where(p.usable, arcsin(p.b), arctan2(p.new_y, p.root))));
  // asinh(±inf + NaN i) = ±inf + NaN i, asinh(NaN ± inf i) = inf + NaN i (NumPy's sign),
  // asinh(NaN ± 0i) = NaN ± 0i; any other NaN part gives NaN + NaN i.
  const Array nan_part = either(isnan(x), isnan(y));
  const Array nan_re = where(isinf(x), x, where(isinf(y), r(kInf), r(kNaN)));
  return {where(nan_part, nan_re, copysign(re, x)),
          where(nan_part, where(y == 0.0, y, r(kNaN)), copysign(im, y))};
}

Parts acos_of(const Parts& z) {
  const Array &x = z.re, &y = z.im;
  const Real r(x.dtype());
  const Array ax = abs(x), ay = abs(y);
  const InverseParts p = inverse_parts(ay, ax);
  const Array x_negative = signbit(x);
  const Array big = large(ax, ay);
  const Array tiny = small(ax, ay, std::sqrt(6 * r.eps) / 4);
  const Array re_general = where(p.usable, arccos(where(x_negative, negative(p.b), p.b)),
                                 arctan2(p.root, where(x_negative, negative(p.new_y), p.new_y)));
  Array re = where(big, abs(arctan2(y, x)), where(tiny, kHalfPi - x, re_general));
  const Array im_size = where(big, log_abs(x, y) + kLn2, p.re);
  Array im = where(tiny, negative(y), where(signbit(y), im_size, negative(im_size)));
  // acos(1 ± 0i) = 0 ∓ 0i exactly.
  const Array one = both(x == 1.0, y == 0.0);
  re = where(one, r(0), re);
  im = where(one, negative(y), im);
  // acos(±inf + NaN i) = NaN − inf i, acos(NaN ± inf i) = NaN ∓ inf i, acos(±0 + NaN i) =
  // π/2 + NaN i; any other NaN part gives NaN + NaN i.
  const Array nan_part = either(isnan(x), isnan(y));
  re = where(nan_part, where(x == 0.0, r(kHalfPi), r(kNaN)), re);
  im = where(nan_part, where(isinf(x), r(-kInf), where(isinf(y), negative(y), r(kNaN))), im);
  return {re, im};
}

// acosh(z) = ±i·acos(z), the sign making its real part ≥ 0.
Parts acosh_of(const Parts& z) {
  const Parts w = acos_of(z);
  return {abs(w.im), where(isnan(z.im), w.re, copysign(w.re, z.im))};
}

// Re(1/(x + iy)) = x/(x² + y²) for x, y ≥ 0 with one of them past 1/ε, scaled by the larger so
// that neither square overflows.
Array real_of_reciprocal(const Array& ax, const Array& ay) {
  const Array m = maximum(ax, ay);
  const Array xs = ax / m, ys = ay / m;
  return where(isinf(m), Real(ax.dtype())(0), xs / (xs * xs + ys * ys) / m);
}

// atanh(z) = log1p(4x/|z − 1|²)/4 + i·atan2(2y, (1 − x)(1 + x) − y²)/2.
Parts atanh_of(const Parts& z) {
  const Array &x = z.re, &y = z.im;
  const Real r(x.dtype());
  const Array ax = abs(x), ay = abs(y);
  const Array axm1 = ax - 1.0;
  const Array squares = where(ay < std::sqrt(r.min), axm1 * axm1, axm1 * axm1 + ay * ay);
  const Array on_one = ax == 1.0;
  const Array re_general =
      where(both(on_one, ay < r.eps), (kLn2 - log(ay)) * 0.5, log1p(ax * 4.0 / squares) * 0.25);
  const Array d = (1.0 - ax) * (1.0 + ax);
  const Array im_general =
      where(on_one, arctan2(2.0, negative(ay)),
            where(ay < r.eps, arctan2(ay * 2.0, d), arctan2(ay * 2.0, d - ay * ay))) *
      0.5;
  const Array big = large(ax, ay);
  const Array tiny = small(ax, ay, std::sqrt(3 * r.eps) / 2);
  const Array re_size = where(big, real_of_reciprocal(ax, ay), where(tiny, ax, re_general));
  const Array im_size = where(big, r(kHalfPi), where(tiny, ay, im_general));
  Array re = copysign(re_size, x), im = copysign(im_size, y);
  // atanh(±inf + NaN i) = ±0 + NaN i, atanh(NaN ± inf i) = +0 ± π/2 i (NumPy's sign); any other
  // NaN part gives NaN + NaN i.
  const Array nan_part = either(isnan(x), isnan(y));
  re = where(nan_part, where(isinf(x), copysign(0.0, x), where(isinf(y), r(0), r(kNaN))), re);
  im = where(nan_part, where(isinf(y), copysign(kHalfPi, y), r(kNaN)), im);
  // The real cases, exactly as the real functions: atanh(±0 + iy) = ±0 + i·atan(y) and
  // atanh(x ± 0i) = atanh(x) ± 0i for |x| ≤ 1.
  const Array real_x = both(y == 0.0, ax <= 1.0);
  re = where(real_x, arctanh(x), where(x == 0.0, x, re));
  im = where(real_x, y, where(x == 0.0, arctan(y), im));
  return {re, im};
}

// ---- sign

// NumPy's: z/|z|; 0 for 0; ±1 along an infinite part (NaN where both are), NaN for a NaN |z|.
Parts sign_of(const Parts& z) {
  const Array &x = z.re, &y = z.im;
  const Real r(x.dtype());
  const Array h = hypot(x, y), h_half = hypot(x * 0.5, y * 0.5);
  const Array overflows = both(isinf(h), both(isfinite(x), isfinite(y)));
  const Array zero = h == 0.0;
  const Array inf_x = isinf(x), inf_y = isinf(y);
  const Array re = where(overflows, x * 0.5 / h_half, where(zero, r(0), x / h));
  const Array im = where(overflows, y * 0.5 / h_half, where(zero, r(0), y / h));
  return {where(inf_x, where(inf_y, r(kNaN), copysign(1.0, x)), where(inf_y, r(0), re)),
          where(inf_y, where(inf_x, r(kNaN), copysign(1.0, y)), where(inf_x, r(0), im))};
}

Parts function_of(OpCode op, const Parts& z) {
  switch (op) {
    case OpCode::Exp:
      return exp_of(z);
    case OpCode::Expm1:
      return expm1_of(z);
    case OpCode::Log:
      return log_of(z);
    case OpCode::Log1p:
      return log1p_of(z);
    case OpCode::Log2:
      return scaled(log_of(z), std::numbers::log2e);
    case OpCode::Log10:
      return scaled(log_of(z), std::numbers::log10e);
    case OpCode::Sqrt:
      return sqrt_of(z);
    case OpCode::Sinh:
      return sinh_of(z);
    case OpCode::Cosh:
      return cosh_of(z);
    case OpCode::Tanh:
      return tanh_of(z);
    case OpCode::Sin:  // sin(z) = rev(sinh(rev(z)))
      return reversed(sinh_of(reversed(z)));
    case OpCode::Cos:  // cos(z) = cosh(iz)
      return cosh_of({negative(z.im), z.re});
    case OpCode::Tan:
      return reversed(tanh_of(reversed(z)));
    case OpCode::Asinh:
      return asinh_of(z);
    case OpCode::Asin:
      return reversed(asinh_of(reversed(z)));
    case OpCode::Acos:
      return acos_of(z);
    case OpCode::Acosh:
      return acosh_of(z);
    case OpCode::Atanh:
      return atanh_of(z);
    case OpCode::Atan:
      return reversed(atanh_of(reversed(z)));
    case OpCode::Sign:
      return sign_of(z);
    default:
      throw DTypeError(std::string(ir::name(op)) + " of a complex array: complex arrays take " +
                       std::string(kComplexOperations));
  }
}

Array joined(const Parts& z) {
  return complex_from(z.re, z.im);
}

// ---- powers

Parts times(const Parts& a, const Parts& b) {
  return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}

// NumPy's reciprocal (its z ** -1): 1/z scaled by the larger part.
Parts reciprocal_of(const Parts& z) {
  const Array &x = z.re, &y = z.im;
  const Array by_re = abs(y) <= abs(x);
  const Array r_re = y / x, d_re = x + y * r_re;
  const Array r_im = x / y, d_im = x * r_im + y;
  return {where(by_re, 1.0 / d_re, r_im / d_im), where(by_re, negative(r_re) / d_re, -1.0 / d_im)};
}

// NumPy's a ** b: 1 for b = 0; for a = 0, 0 where Re b > 0 and NaN otherwise; a, a·a and a·a·a
// for b = 1, 2 and 3; else exp(b·log(a)).
Parts power_of(const Parts& a, const Parts& b) {
  const Real r(a.re.dtype());
  const Parts general = exp_of(times(b, log_of(a)));
  const Parts square = times(a, a), cube = times(square, a);
  const Array real_b = b.im == 0.0;
  const Array zero_base = where(b.re > 0.0, r(0), r(kNaN));
  auto pick = [&](auto part, double of_zero_power) {
    return where(both(b.re == 0.0, real_b), r(of_zero_power),
                 where(both(a.re == 0.0, a.im == 0.0), zero_base,
                       where(both(real_b, b.re == 1.0), part(a),
                             where(both(real_b, b.re == 2.0), part(square),
                                   where(both(real_b, b.re == 3.0), part(cube), part(general))))));
  };
  return {pick([](const Parts& p) { return p.re; }, 1),
          pick([](const Parts& p) { return p.im; }, 0)};
}

}  // namespace

namespace complex_parts {

Array function(OpCode op, const Array& c) {
  return joined(function_of(op, {real(c), imag(c)}));
}

Array classify(OpCode op, const Array& c) {
  const Array re = real(c), im = imag(c);
  switch (op) {
    case OpCode::IsNan:
      return logical_or(isnan(re), isnan(im));
    case OpCode::IsInf:
      return logical_or(isinf(re), isinf(im));
    default:
      return logical_and(isfinite(re), isfinite(im));
  }
}

Array round(const Array& c) {
  return from_pairs(switchyard::round(pairs_of(c)));
}

Array power(const Array& a, const Array& b) {
  const DType parts = parts_dtype(a, b);
  return joined(power_of(parts_of(a, parts), parts_of(b, parts)));
}

Array power(const Array& c, Scalar s, bool scalar_first) {
  const DType parts = component_dtype(c.dtype());
  const double value = s.kind == ScalarKind::Float ? s.f : static_cast<double>(s.i);
  const Array x = Array::full(Shape{}, value, parts);
  if (scalar_first) return complex_parts::power(x, c);
  // NumPy's fast paths for these exponents: square, sqrt and reciprocal, without power's
  // zero-base rule.
  if (value == 2) return arithmetic(OpCode::Mul, c, c);
  if (value == 0.5) return function(OpCode::Sqrt, c);
  if (value == -1) return joined(reciprocal_of({real(c), imag(c)}));
  // NumPy multiplies out whole powers below 100 in magnitude (other than 0 to 3, which
  // power_of() takes): by squaring, from 1, and a negative power is the reciprocal of that.
  const bool whole = std::nearbyint(value) == value && std::abs(value) < 100;
  if (!whole || (value >= 0 && value <= 3)) return complex_parts::power(c, x);
  auto n = static_cast<std::int64_t>(std::abs(value));
  const Parts z = parts_of(c, parts);
  const Real r(parts);
  Parts result{r(1), r(0)}, p = z;
  for (;;) {
    if (n & 1) result = times(result, p);
    n >>= 1;
    if (n == 0) break;
    p = times(p, p);
  }
  Array product = joined(result);
  if (value < 0) product = arithmetic(OpCode::Div, Array::full(Shape{}, 1.0, c.dtype()), product);
  // 0 ** n: 0 for n > 0, NaN for n < 0.
  const Array zero = both(z.re == 0.0, z.im == 0.0);
  const Array fill = r(value > 0 ? 0 : kNaN);
  return joined(
      {switchyard::where(zero, fill, real(product)), switchyard::where(zero, fill, imag(product))});
}

// The product over `axes` of a complex array: the axes moved last and flattened to one of n,
// padded with ones to a power of 2, then halved by one complex multiplication per step.
Array prod(const Array& c, std::span<const int> axes, bool keepdims) {
  std::vector<int> order;
  Shape kept, result_shape;
  std::int64_t n = 1;
  for (int i = 0; i < c.ndim(); ++i) {
    const bool reduced = std::find(axes.begin(), axes.end(), i) != axes.end();
    if (!reduced) {
      order.push_back(i);
      kept.push_back(c.shape()[i]);
      result_shape.push_back(c.shape()[i]);
    } else if (keepdims) {
      result_shape.push_back(1);
    }
  }
  for (int i : axes) {
    order.push_back(i);
    n *= c.shape()[i];
  }
  std::int64_t width = 1;
  while (width < n) width *= 2;
  Shape flat = kept;
  flat.push_back(n);
  Array t = c.permute(std::span<const int>(order)).reshape(flat);
  if (width != n) {
    Shape pad = kept;
    pad.push_back(width - n);
    t = concatenate({t, Array::ones(pad, c.dtype())}, -1);
  }
  for (; width > 1; width /= 2) {
    const int last = t.ndim() - 1;
    t = arithmetic(OpCode::Mul, t.slice(last, 0, width / 2, 1), t.slice(last, width / 2, width, 1));
  }
  if (n == 1) t = t.copy();  // a view of c's single elements: the result is a new array
  return t.reshape(result_shape);
}

Array cumulative_prod(const Array& c, int axis, bool exclusive) {
  std::vector<int> order, inverse(c.ndim());
  for (int i = 0; i < c.ndim(); ++i)
    if (i != axis) order.push_back(i);
  order.push_back(axis);
  for (int i = 0; i < c.ndim(); ++i) inverse[order[i]] = i;
  Array t = c.permute(std::span<const int>(order));
  const int last = t.ndim() - 1;
  const std::int64_t n = t.shape()[last];
  if (exclusive && n > 0) {
    Shape one = t.shape();
    one[last] = 1;
    t = concatenate({Array::ones(one, c.dtype()), t.slice(last, 0, n - 1, 1)}, last);
  }
  for (std::int64_t k = 1; k < n; k *= 2)
    t = concatenate({t.slice(last, 0, k, 1),
                     arithmetic(OpCode::Mul, t.slice(last, k, n, 1), t.slice(last, 0, n - k, 1))},
                    last);
  const bool computed = n > 1 || (exclusive && n > 0);  // else t is a view of c
  return (computed ? t : t.copy()).permute(std::span<const int>(inverse));
}

}  // namespace complex_parts
}  // namespace switchyard
