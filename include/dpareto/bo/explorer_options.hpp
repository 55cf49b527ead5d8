#pragma once
// How an exploration runs: the method (the DPareto loop or a baseline), the acquisition and the
// geometry it measures improvement in, and the budgets of its inner steps.
#include <string>

#include "dpareto/bo/acquisition_registry.hpp"
#include "dpareto/pareto/objective_axis.hpp"
#include "dpareto/pareto/objectives.hpp"
#include "dpareto/space/space.hpp"

namespace dpareto::bo {

enum class Method { dpareto, random, grid };
enum class ReferenceMode { fixed, estimated };
// The front that bounds the improvement region under a fixed reference: the evaluated settings at
// their observed values, or at the GP posterior means (the noisy objectives denoised, as DPareto's
// GPflowOpt did; README, "where the SVT loss is").
enum class ImprovementFront { observed, posterior };
// The names the CLI, summary.json and the study use: dpareto | random | grid; fixed | estimated;
// observed | posterior.
std::string method_name(Method method);
std::string reference_mode_name(ReferenceMode mode);
std::string improvement_front_name(ImprovementFront front);
// "observed" | "posterior" -> the front; InputError naming `where` otherwise.
ImprovementFront parse_improvement_front(const std::string& name, const std::string& where);

// The dense stage keeps every candidate in memory (d doubles each): 10^6 is far past any benefit.
inline constexpr int kMaxDenseCandidates = 1000000;

struct ExplorerOptions {
  Method method = Method::dpareto;
  std::string acquisition = kDefaultAcquisition;  // a registered acquisition (acquisition_registry.hpp)
  ReferenceMode reference_mode = ReferenceMode::fixed;
  // With noisy objectives the observed front is optimistic (the lucky draws are on it), so HVPoI
  // sees no improvement where the true front still has room; the posterior means remove that (SVT
  // at 64 / 256 evaluations, 10 seeds: README). Objectives without noise are the same either way.
  ImprovementFront improvement_front = ImprovementFront::posterior;
  int initial_points = 16;          // k0 random points before BO
  bool initial_from_prior = false;  // draw initial/random points from Appx. C priors
  pareto::Objectives objectives = pareto::Objectives::privacy_utility();  // with the reference (10, 1)
  pareto::EpsilonAxis axis{};   // the first objective's (epsilon's) hypervolume axis
  int grid_points = 3;          // grid baseline: points per dimension
  int dense_candidates = 1000;  // acquisition maximization: random/Sobol stage size (<= kMaxDenseCandidates)
  int local_starts = 5;         // NLopt local refinements from the best candidates
  int local_evaluations = 60;   // acquisition evaluations per local refinement
  int gp_restarts = 4;          // random restarts besides the warm start, at full refits
  int full_refit_every = 8;     // BO asks between full refits; others warm-start only
  bool utility_noisy = true;    // learn the noise of the GPs of objectives not known exactly (privacy GP: nugget)
  // No BO proposal within this distance (max norm on the unit cube) of an evaluated or pending
  // setting: HVPoI, fed precise utilities, otherwise keeps refining pockets of a steep front with
  // near-copies of what it has (README, "where the SVT loss is"). 0: any distinct setting.
  double min_spacing = 0.005;
  // min_spacing holds up to this many evaluated and pending settings; beyond, with n of them in d
  // dimensions, it shrinks as min_spacing·(this / n)^(1/d), so that their boxes cover the same part
  // of the unit cube (n·(2s)^d constant) as the front fills in (SVT at 256 evaluations: README,
  // "where the SVT loss is"). 0: it never shrinks.
  int spacing_shrinks_after = 64;
  // ε computed exactly by the problem's privacy oracle inside the acquisition, without a GP, and no
  // setting beyond the ε reference proposed (issue 18 item 1; explorer.hpp).
  bool known_epsilon = false;
  // The acquisition per predicted training second ("EI per second", Snoek, Larochelle & Adams 2012,
  // §3.2): a GP on the log seconds of the evaluations so far predicts each candidate's cost, and the
  // maximizer ranks acquisition / cost, so that a cheap setting wins where it promises as much
  // (issue 18: training CPU-seconds per front; explorer.hpp).
  bool cost_aware = false;
  // A training observed every epoch stops once its next results cannot improve the front by the
  // largest rise any training made after as many epochs (issue 18; training_stop_rule.hpp).
  bool early_stop = false;
};

// InputError for an empty space, k0 < 1 (DPareto loop), a reference not strictly worse than the
// ideal point on the axis, no dense candidates, or a min_spacing outside [0, 1). Every method checks the same options.
void check_options(const space::Space& space, const ExplorerOptions& options);

}  // namespace dpareto::bo
