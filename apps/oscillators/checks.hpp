// Argument checks shared by the oscillator functions: each throws a typed error naming the
// function, the parameter, what was expected and what was given.
#pragma once

#include <cstdint>
#include <string_view>

#include "switchyard/switchyard.hpp"

namespace switchyard::apps::oscillators {

void require_float(std::string_view function, std::string_view parameter, DType dtype);
// Reads one all(isfinite(a)) back: a sync, for checks at the start of a run only.
void require_finite(std::string_view function, std::string_view parameter, const Array& a);
// K square and finite, ω of size N and finite; returns N.
std::int64_t checked_size(std::string_view function, const Array& coupling,
                          const Array& frequencies);
// θ of size n (any shape with n elements) and finite.
void require_phases(std::string_view function, const Array& theta, std::int64_t n);

}  // namespace switchyard::apps::oscillators
