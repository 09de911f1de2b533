#include "triad.hpp"

#include <tbb/parallel_for.h>

namespace switchyard::bench {

std::size_t triad(float* a, const float* b, const float* c, std::size_t n, float s) {
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 1 << 16), [&](auto r) {
    for (std::size_t i = r.begin(); i < r.end(); ++i) a[i] = b[i] + s * c[i];
  });
  return 3 * n * sizeof(float);
}

}  // namespace switchyard::bench
