#include <switchyard/switchyard.hpp>

#include <cstdio>

int main() {
  namespace sy = switchyard;
  const sy::Array a = sy::Array::arange(0, 4, 1, sy::DType::Float32);  // 0 1 2 3
  std::printf("sum = %g\n", sy::sum(a).item<double>());
  return 0;
}
