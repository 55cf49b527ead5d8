#pragma once
// A problem = a named hyperparameter space + a privacy oracle + a utility oracle (DESIGN.md §1,
// DPareto Sec. 2.1). Objectives are minimized: (epsilon, 1 - utility).
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "dpareto/core/go_on.hpp"
#include "dpareto/space/space.hpp"

namespace dpareto::problems {

// How the reported hypervolume measures epsilon (DESIGN.md §3.2 "Geometry axis").
enum class HvAxis { linear, log10 };

struct ReferenceSpec {
  double epsilon = 10;  // anti-ideal epsilon
  double error = 1;     // anti-ideal error (1 - utility)
  HvAxis axis = HvAxis::linear;
  double log_floor = 1e-2;  // epsilon below this counts as this on the log axis
};

// A result measured on the way to the final one (issue 18 item 2): after epoch e of a training, the
// setting with epochs = e, which a run of e epochs from the same seed would have returned. Its delta
// is its evaluation's.
struct IntermediateResult {
  space::Params params;
  std::optional<double> epsilon;  // where the oracle measured none, Problem::evaluate's privacy(params)
  double utility = 0;
  double utility_min = 0;
  double utility_max = 0;
  std::map<std::string, double> further;  // declared further objectives measured at this point, by name
};

// What a utility oracle measured: the mean over repeats and its extremes (DPareto Fig. 7).
struct UtilityResult {
  double utility = 0;
  double utility_min = 0;
  double utility_max = 0;
  std::string message;                           // e.g. "diverged (NaN loss) in 2 of 10 repeats"
  std::vector<IntermediateResult> intermediate;  // in order of training, each before the final result
  // A training that GoOn stopped: the setting its final result measured (the epochs it trained);
  // empty when it measured the setting it was given.
  space::Params stopped_at;
  // With stopped_at: that setting's ε, from the accounting of every epoch that GoOn weighed (an
  // upper bound, as privacy()'s; Problem::evaluate then accounts nothing again).
  double stopped_epsilon = 0;
};

// One evaluated setting. `ok == false` is a failed evaluation: `message` says why; it never
// enters the surrogates or the front.
struct Evaluation {
  bool ok = false;
  double epsilon = 0;
  double delta = 0;
  double utility = 0;
  double utility_min = 0;
  double utility_max = 0;
  double seconds = 0;
  // Objective values beyond (ε, utility) that were measured, by name (issue 13 item 2): every
  // problem's "train_seconds" (the utility oracle's wall time), an external oracle's declared keys.
  std::map<std::string, double> further;
  std::string message;
  std::vector<IntermediateResult> intermediate;  // ok only: the results measured on the way
  space::Params stopped_at;  // ok only: as UtilityResult's (epsilon is then this setting's)
};

// Why an evaluation's intermediate results cannot be observations ("" when they can): a utility
// outside [0, 1] or its own range, a NaN or negative epsilon, or an epsilon below an earlier one's
// (privacy only accumulates over a training) or above the final result's.
std::string intermediate_results_problem(const Evaluation& evaluation);

// The mean of repeated utilities, kept inside [lo, hi] (their min and max): summing n equal values
// and dividing by n can land an ulp outside them, which Problem::evaluate would reject.
double mean_within_range(const std::vector<double>& values, double lo, double hi);

class Problem {
 public:
  virtual ~Problem() = default;
  virtual std::string name() const = 0;
  virtual const space::Space& space() const = 0;
  // The delta at which privacy() reports epsilon (0 for pure DP).
  virtual double delta() const = 0;
  // Privacy oracle: epsilon of the setting (may be +inf). Deterministic and cheap.
  virtual double privacy(const space::Params& params) const = 0;
  // A fast upper bound on privacy(params), for searches that screen thousands of settings (pick's
  // model search); privacy() itself by default. DP-training problems answer by RDP when privacy()
  // is the slower, tighter PLD accountant.
  virtual double privacy_upper_bound(const space::Params& params) const { return privacy(params); }
  // ε for a search that weighs thousands of settings per step (`explore --known-epsilon`'s
  // acquisition, issue 18 item 1): well under a millisecond each and never below privacy();
  // privacy() itself by default. known_privacy_obstacle() says why a problem has none ("" when it has).
  virtual double search_privacy(const space::Params& params) const { return privacy(params); }
  virtual std::string known_privacy_obstacle() const { return "its epsilon comes only with training"; }
  // Utility oracle in [0, 1]; randomness comes only from `seed`. Must be safe to call from
  // several threads at once on one Problem.
  virtual UtilityResult utility(const space::Params& params, std::uint64_t seed) const = 0;
  // The same, asking `go_on` after each result measured on the way where the oracle can stop there
  // (a DP training observed every epoch); utility() itself, which never stops, by default.
  virtual UtilityResult utility_until(const space::Params& params, std::uint64_t seed, const GoOn& go_on) const {
    (void)go_on;
    return utility(params, seed);
  }
  // Why utility_until never stops early ("" when it can).
  virtual std::string early_stop_obstacle() const { return "its utility oracle measures no results on the way"; }
  virtual ReferenceSpec default_reference() const { return {}; }
  // The utility of a trivial model that a useful setting must beat (a classifier's majority-class
  // accuracy on the test split), when the problem knows one.
  virtual std::optional<double> baseline_utility() const { return std::nullopt; }
  // What the utility measures, for axes and reports ("test accuracy", "F1 score").
  virtual std::string utility_name() const { return "utility"; }
  // The transform the explorer's utility GP models by default, by name (pareto::parse_transform):
  // "logit", or "arcsine" for a utility that is often exactly 0 or 1 (`explore --utility-transform`).
  virtual std::string utility_transform() const { return "logit"; }
  // Problem-specific configuration recorded in summary.json (repeats, subsets, ...).
  virtual std::map<std::string, std::string> settings() const { return {}; }

  // Runs both oracles, times them, and turns exceptions, NaN/inf utility, negative or NaN
  // epsilon and utility outside [0, 1] into a failed Evaluation with its reason.
  // Virtual so that an oracle measuring both at once (the external command) runs once. `go_on` goes
  // to utility_until; a stopped training's epsilon is that of the setting it stopped at.
  virtual Evaluation evaluate(const space::Params& params, std::uint64_t seed, const GoOn& go_on) const;
  Evaluation evaluate(const space::Params& params, std::uint64_t seed) const { return evaluate(params, seed, {}); }
};

}  // namespace dpareto::problems
