#pragma once
// Φ and φ of the standard normal, for the acquisitions (private to bo).
#include <cmath>
#include <limits>

namespace dpareto::bo {

inline constexpr double kInf = std::numeric_limits<double>::infinity();

inline double normal_cdf(double z) {
  return 0.5 * std::erfc(-z / std::sqrt(2.0));
}
inline double normal_pdf(double z) {
  return std::exp(-0.5 * z * z) / std::sqrt(2.0 * M_PI);
}

}  // namespace dpareto::bo
