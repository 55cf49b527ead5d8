#pragma once
// Output-perturbation logistic regression (DPareto Sec. 2.2; Wu et al. 2017 "Bolt-on Differential
// Privacy for Scalable Stochastic Gradient Descent-based Analytics", Alg. 2, strongly convex case).
// Loss: (1/n) Σ log(1 + e^{-y wᵀx}) + (γ/2)‖w‖² on rows with ‖x‖ <= 1. Projected SGD with lot
// size 1 over `passes` random permutations (DPareto footnote 6: m = 1, 10 epochs), step
// η_t = min(1/β, 1/(γt)) with β = 1/4 + γ, projection onto the ball of radius R = 1/γ, where the
// loss is L = 1 + γR = 2 Lipschitz. The last iterate has L2 sensitivity Δ₂ = 2L/(γn) = 4/(γn)
// (Wu et al. Thm 6); the released model is w + N(0, σ²I), σ the absolute noise std.
#include <Eigen/Core>
#include <cstdint>

#include "dpareto/learn/dataset.hpp"

namespace dpareto::learn {

struct OutputPerturbationConfig {
  double regularization = 1e-2;  // γ
  double noise = 1.0;            // σ, std of the output noise
  int passes = 10;
};

// Δ₂ = 4/(γn).
double output_perturbation_sensitivity(double regularization, int n);
// ε of the released model at δ by the analytic Gaussian (Balle & Wang 2018).
double output_perturbation_epsilon(const OutputPerturbationConfig& config, int n, double delta);

// Trains and perturbs; `data` must be binary with rows of norm <= 1 (else InputError). The
// returned weights classify by the sign of wᵀx.
Eigen::VectorXf train_output_perturbation(const Dataset& data, const OutputPerturbationConfig& config,
                                          std::uint64_t seed);

// Accuracy of sign(wᵀx) against binary labels.
double linear_accuracy(const Eigen::VectorXf& w, const Dataset& data);

}  // namespace dpareto::learn
