#pragma once
// The DPareto loop (DPareto Alg. 2) behind the ask/tell seam, in parts (limbo's shape): k0 random
// settings, then each ask fits the surrogates (surrogates.hpp), builds the improvement region
// (improvement_region.hpp) and maximizes the acquisition (acquisition_registry.hpp) on them
// (maximize.hpp). The random and grid baselines are proposers of their own (make_proposer.hpp).
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "dpareto/bo/acquisition.hpp"
#include "dpareto/bo/explorer_options.hpp"
#include "dpareto/bo/improvement_region.hpp"
#include "dpareto/bo/proposer.hpp"
#include "dpareto/bo/surrogate_acquisition.hpp"
#include "dpareto/bo/surrogates.hpp"

namespace dpareto::bo {

// A setting's ε, computed without training (a problem's privacy oracle).
using EpsilonOracle = std::function<double(const space::Params&)>;

class Explorer : public Proposer {
 public:
  // The DPareto loop whatever options.method says (make_proposer chooses by method). InputError for
  // options check_options refuses, an unknown acquisition, or options.known_epsilon without an
  // `epsilon` oracle. With options.known_epsilon, ε is `epsilon` at every setting the acquisition
  // weighs (a point mass: no ε GP), and no setting whose ε exceeds the ε reference is proposed
  // while any of kReferenceDraws random draws lies within it: it cannot improve the hypervolume.
  // With options.cost_aware, every acquisition value is divided by the setting's training seconds
  // as a GP on the log seconds of the evaluations so far (not their intermediate results, which
  // cost nothing of their own) predicts them (surrogate_acquisition.hpp).
  Explorer(space::Space space, ExplorerOptions options, std::uint64_t seed, EpsilonOracle epsilon = {});
  static constexpr int kReferenceDraws = 1000;
  // The GPs see every evaluation but at most this many observations in all: intermediate results
  // (every epoch of every training, issue 18 item 2) are thinned evenly to fit. The front and the
  // improvement region use every observation.
  static constexpr int kMaxGpObservations = 512;
  // And at most this many results of one training, evenly spread over its epochs: a training's
  // epochs share its draws (initialization, lots, noise), so their errors are correlated, which a
  // GP fitted on all of them would take for independent measurements and grow overconfident.
  static constexpr int kMaxGpResultsPerTraining = 4;

  // Besides the ask counter: the BO ask counter and every GP's hyperparameters (the warm start of
  // the next fit), as "<column>_theta": epsilon_theta, utility_theta, ..., and "seconds_theta" for
  // the cost GP of a cost-aware explorer.
  nlohmann::json state() const override;
  void restore_state(const nlohmann::json& state) override;
  // With options.early_stop and objectives (ε, error), once the initial settings are told: a
  // TrainingStopRule of the observations so far, except for every kAuditEvery-th BO proposal, which
  // trains to its end. A stopped training is an observation of the epochs it reached: the GPs never
  // learn what its whole length would have reached there, and the loop came back to the same
  // high-learning-rate, many-epoch corner again and again, each time stopped (adult-logreg-sgd).
  GoOn go_on() const override;
  static constexpr int kAuditEvery = 4;
  const ExplorerOptions& options() const { return options_; }
  const Acquisition& acquisition() const { return *acquisition_; }

  // The fitted surrogates (after the last BO ask), for figures and `pick --from model`.
  const Surrogates& surrogates() const { return surrogates_; }
  // Fits every GP on the ok observations (used by ask(), and by tools that need surrogates), and
  // the cost GP where cost-aware.
  void fit_surrogates();
  // The cost GP (log seconds of the ok evaluations; unfitted unless cost-aware, after a fit).
  const gp::GaussianProcess& cost_gp() const { return cost_gp_; }
  // Prediction at unit-cube x from the fitted surrogates.
  GpPrediction predict(const std::vector<double>& unit_x) const { return surrogates_.predict(unit_x); }
  // Acquisition value at unit-cube x for the current data (after fit_surrogates()), as ask() scores
  // it: at the setting x rounds to where ε is known.
  double acquisition_at(const std::vector<double>& unit_x) const;
  // The acquisition ask() maximizes, as a function of unit-cube points (after fit_surrogates()).
  SurrogateAcquisition acquisition_function() const;

 protected:
  // Initial points first (k0 started, and at least 2 ok), then Bayesian optimization.
  std::optional<Suggestion> propose(const std::vector<space::Params>& pending, Rng& rng) override;

 private:
  std::optional<Suggestion> ask_bo(const std::vector<space::Params>& pending, Rng& rng);
  void build_region(const std::vector<space::Params>& pending);
  // The distance a proposal keeps from evaluated and pending settings (ExplorerOptions::min_spacing,
  // shrunk past spacing_shrinks_after of them).
  double min_spacing(std::size_t pending) const;
  // The observations the GPs are fitted on (kMaxGpObservations).
  std::vector<Observation> gp_observations() const;
  std::vector<ExactObjective> exact_objectives() const;
  // Cost-aware: fits cost_gp_ on the log seconds of the ok evaluations, once there are 2 of them.
  void fit_cost(Rng& rng, int random_restarts);
  // Known ε: the setting's ε is within the ε reference (always true without known ε).
  bool within_reference(const space::Params& params) const;
  // A random unseen setting, within the ε reference where ε is known (the least-ε of
  // kReferenceDraws draws when none is).
  space::Params random_candidate(const std::vector<space::Params>& pending, Rng& rng, bool from_prior) const;

  ExplorerOptions options_;
  EpsilonOracle epsilon_;  // empty unless options_.known_epsilon
  int bo_asks_ = 0;
  Surrogates surrogates_;
  ImprovementRegion region_;
  gp::GaussianProcess cost_gp_;
  std::unique_ptr<Acquisition> acquisition_;
  std::unique_ptr<Acquisition> fallback_;  // ranks where the acquisition is zero everywhere (EHVI)
};

}  // namespace dpareto::bo
