#pragma once
// Matérn 5/2 kernel with ARD (DESIGN.md §3.1):
// k(x, x') = s² (1 + √5 r + 5r²/3) exp(−√5 r),  r² = Σ_i (x_i − x'_i)² / ℓ_i².
#include <Eigen/Dense>

namespace dpareto::gp {

inline constexpr double kSqrt5 = 2.2360679774997896964;  // the √5 of k above

struct Matern52 {
  Eigen::VectorXd lengthscales;  // ℓ, one per input dimension
  double signal_variance = 1.0;  // s²

  double operator()(const Eigen::VectorXd& a, const Eigen::VectorXd& b) const;
  // K(A, B): rows of A and B are inputs.
  Eigen::MatrixXd matrix(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B) const;
};

}  // namespace dpareto::gp
