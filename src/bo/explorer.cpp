#include "dpareto/bo/explorer.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>

#include "dpareto/bo/acquisition_registry.hpp"
#include "dpareto/bo/maximize.hpp"
#include "dpareto/bo/surrogate_acquisition.hpp"
#include "dpareto/bo/training_stop_rule.hpp"
#include "dpareto/core/error.hpp"
#include "dpareto/core/seconds_since.hpp"
#include "dpareto/pareto/boxes.hpp"
#include "dpareto/pareto/dominance.hpp"
#include "point_vectors.hpp"

namespace dpareto::bo {
namespace {

constexpr const char* kCostThetaKey = "seconds_theta";
// An evaluation recorded in less (a clock's resolution) counts as this, so that its log is finite.
constexpr double kShortestSeconds = 1e-6;

}  // namespace

Explorer::Explorer(space::Space space, ExplorerOptions options, std::uint64_t seed, EpsilonOracle epsilon)
    : Proposer(std::move(space), seed),
      options_(std::move(options)),
      epsilon_(options_.known_epsilon ? std::move(epsilon) : EpsilonOracle{}),
      surrogates_(options_.objectives, options_.gp_restarts, options_.utility_noisy, exact_objectives(),
                  make_acquisition(options_.acquisition)->rests_on_spread()) {
  check_options(this->space(), options_);
  if (options_.known_epsilon && !epsilon_)
    throw InputError("explorer: known epsilon needs a privacy oracle that computes epsilon without training");
  acquisition_ = make_acquisition(options_.acquisition);
  fallback_ = make_acquisition("ehvi");
  region_.objectives = options_.objectives;
  region_.axis = options_.axis;
  region_.gp_space_geometry = options_.reference_mode == ReferenceMode::estimated;
}

std::optional<Suggestion> Explorer::propose(const std::vector<space::Params>& pending, Rng& rng) {
  const auto started = static_cast<std::size_t>(evaluation_count()) + pending.size();
  if (started < static_cast<std::size_t>(options_.initial_points) || ok_count() < 2)
    return Suggestion{random_candidate(pending, rng, options_.initial_from_prior), "init"};
  return ask_bo(pending, rng);
}

std::vector<ExactObjective> Explorer::exact_objectives() const {
  if (!epsilon_) return {};
  return {[space = space(), epsilon = epsilon_](const std::vector<double>& unit_x) {
    return epsilon(space.from_unit(unit_x));
  }};
}

bool Explorer::within_reference(const space::Params& params) const {
  return !epsilon_ || epsilon_(params) <= options_.objectives[0].reference;
}

space::Params Explorer::random_candidate(const std::vector<space::Params>& pending, Rng& rng, bool from_prior) const {
  space::Params best = random_unseen(pending, rng, from_prior);
  if (!epsilon_) return best;
  double best_epsilon = epsilon_(best);
  for (int draw = 1; draw < kReferenceDraws && best_epsilon > options_.objectives[0].reference; ++draw) {
    space::Params p = random_unseen(pending, rng, from_prior);
    const double e = epsilon_(p);
    if (e < best_epsilon) best = std::move(p), best_epsilon = e;
  }
  return best;
}

namespace {

// Whether item j of `count` is among `room` of them spread evenly: when ⌊(j + 1)·room / count⌋
// steps past ⌊j·room / count⌋ (all of them when room ≥ count; the last one is always kept).
bool kept_evenly(long long j, long long count, long long room) {
  return (j + 1) * room / count > j * room / count;
}

}  // namespace

std::vector<Observation> Explorer::gp_observations() const {
  const auto& all = observations();
  const auto is_result = [](const Observation& o) { return o.intermediate && o.ok; };
  // Each training's results (a run of consecutive ones, told after their evaluation) thinned to
  // kMaxGpResultsPerTraining, evenly spread.
  std::vector<const Observation*> capped;
  for (std::size_t i = 0; i < all.size();) {
    std::size_t end = i;
    while (end < all.size() && is_result(all[end])) ++end;
    if (end == i) {
      capped.push_back(&all[i++]);
      continue;
    }
    const auto count = static_cast<long long>(end - i);
    for (long long j = 0; j < count; ++j)
      if (kept_evenly(j, count, kMaxGpResultsPerTraining)) capped.push_back(&all[i + static_cast<std::size_t>(j)]);
    i = end;
  }
  // Then all results together thinned to the room the evaluations leave, evenly in the order told.
  const auto results = std::count_if(capped.begin(), capped.end(), [&](const Observation* o) { return is_result(*o); });
  const long long room = std::max(0LL, kMaxGpObservations - (static_cast<long long>(capped.size()) - results));
  std::vector<Observation> kept;
  long long j = 0;
  for (const Observation* o : capped)
    if (!is_result(*o) || kept_evenly(j++, results, room)) kept.push_back(*o);
  return kept;
}

GoOn Explorer::go_on() const {
  // The initial settings train to their ends: they are the rule's first trainings. So does every
  // kAuditEvery-th BO proposal.
  if (!options_.early_stop || evaluation_count() < options_.initial_points ||
      (bo_asks_ > 0 && bo_asks_ % kAuditEvery == 0) ||
      options_.objectives.names() != std::vector<std::string>{"epsilon", "error"})
    return {};
  auto rule = std::make_shared<const TrainingStopRule>(observations());
  return [rule](int count, int of, double utility, double next_epsilon) {
    return rule->go_on(count, of, utility, next_epsilon);
  };
}

void Explorer::fit_surrogates() {
  Rng rng(derive_seed(seed(), 0xF17ULL << 40));
  surrogates_.fit(gp_observations(), space(), rng, options_.gp_restarts, {});
  fit_cost(rng, options_.gp_restarts);
  build_region({});
}

void Explorer::fit_cost(Rng& rng, int random_restarts) {
  if (!options_.cost_aware) return;
  std::vector<const Observation*> costed;
  for (const auto& o : observations())
    if (o.ok && !o.intermediate) costed.push_back(&o);
  if (costed.size() < 2) return;  // (intermediate results alone): acquisition_function() weighs no cost yet
  const auto n = static_cast<Eigen::Index>(costed.size());
  Eigen::MatrixXd X(n, static_cast<Eigen::Index>(space().dimension()));
  Eigen::VectorXd y(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const Observation& o = *costed[static_cast<std::size_t>(i)];
    X.row(i) = to_vector(space().to_unit(o.params)).transpose();
    y(i) = std::log(std::max(o.seconds, kShortestSeconds));
  }
  cost_gp_.set_random_restarts(random_restarts);
  cost_gp_.fit(X, y, rng);
}

void Explorer::build_region(const std::vector<space::Params>& pending) {
  if (region_.gp_space_geometry) {
    // GPflowOpt as DPareto ran it: the front of the GP posterior means at the training inputs,
    // in GP space, and a reference re-estimated as r_d = max_P p_d + 2 (max_P p_d − min_P p_d)/|P|.
    const auto front = pareto::pareto_front(surrogates_.predict_means(surrogates_.inputs()));
    pareto::Point reference(options_.objectives.size());
    for (std::size_t dim = 0; dim < reference.size(); ++dim) {
      double lo = front[0][dim], hi = front[0][dim];
      for (const auto& p : front) lo = std::min(lo, p[dim]), hi = std::max(hi, p[dim]);
      const double spread = hi > lo ? hi - lo : 1.0;  // a one-point front still needs a box
      reference[dim] = hi + 2.0 * spread / static_cast<double>(front.size());
    }
    region_.geometry_boxes = pareto::nondominated_boxes(front, reference);
    region_.gp_boxes = region_.geometry_boxes;
    return;
  }
  std::vector<pareto::Point> points;
  const auto& all = observations();
  const auto ok = static_cast<Eigen::Index>(std::count_if(all.begin(), all.end(), [](const auto& o) { return o.ok; }));
  if (options_.improvement_front == ImprovementFront::posterior && options_.utility_noisy && ok > 0) {
    Eigen::MatrixXd X(ok, static_cast<Eigen::Index>(space().dimension()));
    Eigen::Index row = 0;
    for (const auto& o : all)
      if (o.ok) X.row(row++) = to_vector(space().to_unit(o.params)).transpose();
    for (const auto& mean : surrogates_.predict_means(X)) points.push_back(region_.geometry_of_mean(mean));
  } else {
    for (const auto& o : all)
      if (o.ok) points.push_back(options_.axis.map(options_.objectives.point(o.values)));
  }
  for (const auto& p : pending) points.push_back(region_.geometry_of_mean(predict(space().to_unit(p)).mean));
  region_.geometry_boxes = pareto::nondominated_boxes(points, options_.axis.map(options_.objectives.reference()));
  region_.gp_boxes = boxes_to_gp_space(region_.geometry_boxes, options_.objectives, options_.axis);
}

SurrogateAcquisition Explorer::acquisition_function() const {
  // Where ε is exact, a point is scored at the setting it rounds to (surrogate_acquisition.hpp).
  return SurrogateAcquisition(surrogates_, region_, *acquisition_, *fallback_, epsilon_ ? &space() : nullptr,
                              options_.cost_aware && cost_gp_.fitted() ? &cost_gp_ : nullptr);
}

double Explorer::acquisition_at(const std::vector<double>& unit_x) const {
  return acquisition_function().value(unit_x);
}

double Explorer::min_spacing(std::size_t pending) const {
  const double settings = static_cast<double>(evaluation_count()) + static_cast<double>(pending);
  const double after = options_.spacing_shrinks_after;
  if (after <= 0 || settings <= after) return options_.min_spacing;
  return options_.min_spacing * std::pow(after / settings, 1.0 / static_cast<double>(space().dimension()));
}

std::optional<Suggestion> Explorer::ask_bo(const std::vector<space::Params>& pending, Rng& rng) {
  auto started = std::chrono::steady_clock::now();
  const int restarts = bo_asks_ % std::max(1, options_.full_refit_every) == 0 ? options_.gp_restarts : 0;
  ++bo_asks_;
  surrogates_.fit(gp_observations(), space(), rng, restarts, pending);
  fit_cost(rng, restarts);
  build_region(pending);
  timings_.gp_fit += seconds_since(started);
  ++timings_.asks;
  started = std::chrono::steady_clock::now();

  SurrogateAcquisition function = acquisition_function();
  MaximizeOptions maximize_options;
  maximize_options.dense_candidates = options_.dense_candidates;
  maximize_options.local_starts = options_.local_starts;
  maximize_options.local_evaluations = options_.local_evaluations;
  maximize_options.skip_at_or_below = 0.0;  // zero acquisition: flat there, nothing to refine
  const auto candidates = maximize(function, space(), rng, maximize_options).ranked();
  timings_.acquisition += seconds_since(started);
  const double spacing = std::max(min_spacing(pending.size()), 1e-9);
  for (const auto& c : candidates) {
    auto params = space().from_unit(c.x);
    if (!seen(params, pending, spacing) && within_reference(params)) return Suggestion{params, "bo"};
  }
  return Suggestion{random_candidate(pending, rng, false), "bo"};
}

nlohmann::json Explorer::state() const {
  auto j = Proposer::state();
  j["bo_asks"] = bo_asks_;
  const auto save = [&](const std::string& key, const gp::GaussianProcess& g) {
    j[key] = std::vector<double>(g.theta().data(), g.theta().data() + g.theta().size());
  };
  for (std::size_t d = 0; d < options_.objectives.size(); ++d)
    save(options_.objectives[d].column() + "_theta", surrogates_.gp(d));
  if (options_.cost_aware) save(kCostThetaKey, cost_gp_);
  return j;
}

void Explorer::restore_state(const nlohmann::json& state) {
  Proposer::restore_state(state);
  try {
    bo_asks_ = state.at("bo_asks").get<int>();
    if (bo_asks_ < 0) throw InputError("explorer state: bo_asks " + std::to_string(bo_asks_) + " is negative");
    // log length-scales, log variance, log noise (d + 2), then log warp parameters where the GP warps
    // its inputs (3d + 2). A state saved with or without the warp entries restores into either GP:
    // missing warp entries are 0 (no warp), surplus ones are dropped.
    const auto dimension = static_cast<Eigen::Index>(space().dimension());
    const auto restore = [&](const std::string& key, gp::GaussianProcess& g) {
      const auto theta = state.at(key).get<std::vector<double>>();
      if (theta.empty()) return;
      const auto given = static_cast<Eigen::Index>(theta.size());
      if (given != dimension + 2 && given != 3 * dimension + 2)
        throw InputError("explorer state: " + key + " has " + std::to_string(given) + " entries, this space needs " +
                         std::to_string(dimension + 2) + " (or " + std::to_string(3 * dimension + 2) +
                         " with input warping)");
      Eigen::VectorXd restored = Eigen::VectorXd::Zero(g.theta_size(dimension));
      const Eigen::Index shared = std::min(given, restored.size());
      restored.head(shared) = to_vector(theta).head(shared);
      g.set_theta(restored);
    };
    for (std::size_t d = 0; d < options_.objectives.size(); ++d)
      restore(options_.objectives[d].column() + "_theta", surrogates_.gp(d));
    // A state saved before the explorer was cost-aware has none: the cost GP's first fit starts cold.
    if (options_.cost_aware && state.contains(kCostThetaKey)) restore(kCostThetaKey, cost_gp_);
  } catch (const nlohmann::json::exception& ex) {
    throw InputError(std::string("explorer state: ") + ex.what());
  }
}

}  // namespace dpareto::bo
