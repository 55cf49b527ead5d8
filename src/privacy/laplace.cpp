#include "dpareto/privacy/laplace.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "argument_checks.hpp"
#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "log_math.hpp"

namespace dpareto::privacy {

double laplace_scale(double epsilon, double sensitivity) {
  detail::check_positive_finite(epsilon, "epsilon");
  detail::check_positive_finite(sensitivity, "sensitivity");
  return sensitivity / epsilon;
}

double laplace_epsilon(double scale, double sensitivity) {
  detail::check_positive_finite(scale, "Laplace scale b");
  detail::check_positive_finite(sensitivity, "sensitivity");
  return sensitivity / scale;
}

double laplace_rdp(double scale, double sensitivity, double alpha) {
  detail::check_positive_finite(scale, "Laplace scale b");
  detail::check_positive_finite(sensitivity, "sensitivity");
  if (!(alpha > 1) || std::isinf(alpha))
    throw InputError("RDP order " + format_number(alpha) + " must be a finite number > 1");
  const double lambda = scale / sensitivity;
  const double t1 = std::log(alpha / (2 * alpha - 1)) + (alpha - 1) / lambda;
  const double t2 = std::log((alpha - 1) / (2 * alpha - 1)) - alpha / lambda;
  // Never above the pure-DP bound 1/λ (Mironov 2017, Prop. 6 tends to it as α → ∞).
  return std::min(detail::log_add(t1, t2) / (alpha - 1), 1 / lambda);
}

}  // namespace dpareto::privacy
