// Checks of option values as they arrive from JS (doubles), shared by the
// model's and the trainer's option validation.
#pragma once

#include <cmath>

namespace normlab::model {

// v is a whole number in lo..hi (finite, no fraction).
inline bool is_integer_in(double v, double lo, double hi) {
  return std::isfinite(v) && v == std::floor(v) && v >= lo && v <= hi;
}

// v is a power of two in lo..hi.
inline bool is_power_of_two_in(double v, int lo, int hi) {
  if (!is_integer_in(v, lo, hi)) return false;
  const int n = static_cast<int>(v);
  return (n & (n - 1)) == 0;
}

}  // namespace normlab::model
