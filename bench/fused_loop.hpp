// The ceiling for the expression benchmark: y = a*b + sin(c)*2.5 - sqrt(abs(a)) written by hand
// as one SIMD loop over all of the library's threads, reading each input once and writing y once.
#pragma once

#include <cstddef>

namespace switchyard::bench {

// y[i] = a[i]*b[i] + sin(c[i])*2.5 - sqrt(|a[i]|) for i < n; y is the caller's buffer.
void fused_expression(const float* a, const float* b, const float* c, float* y, std::size_t n);

}  // namespace switchyard::bench
