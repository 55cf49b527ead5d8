#include <doctest/doctest.h>

#include <boost/math/special_functions/erf.hpp>
#include <boost/multiprecision/cpp_bin_float.hpp>
#include <cmath>

#include "dpareto/core/error.hpp"
#include "dpareto/privacy/analytic_gaussian.hpp"

using namespace dpareto::privacy;

namespace {
// Balle & Wang 2018, Thm 8, in 50-digit arithmetic.
double reference_delta(double eps, double sigma, double sens) {
  using Big = boost::multiprecision::cpp_bin_float_50;
  const Big e(eps), s(sigma), d(sens);
  auto cdf = [](const Big& x) { return boost::math::erfc(-x / sqrt(Big(2))) / 2; };
  return static_cast<double>(cdf(d / (2 * s) - e * s / d) - exp(e) * cdf(-d / (2 * s) - e * s / d));
}
}  // namespace

TEST_CASE("analytic Gaussian delta is exact") {
  for (double eps : {0.0, 0.1, 1.0, 5.0, 20.0})
    for (double sigma : {0.2, 1.0, 3.0, 10.0, 100.0})
      for (double sens : {1.0, 2.0}) {
        const double ours = analytic_gaussian_delta(eps, sigma, sens), ref = reference_delta(eps, sigma, sens);
        INFO("eps = ", eps, " sigma = ", sigma, " sens = ", sens, " ours = ", ours, " ref = ", ref);
        if (ref > 1e-300)
          CHECK(std::abs(ours - ref) <= 1e-9 * ref);
        else
          CHECK(ours <= 1e-290);
      }
  // δ(0) = 2Φ(Δ/(2σ)) − 1
  CHECK(analytic_gaussian_delta(0, 1, 1) == doctest::Approx(std::erf(0.5 / std::sqrt(2.0))).epsilon(1e-14));
}

TEST_CASE("analytic Gaussian sigma and epsilon invert delta") {
  for (double eps : {0.01, 0.5, 1.0, 3.0, 10.0})
    for (double delta : {1e-3, 1e-5, 1e-10}) {
      const double sigma = analytic_gaussian_sigma(eps, delta, 1);
      INFO("eps = ", eps, " delta = ", delta, " sigma = ", sigma);
      CHECK(analytic_gaussian_delta(eps, sigma, 1) <= delta);
      CHECK(analytic_gaussian_delta(eps, sigma * (1 - 1e-10), 1) > delta * (1 - 1e-6));
      CHECK(std::abs(analytic_gaussian_delta(eps, sigma, 1) - delta) < 1e-8 * delta);
      // scales linearly in the sensitivity
      CHECK(analytic_gaussian_sigma(eps, delta, 3) == doctest::Approx(3 * sigma).epsilon(1e-10));
      const double e = analytic_gaussian_epsilon(sigma, delta, 1);
      CHECK(e == doctest::Approx(eps).epsilon(1e-9));
      CHECK(analytic_gaussian_delta(e, sigma, 1) <= delta);
      if (eps < 1) CHECK(classic_gaussian_sigma(eps, delta, 1) > sigma);  // analytic is tighter
    }
  // Balle & Wang's headline example: ε = 1, δ = 1e-5.
  CHECK(analytic_gaussian_sigma(1, 1e-5, 1) == doctest::Approx(3.7306).epsilon(1e-4));
  // Already private enough at ε = 0.
  CHECK(analytic_gaussian_epsilon(1e4, 0.5, 1) == 0);
}

TEST_CASE("classic Gaussian") {
  CHECK(classic_gaussian_sigma(0.5, 1e-5, 2) == doctest::Approx(2 * std::sqrt(2 * std::log(1.25e5)) / 0.5));
  CHECK_THROWS_WITH_AS(classic_gaussian_sigma(1, 1e-5, 1), doctest::Contains("epsilon = 1"), dpareto::InputError);
  CHECK_THROWS_AS(classic_gaussian_sigma(0.5, 0, 1), dpareto::InputError);
  CHECK_THROWS_AS(analytic_gaussian_sigma(1, 1.5, 1), dpareto::InputError);
  CHECK_THROWS_AS(analytic_gaussian_delta(1, -1, 1), dpareto::InputError);
  CHECK_THROWS_AS(analytic_gaussian_epsilon(1, 1e-5, 0), dpareto::InputError);
}
