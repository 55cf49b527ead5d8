#pragma once
// Choosing an operating point on a learned privacy–utility trade-off (`dpareto pick`):
//   observed — the best front point meeting a privacy or utility target;
//   model    — hyperparameters never evaluated that best meet the target, found on the fitted
//              surrogates (the open problem named in DPareto Sec. 5). A built-in problem's privacy
//              oracle is exact and cheap, so it is the constraint itself; an external oracle's ε
//              is known only where it ran, so its surrogate's 95% upper predictive bound stands in.
//              The utility GP's mean is optimized (NLopt, penalized, several starts).
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "dpareto/explore/run_model.hpp"
#include "dpareto/study/run_record.hpp"

namespace dpareto::explore {

// An upper limit on a further objective (`pick --max NAME=V`, issue 13 item 2): its record column.
struct Limit {
  std::string column;
  double max = 0;
};

// The target: ε ≤ value (max_epsilon) or utility ≥ value (min_utility), and every limit.
struct Target {
  enum class Kind { max_epsilon, min_utility } kind = Kind::max_epsilon;
  double value = 1;
  std::vector<Limit> limits = {};
  // `further`: the point's further objective values by column (a limit on one it lacks is not met).
  bool met_by(double epsilon, double utility, const std::map<std::string, double>& further = {}) const;
  bool within_limits(const std::map<std::string, double>& further) const;  // every limit, not the ε/utility part
  std::string describe() const;  // "epsilon <= 1" / "utility >= 0.9" [", train_seconds <= 60"]
};

struct OperatingPoint {
  std::vector<std::string> names;  // parameter names, in the order of `params`
  space::Params params;
  double epsilon = 0;  // exact, or for an external oracle's model pick the ε surrogate's 95% upper bound
  double epsilon_median = std::numeric_limits<double>::quiet_NaN();  // that pick only: the predicted median
  double utility =
      0;  // observed: measured mean; model: predicted (median of the GP: the sigmoid of its logit mean, ...)
  double utility_std = std::numeric_limits<double>::quiet_NaN();  // model only: predictive sd in utility units
  // model only: the 95% predictive interval of a measured utility (latent and noise variance)
  double utility_low = std::numeric_limits<double>::quiet_NaN();
  double utility_high = std::numeric_limits<double>::quiet_NaN();
  double robust_utility = std::numeric_limits<double>::quiet_NaN();  // pick_robust: the robust utility
  double utility_min = std::numeric_limits<double>::quiet_NaN();     // observed only: worst repeat
  double utility_max = std::numeric_limits<double>::quiet_NaN();     // observed only: best repeat
  std::map<std::string, double>
      further;         // further objectives: measured, or a model pick's limited ones' 95% upper bounds
  std::string source;  // "observed" | "model"
  int record_id = 0;   // observed: the evaluation's id
};

struct PickResult {
  bool reached = false;
  OperatingPoint point;  // the pick, or the closest achievable point when !reached
  // Other settings meeting the target, nearest first: front neighbours (observed) or distinct
  // local optima of the surrogate search (model).
  std::vector<OperatingPoint> alternatives;
};

// The best front point meeting the target: max utility under ε ≤ E (ties: smaller ε), or
// min ε under utility ≥ U (ties: higher utility). Unreached: the front point closest to the
// target (smallest ε, or highest utility). InputError when the run has no ok evaluation.
PickResult pick_observed(const study::RunData& run, const Target& target);
// The same on the robust front (robust_front.hpp: each evaluated setting at the utility GP's
// posterior median), which a lucky draw of the repeats cannot top: the target is checked and the
// points ranked by their robust utility; each point reports its observed utility beside it.
PickResult pick_robust(const RunModel& model, const study::RunData& run, const Target& target);

struct ModelPickOptions {
  int dense_candidates = 4000;  // random unit-cube points screened before local refinement
  int starts = 8;               // local refinements (NLopt BOBYQA on the penalized objective)
  int local_evaluations = 300;
  std::uint64_t seed = 1;
};

// Searches the surrogates for a setting that was never evaluated. Predicted utility is the GP
// median g⁻¹(μ) (g the utility GP's transform: sigmoid for the logit) with utility_std the sd of
// g⁻¹(μ + σZ) (Gauss–Hermite quadrature), and
// [utility_low, utility_high] = g⁻¹(μ ± 1.96 √(σ² + σ_n²)): where a measurement of the setting
// (with the run's repeats, whose noise σ_n² the GP learned) falls with probability 0.95 under the model.
PickResult pick_model(const RunModel& model, const Target& target, const ModelPickOptions& options = {});

}  // namespace dpareto::explore
