#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "dist_support.hpp"

namespace switchyard::dist {
namespace {

using testing::global_array;

TEST(DistMatmul, RowBlocksTimesReplicatedIsTheWholeProduct) {
  const Communicator comm;
  const std::int64_t m = 53, k = 6, n = 4;
  const Array a_global = global_array(m, k, DType::Float32, 3);
  const Array b_global = global_array(k, n, DType::Float32, 4);
  const DistArray a = DistArray::distribute(a_global, Layout::row_blocks(m, comm.size(), 5));
  const DistArray b(b_global, Layout::replicated(k, comm.size()));
  const DistArray c = matmul(a, b);
  EXPECT_EQ(c.layout(), a.layout());
  EXPECT_EQ(c.shape(), (Shape{m, n}));

  const std::vector<double> av = a_global.to_vector<double>(), bv = b_global.to_vector<double>();
  const std::vector<float> got = gather(c).to_vector<float>();
  for (std::int64_t i = 0; i < m; ++i) {
    for (std::int64_t j = 0; j < n; ++j) {
      double want = 0, magnitude = 0;
      for (std::int64_t p = 0; p < k; ++p) {
        want += av[i * k + p] * bv[p * n + j];
        magnitude += std::abs(av[i * k + p] * bv[p * n + j]);
      }
      // float32 products summed in any order: within K·ε·Σ|a||b|, plus the final rounding.
      const double bound = (k + 1) * std::numeric_limits<float>::epsilon() * magnitude;
      EXPECT_NEAR(got[i * n + j], want, bound) << "at (" << i << ", " << j << ")";
    }
  }
}

TEST(DistMatmul, VectorOperandGivesAVector) {
  const Communicator comm;
  const Array a_global = global_array(20, 3, DType::Float64, 5);
  const DistArray a = DistArray::distribute(a_global, Layout::row_blocks(20, comm.size(), 4));
  const DistArray x(Array::from_vector(std::vector<double>{1, 2, 3}),
                    Layout::replicated(3, comm.size()));
  const DistArray y = matmul(a, x);
  EXPECT_EQ(y.shape(), (Shape{20}));
  const std::vector<double> av = a_global.to_vector<double>(), got = gather(y).to_vector<double>();
  for (std::int64_t i = 0; i < 20; ++i)
    EXPECT_NEAR(got[i], av[3 * i] + 2 * av[3 * i + 1] + 3 * av[3 * i + 2], 1e-12);
}

TEST(DistMatmul, MismatchesAreTypedErrors) {
  const Communicator comm;
  const DistArray a = DistArray::distribute(global_array(20, 3, DType::Float64),
                                            Layout::row_blocks(20, comm.size()));
  const Array b = global_array(3, 2, DType::Float64);
  EXPECT_THROW(matmul(a, DistArray::distribute(b, Layout::row_blocks(3, comm.size()))),
               LayoutError);
  const DistArray wrong_inner(global_array(4, 2, DType::Float64),
                              Layout::replicated(4, comm.size()));
  EXPECT_THROW(matmul(a, wrong_inner), ShapeError);
}

}  // namespace
}  // namespace switchyard::dist
