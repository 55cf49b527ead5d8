#include "dpareto/bo/explorer.hpp"

#include <algorithm>
#include <chrono>

#include "dpareto/bo/acquisition_registry.hpp"
#include "dpareto/bo/maximize.hpp"
#include "dpareto/bo/surrogate_acquisition.hpp"
#include "dpareto/core/error.hpp"
#include "dpareto/gp/output_transform.hpp"
#include "dpareto/pareto/cells.hpp"
#include "dpareto/pareto/dominance.hpp"

namespace dpareto::bo {
namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

Eigen::VectorXd to_vector(const std::vector<double>& v) {
  return Eigen::Map<const Eigen::VectorXd>(v.data(), static_cast<Eigen::Index>(v.size()));
}

}  // namespace

Explorer::Explorer(space::Space space, ExplorerOptions options, std::uint64_t seed)
    : Proposer(std::move(space), seed),
      options_(std::move(options)),
      surrogates_(options_.gp_restarts, options_.utility_noisy) {
  check_options(this->space(), options_);
  acquisition_ = make_acquisition(options_.acquisition);
  fallback_ = make_acquisition("ehvi");
  region_.axis = options_.axis;
  region_.gp_space_geometry = options_.reference_mode == ReferenceMode::estimated;
}

std::optional<Suggestion> Explorer::propose(const std::vector<space::Params>& pending, Rng& rng) {
  const auto started = observations().size() + pending.size();
  if (started < static_cast<std::size_t>(options_.initial_points) || ok_count() < 2)
    return Suggestion{random_unseen(pending, rng, options_.initial_from_prior), "init"};
  return ask_bo(pending, rng);
}

void Explorer::fit_surrogates() {
  Rng rng(derive_seed(seed(), 0xF17ULL << 40));
  surrogates_.fit(observations(), space(), rng, options_.gp_restarts, {});
  build_region({});
}

void Explorer::build_region(const std::vector<space::Params>& pending) {
  if (region_.gp_space_geometry) {
    // GPflowOpt as DPareto ran it: the front of the GP posterior means at the training inputs,
    // in GP space, and a reference re-estimated as r_d = max_P p_d + 2 (max_P p_d − min_P p_d)/|P|.
    const auto& epsilon_gp = surrogates_.epsilon();
    const auto& utility_gp = surrogates_.utility();
    Eigen::VectorXd mean_e, var_e, mean_u, var_u;
    epsilon_gp.predict_batch(epsilon_gp.inputs(), mean_e, var_e);
    utility_gp.predict_batch(utility_gp.inputs(), mean_u, var_u);
    std::vector<pareto::Point2> means;
    for (Eigen::Index i = 0; i < mean_e.size(); ++i) means.push_back({mean_e(i), -mean_u(i)});
    const auto front = pareto::pareto_front(means);
    pareto::Point2 reference{};
    for (int dim = 0; dim < 2; ++dim) {
      double lo = front[0][dim], hi = front[0][dim];
      for (const auto& p : front) lo = std::min(lo, p[dim]), hi = std::max(hi, p[dim]);
      const double spread = hi > lo ? hi - lo : 1.0;  // a one-point front still needs a box
      reference[dim] = hi + 2.0 * spread / static_cast<double>(front.size());
    }
    region_.geometry_cells = pareto::nondominated_cells(front, reference);
    region_.gp_cells = region_.geometry_cells;
    return;
  }
  std::vector<pareto::Point2> points;
  for (const auto& o : observations())
    if (o.ok) points.push_back(options_.axis.map({o.epsilon, 1.0 - o.utility}));
  for (const auto& p : pending) {
    const auto prediction = predict(space().to_unit(p));
    points.push_back(options_.axis.map({gp::inverse(gp::Transform::log, prediction.mean_log_epsilon),
                                        1.0 - gp::inverse(gp::Transform::logit, prediction.mean_logit_utility)}));
  }
  region_.geometry_cells = pareto::nondominated_cells(points, options_.axis.map(options_.reference));
  region_.gp_cells = cells_to_gp_space(region_.geometry_cells, options_.axis);
}

double Explorer::acquisition_at(const std::vector<double>& unit_x) const {
  return acquisition_->value(region_, predict(unit_x));
}

std::optional<Suggestion> Explorer::ask_bo(const std::vector<space::Params>& pending, Rng& rng) {
  auto started = std::chrono::steady_clock::now();
  const int restarts = bo_asks_ % std::max(1, options_.full_refit_every) == 0 ? options_.gp_restarts : 0;
  ++bo_asks_;
  surrogates_.fit(observations(), space(), rng, restarts, pending);
  build_region(pending);
  timings_.gp_fit += seconds_since(started);
  ++timings_.asks;
  started = std::chrono::steady_clock::now();

  SurrogateAcquisition function(surrogates_, region_, *acquisition_, *fallback_);
  MaximizeOptions maximize_options;
  maximize_options.dense_candidates = options_.dense_candidates;
  maximize_options.local_starts = options_.local_starts;
  maximize_options.local_evaluations = options_.local_evaluations;
  maximize_options.skip_at_or_below = 0.0;  // zero acquisition: flat there, nothing to refine
  const auto candidates = maximize(function, space(), rng, maximize_options).ranked();
  timings_.acquisition += seconds_since(started);
  for (const auto& c : candidates) {
    auto params = space().from_unit(c.x);
    if (!seen(params, pending)) return Suggestion{params, "bo"};
  }
  return Suggestion{random_unseen(pending, rng, false), "bo"};
}

nlohmann::json Explorer::state() const {
  auto theta = [](const gp::GaussianProcess& g) {
    return std::vector<double>(g.theta().data(), g.theta().data() + g.theta().size());
  };
  auto j = Proposer::state();
  j["bo_asks"] = bo_asks_;
  j["epsilon_theta"] = theta(surrogates_.epsilon());
  j["utility_theta"] = theta(surrogates_.utility());
  return j;
}

void Explorer::restore_state(const nlohmann::json& state) {
  Proposer::restore_state(state);
  try {
    bo_asks_ = state.at("bo_asks").get<int>();
    const auto e = state.at("epsilon_theta").get<std::vector<double>>();
    const auto u = state.at("utility_theta").get<std::vector<double>>();
    const std::size_t entries = space().dimension() + 2;  // log length-scales, log variance, log noise
    if (bo_asks_ < 0 || (!e.empty() && e.size() != entries) || (!u.empty() && u.size() != entries))
      throw InputError("explorer state: bo_asks " + std::to_string(bo_asks_) + " or GP hyperparameters of " +
                       std::to_string(e.size()) + " and " + std::to_string(u.size()) + " entries (expected " +
                       std::to_string(entries) + ") do not fit this space");
    if (!e.empty()) surrogates_.epsilon().set_theta(to_vector(e));
    if (!u.empty()) surrogates_.utility().set_theta(to_vector(u));
  } catch (const nlohmann::json::exception& ex) {
    throw InputError(std::string("explorer state: ") + ex.what());
  }
}

}  // namespace dpareto::bo
