#include <doctest/doctest.h>

#include <cmath>

#include "dpareto/core/error.hpp"
#include "dpareto/privacy/composition.hpp"
#include "dpareto/privacy/laplace.hpp"
#include "dpareto/privacy/svt.hpp"

using namespace dpareto::privacy;

TEST_CASE("Laplace mechanism") {
  CHECK(laplace_scale(0.5, 2) == 4);
  CHECK(laplace_epsilon(4, 2) == 0.5);
  // Mironov 2017, Prop. 6 at α = 2 by hand, λ = 1: log(2/3 e + 1/3 e^{−2}).
  CHECK(laplace_rdp(1, 1, 2) == doctest::Approx(std::log(2.0 / 3 * std::exp(1.0) + 1.0 / 3 * std::exp(-2.0))));
  double previous = 0;
  for (double a : {1.5, 2.0, 4.0, 16.0, 256.0}) {  // nondecreasing in α, below the pure ε
    const double r = laplace_rdp(2, 1, a);
    CHECK(r >= previous);
    CHECK(r <= 0.5);
    previous = r;
  }
  CHECK_THROWS_AS(laplace_scale(0, 1), dpareto::InputError);
  CHECK_THROWS_AS(laplace_rdp(1, 1, 1), dpareto::InputError);
}

TEST_CASE("sparse vector technique (DPareto Appx. B)") {
  // ε = 1/b₁ + 2C/b₂ with b₁ = b/(1 + (2C)^{1/3}), b₂ = b − b₁.
  for (double c : {1.0, 4.0, 32.0})
    for (double b : {0.5, 10.0}) {
      const double b1 = b / (1 + std::cbrt(2 * c)), b2 = b - b1;
      CHECK(svt_epsilon(c, b) == doctest::Approx(1 / b1 + 2 * c / b2).epsilon(1e-13));
    }
  CHECK(svt_epsilon(4, 1) == doctest::Approx(15.0));  // (1 + 2)(1 + 4)
  CHECK_THROWS_AS(svt_epsilon(0, 1), dpareto::InputError);
  CHECK_THROWS_AS(svt_epsilon(1, -1), dpareto::InputError);
}

TEST_CASE("composition") {
  const auto basic = basic_composition({{0.5, 1e-6}, {1.0, 0}, {0.25, 1e-6}});
  CHECK(basic.epsilon == 1.75);
  CHECK(basic.delta == doctest::Approx(2e-6));
  const auto adv = advanced_composition(0.1, 0, 100, 1e-5);
  CHECK(adv.epsilon == doctest::Approx(std::sqrt(200 * std::log(1e5)) * 0.1 + 100 * 0.1 * std::expm1(0.1)));
  CHECK(adv.delta == 1e-5);
  // Optimal composition: at ε_g = kε the only loss is 1 − (1−δ)^k; at the points (k − 2l)ε it
  // matches Kairouz et al.'s Thm 3.3 sum; never worse than advanced composition.
  CHECK(optimal_composition_delta(0.1, 1e-6, 10, 1.0) == doctest::Approx(1 - std::pow(1 - 1e-6, 10)));
  {
    const double eps = 0.3;
    const int k = 5, l = 1;  // ε_g = 3ε: δ_l = Σ_{i<l} C(k,i)(e^{(k−i)ε} − e^{(k−2l+i)ε})/(1+e^ε)^k
    const double expected = (std::exp(5 * eps) - std::exp(3 * eps)) / std::pow(1 + std::exp(eps), 5);
    CHECK(optimal_composition_delta(eps, 0, k, (k - 2 * l) * eps) == doctest::Approx(expected).epsilon(1e-12));
  }
  const double opt = optimal_composition_epsilon(0.1, 0, 100, 1e-5);
  CHECK(opt <= adv.epsilon);
  CHECK(opt <= 100 * 0.1);
  CHECK(optimal_composition_delta(0.1, 0, 100, opt) <= 1e-5);
  CHECK(optimal_composition_delta(0.1, 0, 100, opt * (1 - 1e-6)) > 1e-5);
  CHECK_THROWS_AS(advanced_composition(0.1, 0, 0, 1e-5), dpareto::InputError);
  CHECK_THROWS_AS(optimal_composition_epsilon(0.1, 1e-3, 100, 1e-5), dpareto::InputError);  // below 1−(1−δ)^k
}

TEST_CASE("pure DP, zCDP and RDP") {
  CHECK(pure_dp_rdp(0.1, 4) == doctest::Approx(4 * 0.01 / 2));
  CHECK(pure_dp_rdp(2, 4) == 2);  // never above ε itself
  CHECK(zcdp_to_epsilon(0.5, 1e-5) == doctest::Approx(0.5 + 2 * std::sqrt(0.5 * std::log(1e5))));
  CHECK_THROWS_AS(zcdp_to_epsilon(0.5, 0), dpareto::InputError);
}
