#include "dpareto/gp/matern52.hpp"

#include <cmath>
#include <string>

#include "dpareto/core/error.hpp"

namespace dpareto::gp {

namespace {

// s² (1 + √5 r + 5r²/3) exp(−√5 r) from r².
double matern(double r2, double s2) {
  const double r = std::sqrt(r2);
  return s2 * (1 + kSqrt5 * r + 5.0 / 3.0 * r2) * std::exp(-kSqrt5 * r);
}

void check_dimension(Eigen::Index got, Eigen::Index expected, const char* what) {
  if (got != expected)
    throw InputError(std::string("Matern52: ") + what + " has " + std::to_string(got) + " dimensions, the kernel has " +
                     std::to_string(expected) + " lengthscales");
}

}  // namespace

double Matern52::operator()(const Eigen::VectorXd& a, const Eigen::VectorXd& b) const {
  check_dimension(a.size(), lengthscales.size(), "first input");
  check_dimension(b.size(), lengthscales.size(), "second input");
  return matern(((a - b).array() / lengthscales.array()).square().sum(), signal_variance);
}

Eigen::MatrixXd Matern52::matrix(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B) const {
  check_dimension(A.cols(), lengthscales.size(), "A");
  check_dimension(B.cols(), lengthscales.size(), "B");
  // Squared scaled distances accumulated one dimension at a time (exact differences, contiguous
  // columns), then the kernel as one vectorized array expression.
  Eigen::ArrayXXd r2 = Eigen::ArrayXXd::Zero(A.rows(), B.rows());
  for (Eigen::Index k = 0; k < A.cols(); ++k) {
    const Eigen::ArrayXd a = A.col(k).array() / lengthscales(k);
    for (Eigen::Index j = 0; j < B.rows(); ++j) r2.col(j) += (a - B(j, k) / lengthscales(k)).square();
  }
  const Eigen::ArrayXXd r = r2.sqrt();
  return (signal_variance * (1 + kSqrt5 * r + 5.0 / 3.0 * r2) * (-kSqrt5 * r).exp()).matrix();
}

}  // namespace dpareto::gp
