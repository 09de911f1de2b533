#include "dist/fixed_order_sum.hpp"

namespace switchyard::dist {

// In place: level entry i is written after entries 2i and 2i + 1 of the level below are read,
// and every entry still to be read lies at or beyond 2i.
double fixed_order_sum(std::span<double> values) {
  std::size_t n = values.size();
  if (n == 0) return 0;
  while (n > 1) {
    const std::size_t pairs = n / 2;
    for (std::size_t i = 0; i < pairs; ++i) values[i] = values[2 * i] + values[2 * i + 1];
    if (n % 2 == 1) values[pairs] = values[n - 1];
    n -= pairs;
  }
  return values[0];
}

}  // namespace switchyard::dist
