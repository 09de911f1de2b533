// Cooperative cancellation: long work (calibration) checks a flag between steps and throws
// Cancelled, which the layers it passes through let through untouched (it is no failure).
#pragma once

#include <exception>

namespace switchyard {

struct Cancelled : std::exception {
  const char* what() const noexcept override { return "cancelled"; }
};

}  // namespace switchyard
