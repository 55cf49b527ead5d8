#pragma once
// The explorer's surrogates (DESIGN.md §3.1, §3.7): one independent GP per objective over the unit
// cube, each on its objective's transform of the recorded value (log ε, logit utility, ...), fitted
// on the ok observations, with pending settings fantasized at their predicted means (Kriging
// believer). Predictions are in GP space, oriented so that smaller is better
// (pareto::Objective::to_gp). An objective computed exactly without training (issue 18 item 1: ε
// from the accountant) has no GP: its predictions are its exact value with sd 0, a point mass that
// the acquisitions take exactly.
#include <Eigen/Dense>
#include <functional>
#include <vector>

#include "dpareto/bo/acquisition.hpp"
#include "dpareto/bo/proposer.hpp"
#include "dpareto/gp/gaussian_process.hpp"
#include "dpareto/pareto/objectives.hpp"

namespace dpareto::bo {

// An objective's record-column value (ε, ...) computed at a unit-cube point without training.
using ExactObjective = std::function<double(const std::vector<double>& unit_x)>;

class Surrogates {
 public:
  // `restarts`: random restarts of a full fit; `noisy`: learn the noise of the objectives not known
  // exactly (an exact oracle, like the privacy one, gets the nugget only). `exact[d]`, where given
  // and not empty, computes objective d: no GP is fitted for it. `warp_noisy`: the GPs that learn
  // their noise also learn an input warping (gp/input_warping.hpp).
  Surrogates(pareto::Objectives objectives, int restarts, bool noisy, std::vector<ExactObjective> exact = {},
             bool warp_noisy = false);

  // Fits every GP on the ok observations (at least 2, else InputError) with `random_restarts`
  // besides the warm start; then `pending` settings join the data at their predicted means,
  // hyperparameters unchanged, so that proposals spread out.
  void fit(const std::vector<Observation>& observations, const space::Space& space, Rng& rng, int random_restarts,
           const std::vector<space::Params>& pending);

  GpPrediction predict(const std::vector<double>& unit_x) const;
  // At the rows of X: the means only (cheap), or means and sds.
  std::vector<pareto::Point> predict_means(const Eigen::MatrixXd& X) const;
  std::vector<GpPrediction> predict_batch(const Eigen::MatrixXd& X) const;
  // The same in two steps that share each GP's cross-covariances: every row's means, then the
  // predictions (means and sds, a triangular solve each) at some rows only.
  struct Batch {
    std::vector<pareto::Point> means;    // per row of X
    std::vector<Eigen::MatrixXd> cross;  // per objective: its GP's k(inputs, X) (empty where exact)
  };
  Batch batch_means(const Eigen::MatrixXd& X) const;
  std::vector<GpPrediction> batch_predictions(const Batch& batch, const std::vector<Eigen::Index>& rows) const;

  const pareto::Objectives& objectives() const { return objectives_; }
  bool is_exact(std::size_t d) const { return d < exact_.size() && exact_[d]; }
  // The unit-cube settings the GPs were fitted on (pending ones included).
  const Eigen::MatrixXd& inputs() const;
  // Objective d's GP (unfitted where is_exact(d)), on its transform of the recorded value (not oriented: logit u, not
  // −logit u); its hyperparameters are the warm start of the next fit, as a resumed explorer restores them.
  const gp::GaussianProcess& gp(std::size_t d) const { return gps_.at(d); }
  gp::GaussianProcess& gp(std::size_t d) { return gps_.at(d); }

 private:
  pareto::Objectives objectives_;
  std::vector<gp::GaussianProcess> gps_;
  std::vector<ExactObjective> exact_;
  // Objective d's value in GP space at unit-cube x (a point mass), and at every row of X (in parallel).
  double exact_gp_value(std::size_t d, const std::vector<double>& unit_x) const;
  std::vector<double> exact_gp_values(std::size_t d, const Eigen::MatrixXd& X) const;
};

}  // namespace dpareto::bo
