#include <doctest/doctest.h>

#include <cmath>

#include "dpareto/core/error.hpp"
#include "dpareto/gp/matern52.hpp"

using dpareto::gp::Matern52;

TEST_CASE("Matern52 matches the closed form with ARD") {
  Matern52 k{Eigen::Vector2d(0.5, 2.0), 1.7};
  const Eigen::Vector2d a(0.1, 0.2), b(0.4, -0.6);
  const double r = std::sqrt(std::pow(0.3 / 0.5, 2) + std::pow(0.8 / 2.0, 2));
  const double expected = 1.7 * (1 + std::sqrt(5.0) * r + 5 * r * r / 3) * std::exp(-std::sqrt(5.0) * r);
  CHECK(k(a, b) == doctest::Approx(expected).epsilon(1e-14));
  CHECK(k(a, a) == doctest::Approx(1.7));
  Eigen::MatrixXd A(2, 2), B(3, 2);
  A << 0.1, 0.2, 0.4, -0.6;
  B << 0.1, 0.2, 0.0, 0.0, 0.4, -0.6;
  const Eigen::MatrixXd K = k.matrix(A, B);
  REQUIRE(K.rows() == 2);
  REQUIRE(K.cols() == 3);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      CHECK(K(i, j) == doctest::Approx(k(Eigen::VectorXd(A.row(i)), Eigen::VectorXd(B.row(j)))).epsilon(1e-14));
  CHECK_THROWS_AS(k.matrix(A, Eigen::MatrixXd(3, 3)), dpareto::InputError);
}
