// The weight sequences and argument checks the fractional schemes share, on the host in float64.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace switchyard::apps::fractional::detail {

// Throws ValueError unless α ∈ (0, 2).
void check_order(double alpha);
// Throws ValueError unless value is finite and > 0, naming the parameter.
void check_positive(double value, std::string_view parameter);

std::vector<double> grunwald_letnikov_weights(std::int64_t n, double alpha);
std::vector<double> caputo_weights(std::int64_t n, double alpha);
// Γ(2−α) for α ≤ 1 and Γ(3−α) for α > 1: the Caputo schemes' normalisation.
double caputo_gamma(double alpha);

}  // namespace switchyard::apps::fractional::detail
