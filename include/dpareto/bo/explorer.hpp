#pragma once
// The DPareto loop (DPareto Alg. 2) behind an ask/tell API, and the random and grid baselines
// behind the same interface. Optuna-style seam: the explorer proposes, whoever evaluates tells.
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "dpareto/bo/acquisition.hpp"
#include "dpareto/core/random.hpp"
#include "dpareto/gp/gaussian_process.hpp"
#include "dpareto/pareto/objective_axis.hpp"
#include "dpareto/space/space.hpp"

namespace dpareto::bo {

enum class Method { dpareto, random, grid };
enum class ReferenceMode { fixed, estimated };

struct ExplorerOptions {
  Method method = Method::dpareto;
  AcquisitionKind acquisition = AcquisitionKind::hvpoi;
  ReferenceMode reference_mode = ReferenceMode::fixed;
  int initial_points = 16;                 // k0 random points before BO
  bool initial_from_prior = false;         // draw initial/random points from Appx. C priors
  pareto::Point2 reference{10, 1};         // (epsilon, error)
  pareto::EpsilonAxis axis{};
  int grid_points = 3;                     // grid baseline: points per dimension
  int dense_candidates = 1000;             // acquisition maximization: random/Sobol stage size
  int local_starts = 5;                    // NLopt local refinements from the best candidates
  int local_evaluations = 60;              // acquisition evaluations per local refinement
  int gp_restarts = 4;                     // random restarts besides the warm start, at full refits
  int full_refit_every = 8;                // BO asks between full refits; others warm-start only
  bool utility_noisy = true;               // learn the utility GP's noise (privacy GP: nugget)
};

// One proposal.
struct Suggestion {
  space::Params params;
  std::string phase;  // init | bo | random | grid
};

// What a told observation was.
struct Observation {
  space::Params params;
  bool ok = false;
  double epsilon = 0, utility = 0;
};

// Timing breakdown of ask() (seconds, cumulative).
struct AskTimings {
  double gp_fit = 0, acquisition = 0;
  int asks = 0;
};

class Explorer {
 public:
  Explorer(space::Space space, ExplorerOptions options, std::uint64_t seed);

  // Next setting to evaluate, given everything told so far and the `pending` settings being
  // evaluated now (their outcome is fantasized at the GP mean: Kriging believer). Returns
  // std::nullopt when a grid is exhausted. Never returns an already-evaluated or pending setting
  // (it falls back to a random unseen one if the acquisition has no better idea).
  std::optional<Suggestion> ask(const std::vector<space::Params>& pending = {});
  // Records an outcome. Failed evaluations are kept (never proposed again) but excluded from
  // the surrogates.
  void tell(const Observation& observation);

  const std::vector<Observation>& observations() const { return observations_; }
  const AskTimings& timings() const { return timings_; }
  int asks() const { return asks_; }

  // Everything a resumed explorer needs beyond the told observations: the ask counter (each ask
  // draws from a generator derived from (seed, ask index)) and both GPs' hyperparameters (the
  // warm start of the next fit). A seeded explorer told the same observations and restored to
  // the same state proposes exactly what the uninterrupted one would have.
  nlohmann::json state() const;
  void restore_state(const nlohmann::json& state);
  const space::Space& space() const { return space_; }
  const ExplorerOptions& options() const { return options_; }

  // The fitted surrogates (after the last BO ask), for figures and `pick --from model`.
  const gp::GaussianProcess& epsilon_gp() const { return epsilon_gp_; }
  const gp::GaussianProcess& utility_gp() const { return utility_gp_; }
  // Fits both GPs on the ok observations (used by ask(), and by tools that need surrogates).
  void fit_surrogates();
  // Prediction at unit-cube x from the fitted surrogates.
  GpPrediction predict(const std::vector<double>& unit_x) const;
  // Acquisition value at unit-cube x for the current data (after fit_surrogates()).
  double acquisition_at(const std::vector<double>& unit_x) const;

 private:
  std::optional<Suggestion> ask_bo(const std::vector<space::Params>& pending, Rng& rng);
  bool seen(const space::Params& p, const std::vector<space::Params>& pending) const;
  space::Params random_unseen(const std::vector<space::Params>& pending, Rng& rng, bool from_prior);
  void fit_surrogates(Rng& rng, int random_restarts, const std::vector<space::Params>& pending);
  void build_cells(const std::vector<space::Params>& pending);
  int ok_count() const;
  // HVI of a predictive mean in the acquisition's geometry (0: HVPoI is 0 there).
  double mean_hvi(double mean_log_epsilon, double mean_logit_utility) const;

  space::Space space_;
  ExplorerOptions options_;
  std::uint64_t seed_;
  std::vector<Observation> observations_;
  std::vector<space::Params> grid_;
  int asks_ = 0;
  int bo_asks_ = 0;
  gp::GaussianProcess epsilon_gp_;
  gp::GaussianProcess utility_gp_;
  std::vector<pareto::Cell> geometry_cells_, gp_cells_;
  bool gp_space_geometry_ = false;  // estimated reference: cells and HVI in GP space (GPflowOpt)
  AskTimings timings_;
};

}  // namespace dpareto::bo
