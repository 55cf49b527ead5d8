#pragma once
// GP regression with a Matérn 5/2 ARD kernel (DESIGN.md §3.1). Targets are standardized internally
// (predictions are returned in the caller's units). Hyperparameters θ = (log ℓ_1..d, log s²,
// log σ_n²), followed with input warping by (log a_1..d, log b_1..d), maximize the log marginal
// likelihood by NLopt L-BFGS with its analytic gradient, from one warm start (the previous fit)
// plus `random_restarts` random starts, inside box bounds.
// The noise is fixed at `nugget` for noiseless oracles (learn_noise = false) or learned.
#include <Eigen/Dense>
#include <cmath>
#include <functional>
#include <string>

#include "dpareto/core/random.hpp"
#include "dpareto/gp/matern52.hpp"

namespace dpareto::gp {

struct GpOptions {
  bool learn_noise = true;
  double nugget = 1e-6;     // noise variance floor (standardized units) and the fixed value when not learned
  int random_restarts = 4;  // besides the warm start
  double log_lengthscale_low = -4.6, log_lengthscale_high = 2.3;  // ℓ ∈ [0.01, 10] (unit-cube inputs)
  double log_signal_low = -4.6, log_signal_high = 4.6;            // s² ∈ [0.01, 100]
  double log_noise_low = -13.8, log_noise_high = 0.0;             // σ_n² ∈ [1e-6, 1]
  // Learn a Kumaraswamy warp of each input (gp/input_warping.hpp): θ gains log a_1..d, log b_1..d.
  bool input_warping = false;
  // a, b ∈ [e^−0.5, e^0.5] ≈ [0.61, 1.65]: mild warps. Wider boxes (±0.7, ±1, ±1.6) fitted
  // degenerate warps on SVT (a steep one squeezing half an input into a sliver) and lost hypervolume.
  double log_warp_low = -0.5, log_warp_high = 0.5;
  int max_jitter_retries = 6;  // Cholesky: jitter 1e-8·mean(diag) × 10^k, k = 0..retries−1
  // Receives one line per Cholesky retry (default: std::cerr).
  std::function<void(const std::string&)> log;
};

struct Prediction {
  double mean;
  double variance;  // of the latent function (noise excluded)
};

class GaussianProcess {
 public:
  explicit GaussianProcess(GpOptions options = {});

  // X: n × d inputs (unit cube), y: n targets (already transformed). Fits the hyperparameters
  // (warm-started from the previous fit when the dimension matches) and factorizes.
  void fit(const Eigen::MatrixXd& X, const Eigen::VectorXd& y, Rng& rng);
  // Refactorizes with new data but the current hyperparameters (no optimization). Used for
  // fantasized pending points (Kriging believer) and cheap updates.
  void condition(const Eigen::MatrixXd& X, const Eigen::VectorXd& y);

  bool fitted() const;
  Prediction predict(const Eigen::VectorXd& x) const;
  void predict_batch(const Eigen::MatrixXd& X, Eigen::VectorXd& mean, Eigen::VectorXd& variance) const;
  // Means only: O(n) per point after the cross-covariances, no triangular solve.
  Eigen::VectorXd predict_mean_batch(const Eigen::MatrixXd& X) const;
  // A batch in steps that share its cross-covariances V = k(X_train, X) (n × m): the means from
  // V, the variances from V or from some of its columns (the points' own).
  Eigen::MatrixXd cross_covariance(const Eigen::MatrixXd& X) const;
  Eigen::VectorXd mean_from_cross(const Eigen::MatrixXd& V) const;
  Eigen::VectorXd variance_from_cross(Eigen::MatrixXd V) const;

  // Log marginal likelihood (standardized targets) at θ, and its gradient when `gradient` is
  // non-null; for the current data. Exposed for tests (finite differences) and diagnostics.
  double log_marginal_likelihood(const Eigen::VectorXd& theta, Eigen::VectorXd* gradient) const;

  // θ's length for d-dimensional inputs: d + 2, or 3d + 2 with input warping.
  Eigen::Index theta_size(Eigen::Index d) const { return options_.input_warping ? 3 * d + 2 : d + 2; }
  // Current θ = (log ℓ_1..d, log s², log σ_n²[, log a_1..d, log b_1..d]) in standardized units. With learn_noise =
  // false the entry log σ_n² always reads log(nugget) (set_theta overwrites it). set_theta refactorizes when the GP
  // holds data.
  const Eigen::VectorXd& theta() const { return theta_; }
  void set_theta(const Eigen::VectorXd& theta);
  const GpOptions& options() const { return options_; }
  // The noise variance σ_n² (learned, or the nugget) in the caller's units: what a new measurement
  // adds to predict()'s latent variance (0 before the first fit).
  double noise_variance() const { return theta_.size() ? std::exp(theta_(noise_index())) * y_scale_ * y_scale_ : 0.0; }
  // Random restarts of the next fit() (the explorer does full refits only every few asks).
  void set_random_restarts(int restarts) { options_.random_restarts = restarts; }
  const Eigen::MatrixXd& inputs() const { return X_; }
  const Eigen::VectorXd& targets() const { return y_; }

 private:
  void factorize();
  // θ's entry log σ_n² (d + 1, whichever length θ has).
  Eigen::Index noise_index() const {
    return (options_.input_warping ? (theta_.size() - 2) / 3 : theta_.size() - 2) + 1;
  }

  GpOptions options_;
  Eigen::MatrixXd X_;
  Eigen::MatrixXd kernel_X_;  // X_ as the kernel sees it (warped with input warping)
  Eigen::VectorXd y_;         // caller units
  double y_mean_ = 0, y_scale_ = 1;
  Eigen::VectorXd theta_;
  // Factorized once at construction (of nothing) so that its status is defined: Eigen leaves it
  // uninitialized, and copying or moving a GP before its first fit would read it (UBSan).
  Eigen::LLT<Eigen::MatrixXd> chol_{Eigen::MatrixXd(0, 0)};
  Eigen::VectorXd alpha_;  // K⁻¹ (y − mean)/scale
  bool factorized_ = false;
};

}  // namespace dpareto::gp
