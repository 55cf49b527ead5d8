#include "dpareto/bo/surrogate_acquisition.hpp"

#include <numeric>

namespace dpareto::bo {

SurrogateAcquisition::SurrogateAcquisition(const Surrogates& surrogates, const ImprovementRegion& region,
                                           const Acquisition& acquisition, const Acquisition& fallback)
    : surrogates_(surrogates), region_(region), acquisition_(acquisition), fallback_(fallback), active_(&acquisition) {}

double SurrogateAcquisition::value(const std::vector<double>& x) {
  return active_->value(region_, surrogates_.predict(x));
}

std::vector<double> SurrogateAcquisition::values(const Eigen::MatrixXd& X) {
  const Eigen::Index n = X.rows();
  const std::vector<pareto::Point> means = surrogates_.predict_means(X);
  active_ = &acquisition_;
  std::vector<double> values(static_cast<std::size_t>(n), 0.0);
  std::vector<Eigen::Index> to_score;
  for (Eigen::Index i = 0; i < n; ++i)
    if (acquisition_.may_improve(region_, means[static_cast<std::size_t>(i)])) to_score.push_back(i);
  if (to_score.empty()) {
    active_ = &fallback_;
    to_score.resize(static_cast<std::size_t>(n));
    std::iota(to_score.begin(), to_score.end(), 0);
  }
  Eigen::MatrixXd S(static_cast<Eigen::Index>(to_score.size()), X.cols());
  std::vector<pareto::Point> scored_means;
  for (std::size_t k = 0; k < to_score.size(); ++k) {
    S.row(static_cast<Eigen::Index>(k)) = X.row(to_score[k]);
    scored_means.push_back(means[static_cast<std::size_t>(to_score[k])]);
  }
  const std::vector<GpPrediction> predictions = surrogates_.predict_batch(S, &scored_means);
  // Each value on its own (EHVI's logit-normal quadrature makes the fallback the costly case).
  const Acquisition& active = *active_;
  const auto scored = static_cast<std::ptrdiff_t>(to_score.size());
#pragma omp parallel for schedule(dynamic, 8)
  for (std::ptrdiff_t k = 0; k < scored; ++k)
    values[static_cast<std::size_t>(to_score[static_cast<std::size_t>(k)])] =
        active.value(region_, predictions[static_cast<std::size_t>(k)]);
  return values;
}

}  // namespace dpareto::bo
