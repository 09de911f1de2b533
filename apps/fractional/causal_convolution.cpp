// The direct method is a blocked lower-triangular Toeplitz product done as ONE gemm, with no n×n
// matrix. With blocks of B samples (m = n/B blocks, n padded to N = mB), output block I is
//   y[IB + r] = Σ_{j<N} H[r, j] · G[j, m−1−I],
// where H[r, j] = w[j + r − (B−1)] (zero below index 0) is a B×N Hankel matrix of the weights and
// G[j, c] = x_rev[j + cB] (x reversed, zero-padded) an N×m matrix of overlapping windows. Both
// are sliding windows of a 1-D sequence, made without an index array: a sequence u of length L
// repeated and re-read with row length L + s starts row i at i·s, so reshaping gives windows
// u[i·s : i·s + cols]. Cost: 2n² flops on BLAS (half of them on the zero triangle) plus B·N + 2N·m
// copied elements; B ≈ √(2n) balances the two copies.
#include "causal_convolution.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace switchyard::apps::fractional::detail {
namespace {

// Row bands of the block product (see upper_part_product): 4 leave 5/8 of the full product's
// flops; more bands give smaller, less efficient gemms.
constexpr std::int64_t kBands = 4;

// rows × cols matrix M[i, j] = u[i·shift + j]; needs (rows−1)·shift + cols ≤ len(u).
Array sliding_windows(const Array& u, std::int64_t rows, std::int64_t cols, std::int64_t shift) {
  const std::int64_t length = u.shape()[0];
  const std::int64_t row_length = length + shift;
  const std::int64_t repeats = (rows * row_length + length - 1) / length;
  return u.expand_dims(0)
      .broadcast_to(Shape{repeats, length})
      .reshape(Shape{-1})
      .slice(0, 0, rows * row_length)
      .reshape(Shape{rows, row_length})
      .slice(1, 0, cols);
}

Array zero_padded(const Array& a, std::int64_t before, std::int64_t after) {
  const Array parts[] = {Array::zeros(Shape{before}, a.dtype()), a,
                         Array::zeros(Shape{after}, a.dtype())};
  return concatenate(parts);
}

// windows × hankelᵀ (m × B, last block first), skipping most of the zeros: row i of `windows`
// is zero from column N − i·B on, so bands of rows multiply only the columns they have.
Array upper_part_product(const Array& windows, const Array& hankel_t, std::int64_t block) {
  const std::int64_t rows = windows.shape()[0], columns = windows.shape()[1];
  const std::int64_t bands = std::min<std::int64_t>(rows, kBands);
  std::vector<Array> parts;
  for (std::int64_t band = 0; band < bands; ++band) {
    const std::int64_t first = band * rows / bands, last = (band + 1) * rows / bands;
    const std::int64_t used = columns - first * block;
    parts.push_back(
        matmul(windows.slice(0, first, last).slice(1, 0, used), hankel_t.slice(0, 0, used)));
  }
  return concatenate(parts);
}

Array direct(const Array& w, const Array& x) {
  const std::int64_t n = x.shape()[0];
  const std::int64_t block =
      std::clamp<std::int64_t>(static_cast<std::int64_t>(std::sqrt(2.0 * n)), 1, n);
  const std::int64_t blocks = (n + block - 1) / block;
  const std::int64_t padded = blocks * block;
  const Array hankel =
      sliding_windows(zero_padded(w, block - 1, padded - n), block, padded, 1);  // B × N
  const Array x_reversed = x.slice(0, std::nullopt, std::nullopt, -1);
  const Array windows = sliding_windows(zero_padded(x_reversed, padded - n, (blocks - 1) * block),
                                        blocks, padded, block);  // m × N: G transposed
  const Array reversed_blocks = upper_part_product(windows, hankel.transpose(), block);
  return reversed_blocks.slice(0, std::nullopt, std::nullopt, -1)
      .reshape(Shape{padded})
      .slice(0, 0, n);
}

}  // namespace

Array causal_convolution(const Array& weights, const Array& x, Method method) {
  if (method == Method::Direct) return direct(weights, x);
  return fft::convolve(weights, x).slice(0, 0, x.shape()[0]);
}

}  // namespace switchyard::apps::fractional::detail
