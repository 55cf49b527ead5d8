#include "dpareto/privacy/svt.hpp"

#include <cmath>
#include <string>

#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"

namespace dpareto::privacy {

double svt_epsilon(double bound_c, double noise_b) {
  if (!(bound_c > 0) || !std::isfinite(bound_c))
    throw InputError("SVT bound C = " + format_number(bound_c) + " must be a finite number > 0");
  if (!(noise_b > 0) || !std::isfinite(noise_b))
    throw InputError("SVT noise b = " + format_number(noise_b) + " must be a finite number > 0");
  // ε = ε₁ + ε₂ = 1/b₁ + 2C/b₂ with b₁ = b/(1 + (2C)^{1/3}), b₂ = b − b₁ (DPareto Appx. B).
  const double c13 = std::cbrt(2 * bound_c);
  return (1 + c13) * (1 + c13 * c13) / noise_b;
}

}  // namespace dpareto::privacy
