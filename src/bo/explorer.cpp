#include "dpareto/bo/explorer.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <nlopt.hpp>
#include <numeric>

#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/gp/output_transform.hpp"
#include "dpareto/pareto/cells.hpp"
#include "dpareto/pareto/dominance.hpp"

namespace dpareto::bo {
namespace {

// An ok evaluation may have ε = +inf (no privacy); the log-ε surrogate sees it capped here.
constexpr double kEpsilonCapForSurrogate = 1e10;

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

gp::GpOptions surrogate_options(bool learn_noise, int restarts) {
  gp::GpOptions o;
  o.learn_noise = learn_noise;
  o.random_restarts = restarts;
  return o;
}

Eigen::VectorXd to_vector(const std::vector<double>& v) {
  return Eigen::Map<const Eigen::VectorXd>(v.data(), static_cast<Eigen::Index>(v.size()));
}

}  // namespace

Explorer::Explorer(space::Space space, ExplorerOptions options, std::uint64_t seed)
    : space_(std::move(space)),
      options_(options),
      seed_(seed),
      epsilon_gp_(surrogate_options(false, options.gp_restarts)),
      utility_gp_(surrogate_options(options.utility_noisy, options.gp_restarts)) {
  if (space_.dimension() == 0) throw InputError("explorer: the space has no parameters");
  if (options_.initial_points < 1 && options_.method == Method::dpareto)
    throw InputError("--init must be at least 1, got " + std::to_string(options_.initial_points));
  const auto& r = options_.reference;
  const double ideal_epsilon = options_.axis.kind == pareto::EpsilonAxis::Kind::log10 ? options_.axis.floor : 0.0;
  if (!(std::isfinite(r[0]) && r[0] > ideal_epsilon && std::isfinite(r[1]) && r[1] > 0))
    throw InputError("--reference " + format_number(r[0]) + "," + format_number(r[1]) +
                     ": must be strictly worse than the ideal point (epsilon > " + format_number(ideal_epsilon) +
                     ", error > 0) and finite");
  if (options_.dense_candidates < 1) throw InputError("explorer: dense_candidates must be at least 1");
  if (options_.method == Method::grid) grid_ = space_.grid(options_.grid_points);
  gp_space_geometry_ = options_.reference_mode == ReferenceMode::estimated;
}

int Explorer::ok_count() const {
  return static_cast<int>(std::count_if(observations_.begin(), observations_.end(),
                                        [](const Observation& o) { return o.ok; }));
}

bool Explorer::seen(const space::Params& p, const std::vector<space::Params>& pending) const {
  const auto u = space_.to_unit(p);
  auto same = [&](const space::Params& q) {
    const auto v = space_.to_unit(q);
    for (std::size_t i = 0; i < u.size(); ++i)
      if (std::abs(u[i] - v[i]) > 1e-9) return false;
    return true;
  };
  return std::any_of(observations_.begin(), observations_.end(), [&](const Observation& o) { return same(o.params); }) ||
         std::any_of(pending.begin(), pending.end(), same);
}

space::Params Explorer::random_unseen(const std::vector<space::Params>& pending, Rng& rng, bool from_prior) {
  for (int attempt = 0; attempt < 10000; ++attempt) {
    auto p = from_prior ? space_.sample_prior(rng) : space_.sample_uniform(rng);
    if (!seen(p, pending)) return p;
  }
  throw InputError("explorer: no unevaluated setting left in the space (every draw was already evaluated)");
}

std::optional<Suggestion> Explorer::ask(const std::vector<space::Params>& pending) {
  // Each ask has its own generator, derived from (seed, ask index): a resumed explorer with its
  // counter restored continues the same random stream.
  Rng rng(derive_seed(seed_, static_cast<std::uint64_t>(asks_)));
  ++asks_;
  switch (options_.method) {
    case Method::grid:
      for (const auto& p : grid_)
        if (!seen(p, pending)) return Suggestion{p, "grid"};
      return std::nullopt;
    case Method::random:
      return Suggestion{random_unseen(pending, rng, options_.initial_from_prior), "random"};
    case Method::dpareto:
      break;
  }
  const auto started = observations_.size() + pending.size();
  if (started < static_cast<std::size_t>(options_.initial_points) || ok_count() < 2)
    return Suggestion{random_unseen(pending, rng, options_.initial_from_prior), "init"};
  return ask_bo(pending, rng);
}

void Explorer::tell(const Observation& observation) {
  if (observation.params.size() != space_.dimension())
    throw InputError("explorer: told a setting with " + std::to_string(observation.params.size()) +
                     " values, the space has " + std::to_string(space_.dimension()));
  observations_.push_back(observation);
}

void Explorer::fit_surrogates() {
  Rng rng(derive_seed(seed_, 0xF17ULL << 40));
  fit_surrogates(rng, options_.gp_restarts, {});
  build_cells({});
}

void Explorer::fit_surrogates(Rng& rng, int random_restarts, const std::vector<space::Params>& pending) {
  const int n = ok_count();
  if (n < 2) throw InputError("explorer: surrogates need at least 2 successful evaluations, have " + std::to_string(n));
  const auto d = static_cast<Eigen::Index>(space_.dimension());
  Eigen::MatrixXd X(n, d);
  Eigen::VectorXd y_epsilon(n), y_utility(n);
  int row = 0;
  for (const auto& o : observations_) {
    if (!o.ok) continue;
    X.row(row) = to_vector(space_.to_unit(o.params)).transpose();
    y_epsilon(row) = gp::forward(gp::Transform::log, std::min(o.epsilon, kEpsilonCapForSurrogate));
    y_utility(row) = gp::forward(gp::Transform::logit, o.utility);
    ++row;
  }
  epsilon_gp_.set_random_restarts(random_restarts);
  utility_gp_.set_random_restarts(random_restarts);
  epsilon_gp_.fit(X, y_epsilon, rng);
  utility_gp_.fit(X, y_utility, rng);
  if (pending.empty()) return;
  // Kriging believer (asynchronous batch BO): pending settings join the data with their
  // predicted means as outcomes, hyperparameters unchanged, so proposals spread out.
  const auto m = static_cast<Eigen::Index>(pending.size());
  Eigen::MatrixXd P(m, d);
  for (Eigen::Index i = 0; i < m; ++i) P.row(i) = to_vector(space_.to_unit(pending[i])).transpose();
  Eigen::VectorXd mean_e, var_e, mean_u, var_u;
  epsilon_gp_.predict_batch(P, mean_e, var_e);
  utility_gp_.predict_batch(P, mean_u, var_u);
  Eigen::MatrixXd X_all(n + m, d);
  X_all << X, P;
  Eigen::VectorXd ye_all(n + m), yu_all(n + m);
  ye_all << y_epsilon, mean_e;
  yu_all << y_utility, mean_u;
  epsilon_gp_.condition(X_all, ye_all);
  utility_gp_.condition(X_all, yu_all);
}

void Explorer::build_cells(const std::vector<space::Params>& pending) {
  if (gp_space_geometry_) {
    // GPflowOpt as DPareto ran it: the front of the GP posterior means at the training inputs,
    // in GP space, and a reference re-estimated as r_d = max_P p_d + 2 (max_P p_d − min_P p_d)/|P|.
    Eigen::VectorXd mean_e, var_e, mean_u, var_u;
    epsilon_gp_.predict_batch(epsilon_gp_.inputs(), mean_e, var_e);
    utility_gp_.predict_batch(utility_gp_.inputs(), mean_u, var_u);
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
    geometry_cells_ = pareto::nondominated_cells(front, reference);
    gp_cells_ = geometry_cells_;
    return;
  }
  std::vector<pareto::Point2> points;
  for (const auto& o : observations_)
    if (o.ok) points.push_back(options_.axis.map({o.epsilon, 1.0 - o.utility}));
  for (const auto& p : pending) {
    const auto prediction = predict(space_.to_unit(p));
    points.push_back(options_.axis.map({gp::inverse(gp::Transform::log, prediction.mean_log_epsilon),
                                        1.0 - gp::inverse(gp::Transform::logit, prediction.mean_logit_utility)}));
  }
  geometry_cells_ = pareto::nondominated_cells(points, options_.axis.map(options_.reference));
  gp_cells_ = cells_to_gp_space(geometry_cells_, options_.axis);
}

GpPrediction Explorer::predict(const std::vector<double>& unit_x) const {
  const Eigen::VectorXd x = to_vector(unit_x);
  const auto e = epsilon_gp_.predict(x);
  const auto u = utility_gp_.predict(x);
  return {e.mean, std::sqrt(std::max(e.variance, 0.0)), u.mean, std::sqrt(std::max(u.variance, 0.0))};
}

namespace {

double value_of(AcquisitionKind kind, bool gp_space_geometry, const std::vector<pareto::Cell>& geometry_cells,
                const std::vector<pareto::Cell>& gp_cells, const pareto::EpsilonAxis& axis, const GpPrediction& p) {
  if (!gp_space_geometry) return acquisition_value(kind, geometry_cells, gp_cells, axis, p);
  const pareto::Point2 mean{p.mean_log_epsilon, -p.mean_logit_utility};
  const pareto::Point2 sd{std::max(p.sd_log_epsilon, 1e-12), std::max(p.sd_logit_utility, 1e-12)};
  if (kind == AcquisitionKind::ehvi) return expected_hypervolume_improvement(gp_cells, mean, sd);
  const double hvi = hypervolume_improvement(gp_cells, mean);
  return hvi > 0 ? hvi * probability_of_improvement(gp_cells, mean, sd) : 0.0;
}

}  // namespace

double Explorer::mean_hvi(double mean_log_epsilon, double mean_logit_utility) const {
  if (gp_space_geometry_) return hypervolume_improvement(gp_cells_, {mean_log_epsilon, -mean_logit_utility});
  const double epsilon = gp::inverse(gp::Transform::log, mean_log_epsilon);
  const double error = 1.0 - gp::inverse(gp::Transform::logit, mean_logit_utility);
  return hypervolume_improvement(geometry_cells_, options_.axis.map({epsilon, error}));
}

double Explorer::acquisition_at(const std::vector<double>& unit_x) const {
  return value_of(options_.acquisition, gp_space_geometry_, geometry_cells_, gp_cells_, options_.axis,
                  predict(unit_x));
}

std::optional<Suggestion> Explorer::ask_bo(const std::vector<space::Params>& pending, Rng& rng) {
  auto started = std::chrono::steady_clock::now();
  const int restarts = bo_asks_ % std::max(1, options_.full_refit_every) == 0 ? options_.gp_restarts : 0;
  ++bo_asks_;
  fit_surrogates(rng, restarts, pending);
  build_cells(pending);
  timings_.gp_fit += seconds_since(started);
  ++timings_.asks;
  started = std::chrono::steady_clock::now();

  // Dense random stage (HVPoI is 0 wherever the mean is dominated, so local search alone stalls).
  const auto d = static_cast<Eigen::Index>(space_.dimension());
  const Eigen::Index n = options_.dense_candidates;
  Eigen::MatrixXd C(n, d);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = 0; j < d; ++j) C(i, j) = unit(rng);
  // HVPoI is 0 wherever the mean's HVI is 0, so variances (a triangular solve each) are computed
  // only for the candidates whose mean improves the front.
  const Eigen::VectorXd mean_e = epsilon_gp_.predict_mean_batch(C);
  const Eigen::VectorXd mean_u = utility_gp_.predict_mean_batch(C);
  AcquisitionKind kind = options_.acquisition;
  std::vector<double> values(static_cast<std::size_t>(n), 0.0);
  std::vector<Eigen::Index> to_score;
  for (Eigen::Index i = 0; i < n; ++i)
    if (kind == AcquisitionKind::ehvi || mean_hvi(mean_e(i), mean_u(i)) > 0) to_score.push_back(i);
  // Where every predictive mean is dominated, HVPoI is 0 everywhere; EHVI, positive everywhere,
  // then ranks the candidates instead of an arbitrary pick.
  if (to_score.empty()) {
    kind = AcquisitionKind::ehvi;
    to_score.resize(static_cast<std::size_t>(n));
    std::iota(to_score.begin(), to_score.end(), 0);
  }
  {
    Eigen::MatrixXd S(static_cast<Eigen::Index>(to_score.size()), d);
    for (std::size_t k = 0; k < to_score.size(); ++k) S.row(static_cast<Eigen::Index>(k)) = C.row(to_score[k]);
    Eigen::VectorXd me, ve, mu, vu;
    epsilon_gp_.predict_batch(S, me, ve);
    utility_gp_.predict_batch(S, mu, vu);
    for (std::size_t k = 0; k < to_score.size(); ++k) {
      const auto j = static_cast<Eigen::Index>(k);
      values[to_score[k]] =
          value_of(kind, gp_space_geometry_, geometry_cells_, gp_cells_, options_.axis,
                   GpPrediction{me(j), std::sqrt(std::max(ve(j), 0.0)), mu(j), std::sqrt(std::max(vu(j), 0.0))});
    }
  }
  std::vector<Eigen::Index> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](Eigen::Index a, Eigen::Index b) { return values[a] > values[b]; });

  // Local refinement (derivative-free NLopt in the unit cube) from the best few candidates.
  struct Candidate {
    std::vector<double> x;
    double value;
  };
  std::vector<Candidate> candidates;
  auto objective = [&](const std::vector<double>& x) {
    return value_of(kind, gp_space_geometry_, geometry_cells_, gp_cells_, options_.axis, predict(x));
  };
  struct Context {
    decltype(objective)* f;
  } context{&objective};
  auto row_of = [&](Eigen::Index i) {
    std::vector<double> x(static_cast<std::size_t>(d));
    for (Eigen::Index j = 0; j < d; ++j) x[j] = C(i, j);
    return x;
  };
  const int starts = std::min<int>(options_.local_starts, static_cast<int>(n));
  for (int s = 0; s < starts; ++s) {
    const std::vector<double> x = row_of(order[s]);
    const double start_value = values[order[s]];
    candidates.push_back({x, start_value});
    if (start_value <= 0) continue;
    nlopt::opt opt(d >= 2 ? nlopt::LN_BOBYQA : nlopt::LN_COBYLA, static_cast<unsigned>(d));
    opt.set_lower_bounds(0.0);
    opt.set_upper_bounds(1.0);
    opt.set_maxeval(options_.local_evaluations);
    opt.set_xtol_rel(1e-4);
    opt.set_max_objective(
        [](unsigned dim, const double* xp, double*, void* data) {
          return (*static_cast<Context*>(data)->f)(std::vector<double>(xp, xp + dim));
        },
        &context);
    std::vector<double> refined = x;
    double refined_value = start_value;
    try {
      opt.optimize(refined, refined_value);
    } catch (const std::exception&) {
      // NLopt reports round-off limits as exceptions; keep the point it reached.
      refined_value = objective(refined);
    }
    if (refined_value > start_value) candidates.push_back({refined, refined_value});
  }
  for (Eigen::Index k = starts; k < n; ++k) candidates.push_back({row_of(order[k]), values[order[k]]});
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Candidate& a, const Candidate& b) { return a.value > b.value; });
  timings_.acquisition += seconds_since(started);
  for (const auto& c : candidates) {
    auto params = space_.from_unit(c.x);
    if (!seen(params, pending)) return Suggestion{params, "bo"};
  }
  return Suggestion{random_unseen(pending, rng, false), "bo"};
}

nlohmann::json Explorer::state() const {
  auto theta = [](const gp::GaussianProcess& g) {
    return std::vector<double>(g.theta().data(), g.theta().data() + g.theta().size());
  };
  return {{"asks", asks_}, {"bo_asks", bo_asks_}, {"epsilon_theta", theta(epsilon_gp_)},
          {"utility_theta", theta(utility_gp_)}};
}

void Explorer::restore_state(const nlohmann::json& state) {
  try {
    asks_ = state.at("asks").get<int>();
    bo_asks_ = state.at("bo_asks").get<int>();
    const auto e = state.at("epsilon_theta").get<std::vector<double>>();
    const auto u = state.at("utility_theta").get<std::vector<double>>();
    if (!e.empty()) epsilon_gp_.set_theta(to_vector(e));
    if (!u.empty()) utility_gp_.set_theta(to_vector(u));
  } catch (const nlohmann::json::exception& ex) {
    throw InputError(std::string("explorer state: ") + ex.what());
  }
}

}  // namespace dpareto::bo
