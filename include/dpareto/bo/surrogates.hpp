#pragma once
// The explorer's surrogates (DESIGN.md §3.1): independent GPs of log ε and logit utility over the
// unit cube, fitted on the ok observations, with pending settings fantasized at their predicted
// means (Kriging believer).
#include <Eigen/Dense>
#include <vector>

#include "dpareto/bo/acquisition.hpp"
#include "dpareto/bo/proposer.hpp"
#include "dpareto/gp/gaussian_process.hpp"

namespace dpareto::bo {

class Surrogates {
 public:
  // `restarts`: random restarts of a full fit; `utility_noisy`: learn the utility GP's noise (the
  // privacy oracle is exact: nugget only).
  Surrogates(int restarts, bool utility_noisy);

  // Fits both GPs on the ok observations (at least 2, else InputError) with `random_restarts`
  // besides the warm start; then `pending` settings join the data at their predicted means,
  // hyperparameters unchanged, so that proposals spread out.
  void fit(const std::vector<Observation>& observations, const space::Space& space, Rng& rng, int random_restarts,
           const std::vector<space::Params>& pending);

  GpPrediction predict(const std::vector<double>& unit_x) const;
  const gp::GaussianProcess& epsilon() const { return epsilon_; }
  const gp::GaussianProcess& utility() const { return utility_; }
  // Hyperparameters (the warm start of the next fit), as a resumed explorer restores them.
  gp::GaussianProcess& epsilon() { return epsilon_; }
  gp::GaussianProcess& utility() { return utility_; }

 private:
  gp::GaussianProcess epsilon_;
  gp::GaussianProcess utility_;
};

}  // namespace dpareto::bo
