#include "dpareto/bo/operating_point.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>
#include <nlopt.hpp>

#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/gp/output_transform.hpp"
#include "dpareto/problems/registry.hpp"

namespace dpareto::bo {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

double sigmoid(double z) { return 1.0 / (1.0 + std::exp(-z)); }

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

// sd of sigmoid(mean + sd·Z).
double logit_normal_sd(double mean, double sd) {
  const auto& q = gauss_hermite();
  double m1 = 0, m2 = 0;
  for (std::size_t i = 0; i < q.nodes.size(); ++i) {
    const double s = sigmoid(mean + sd * q.nodes[i]);
    m1 += q.weights[i] * s;
    m2 += q.weights[i] * s * s;
  }
  return std::sqrt(std::max(0.0, m2 - m1 * m1));
}

// The problem options a run was started with (summary.json "problem_options"; runs that predate
// it used the defaults).
problems::ProblemOptions recorded_problem_options(const nlohmann::json& summary) {
  problems::ProblemOptions options;
  const auto it = summary.find("problem_options");
  if (it == summary.end() || !it->is_object()) return options;
  for (const auto& [key, value] : it->items())
    options[key] = value.is_string() ? value.get<std::string>() : value.dump();
  return options;
}

// One screened setting of the model search.
struct Candidate {
  std::vector<double> unit;
  space::Params params;
  double epsilon, logit_mean, logit_sd;
  double objective;  // minimized; feasible settings always score below infeasible ones
  bool feasible;
};

}  // namespace

space::Params RunModel::params_of(const study::EvaluationRecord& record) const {
  space::Params p(record_column.size());
  for (std::size_t i = 0; i < record_column.size(); ++i) p[i] = record.params.at(record_column[i]);
  return p;
}

RunModel rebuild_run_model(const study::RunData& run, const std::string& directory) {
  RunModel model;
  const std::string summary = directory + "/summary.json";
  try {
    model.problem = problems::make_problem(run.info.problem, recorded_problem_options(run.summary));
  } catch (const InputError& e) {
    throw InputError(summary + ": cannot rebuild problem '" + run.info.problem + "' (" + e.what() + ")");
  }
  const auto& space = model.problem->space();
  for (const auto& p : space.parameters()) {
    const auto& names = run.info.parameter_names;
    const auto it = std::find(names.begin(), names.end(), p.name);
    if (it == names.end())
      throw InputError(summary + ": the run has no column for parameter '" + p.name + "' of problem '" +
                       run.info.problem + "'");
    model.record_column.push_back(static_cast<std::size_t>(it - names.begin()));
  }
  ExplorerOptions options;
  options.reference = {run.info.reference_epsilon, run.info.reference_error};
  options.axis.kind = run.info.hv_axis == "log" ? pareto::EpsilonAxis::Kind::log10 : pareto::EpsilonAxis::Kind::linear;
  options.axis.floor = run.info.log_floor;
  if (run.info.extra.value("acquisition", "hvpoi") == "ehvi") options.acquisition = AcquisitionKind::ehvi;
  if (run.info.extra.value("reference_mode", "fixed") == "estimated") options.reference_mode = ReferenceMode::estimated;
  model.explorer = std::make_unique<Explorer>(space, options, run.info.seed.value_or(0));
  for (const auto& r : run.records) {
    if (r.status != "ok" && r.status != "failed") continue;
    model.explorer->tell(Observation{model.params_of(r), r.ok(), r.epsilon, r.utility});
  }
  try {
    model.explorer->fit_surrogates();
  } catch (const InputError& e) {
    throw InputError(directory + ": " + e.what());
  }
  return model;
}

bool Target::met_by(double epsilon, double utility) const {
  return kind == Kind::max_epsilon ? epsilon <= value : utility >= value;
}

std::string Target::describe() const {
  return (kind == Kind::max_epsilon ? "epsilon <= " : "utility >= ") + format_number(value);
}

std::pair<double, double> predicted_utility(const Explorer& explorer, const space::Params& params) {
  const auto p = explorer.predict(explorer.space().to_unit(params));
  return {sigmoid(p.mean_logit_utility), logit_normal_sd(p.mean_logit_utility, p.sd_logit_utility)};
}

PickResult pick_observed(const study::RunData& run, const Target& target) {
  const auto front = study::run_front(run.records);
  if (front.empty()) throw InputError("the run has no successful evaluation to pick from");
  auto point_of = [&](std::size_t i) {
    const auto& r = run.records[i];
    OperatingPoint p;
    p.names = run.info.parameter_names;
    p.params = r.params;
    p.epsilon = r.epsilon;
    p.utility = r.utility;
    p.utility_min = r.utility_min;
    p.utility_max = r.utility_max;
    p.source = "observed";
    p.record_id = r.id;
    return p;
  };
  // better(a, b): a is the preferred pick among points meeting the target.
  auto better = [&](const study::EvaluationRecord& a, const study::EvaluationRecord& b) {
    if (target.kind == Target::Kind::max_epsilon)
      return a.utility > b.utility || (a.utility == b.utility && a.epsilon < b.epsilon);
    return a.epsilon < b.epsilon || (a.epsilon == b.epsilon && a.utility > b.utility);
  };
  std::optional<std::size_t> best;
  for (const std::size_t i : front)
    if (target.met_by(run.records[i].epsilon, run.records[i].utility) &&
        (!best || better(run.records[i], run.records[*best])))
      best = i;
  PickResult result;
  if (!best) {
    // Closest achievable: the most private front point, or the most useful one.
    std::size_t closest = front.front();
    for (const std::size_t i : front) {
      const auto& r = run.records[i];
      const auto& c = run.records[closest];
      if (target.kind == Target::Kind::max_epsilon ? r.epsilon < c.epsilon : r.utility > c.utility) closest = i;
    }
    result.point = point_of(closest);
    return result;
  }
  result.reached = true;
  result.point = point_of(*best);
  const double log_eps = std::log(std::max(result.point.epsilon, 1e-300));
  std::vector<std::size_t> others;
  for (const std::size_t i : front)
    if (i != *best && target.met_by(run.records[i].epsilon, run.records[i].utility)) others.push_back(i);
  std::stable_sort(others.begin(), others.end(), [&](std::size_t a, std::size_t b) {
    return std::abs(std::log(std::max(run.records[a].epsilon, 1e-300)) - log_eps) <
           std::abs(std::log(std::max(run.records[b].epsilon, 1e-300)) - log_eps);
  });
  for (const std::size_t i : others) result.alternatives.push_back(point_of(i));
  return result;
}

PickResult pick_model(const RunModel& model, const Target& target, const ModelPickOptions& options) {
  const Explorer& explorer = *model.explorer;
  const space::Space& space = explorer.space();
  const gp::GaussianProcess& utility_gp = explorer.utility_gp();
  const auto d = static_cast<unsigned>(space.dimension());
  const double logit_target =
      target.kind == Target::Kind::min_utility ? gp::forward(gp::Transform::logit, target.value) : 0.0;
  const double log_target = target.kind == Target::Kind::max_epsilon ? std::log(std::max(target.value, 1e-300)) : 0.0;

  // Penalized objective (minimized). max ε: −μ (logit utility) plus a penalty growing with
  // log(ε/E); min utility: log ε plus a penalty growing with the logit shortfall. Infeasible
  // settings also pay a constant that exceeds any feasible objective's range.
  auto score = [&](Candidate& c) {
    const double log_eps = c.epsilon > 0 ? std::log(std::min(c.epsilon, 1e300)) : -700.0;
    if (target.kind == Target::Kind::max_epsilon) {
      c.feasible = c.epsilon <= target.value;
      c.objective = -c.logit_mean + (c.feasible ? 0.0 : 100.0 + 100.0 * (log_eps - log_target));
    } else {
      c.feasible = c.logit_mean >= logit_target && c.epsilon < kInf;
      c.objective = log_eps + (c.feasible ? 0.0 : 2000.0 + 100.0 * std::max(0.0, logit_target - c.logit_mean));
    }
  };
  auto evaluate = [&](const std::vector<double>& unit) {
    Candidate c;
    c.params = space.from_unit(unit);
    c.unit = space.to_unit(c.params);
    c.epsilon = model.problem->privacy(c.params);
    if (std::isnan(c.epsilon)) c.epsilon = kInf;
    const auto p = utility_gp.predict(Eigen::Map<const Eigen::VectorXd>(c.unit.data(), d));
    c.logit_mean = p.mean;
    c.logit_sd = std::sqrt(std::max(p.variance, 0.0));
    score(c);
    return c;
  };
  std::vector<std::vector<double>> evaluated;
  for (const auto& o : explorer.observations()) evaluated.push_back(space.to_unit(o.params));
  auto distance = [](const std::vector<double>& a, const std::vector<double>& b) {
    double s = 0;
    for (std::size_t i = 0; i < a.size(); ++i) s = std::max(s, std::abs(a[i] - b[i]));
    return s;
  };
  auto was_evaluated = [&](const Candidate& c) {
    return std::any_of(evaluated.begin(), evaluated.end(),
                       [&](const auto& u) { return distance(u, c.unit) < 1e-9; });
  };

  // Dense stage: random unit points and the evaluated settings (good neighbourhoods).
  Rng rng(options.seed);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  std::vector<Candidate> screened;
  for (int i = 0; i < options.dense_candidates; ++i) {
    std::vector<double> u(d);
    for (auto& v : u) v = uniform(rng);
    screened.push_back(evaluate(u));
  }
  for (const auto& u : evaluated) screened.push_back(evaluate(u));
  std::sort(screened.begin(), screened.end(),
            [](const Candidate& a, const Candidate& b) { return a.objective < b.objective; });

  // Local stage from the best distinct starts; every setting the optimizer visits is kept.
  std::vector<Candidate> found;
  std::vector<std::vector<double>> starts;
  for (const auto& c : screened) {
    if (static_cast<int>(starts.size()) >= options.starts) break;
    if (std::none_of(starts.begin(), starts.end(), [&](const auto& s) { return distance(s, c.unit) < 0.05; }))
      starts.push_back(c.unit);
  }
  for (const auto& start : starts) {
    Candidate best_seen = evaluate(start);
    bool have_unseen = !was_evaluated(best_seen);
    auto objective = [&](const std::vector<double>& x) {
      Candidate c = evaluate(x);
      if (!was_evaluated(c) && (!have_unseen || c.objective < best_seen.objective)) {
        best_seen = c;
        have_unseen = true;
      }
      return c.objective;
    };
    using Objective = decltype(objective);
    nlopt::opt opt(d >= 2 ? nlopt::LN_BOBYQA : nlopt::LN_COBYLA, d);
    opt.set_lower_bounds(0.0);
    opt.set_upper_bounds(1.0);
    opt.set_maxeval(options.local_evaluations);
    opt.set_xtol_rel(1e-6);
    opt.set_initial_step(0.05);
    opt.set_min_objective(
        [](unsigned dim, const double* x, double*, void* data) {
          return (*static_cast<Objective*>(data))(std::vector<double>(x, x + dim));
        },
        &objective);
    std::vector<double> x = start;
    double value = 0;
    try {
      opt.optimize(x, value);
    } catch (const std::exception&) {
      // NLopt signals round-off limits by exceptions; the best visited setting is kept anyway.
    }
    if (have_unseen) found.push_back(best_seen);
  }
  for (const auto& c : screened)
    if (!was_evaluated(c)) found.push_back(c);
  std::stable_sort(found.begin(), found.end(),
                   [](const Candidate& a, const Candidate& b) { return a.objective < b.objective; });
  // Distinct settings only.
  std::vector<Candidate> distinct;
  for (const auto& c : found)
    if (std::none_of(distinct.begin(), distinct.end(), [&](const Candidate& o) { return distance(o.unit, c.unit) < 1e-6; }))
      distinct.push_back(c);
  if (distinct.empty()) throw InputError("the model search found no unevaluated setting");

  auto point_of = [&](const Candidate& c) {
    OperatingPoint p;
    for (const auto& parameter : space.parameters()) p.names.push_back(parameter.name);
    p.params = c.params;
    p.epsilon = c.epsilon;
    p.utility = sigmoid(c.logit_mean);
    p.utility_std = logit_normal_sd(c.logit_mean, c.logit_sd);
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
    if (std::any_of(taken.begin(), taken.end(), [&](const auto& u) { return distance(u, c.unit) < 0.02; })) continue;
    taken.push_back(c.unit);
    result.alternatives.push_back(point_of(c));
    if (result.alternatives.size() >= 32) break;
  }
  return result;
}

}  // namespace dpareto::bo
