// numpy.fft semantics on every device against float64 host DFTs computed here: direct sums for
// lengths up to a few thousand, sampled bins, Parseval's identity and round trips beyond.
#include <complex>
#include <numbers>

#include "conformance/conformance.hpp"
#include "conformance/reference.hpp"

namespace switchyard::conformance {
namespace {

using Complex = std::complex<double>;
using Signal = std::vector<Complex>;

const std::vector<std::int64_t> kFftLengths = {1, 2, 7, 16, 1000, 1023, 4096};

using Precise = std::complex<long double>;

// e^(sign·2πi·t/n) for t in [0, n), in long double.
std::vector<Precise> twiddles(std::int64_t n, int sign) {
  std::vector<Precise> w(n);
  for (std::int64_t t = 0; t < n; ++t) {
    const long double angle = sign * 2 * std::numbers::pi_v<long double> * t / n;
    w[t] = {cosl(angle), sinl(angle)};
  }
  return w;
}

// Bin k of the DFT of x (unnormalised), summed in long double so that the reference's own
// rounding stays below an FFT's even at 2^20 terms. The twiddle index j·k is taken mod n.
Complex dft_bin(const Signal& x, std::int64_t k, const std::vector<Precise>& w) {
  const auto n = static_cast<std::int64_t>(x.size());
  Precise sum = 0;
  for (std::int64_t j = 0; j < n; ++j) sum += Precise(x[j]) * w[(j * k) % n];
  return {static_cast<double>(sum.real()), static_cast<double>(sum.imag())};
}

Complex dft_bin(const Signal& x, std::int64_t k, int sign) {
  return dft_bin(x, k, twiddles(static_cast<std::int64_t>(x.size()), sign));
}

// The whole DFT (sign -1 forward, +1 inverse).
Signal dft(const Signal& x, int sign) {
  const auto w = twiddles(static_cast<std::int64_t>(x.size()), sign);
  Signal out(x.size());
  for (std::size_t k = 0; k < x.size(); ++k) out[k] = dft_bin(x, static_cast<std::int64_t>(k), w);
  return out;
}

Signal to_signal(const std::vector<double>& re, const std::vector<double>& im = {}) {
  Signal s(re.size());
  for (std::size_t i = 0; i < re.size(); ++i) s[i] = {re[i], im.empty() ? 0.0 : im[i]};
  return s;
}

double norm_of(const Signal& x) {
  double sum = 0;
  for (const Complex& v : x) sum += std::norm(v);
  return std::sqrt(sum);
}

// Compares a complex array with `expected` (C order) part by part, within `tol` each.
void expect_signal(const Array& actual, const Signal& expected, double tol,
                   const std::string& what) {
  ASSERT_TRUE(is_complex(actual.dtype())) << what << ": " << name(actual.dtype());
  std::vector<double> re, im;
  for (const Complex& v : expected) re.push_back(v.real()), im.push_back(v.imag());
  const std::vector<double> tols(expected.size(), tol);
  expect_within(real(actual), re, tols, what + " (real part)");
  expect_within(imag(actual), im, tols, what + " (imaginary part)");
}

Array complex_array(const Signal& x, const Shape& shape, DType parts) {
  std::vector<double> re, im;
  for (const Complex& v : x) re.push_back(v.real()), im.push_back(v.imag());
  return complex_from(host_array(re, shape, parts), host_array(im, shape, parts));
}

class Fft : public OnEveryDevice {
 protected:
  // A device without an FFT routine (DeviceInfo::fft) refuses one pinned to it, with the reason.
  void SetUp() override {
    OnEveryDevice::SetUp();
    if (!device_has_fft()) {
      EXPECT_THROW(fft::fft(Array::ones({8}, DType::Float32)), ValueError) << GetParam();
      GTEST_SKIP() << GetParam() << " has no FFT routine";
    }
  }
  std::vector<DType> float_dtypes() const {
    if (device_has_fp64()) return {DType::Float32, DType::Float64};
    return {DType::Float32};
  }
};

TEST_P(Fft, ComplexTransformsMatchTheDft) {
  for (DType t : float_dtypes())
    for (std::int64_t n : kFftLengths) {
      const auto re = random_values(n, t, 1), im = random_values(n, t, 2);
      const Signal x = to_signal(re, im);
      const Array a = complex_array(x, {n}, t);
      const double tol = fft_error_bound(t, n, norm_of(x));
      const Array y = fft::fft(a);
      EXPECT_EQ(y.dtype(), complex_dtype(t));
      expect_signal(y, dft(x, -1), tol, "fft n=" + std::to_string(n));
      Signal inverse = dft(x, +1);
      for (Complex& v : inverse) v /= static_cast<double>(n);
      expect_signal(fft::ifft(a), inverse, tol / n, "ifft n=" + std::to_string(n));
    }
}

TEST_P(Fft, RealTransformsMatchTheDft) {
  for (DType t : float_dtypes())
    for (std::int64_t n : kFftLengths) {
      const auto v = random_values(n, t, 3);
      const Signal x = to_signal(v);
      const Array a = host_array(v, {n}, t);
      const double tol = fft_error_bound(t, n, norm_of(x));
      const Array y = fft::rfft(a);
      ASSERT_EQ(y.shape(), (Shape{n / 2 + 1}));
      Signal expected = dft(x, -1);
      expected.resize(n / 2 + 1);
      expect_signal(y, expected, tol, "rfft n=" + std::to_string(n));
      expect_within(fft::irfft(y, n), v, std::vector<double>(v.size(), tol),
                    "irfft(rfft(x)) n=" + std::to_string(n));
      expect_signal(fft::fft(a), dft(x, -1), tol, "fft of real input n=" + std::to_string(n));
    }
}

// 2^20 points: sampled bins against direct sums, Parseval's identity and the round trip.
TEST_P(Fft, LargeRealTransform) {
  const std::int64_t n = 1 << 20;
  for (DType t : float_dtypes()) {
    const auto v = random_values(n, t, 4);
    const Signal x = to_signal(v);
    const double norm = norm_of(x);
    const double tol = fft_error_bound(t, n, norm);
    const Array x_array = host_array(v, {n}, t);
    const Array y = fft::rfft(x_array);
    const auto bins = y.to_vector<std::complex<double>>();
    ASSERT_EQ(bins.size(), static_cast<std::size_t>(n / 2 + 1));
    const auto w = twiddles(n, -1);
    for (std::int64_t k : {0L, 1L, 2L, 777L, 65536L, 300001L, n / 2 - 1, n / 2}) {
      const Complex want = dft_bin(x, k, w);
      EXPECT_NEAR(bins[k].real(), want.real(), tol) << "bin " << k << " " << name(t);
      EXPECT_NEAR(bins[k].imag(), want.imag(), tol) << "bin " << k << " " << name(t);
    }
    // Parseval for a real signal: sum |x|² = (|X0|² + |X_{n/2}|² + 2 Σ others) / n.
    double energy = std::norm(bins[0]) + std::norm(bins[n / 2]);
    for (std::int64_t k = 1; k < n / 2; ++k) energy += 2 * std::norm(bins[k]);
    EXPECT_NEAR(energy / n, norm * norm, norm * norm * (t == DType::Float32 ? 1e-4 : 1e-10));
    expect_within(fft::irfft(y, n), v, std::vector<double>(v.size(), tol / 64),
                  "irfft(rfft(x)) of 2^20 points");
    // Neither transform wrote into its input (C2R runs on a copy).
    EXPECT_EQ(x_array.to_vector<double>(), v);
    EXPECT_EQ(y.to_vector<std::complex<double>>(), bins);
  }
}

// The DFT of each row, then of each column, of rows × cols values: the 2-D DFT.
Signal dft2(const Signal& x, std::int64_t rows, std::int64_t cols, int sign) {
  Signal out(x.size());
  for (std::int64_t r = 0; r < rows; ++r) {
    const Signal row(x.begin() + r * cols, x.begin() + (r + 1) * cols);
    const Signal f = dft(row, sign);
    std::copy(f.begin(), f.end(), out.begin() + r * cols);
  }
  for (std::int64_t c = 0; c < cols; ++c) {
    Signal column(rows);
    for (std::int64_t r = 0; r < rows; ++r) column[r] = out[r * cols + c];
    const Signal f = dft(column, sign);
    for (std::int64_t r = 0; r < rows; ++r) out[r * cols + c] = f[r];
  }
  return out;
}

TEST_P(Fft, TwoDimensionalAndBatched) {
  for (DType t : float_dtypes())
    for (auto [batch, rows, cols] : {std::tuple<std::int64_t, std::int64_t, std::int64_t>{1, 1, 1},
                                     {1, 7, 16},
                                     {3, 33, 20},
                                     {2, 16, 9}}) {
      const std::int64_t plane = rows * cols;
      const auto v = random_values(batch * plane, t, 5);
      const Array a = host_array(v, {batch, rows, cols}, t);
      const std::string what = " of " + std::to_string(batch) + "×" + std::to_string(rows) + "×" +
                               std::to_string(cols) + " " + std::string(name(t));
      Signal expected, expected_half;
      double norm = 0;
      for (std::int64_t b = 0; b < batch; ++b) {
        const Signal x = to_signal({v.begin() + b * plane, v.begin() + (b + 1) * plane});
        norm = std::max(norm, norm_of(x));
        const Signal f = dft2(x, rows, cols, -1);
        expected.insert(expected.end(), f.begin(), f.end());
        for (std::int64_t r = 0; r < rows; ++r)
          expected_half.insert(expected_half.end(), f.begin() + r * cols,
                               f.begin() + r * cols + cols / 2 + 1);
      }
      const double tol = fft_error_bound(t, plane, norm);
      const Array y = fft::fft2(a);
      expect_signal(y, expected, tol, "fft2" + what);
      expect_signal(fft::ifft2(y), to_signal(v), tol, "ifft2(fft2(x))" + what);
      const Array h = fft::rfft2(a);
      ASSERT_EQ(h.shape(), (Shape{batch, rows, cols / 2 + 1}));
      expect_signal(h, expected_half, tol, "rfft2" + what);
      expect_within(fft::irfft2(h, std::array<std::int64_t, 2>{rows, cols}), v,
                    std::vector<double>(v.size(), tol), "irfft2(rfft2(x))" + what);
      // Each row of the batch transformed along the last axis, as rows of one call.
      Signal rows_expected;
      for (std::int64_t r = 0; r < batch * rows; ++r) {
        const Signal f = dft(to_signal({v.begin() + r * cols, v.begin() + (r + 1) * cols}), -1);
        rows_expected.insert(rows_expected.end(), f.begin(), f.end());
      }
      expect_signal(fft::fft(a), rows_expected, tol, "fft along the last axis" + what);
    }
}

// NumPy's irfft of one row of bins (cropped or zero-padded to n/2 + 1): the inverse DFT of the
// Hermitian signal whose first half is the row, reading only the real part of bin 0 and, for
// an even n, of bin n/2.
std::vector<double> inverse_real_dft(const Signal& half, std::int64_t n) {
  Signal full(n);
  for (std::int64_t k = 0; 2 * k <= n; ++k) {
    Complex v = k < static_cast<std::int64_t>(half.size()) ? half[k] : Complex{};
    if (k == 0 || 2 * k == n) v = v.real();
    full[k] = v;
    if (k > 0 && n - k != k) full[n - k] = std::conj(v);
  }
  const Signal x = dft(full, +1);
  std::vector<double> out;
  for (const Complex& v : x) out.push_back(v.real() / static_cast<double>(n));
  return out;
}

// Spectra no real signal has (imaginary parts at zero frequency and Nyquist, columns that are
// not Hermitian): irfft and irfft2 read them as NumPy does, on every backend. Odd and even
// batches both: VkFFT transforms rows in pairs.
TEST_P(Fft, InverseRealTransformsReadAnySpectrumAsNumPyDoes) {
  for (DType t : float_dtypes())
    for (std::int64_t rows : {5, 6})
      for (std::int64_t n : {7, 8, 16}) {
        const std::int64_t m = n / 2 + 1;
        const Signal x = to_signal(random_values(rows * m, t, 11), random_values(rows * m, t, 12));
        const Array a = complex_array(x, {rows, m}, t);
        const std::string what = " of " + std::to_string(rows) + "×" + std::to_string(m) +
                                 " bins, n=" + std::to_string(n) + " " + std::string(name(t));
        std::vector<double> expected;
        for (std::int64_t r = 0; r < rows; ++r) {
          const auto row = inverse_real_dft({x.begin() + r * m, x.begin() + (r + 1) * m}, n);
          expected.insert(expected.end(), row.begin(), row.end());
        }
        const double tol = fft_error_bound(t, rows * n, norm_of(x));
        const std::vector<double> tols(expected.size(), tol);
        expect_within(fft::irfft(a, n), expected, tols, "irfft" + what);
        // irfft2 is NumPy's ifft down each column, then irfft of each row.
        Signal columns = x;
        for (std::int64_t c = 0; c < m; ++c) {
          Signal column(rows);
          for (std::int64_t r = 0; r < rows; ++r) column[r] = x[r * m + c];
          const Signal f = dft(column, +1);
          for (std::int64_t r = 0; r < rows; ++r)
            columns[r * m + c] = f[r] / static_cast<double>(rows);
        }
        std::vector<double> expected2;
        for (std::int64_t r = 0; r < rows; ++r) {
          const auto row =
              inverse_real_dft({columns.begin() + r * m, columns.begin() + (r + 1) * m}, n);
          expected2.insert(expected2.end(), row.begin(), row.end());
        }
        expect_within(fft::irfft2(a, std::array<std::int64_t, 2>{rows, n}), expected2, tols,
                      "irfft2" + what);
        // The input is left as it was.
        expect_signal(a, x, 0, "irfft's input after it ran" + what);
      }
}

// Transposed, reversed and stepped views, other axes, and n cropping or zero-padding.
TEST_P(Fft, ViewsAxesAndLengths) {
  const DType t = DType::Float32;
  const std::int64_t rows = 24, cols = 10;
  const auto v = random_values(rows * cols, t, 6);
  const Array m = host_array(v, {rows, cols}, t);
  const double tol = fft_error_bound(t, 64, 40);
  auto column = [&](std::int64_t c, std::int64_t length) {
    Signal s(length);
    for (std::int64_t r = 0; r < std::min(rows, length); ++r) s[r] = v[r * cols + c];
    return s;
  };
  // Along axis 0, and along the last axis of the transpose: the same transforms.
  const Array by_column = fft::fft(m, std::nullopt, 0);
  const Array of_transpose = fft::fft(m.transpose());
  ASSERT_EQ(by_column.shape(), (Shape{rows, cols}));
  Signal expected(rows * cols), expected_t(rows * cols);
  for (std::int64_t c = 0; c < cols; ++c) {
    const Signal f = dft(column(c, rows), -1);
    for (std::int64_t r = 0; r < rows; ++r)
      expected[r * cols + c] = expected_t[c * rows + r] = f[r];
  }
  expect_signal(by_column, expected, tol, "fft(m, axis=0)");
  expect_signal(of_transpose, expected_t, tol, "fft(m.T)");
  // n pads with zeros (32 > 24) or crops (16 < 24) along axis 0.
  for (std::int64_t n : {32L, 16L}) {
    const Array y = fft::rfft(m, n, -2);
    ASSERT_EQ(y.shape(), (Shape{n / 2 + 1, cols}));
    Signal want;
    for (std::int64_t k = 0; k <= n / 2; ++k)
      for (std::int64_t c = 0; c < cols; ++c) want.push_back(dft_bin(column(c, n), k, -1));
    expect_signal(y, want, tol, "rfft(m, n=" + std::to_string(n) + ", axis=-2)");
  }
  // A reversed, stepped row: elements 9, 7, 5, 3, 1 of row 3.
  const Array stepped = m[3].slice(0, std::nullopt, std::nullopt, -2);
  Signal x;
  for (std::int64_t j = cols - 1; j >= 0; j -= 2) x.push_back(v[3 * cols + j]);
  expect_signal(fft::fft(stepped), dft(x, -1), tol, "fft(m[3, ::-2])");
}

TEST_P(Fft, EmptyBatchesGiveEmptyResults) {
  const Array a = Array::zeros({0, 8}, DType::Float32);
  const Array y = fft::fft(a);
  EXPECT_EQ(y.shape(), (Shape{0, 8}));
  EXPECT_EQ(y.dtype(), DType::Complex64);
  EXPECT_EQ(fft::rfft(a).shape(), (Shape{0, 5}));
  EXPECT_EQ(fft::irfft(fft::rfft(a)).shape(), (Shape{0, 8}));
  EXPECT_EQ(
      fft::convolve(Array::zeros({0}, DType::Float64), Array::ones({3}, DType::Float64)).shape(),
      (Shape{0}));
}

TEST_P(Fft, ConvolutionMatchesTheDirectSum) {
  for (DType t : float_dtypes())
    for (auto [la, lb] :
         {std::pair<std::int64_t, std::int64_t>{1, 1}, {7, 3}, {1000, 33}, {5, 64}}) {
      const auto va = random_values(la, t, 7), vb = random_values(lb, t, 8);
      std::vector<double> expected(la + lb - 1, 0.0);
      for (std::int64_t i = 0; i < la; ++i)
        for (std::int64_t j = 0; j < lb; ++j) expected[i + j] += va[i] * vb[j];
      const Array c = fft::convolve(host_array(va, {la}, t), host_array(vb, {lb}, t));
      EXPECT_EQ(c.dtype(), t);
      const double tol =
          fft_error_bound(t, la + lb, 4 * std::sqrt(static_cast<double>(la * lb)) * 4);
      expect_within(c, expected, std::vector<double>(expected.size(), tol),
                    "convolve " + std::to_string(la) + " * " + std::to_string(lb));
    }
}

SWITCHYARD_ON_EVERY_DEVICE(Fft);

TEST(FftErrors, BadInputsAreTypedErrors) {
  const Array ints = Array::arange(0, 8);
  EXPECT_THROW(fft::fft(ints), DTypeError);
  EXPECT_THROW(fft::rfft(ints), DTypeError);
  EXPECT_THROW(fft::rfft(complex_from(Array::ones({4}), Array::ones({4}))), DTypeError);
  const Array x = Array::ones({4, 6}, DType::Float32);
  EXPECT_THROW(fft::fft(x, 0), ValueError);
  EXPECT_THROW(fft::irfft(x, -2), ValueError);
  EXPECT_THROW(fft::fft(x, std::nullopt, 2), IndexError);
  EXPECT_THROW(fft::rfft(x, std::nullopt, -3), IndexError);
  EXPECT_THROW(fft::fft(Array::zeros({0}, DType::Float32)), ValueError);
  EXPECT_THROW(fft::fft2(Array::ones({5}, DType::Float32)), ShapeError);
  EXPECT_THROW(fft::irfft2(x, std::array<std::int64_t, 2>{4, 0}), ValueError);
  EXPECT_THROW(fft::convolve(x, x), ShapeError);
  EXPECT_THROW(fft::convolve(ints, ints), DTypeError);
  try {
    fft::fft(ints);
  } catch (const DTypeError& e) {
    EXPECT_NE(std::string(e.what()).find("cast to float first"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace switchyard::conformance
