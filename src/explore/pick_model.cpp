#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>

#include "dpareto/bo/maximize.hpp"
#include "dpareto/core/error.hpp"
#include "dpareto/explore/pick.hpp"
#include "dpareto/pareto/objective_transform.hpp"

namespace dpareto::explore {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kUpperQuantileZ = 1.6448536269514722;  // Φ⁻¹(0.95)
constexpr double kTwoSidedZ = 1.959963984540054;        // Φ⁻¹(0.975)
// Two settings closer than this (max-norm in the unit cube) are one: the search resolves no finer.
constexpr double kSameSetting = 1e-6;
// A setting within 0.1% of every range of an evaluated one is that evaluation again, not a setting
// the model proposes (a pick at the edge of an evaluated optimum would otherwise be it, nudged).
constexpr double kEvaluatedRadius = 1e-3;

// Probabilists' Gauss–Hermite rule (E[f(Z)], Z ~ N(0,1)) by Golub–Welsch: nodes are the
// eigenvalues of the Jacobi matrix with off-diagonal sqrt(k), weights the squared first
// components of its eigenvectors.
struct Quadrature {
  std::vector<double> nodes, weights;
};
const Quadrature& gauss_hermite() {
  static const Quadrature rule = [] {
    constexpr int n = 32;
    Eigen::MatrixXd J = Eigen::MatrixXd::Zero(n, n);
    for (int k = 1; k < n; ++k) J(k, k - 1) = J(k - 1, k) = std::sqrt(static_cast<double>(k));
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(J);
    Quadrature q;
    for (int i = 0; i < n; ++i) {
      q.nodes.push_back(solver.eigenvalues()(i));
      q.weights.push_back(solver.eigenvectors()(0, i) * solver.eigenvectors()(0, i));
    }
    return q;
  }();
  return rule;
}

// sd of g⁻¹(mean + sd·Z), g the utility GP's transform (logit: σ).
double sd_on_utility_scale(pareto::Transform g, double mean, double sd) {
  const auto& q = gauss_hermite();
  double m1 = 0, m2 = 0;
  for (std::size_t i = 0; i < q.nodes.size(); ++i) {
    const double s = pareto::inverse(g, mean + sd * q.nodes[i]);
    m1 += q.weights[i] * s;
    m2 += q.weights[i] * s * s;
  }
  return std::sqrt(std::max(0.0, m2 - m1 * m1));
}

// One screened setting of the model search.
struct Candidate {
  std::vector<double> unit;
  space::Params params;
  double epsilon, utility_mean, utility_sd;                          // the utility GP's prediction (logit u, ...)
  double epsilon_median = std::numeric_limits<double>::quiet_NaN();  // predicted ε only
  std::map<std::string, double> limited;  // each limited objective's 95% upper predictive bound
  double objective;                       // minimized; feasible settings always score below infeasible ones
  bool feasible;
};

// The penalized objective of the model search (maximized as its negative). It keeps every
// candidate of the dense stage, and for each local refinement the best setting it visited that was
// never evaluated.
class PickObjective : public bo::UnitFunction {
 public:
  PickObjective(const RunModel& model, const Target& target)
      : model_(model),
        space_(model.explorer->space()),
        utility_target_(
            target.kind == Target::Kind::min_utility
                ? pareto::forward(model.explorer->surrogates().objectives().utility_transform(), target.value)
                : 0.0),
        log_target_(target.kind == Target::Kind::max_epsilon ? std::log(std::max(target.value, 1e-300)) : 0.0),
        target_(target) {
    for (const auto& o : model.explorer->observations()) evaluated_.push_back(space_.to_unit(o.params));
    const auto& objectives = model.explorer->surrogates().objectives();
    for (const auto& limit : target.limits)
      limited_.push_back(objectives.index_of(limit.column, "limit " + limit.column));
  }

  double value(const std::vector<double>& x) override {
    Candidate c = evaluate(x);
    if (!local_) {
      screened_.push_back(c);
    } else if (!was_evaluated(c) && (!runs_.back() || c.objective < runs_.back()->objective)) {
      runs_.back() = c;
    }
    return -c.objective;
  }
  void begin_local(const std::vector<double>& start) override {
    local_ = true;
    Candidate c = evaluate(start);
    runs_.push_back(was_evaluated(c) ? std::nullopt : std::optional<Candidate>(c));
  }

  bool was_evaluated(const Candidate& c) const {
    return std::any_of(evaluated_.begin(), evaluated_.end(),
                       [&](const auto& u) { return bo::max_norm_distance(u, c.unit) < kEvaluatedRadius; });
  }
  // The evaluated settings' unit points (screened after the random ones: good neighbourhoods).
  const std::vector<std::vector<double>>& evaluated() const { return evaluated_; }
  // Every screened candidate, in the order of the dense stage's rows.
  const std::vector<Candidate>& screened() const { return screened_; }
  // Per local refinement, the best never-evaluated setting it visited (its start included).
  const std::vector<std::optional<Candidate>>& runs() const { return runs_; }

 private:
  // Penalized objective (minimized). max ε: −μ (the utility GP's mean: logit u, ...) plus a penalty
  // growing with log(ε/E); min utility: log ε plus a penalty growing with the shortfall in the GP's space. Infeasible
  // settings also pay a constant that exceeds any feasible objective's range.
  // A limit missed adds a constant above both and a penalty growing with the excess in its GP's space.
  void score(Candidate& c) const {
    const double log_eps = c.epsilon > 0 ? std::log(std::min(c.epsilon, 1e300)) : -700.0;
    if (target_.kind == Target::Kind::max_epsilon) {
      c.feasible = c.epsilon <= target_.value;
      c.objective = -c.utility_mean + (c.feasible ? 0.0 : 100.0 + 100.0 * (log_eps - log_target_));
    } else {
      c.feasible = c.utility_mean >= utility_target_ && c.epsilon < kInf;
      c.objective = log_eps + (c.feasible ? 0.0 : 2000.0 + 100.0 * std::max(0.0, utility_target_ - c.utility_mean));
    }
    const auto& objectives = model_.explorer->surrogates().objectives();
    for (std::size_t k = 0; k < limited_.size(); ++k) {
      const auto& o = objectives[limited_[k]];
      const double bound = c.limited.at(o.column()), limit = target_.limits[k].max;
      if (bound <= limit) continue;
      c.feasible = false;
      c.objective += 5000.0 + 100.0 * (pareto::forward(o.surrogate, bound) - pareto::forward(o.surrogate, limit));
    }
  }
  Candidate evaluate(const std::vector<double>& unit) const {
    Candidate c;
    c.params = space_.from_unit(unit);
    c.unit = space_.to_unit(c.params);
    const Eigen::Map<const Eigen::VectorXd> x(c.unit.data(), static_cast<Eigen::Index>(c.unit.size()));
    if (model_.exact_privacy) {
      // Screening by the fast upper bound: a setting it calls feasible is feasible (point_of reports
      // the exact privacy of what is returned).
      c.epsilon = model_.problem->privacy_upper_bound(c.params);
    } else {
      predict_epsilon(x, c);
    }
    if (std::isnan(c.epsilon)) c.epsilon = kInf;
    const auto p = model_.explorer->surrogates().gp(1).predict(x);
    c.utility_mean = p.mean;
    c.utility_sd = std::sqrt(std::max(p.variance, 0.0));
    // A further objective is known only where it was measured: its surrogate's one-sided 95% upper
    // predictive bound must meet the limit, as an external oracle's ε does.
    for (const std::size_t d : limited_) {
      const auto& o = model_.explorer->surrogates().objectives()[d];
      const auto f = model_.explorer->surrogates().gp(d).predict(x);
      c.limited[o.column()] =
          pareto::inverse(o.surrogate, f.mean + kUpperQuantileZ * std::sqrt(std::max(f.variance, 0.0)));
    }
    score(c);
    return c;
  }

  // An external oracle's ε, known only where it ran: the ε surrogate's one-sided 95% upper predictive
  // bound is what the target is checked against, its median is reported beside it.
  void predict_epsilon(const Eigen::Ref<const Eigen::VectorXd>& x, Candidate& c) const {
    const auto& objective = model_.explorer->surrogates().objectives()[0];
    const auto e = model_.explorer->surrogates().gp(0).predict(x);
    const double sd = std::sqrt(std::max(e.variance, 0.0));
    c.epsilon = pareto::inverse(objective.surrogate, e.mean + kUpperQuantileZ * sd);
    c.epsilon_median = pareto::inverse(objective.surrogate, e.mean);
  }

  const RunModel& model_;
  const space::Space& space_;
  double utility_target_, log_target_;
  Target target_;
  std::vector<std::size_t> limited_;  // the limits' objectives, in the order of target_.limits
  std::vector<std::vector<double>> evaluated_;
  std::vector<Candidate> screened_;
  std::vector<std::optional<Candidate>> runs_;
  bool local_ = false;
};

}  // namespace

PickResult pick_model(const RunModel& model, const Target& target, const ModelPickOptions& options) {
  const space::Space& space = model.explorer->space();
  PickObjective objective(model, target);
  // Dense stage: random unit points and the evaluated settings; local stage from the best distinct
  // starts, every setting the optimizer visits kept.
  bo::MaximizeOptions search;
  search.dense_candidates = options.dense_candidates;
  search.also_screened = objective.evaluated();
  search.snap = true;
  search.local_starts = options.starts;
  search.start_separation = 0.05;
  search.local_evaluations = options.local_evaluations;
  search.xtol_rel = kSameSetting;
  search.initial_step = 0.05;
  Rng rng(options.seed);
  const auto maximized = bo::maximize(objective, space, rng, search);

  std::vector<Candidate> found;
  for (const auto& best : objective.runs())
    if (best) found.push_back(*best);
  for (const auto& p : maximized.screened) {
    const Candidate& c = objective.screened()[p.index];
    if (!objective.was_evaluated(c)) found.push_back(c);
  }
  std::stable_sort(found.begin(), found.end(),
                   [](const Candidate& a, const Candidate& b) { return a.objective < b.objective; });
  // Distinct settings only.
  std::vector<Candidate> distinct;
  for (const auto& c : found)
    if (std::none_of(distinct.begin(), distinct.end(),
                     [&](const Candidate& o) { return bo::max_norm_distance(o.unit, c.unit) < kSameSetting; }))
      distinct.push_back(c);
  if (distinct.empty()) throw InputError("the model search found no unevaluated setting");

  const double noise_variance = model.explorer->surrogates().gp(1).noise_variance();
  const pareto::Transform transform = model.explorer->surrogates().objectives().utility_transform();
  auto point_of = [&](const Candidate& c) {
    OperatingPoint p;
    for (const auto& parameter : space.parameters()) p.names.push_back(parameter.name);
    p.params = c.params;
    p.epsilon = model.exact_privacy ? model.problem->privacy(c.params) : c.epsilon;
    p.epsilon_median = c.epsilon_median;
    p.utility = pareto::inverse(transform, c.utility_mean);
    p.utility_std = sd_on_utility_scale(transform, c.utility_mean, c.utility_sd);
    // A measurement is the latent value plus the noise the GP learned; g⁻¹ is monotone, so the
    // interval in the GP's space maps to the utility interval exactly.
    const double spread = kTwoSidedZ * std::sqrt(c.utility_sd * c.utility_sd + noise_variance);
    p.utility_low = pareto::inverse(transform, c.utility_mean - spread);
    p.utility_high = pareto::inverse(transform, c.utility_mean + spread);
    p.further = c.limited;
    p.source = "model";
    return p;
  };
  PickResult result;
  result.reached = distinct.front().feasible;
  result.point = point_of(distinct.front());
  if (!result.reached) return result;
  // Alternatives: other feasible local optima, spread out (at least 2% of the cube apart).
  std::vector<std::vector<double>> taken{distinct.front().unit};
  for (std::size_t i = 1; i < distinct.size(); ++i) {
    const auto& c = distinct[i];
    if (!c.feasible) break;
    if (std::any_of(taken.begin(), taken.end(), [&](const auto& u) { return bo::max_norm_distance(u, c.unit) < 0.02; }))
      continue;
    taken.push_back(c.unit);
    result.alternatives.push_back(point_of(c));
    if (result.alternatives.size() >= 32) break;
  }
  return result;
}

}  // namespace dpareto::explore
