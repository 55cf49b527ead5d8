#pragma once
// The explorer's surrogates (DESIGN.md §3.1, §3.7): one independent GP per objective over the unit
// cube, each on its objective's transform of the recorded value (log ε, logit utility, ...), fitted
// on the ok observations, with pending settings fantasized at their predicted means (Kriging
// believer). Predictions are in GP space, oriented so that smaller is better
// (pareto::Objective::to_gp).
#include <Eigen/Dense>
#include <vector>

#include "dpareto/bo/acquisition.hpp"
#include "dpareto/bo/proposer.hpp"
#include "dpareto/gp/gaussian_process.hpp"
#include "dpareto/pareto/objectives.hpp"

namespace dpareto::bo {

class Surrogates {
 public:
  // `restarts`: random restarts of a full fit; `noisy`: learn the noise of the objectives not known
  // exactly (an exact oracle, like the privacy one, gets the nugget only).
  Surrogates(pareto::Objectives objectives, int restarts, bool noisy);

  // Fits every GP on the ok observations (at least 2, else InputError) with `random_restarts`
  // besides the warm start; then `pending` settings join the data at their predicted means,
  // hyperparameters unchanged, so that proposals spread out.
  void fit(const std::vector<Observation>& observations, const space::Space& space, Rng& rng, int random_restarts,
           const std::vector<space::Params>& pending);

  GpPrediction predict(const std::vector<double>& unit_x) const;
  // At the rows of X: the means only (cheap), or means and sds.
  std::vector<pareto::Point> predict_means(const Eigen::MatrixXd& X) const;
  std::vector<GpPrediction> predict_batch(const Eigen::MatrixXd& X) const;

  const pareto::Objectives& objectives() const { return objectives_; }
  // Objective d's GP, on its transform of the recorded value (not oriented: logit u, not −logit u);
  // its hyperparameters are the warm start of the next fit, as a resumed explorer restores them.
  const gp::GaussianProcess& gp(std::size_t d) const { return gps_.at(d); }
  gp::GaussianProcess& gp(std::size_t d) { return gps_.at(d); }

 private:
  pareto::Objectives objectives_;
  std::vector<gp::GaussianProcess> gps_;
};

}  // namespace dpareto::bo
