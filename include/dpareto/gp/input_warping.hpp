#pragma once
// Input warping (Snoek, Swersky, Zemel & Adams 2014, "Input warping for Bayesian optimization of
// non-stationary functions"): each unit-cube input x_j passes through the Kumaraswamy CDF
// w(x) = 1 − (1 − x^a)^b with its own a_j, b_j > 0 before the stationary kernel sees it, so that one
// lengthscale can be short where the function is steep and long where it is flat. a = b = 1 is
// the identity. Inputs are clamped to [kWarpMargin, 1 − kWarpMargin], where w and its derivatives
// are finite for every a, b.
#include <Eigen/Dense>

namespace dpareto::gp {

inline constexpr double kWarpMargin = 1e-6;

struct KumaraswamyWarp {
  Eigen::ArrayXd a, b;  // one per input dimension

  // X (n × d, unit cube) warped column by column.
  Eigen::MatrixXd apply(const Eigen::MatrixXd& X) const;
  // The same, with ∂w/∂log a_j and ∂w/∂log b_j at every entry.
  void apply_with_derivatives(const Eigen::MatrixXd& X, Eigen::MatrixXd& warped, Eigen::MatrixXd& d_log_a,
                              Eigen::MatrixXd& d_log_b) const;
};

}  // namespace dpareto::gp
