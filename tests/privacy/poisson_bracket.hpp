#pragma once
// Test helper of the privacy suite: a fresh PldAccountant's bracket for T Poisson-subsampled
// Gaussian steps (the separate accounting the tests compare against).
#include "dpareto/privacy/pld_accountant.hpp"

namespace dpareto::privacy {

inline PldEpsilon poisson_bracket(double q, double sigma, long long steps, double delta) {
  PldAccountant accountant;
  accountant.compose_subsampled_gaussian(Sampling::poisson, q, sigma, steps);
  return accountant.epsilon_bracket(delta);
}

}  // namespace dpareto::privacy
