#pragma once
// Checks a GP's analytic log-likelihood gradient at θ against central finite differences (`step`
// in every entry), to a relative tolerance; returns the analytic gradient.
#include <doctest/doctest.h>

#include "dpareto/gp/gaussian_process.hpp"

inline Eigen::VectorXd check_likelihood_gradient(const dpareto::gp::GaussianProcess& gp, const Eigen::VectorXd& theta,
                                                 double tolerance, double step = 1e-5) {
  Eigen::VectorXd grad;
  gp.log_marginal_likelihood(theta, &grad);
  REQUIRE(grad.size() == theta.size());
  for (Eigen::Index i = 0; i < theta.size(); ++i) {
    const double h = step;
    Eigen::VectorXd plus = theta, minus = theta;
    plus(i) += h;
    minus(i) -= h;
    const double fd =
        (gp.log_marginal_likelihood(plus, nullptr) - gp.log_marginal_likelihood(minus, nullptr)) / (2 * h);
    CAPTURE(i);
    CHECK(grad(i) == doctest::Approx(fd).epsilon(tolerance).scale(1.0));
  }
  return grad;
}
