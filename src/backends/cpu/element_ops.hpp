// The Kernel IR's semantics for one element (see ir/kernel_ir.hpp), written once so that the
// plain-loop kernels, scalar splats and integer reductions agree. Nothing here may trap: integer
// division by zero, INT_MIN / -1 and out-of-range float-to-int casts all have defined results.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace switchyard::cpu::element {

template <class T>
inline constexpr bool kIsInt = std::is_integral_v<T> && !std::is_same_v<T, bool>;

// Two's-complement wrap-around, as NumPy does: computed in the unsigned type, where overflow is
// defined, and converted back (modular since C++20).
template <class T>
T wrap_add(T a, T b) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
}
template <class T>
T wrap_sub(T a, T b) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(a) - static_cast<U>(b));
}
template <class T>
T wrap_mul(T a, T b) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
}

template <class To, class From>
To cast(From x) {
  if constexpr (std::is_same_v<To, bool>) {
    return x != From{0};  // NaN != 0, so NaN casts to true
  } else if constexpr (kIsInt<To> && std::is_floating_point_v<From>) {
    // NaN and values whose truncation does not fit give the minimum, as x86's cvttss2si and
    // NumPy on x86 do. -2^(bits-1) is exact in every float type, and so is its negation.
    constexpr From lo = static_cast<From>(std::numeric_limits<To>::min());
    if (!(x >= lo && x < -lo)) return std::numeric_limits<To>::min();
    return static_cast<To>(x);
  } else {
    return static_cast<To>(x);
  }
}

template <class T>
T floor_div(T a, T b) {
  if constexpr (kIsInt<T>) {
    if (b == 0) return 0;
    if (b == -1) return wrap_sub(T{0}, a);  // INT_MIN / -1 would trap; wrapping gives INT_MIN
    const T q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
  } else {
    return std::floor(a / b);
  }
}

// Python's modulo: the result takes the divisor's sign.
template <class T>
T mod(T a, T b) {
  if constexpr (kIsInt<T>) {
    if (b == 0 || b == -1) return 0;  // x % -1 is always 0 and INT_MIN % -1 would trap
    const T r = a % b;
    return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
  } else {
    if (b == 0) return std::numeric_limits<T>::quiet_NaN();
    const T r = std::fmod(a, b);
    if (r == 0) return std::copysign(T{0}, b);
    return ((r < 0) != (b < 0)) ? r + b : r;
  }
}

// Exact integer power by repeated squaring, wrapping on overflow.
template <class T>
T int_pow(T base, T exponent) {
  if (exponent < 0) {
    if (base == 1) return 1;
    if (base == -1) return (exponent & 1) ? -1 : 1;
    return 0;
  }
  T result = 1;
  while (exponent > 0) {
    if (exponent & 1) result = wrap_mul(result, base);
    base = wrap_mul(base, base);
    exponent >>= 1;
  }
  return result;
}

template <class T>
T sign(T x) {
  if constexpr (std::is_floating_point_v<T>)
    if (std::isnan(x)) return x;
  return static_cast<T>((x > T{0}) - (x < T{0}));
}

// NumPy's shifts: a count outside [0, bits) gives 0, or -1 for a right shift of a negative value
// (what shifting by bits - 1 gives); left shifts wrap, computed in the unsigned type.
template <class T>
T shift_left(T a, T b) {
  using U = std::make_unsigned_t<T>;
  constexpr T kBits = sizeof(T) * 8;
  if (b < 0 || b >= kBits) return 0;
  return static_cast<T>(static_cast<U>(a) << b);
}
template <class T>
T shift_right(T a, T b) {
  constexpr T kBits = sizeof(T) * 8;
  return a >> (b < 0 || b >= kBits ? kBits - 1 : b);  // arithmetic for signed since C++20
}

// NumPy's logaddexp (npy_logaddexp): log(exp(a) + exp(b)) without overflow; equal operands
// give a + log(2), which keeps inf, inf and -inf, -inf out of inf - inf.
template <class T>
T logaddexp(T a, T b) {
  if (a == b) return a + static_cast<T>(0.6931471805599453094L);
  const T d = a - b;
  if (std::isnan(d)) return d;
  return (d > 0 ? a : b) + std::log1p(std::exp(-std::abs(d)));
}

// NumPy's minimum/maximum: a NaN operand wins.
template <class T>
T min(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a)) return a;
    if (std::isnan(b)) return b;
  }
  return b < a ? b : a;
}
template <class T>
T max(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a)) return a;
    if (std::isnan(b)) return b;
  }
  return a < b ? b : a;
}

}  // namespace switchyard::cpu::element
