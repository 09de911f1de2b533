// The direct method is a blocked lower-triangular Toeplitz product on BLAS, with no n×n matrix.
// With blocks of B samples (m = n/B blocks, n padded to N = mB), output block I is
//   y[IB + r] = Σ_{j<N} H[r, j] · G[j, m−1−I],
// where H[r, j] = w[j + r − (B−1)] (zero below index 0) is a B×N Hankel matrix of the weights and
// G[j, c] = x_rev[j + cB] (x reversed, zero-padded) an N×m matrix of overlapping windows. Both
// are sliding windows of a 1-D sequence, made without an index array: a sequence u of length L
// repeated and re-read with row length L + s starts row i at i·s, so reshaping gives windows
// u[i·s : i·s + cols]. Cost: about 5/4·n² flops on BLAS (the tiles wholly in the zero triangle
// are skipped) plus about B·N + N·m copied elements; B ≈ √(2n) balances the two copies.
#include "causal_convolution.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace switchyard::apps::fractional::detail {
namespace {

// The product runs tile by tile (a band of block rows × a chunk of columns), each tile's two
// window matrices copied just before its gemm, so the memory used stays under about
// 3·kTileElements elements whatever n is, and tiles that lie in the zero triangle are skipped.
constexpr std::int64_t kTileElements = std::int64_t{1} << 22;
// B follows √(2n) up to 512, so that at large n the per-tile window copies, R·(R·B + chunk)
// elements, stay small next to the tile.
constexpr std::int64_t kMaxBlock = 512;
// At least 4 bands, so the skipped zero tiles save 3/8 of the full product's flops.
constexpr std::int64_t kMinBands = 4;

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

Array direct(const Array& w, const Array& x) {
  const std::int64_t n = x.shape()[0];
  const std::int64_t block = std::clamp<std::int64_t>(static_cast<std::int64_t>(std::sqrt(2.0 * n)),
                                                      1, std::min(n, kMaxBlock));
  const std::int64_t blocks = (n + block - 1) / block;
  const std::int64_t padded = blocks * block;
  const Array w_padded = zero_padded(w, block - 1, padded - n);  // H[r, j] = w_padded[j + r]
  const Array x_reversed = x.slice(0, std::nullopt, std::nullopt, -1);
  // Gᵀ[c, j] = x_padded[c·B + j]; row c is zero from column N − c·B on.
  const Array x_padded = zero_padded(x_reversed, padded - n, (blocks - 1) * block);

  const std::int64_t chunk = std::clamp<std::int64_t>(kTileElements / block, 1, padded);
  // Bands of rows no taller than chunk / B: a window copy of R rows costs R·(R·B + chunk).
  const std::int64_t band_rows =
      std::max<std::int64_t>(1, std::min((blocks + kMinBands - 1) / kMinBands, chunk / block));
  std::vector<Array> bands(static_cast<std::size_t>((blocks + band_rows - 1) / band_rows));
  for (std::int64_t k0 = 0; k0 < padded; k0 += chunk) {
    const std::int64_t k1 = std::min(padded, k0 + chunk);
    const Array hankel_t =  // (k1 − k0) × B
        sliding_windows(w_padded.slice(0, k0, k1 + block - 1), block, k1 - k0, 1).transpose();
    for (std::size_t b = 0; b < bands.size(); ++b) {
      const std::int64_t first = static_cast<std::int64_t>(b) * band_rows;
      const std::int64_t rows = std::min(blocks - first, band_rows);
      const std::int64_t used = std::min(k1, padded - first * block) - k0;
      if (used <= 0) break;  // this band and the later ones are zero from column k0 on
      const std::int64_t start = first * block + k0;
      const Array windows = sliding_windows(
          x_padded.slice(0, start, start + (rows - 1) * block + used), rows, used, block);
      const Array partial = matmul(windows, hankel_t.slice(0, 0, used));
      Array& sum = bands[b];
      sum = sum ? sum + partial : partial;
      eval(sum);
    }
  }
  // Row c of the stacked bands is output block m − 1 − c.
  return concatenate(bands)
      .slice(0, std::nullopt, std::nullopt, -1)
      .reshape(Shape{padded})
      .slice(0, 0, n);
}

}  // namespace

Array causal_convolution(const Array& weights, const Array& x, Method method) {
  if (method == Method::Direct) return direct(weights, x);
  return fft::convolve(weights, x).slice(0, 0, x.shape()[0]);
}

}  // namespace switchyard::apps::fractional::detail
