#include "dpareto/bo/surrogates.hpp"

#include <algorithm>
#include <cmath>

#include "dpareto/core/error.hpp"
#include "dpareto/gp/output_transform.hpp"

namespace dpareto::bo {
namespace {

// An ok evaluation may have ε = +inf (no privacy); the log-ε surrogate sees it capped here.
constexpr double kEpsilonCapForSurrogate = 1e10;

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

Surrogates::Surrogates(int restarts, bool utility_noisy)
    : epsilon_(surrogate_options(false, restarts)), utility_(surrogate_options(utility_noisy, restarts)) {}

void Surrogates::fit(const std::vector<Observation>& observations, const space::Space& space, Rng& rng,
                     int random_restarts, const std::vector<space::Params>& pending) {
  const int n = static_cast<int>(
      std::count_if(observations.begin(), observations.end(), [](const Observation& o) { return o.ok; }));
  if (n < 2) throw InputError("explorer: surrogates need at least 2 successful evaluations, have " + std::to_string(n));
  const auto d = static_cast<Eigen::Index>(space.dimension());
  Eigen::MatrixXd X(n, d);
  Eigen::VectorXd y_epsilon(n), y_utility(n);
  int row = 0;
  for (const auto& o : observations) {
    if (!o.ok) continue;
    X.row(row) = to_vector(space.to_unit(o.params)).transpose();
    y_epsilon(row) = gp::forward(gp::Transform::log, std::min(o.epsilon, kEpsilonCapForSurrogate));
    y_utility(row) = gp::forward(gp::Transform::logit, o.utility);
    ++row;
  }
  epsilon_.set_random_restarts(random_restarts);
  utility_.set_random_restarts(random_restarts);
  epsilon_.fit(X, y_epsilon, rng);
  utility_.fit(X, y_utility, rng);
  if (pending.empty()) return;
  // Kriging believer (asynchronous batch BO): pending settings join the data with their
  // predicted means as outcomes, hyperparameters unchanged, so proposals spread out.
  const auto m = static_cast<Eigen::Index>(pending.size());
  Eigen::MatrixXd P(m, d);
  for (Eigen::Index i = 0; i < m; ++i) P.row(i) = to_vector(space.to_unit(pending[i])).transpose();
  Eigen::VectorXd mean_e, var_e, mean_u, var_u;
  epsilon_.predict_batch(P, mean_e, var_e);
  utility_.predict_batch(P, mean_u, var_u);
  Eigen::MatrixXd X_all(n + m, d);
  X_all << X, P;
  Eigen::VectorXd ye_all(n + m), yu_all(n + m);
  ye_all << y_epsilon, mean_e;
  yu_all << y_utility, mean_u;
  epsilon_.condition(X_all, ye_all);
  utility_.condition(X_all, yu_all);
}

GpPrediction Surrogates::predict(const std::vector<double>& unit_x) const {
  const Eigen::VectorXd x = to_vector(unit_x);
  const auto e = epsilon_.predict(x);
  const auto u = utility_.predict(x);
  return {e.mean, std::sqrt(std::max(e.variance, 0.0)), u.mean, std::sqrt(std::max(u.variance, 0.0))};
}

}  // namespace dpareto::bo
