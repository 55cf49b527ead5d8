#include "dpareto/gp/input_warping.hpp"

#include <algorithm>
#include <cmath>

namespace dpareto::gp {

namespace {

double clamped(double x) {
  return std::clamp(x, kWarpMargin, 1 - kWarpMargin);
}

}  // namespace

Eigen::MatrixXd KumaraswamyWarp::apply(const Eigen::MatrixXd& X) const {
  Eigen::MatrixXd warped(X.rows(), X.cols());
  for (Eigen::Index j = 0; j < X.cols(); ++j)
    for (Eigen::Index i = 0; i < X.rows(); ++i) {
      const double xa = std::pow(clamped(X(i, j)), a(j));
      warped(i, j) = -std::expm1(b(j) * std::log1p(-xa));  // 1 − (1 − x^a)^b
    }
  return warped;
}

void KumaraswamyWarp::apply_with_derivatives(const Eigen::MatrixXd& X, Eigen::MatrixXd& warped,
                                             Eigen::MatrixXd& d_log_a, Eigen::MatrixXd& d_log_b) const {
  warped.resize(X.rows(), X.cols());
  d_log_a.resize(X.rows(), X.cols());
  d_log_b.resize(X.rows(), X.cols());
  for (Eigen::Index j = 0; j < X.cols(); ++j)
    for (Eigen::Index i = 0; i < X.rows(); ++i) {
      const double x = clamped(X(i, j)), log_x = std::log(x);
      const double xa = std::exp(a(j) * log_x);
      const double log_rest = std::log1p(-xa);          // log(1 − x^a)
      const double rest_b = std::exp(b(j) * log_rest);  // (1 − x^a)^b
      warped(i, j) = -std::expm1(b(j) * log_rest);
      // ∂w/∂a = b (1 − x^a)^(b−1) x^a log x; ∂w/∂b = −(1 − x^a)^b log(1 − x^a); times a or b for the logs.
      d_log_a(i, j) = a(j) * b(j) * rest_b / (1 - xa) * xa * log_x;
      d_log_b(i, j) = -b(j) * rest_b * log_rest;
    }
}

}  // namespace dpareto::gp
