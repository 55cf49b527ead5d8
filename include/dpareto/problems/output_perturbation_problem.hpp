#pragma once
// Output-perturbation logistic regression on Adult (DPareto Sec. 2.2, Fig. 1; learn/
// output_perturbation). Parameters: regularization γ ∈ [1e-4, 1] and noise σ ∈ [0.1, 10], both on a
// log scale. Privacy: analytic Gaussian ε at δ = 1e-6 for sensitivity 4/(γn). Utility: mean test
// accuracy over R repeats (DPareto averages 50 runs; default here 10, option `repeats`).
// Rows get a constant bias feature and are L2-normalized (the analysis needs ‖x‖ <= 1).
// Options: train_subset, repeats, data_dir, threads.
#include "dpareto/learn/loaders.hpp"
#include "dpareto/problems/problem.hpp"
#include "dpareto/problems/registry.hpp"

namespace dpareto::problems {

class OutputPerturbationProblem : public Problem {
 public:
  explicit OutputPerturbationProblem(const ProblemOptions& options);

  std::string name() const override { return "adult-logreg-outpert"; }
  const space::Space& space() const override { return space_; }
  double delta() const override { return 1e-6; }
  double privacy(const space::Params& params) const override;
  std::string known_privacy_obstacle() const override { return ""; }  // a closed form
  UtilityResult utility(const space::Params& params, std::uint64_t seed) const override;
  std::optional<double> baseline_utility() const override;  // majority class of train, on test
  std::string utility_name() const override { return "test accuracy"; }
  std::map<std::string, std::string> settings() const override { return settings_; }

 private:
  learn::Split data_;
  space::Space space_;
  int repeats_ = 10;
  int threads_ = 1;
  std::map<std::string, std::string> settings_;
};

}  // namespace dpareto::problems
