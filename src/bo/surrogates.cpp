#include "dpareto/bo/surrogates.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <numeric>

#include "dpareto/core/error.hpp"
#include "point_vectors.hpp"

namespace dpareto::bo {
namespace {

// An ok evaluation may have ε = +inf (no privacy); a surrogate sees its values capped here.
constexpr double kCapForSurrogate = 1e10;

gp::GpOptions surrogate_options(bool learn_noise, int restarts, bool warp) {
  gp::GpOptions o;
  o.learn_noise = learn_noise;
  o.random_restarts = restarts;
  o.input_warping = learn_noise && warp;
  return o;
}

}  // namespace

Surrogates::Surrogates(pareto::Objectives objectives, int restarts, bool noisy, std::vector<ExactObjective> exact,
                       bool warp_noisy)
    : objectives_(std::move(objectives)), exact_(std::move(exact)) {
  if (exact_.size() > objectives_.size()) throw std::logic_error("Surrogates: more exact objectives than objectives");
  for (const auto& o : objectives_.list)
    gps_.emplace_back(surrogate_options(noisy && !o.known_exactly, restarts, warp_noisy));
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
  return batch_means(X).means;
}

std::vector<GpPrediction> Surrogates::predict_batch(const Eigen::MatrixXd& X) const {
  std::vector<Eigen::Index> rows(static_cast<std::size_t>(X.rows()));
  std::iota(rows.begin(), rows.end(), 0);
  return batch_predictions(batch_means(X), rows);
}

Surrogates::Batch Surrogates::batch_means(const Eigen::MatrixXd& X) const {
  Batch batch{std::vector<pareto::Point>(static_cast<std::size_t>(X.rows()), pareto::Point(gps_.size())),
              std::vector<Eigen::MatrixXd>(gps_.size())};
  for (std::size_t j = 0; j < gps_.size(); ++j) {
    if (is_exact(j)) {
      const std::vector<double> values = exact_gp_values(j, X);
      for (std::size_t i = 0; i < values.size(); ++i) batch.means[i][j] = values[i];
      continue;
    }
    batch.cross[j] = gps_[j].cross_covariance(X);
    const Eigen::VectorXd mean = gps_[j].mean_from_cross(batch.cross[j]);
    for (Eigen::Index i = 0; i < X.rows(); ++i)
      batch.means[static_cast<std::size_t>(i)][j] = objectives_[j].orient(mean(i));
  }
  return batch;
}

std::vector<GpPrediction> Surrogates::batch_predictions(const Batch& batch,
                                                        const std::vector<Eigen::Index>& rows) const {
  std::vector<GpPrediction> out;
  out.reserve(rows.size());
  for (const Eigen::Index r : rows)
    out.push_back({batch.means[static_cast<std::size_t>(r)], pareto::Point(gps_.size(), 0.0)});
  for (std::size_t j = 0; j < gps_.size(); ++j) {
    if (is_exact(j)) continue;  // a point mass: sd 0
    const Eigen::VectorXd variance = gps_[j].variance_from_cross(batch.cross[j](Eigen::all, rows));
    for (std::size_t k = 0; k < rows.size(); ++k)
      out[k].sd[j] = std::max(std::sqrt(std::max(variance(static_cast<Eigen::Index>(k)), 0.0)), kMinGpSd);
  }
  return out;
}

}  // namespace dpareto::bo
