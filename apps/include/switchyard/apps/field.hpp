// Field generation: a damped spiral wave on a W×H grid and a coherence statistic over it.
//
// Each pixel centre (x, y) of the grid has a distance r and an angle φ to the wave's centre:
//
//   f(x, y, t) = sin(k·r − ω·t + m·φ) · exp(−damping·r)
//   r = hypot(x − cx, y − cy),  φ = atan2(y − cy, x − cx)
//
// The grid's coordinates are a (1, W) row and an (H, 1) column broadcast together, so no W×H
// array exists except the frame a user asks for; statistics() and animate() reduce the field
// in one fused pass per call, never writing it to memory.
//
//   namespace field = switchyard::apps::field;
//   const field::Grid grid{.width = 1024, .height = 768};
//   const std::vector<field::Stats> s = field::animate(grid, {}, /*frames=*/100, /*dt=*/0.01);
#pragma once

#include <cstdint>
#include <vector>

#include "switchyard/switchyard.hpp"

namespace switchyard::apps::field {

// Pixel (i, j) — row i, column j — has its centre at x = x_min + (j + ½)·(x_max − x_min)/W,
// y = y_min + (i + ½)·(y_max − y_min)/H.
struct Grid {
  std::int64_t width = 256, height = 256;
  double x_min = -1, x_max = 1, y_min = -1, y_max = 1;
  DType dtype = DType::Float32;  // or Float64
};

struct Params {
  double wavenumber = 20;                  // k, radians per unit of r
  double angular_frequency = 6.0;          // ω, radians per unit of t
  double twist = 3;                        // m: the spiral's number of arms
  double damping = 1.5;                    // amplitude e-folds per unit of r
  double center_x = 0.3, center_y = -0.2;  // off the grid's centre: an asymmetric pattern
};

// Over the W·H pixels of one frame:
struct Stats {
  double mean = 0;       // Σ f / (W·H)
  double energy = 0;     // Σ f² / (W·H), the mean power
  double coherence = 0;  // |Σ f| / Σ |f|: 1 when every pixel has one sign, 0 when they cancel
                         // (0 for an all-zero field)
};

// The field at time t, (H, W) in grid.dtype, evaluated (for DLPack hand-over, plotting, ...).
Array frame(const Grid& grid, const Params& params, double t);
// Rows [first_row, first_row + rows) of that frame, (rows, W), bit for bit: a band of it, as a
// rank of a distributed frame holds (field_dist.hpp). ValueError when they leave [0, H).
Array frame(const Grid& grid, const Params& params, double t, std::int64_t first_row,
            std::int64_t rows);

// The statistics of frame(grid, params, t), in one pass with no frame stored.
Stats statistics(const Grid& grid, const Params& params, double t);

// The statistics of `frames` frames at t = t0, t0 + dt, ...: one fused kernel over a
// (frames, H, W) iteration space, and three arrays of `frames` sums read back.
std::vector<Stats> animate(const Grid& grid, const Params& params, std::int64_t frames, double dt,
                           double t0 = 0);

}  // namespace switchyard::apps::field
