#include "dpareto/privacy/laplace.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "log_math.hpp"

namespace dpareto::privacy {

namespace {
void check_positive(double value, const char* name) {
  if (!(value > 0) || std::isinf(value))
    throw InputError(std::string(name) + " = " + format_number(value) + " must be a finite number > 0");
}
}  // namespace

double laplace_scale(double epsilon, double sensitivity) {
  check_positive(epsilon, "epsilon");
  check_positive(sensitivity, "sensitivity");
  return sensitivity / epsilon;
}

double laplace_epsilon(double scale, double sensitivity) {
  check_positive(scale, "Laplace scale b");
  check_positive(sensitivity, "sensitivity");
  return sensitivity / scale;
}

double laplace_rdp(double scale, double sensitivity, double alpha) {
  check_positive(scale, "Laplace scale b");
  check_positive(sensitivity, "sensitivity");
  if (!(alpha > 1) || std::isinf(alpha))
    throw InputError("RDP order " + format_number(alpha) + " must be a finite number > 1");
  const double lambda = scale / sensitivity;
  const double t1 = std::log(alpha / (2 * alpha - 1)) + (alpha - 1) / lambda;
  const double t2 = std::log((alpha - 1) / (2 * alpha - 1)) - alpha / lambda;
  // Never above the pure-DP bound 1/λ (Mironov 2017, Prop. 6 tends to it as α → ∞).
  return std::min(detail::log_add(t1, t2) / (alpha - 1), 1 / lambda);
}

}  // namespace dpareto::privacy
