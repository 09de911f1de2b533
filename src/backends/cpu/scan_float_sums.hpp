// float32 sums, the most common scan, four lanes per instruction. The scalar chains of
// cpu_scan.cpp store once per element, which bounds them at about 0.5 ns an element; sixteen
// elements a step in SSE vectors take about 0.26 ns (measured on a 2-core AMD EPYC, data
// in L1). GCC's and Clang's vector extensions, so the baseline x86-64 build needs no dispatch.
#pragma once

#include <cstdint>
#include <cstring>

namespace switchyard::cpu {

using Float4 = float __attribute__((vector_size(16)));

inline Float4 load4(const float* p) {
  Float4 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

inline void store4(float* p, Float4 v) {
  std::memcpy(p, &v, sizeof v);
}

inline Float4 last_lane(Float4 v) {
  return __builtin_shufflevector(v, v, 3, 3, 3, 3);
}

// The inclusive prefix sums of v's lanes.
inline Float4 prefix4(Float4 v) {
  const Float4 zero{};
  v += __builtin_shufflevector(v, zero, 4, 0, 1, 2);
  return v + __builtin_shufflevector(v, zero, 4, 4, 0, 1);
}

// Scans whole steps of 16 elements after `carry`; returns how many it scanned and, in carry, the
// sum including them. The four vectors of a step are scanned independently and joined, so only
// one add a step waits on the previous step.
template <bool Exclusive>
std::int64_t scan_float_sums(const float* in, float* out, std::int64_t n, float& carry) {
  Float4 before = {carry, carry, carry, carry};
  std::int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    Float4 v[4];
    for (int k = 0; k < 4; ++k) v[k] = prefix4(load4(in + i + 4 * k));
    v[1] += last_lane(v[0]);
    v[3] += last_lane(v[2]);
    v[2] += last_lane(v[1]);
    v[3] += last_lane(v[1]);
    Float4 previous = before;
    for (int k = 0; k < 4; ++k) {
      v[k] += before;
      // Exclusive: each lane takes the inclusive sum of the lane before it.
      store4(out + i + 4 * k,
             Exclusive ? __builtin_shufflevector(v[k], previous, 4, 0, 1, 2) : v[k]);
      previous = last_lane(v[k]);
    }
    before = previous;
  }
  carry = before[0];
  return i;
}

}  // namespace switchyard::cpu
