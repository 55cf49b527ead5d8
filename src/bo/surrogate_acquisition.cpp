#include "dpareto/bo/surrogate_acquisition.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>

#include "point_vectors.hpp"

namespace dpareto::bo {

SurrogateAcquisition::SurrogateAcquisition(const Surrogates& surrogates, const ImprovementRegion& region,
                                           const Acquisition& acquisition, const Acquisition& fallback,
                                           const space::Space* snap_to, const gp::GaussianProcess* log_seconds)
    : surrogates_(surrogates),
      region_(region),
      acquisition_(acquisition),
      fallback_(fallback),
      active_(&acquisition),
      snap_to_(snap_to),
      log_seconds_(log_seconds) {}

std::vector<double> SurrogateAcquisition::snapped(const std::vector<double>& x) const {
  return snap_to_ ? snap_to_->to_unit(snap_to_->from_unit(x)) : x;
}

double SurrogateAcquisition::value(const std::vector<double>& x) {
  const std::vector<double> at = snapped(x);
  const double a = active_->value(region_, surrogates_.predict(at));
  return log_seconds_ ? a / std::exp(log_seconds_->predict(to_vector(at)).mean) : a;
}

Eigen::MatrixXd SurrogateAcquisition::snapped_rows(const Eigen::MatrixXd& X) const {
  Eigen::MatrixXd out = X;
  if (snap_to_)
    for (Eigen::Index i = 0; i < X.rows(); ++i) out.row(i) = to_vector(snapped(row_of(X, i))).transpose();
  return out;
}

std::vector<double> SurrogateAcquisition::values(const Eigen::MatrixXd& X) {
  const Eigen::Index n = X.rows();
  const Eigen::MatrixXd at = snapped_rows(X);
  const Surrogates::Batch batch = surrogates_.batch_means(at);
  active_ = &acquisition_;
  std::vector<double> values(static_cast<std::size_t>(n), 0.0);
  std::vector<Eigen::Index> to_score;
  for (Eigen::Index i = 0; i < n; ++i)
    if (acquisition_.may_improve(region_, batch.means[static_cast<std::size_t>(i)])) to_score.push_back(i);
  if (to_score.empty()) {
    active_ = &fallback_;
    to_score.resize(static_cast<std::size_t>(n));
    std::iota(to_score.begin(), to_score.end(), 0);
  }
  const std::vector<GpPrediction> predictions = surrogates_.batch_predictions(batch, to_score);
  // The predicted seconds of the scored candidates (1 without a cost GP): a value per second.
  std::vector<double> seconds(to_score.size(), 1.0);
  if (log_seconds_) {
    const Eigen::VectorXd log_cost = log_seconds_->predict_mean_batch(at(to_score, Eigen::all));
    for (std::size_t k = 0; k < to_score.size(); ++k) seconds[k] = std::exp(log_cost(static_cast<Eigen::Index>(k)));
  }
  const std::vector<double> scored =
      active_ == &fallback_ ? top_values(predictions, seconds) : all_values(predictions, seconds);
  for (std::size_t k = 0; k < to_score.size(); ++k) values[static_cast<std::size_t>(to_score[k])] = scored[k];
  return values;
}

std::vector<double> SurrogateAcquisition::all_values(const std::vector<GpPrediction>& predictions,
                                                     const std::vector<double>& seconds) const {
  const Acquisition& active = *active_;
  std::vector<double> values(predictions.size());
  const auto n = static_cast<std::ptrdiff_t>(predictions.size());
#pragma omp parallel for schedule(dynamic, 8)
  for (std::ptrdiff_t k = 0; k < n; ++k)
    values[static_cast<std::size_t>(k)] =
        active.value(region_, predictions[static_cast<std::size_t>(k)]) / seconds[static_cast<std::size_t>(k)];
  return values;
}

std::vector<double> SurrogateAcquisition::top_values(const std::vector<GpPrediction>& predictions,
                                                     const std::vector<double>& seconds) const {
  const Acquisition& active = *active_;
  const std::size_t n = predictions.size();
  // Bounds per second bound values per second: the pruning below compares like with like.
  std::vector<double> bounds(n);
#pragma omp parallel for schedule(dynamic, 8)
  for (std::ptrdiff_t k = 0; k < static_cast<std::ptrdiff_t>(n); ++k)
    bounds[static_cast<std::size_t>(k)] =
        active.upper_bound(region_, predictions[static_cast<std::size_t>(k)]) / seconds[static_cast<std::size_t>(k)];
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return bounds[a] > bounds[b]; });
  // Exact values in order of their bounds, a batch at a time, until the next bound is below the
  // kExactRanks-th best exact value: no candidate left can enter the top kExactRanks. The others
  // keep their bounds, which are below every value of that top.
  std::vector<double> values = bounds, best;  // best: the exact values so far, largest first
  constexpr std::size_t kBatch = 32;
  for (std::size_t begin = 0; begin < n; begin += kBatch) {
    if (best.size() >= kExactRanks && bounds[order[begin]] < best[kExactRanks - 1]) break;
    const auto end = static_cast<std::ptrdiff_t>(std::min(n, begin + kBatch));
#pragma omp parallel for schedule(dynamic, 4)
    for (auto i = static_cast<std::ptrdiff_t>(begin); i < end; ++i)
      values[order[static_cast<std::size_t>(i)]] = active.value(region_, predictions[order[static_cast<std::size_t>(i)]]) /
                                                   seconds[order[static_cast<std::size_t>(i)]];
    for (auto i = static_cast<std::ptrdiff_t>(begin); i < end; ++i)
      best.insert(
          std::upper_bound(best.begin(), best.end(), values[order[static_cast<std::size_t>(i)]], std::greater<>()),
          values[order[static_cast<std::size_t>(i)]]);
  }
  return values;
}

}  // namespace dpareto::bo
