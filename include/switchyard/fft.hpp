// Discrete Fourier transforms, as NumPy's numpy.fft with norm="backward": forward transforms are
// unnormalised, inverse ones scale by 1/n. Each runs as one library call on the device the
// runtime chooses (FFTW on the CPU, VkFFT on OpenCL, cuFFT on CUDA), at any length.
//
// Float input becomes complex (float32 → complex64, float64 → complex128); integer and bool
// input is a DTypeError (cast to float first). `n` crops or pads with zeros along `axis`
// (n <= 0 is a ValueError); an axis out of range is an IndexError.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "switchyard/array.hpp"

namespace switchyard::fft {

// ---- one axis
Array fft(const Array& a, std::optional<std::int64_t> n = std::nullopt, int axis = -1);
Array ifft(const Array& a, std::optional<std::int64_t> n = std::nullopt, int axis = -1);
// Real input (float); the n/2 + 1 non-negative frequencies.
Array rfft(const Array& a, std::optional<std::int64_t> n = std::nullopt, int axis = -1);
// The inverse of rfft: n real outputs (default 2·(m − 1) for m input frequencies).
Array irfft(const Array& a, std::optional<std::int64_t> n = std::nullopt, int axis = -1);

// ---- the last two axes (arrays of rank 2 or more; the leading axes are batched)
Array fft2(const Array& a);
Array ifft2(const Array& a);
Array rfft2(const Array& a);
// s: the real output's last two extents (default: the input's m, 2·(n − 1)).
Array irfft2(const Array& a, std::optional<std::array<std::int64_t, 2>> s = std::nullopt);

// ---- convolution
// The linear convolution of two 1-D real arrays (scipy.signal.fftconvolve, mode "full"): length
// len(a) + len(b) − 1, in the promoted float dtype, through rfft at a 5-smooth length.
Array convolve(const Array& a, const Array& b);

}  // namespace switchyard::fft
