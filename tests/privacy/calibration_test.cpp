#include <doctest/doctest.h>

#include "dpareto/core/error.hpp"
#include "dpareto/privacy/calibration.hpp"

using namespace dpareto::privacy;

TEST_CASE("smallest sigma for a target (eps, delta)") {
  for (Sampling sampling : {Sampling::poisson, Sampling::fixed_size})
    for (double eps : {0.5, 2.0, 8.0}) {
      const double q = 0.01, delta = 1e-5;
      const long long steps = 5000;
      const double sigma = calibrate_sigma(sampling, q, steps, eps, delta);
      INFO("eps = ", eps, " sigma = ", sigma);
      CHECK(dpsgd_epsilon(sampling, q, sigma, steps, delta).epsilon <= eps);
      CHECK(dpsgd_epsilon(sampling, q, sigma * (1 - 1e-9), steps, delta).epsilon > eps);
    }
  CHECK_THROWS_WITH_AS(calibrate_sigma(Sampling::poisson, 0.01, 1000, 1e-9, 1e-5), doctest::Contains("1e-09"),
                       dpareto::InputError);
  CHECK_THROWS_AS(calibrate_sigma(Sampling::poisson, 0, 1000, 1, 1e-5), dpareto::InputError);
  CHECK_THROWS_AS(calibrate_sigma(Sampling::poisson, 0.01, 0, 1, 1e-5), dpareto::InputError);
  CHECK_THROWS_AS(calibrate_sigma(Sampling::poisson, 0.01, 10, 1, 1.5), dpareto::InputError);
}

TEST_CASE("largest number of steps for a given sigma") {
  for (Sampling sampling : {Sampling::poisson, Sampling::fixed_size}) {
    const double q = 0.004, sigma = 1.1, eps = 3, delta = 1e-5;
    const long long t = max_steps(sampling, q, sigma, eps, delta);
    CHECK(t > 0);
    CHECK(dpsgd_epsilon(sampling, q, sigma, t, delta).epsilon <= eps);
    CHECK(dpsgd_epsilon(sampling, q, sigma, t + 1, delta).epsilon > eps);
  }
  CHECK(max_steps(Sampling::poisson, 1, 0.5, 0.1, 1e-5) == 0);
  CHECK_THROWS_AS(max_steps(Sampling::poisson, 0, 1, 1, 1e-5), dpareto::InputError);
}
