#include "dpareto/bo/surrogates.hpp"

#include <algorithm>
#include <cmath>
#include <exception>

#include "dpareto/core/error.hpp"

namespace dpareto::bo {
namespace {

// An ok evaluation may have ε = +inf (no privacy); a surrogate sees its values capped here.
constexpr double kCapForSurrogate = 1e10;

gp::GpOptions surrogate_options(bool learn_noise, int restarts) {
  gp::GpOptions o;
  o.learn_noise = learn_noise;
  o.random_restarts = restarts;
  return o;
}

Eigen::VectorXd to_vector(const std::vector<double>& v) {
  return Eigen::Map<const Eigen::VectorXd>(v.data(), static_cast<Eigen::Index>(v.size()));
}

// Row `row` of X as a unit-cube point.
std::vector<double> row_of(const Eigen::MatrixXd& X, Eigen::Index row) {
  std::vector<double> v(static_cast<std::size_t>(X.cols()));
  for (Eigen::Index c = 0; c < X.cols(); ++c) v[static_cast<std::size_t>(c)] = X(row, c);
  return v;
}

}  // namespace

Surrogates::Surrogates(pareto::Objectives objectives, int restarts, bool noisy, std::vector<ExactObjective> exact)
    : objectives_(std::move(objectives)), exact_(std::move(exact)) {
  if (exact_.size() > objectives_.size()) throw std::logic_error("Surrogates: more exact objectives than objectives");
  for (const auto& o : objectives_.list) gps_.emplace_back(surrogate_options(noisy && !o.known_exactly, restarts));
}

const Eigen::MatrixXd& Surrogates::inputs() const {
  for (std::size_t j = 0; j < gps_.size(); ++j)
    if (!is_exact(j)) return gps_[j].inputs();
  throw std::logic_error("Surrogates: every objective is exact, no GP has inputs");
}

double Surrogates::exact_gp_value(std::size_t d, const std::vector<double>& unit_x) const {
  return objectives_[d].to_gp(std::min(exact_[d](unit_x), kCapForSurrogate));
}

std::vector<double> Surrogates::exact_gp_values(std::size_t d, const Eigen::MatrixXd& X) const {
  std::vector<double> values(static_cast<std::size_t>(X.rows()));
  // An accountant takes ~0.5 ms a setting: thousands of candidates are worth the cores. No exception
  // may cross the parallel region: the first one is rethrown after it.
  std::exception_ptr failure;
#pragma omp parallel for schedule(dynamic, 16)
  for (Eigen::Index i = 0; i < X.rows(); ++i) {
    try {
      values[static_cast<std::size_t>(i)] = exact_gp_value(d, row_of(X, i));
    } catch (...) {
#pragma omp critical(exact_objective_failure)
      if (!failure) failure = std::current_exception();
    }
  }
  if (failure) std::rethrow_exception(failure);
  return values;
}

void Surrogates::fit(const std::vector<Observation>& observations, const space::Space& space, Rng& rng,
                     int random_restarts, const std::vector<space::Params>& pending) {
  const int n = static_cast<int>(
      std::count_if(observations.begin(), observations.end(), [](const Observation& o) { return o.ok; }));
  if (n < 2) throw InputError("explorer: surrogates need at least 2 successful evaluations, have " + std::to_string(n));
  const auto d = static_cast<Eigen::Index>(space.dimension());
  const std::size_t k = gps_.size();
  Eigen::MatrixXd X(n, d);
  std::vector<Eigen::VectorXd> y(k, Eigen::VectorXd(n));
  int row = 0;
  for (const auto& o : observations) {
    if (!o.ok) continue;
    if (o.values.size() != k)
      throw InputError("explorer: an observation has " + std::to_string(o.values.size()) +
                       " objective values, expected " + std::to_string(k));
    X.row(row) = to_vector(space.to_unit(o.params)).transpose();
    for (std::size_t j = 0; j < k; ++j)
      y[j](row) = pareto::forward(objectives_[j].surrogate, std::min(o.values[j], kCapForSurrogate));
    ++row;
  }
  for (auto& g : gps_) g.set_random_restarts(random_restarts);
  for (std::size_t j = 0; j < k; ++j)
    if (!is_exact(j)) gps_[j].fit(X, y[j], rng);
  if (pending.empty()) return;
  // Kriging believer (asynchronous batch BO): pending settings join the data with their
  // predicted means as outcomes, hyperparameters unchanged, so proposals spread out.
  const auto m = static_cast<Eigen::Index>(pending.size());
  Eigen::MatrixXd P(m, d);
  for (Eigen::Index i = 0; i < m; ++i) P.row(i) = to_vector(space.to_unit(pending[i])).transpose();
  Eigen::MatrixXd X_all(n + m, d);
  X_all << X, P;
  for (std::size_t j = 0; j < k; ++j) {
    if (is_exact(j)) continue;
    Eigen::VectorXd mean, variance;
    gps_[j].predict_batch(P, mean, variance);
    Eigen::VectorXd y_all(n + m);
    y_all << y[j], mean;
    gps_[j].condition(X_all, y_all);
  }
}

GpPrediction Surrogates::predict(const std::vector<double>& unit_x) const {
  const Eigen::VectorXd x = to_vector(unit_x);
  GpPrediction p;
  for (std::size_t j = 0; j < gps_.size(); ++j) {
    if (is_exact(j)) {
      p.mean.push_back(exact_gp_value(j, unit_x));
      p.sd.push_back(0.0);
      continue;
    }
    const auto g = gps_[j].predict(x);
    p.mean.push_back(objectives_[j].orient(g.mean));
    p.sd.push_back(std::max(std::sqrt(std::max(g.variance, 0.0)), kMinGpSd));
  }
  return p;
}

std::vector<pareto::Point> Surrogates::predict_means(const Eigen::MatrixXd& X) const {
  std::vector<pareto::Point> means(static_cast<std::size_t>(X.rows()), pareto::Point(gps_.size()));
  for (std::size_t j = 0; j < gps_.size(); ++j) {
    if (is_exact(j)) {
      const std::vector<double> values = exact_gp_values(j, X);
      for (std::size_t i = 0; i < values.size(); ++i) means[i][j] = values[i];
      continue;
    }
    const Eigen::VectorXd mean = gps_[j].predict_mean_batch(X);
    for (Eigen::Index i = 0; i < X.rows(); ++i) means[static_cast<std::size_t>(i)][j] = objectives_[j].orient(mean(i));
  }
  return means;
}

std::vector<GpPrediction> Surrogates::predict_batch(const Eigen::MatrixXd& X,
                                                    const std::vector<pareto::Point>* known_means) const {
  std::vector<GpPrediction> out(static_cast<std::size_t>(X.rows()),
                                GpPrediction{pareto::Point(gps_.size()), pareto::Point(gps_.size())});
  for (std::size_t j = 0; j < gps_.size(); ++j) {
    if (is_exact(j)) {
      const std::vector<double> values = known_means ? std::vector<double>{} : exact_gp_values(j, X);
      for (std::size_t i = 0; i < out.size(); ++i) {
        out[i].mean[j] = known_means ? (*known_means)[i][j] : values[i];
        out[i].sd[j] = 0.0;
      }
      continue;
    }
    Eigen::VectorXd mean, variance;
    gps_[j].predict_batch(X, mean, variance);
    for (Eigen::Index i = 0; i < X.rows(); ++i) {
      auto& p = out[static_cast<std::size_t>(i)];
      p.mean[j] = objectives_[j].orient(mean(i));
      p.sd[j] = std::max(std::sqrt(std::max(variance(i), 0.0)), kMinGpSd);
    }
  }
  return out;
}

}  // namespace dpareto::bo
