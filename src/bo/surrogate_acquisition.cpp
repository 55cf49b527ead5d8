#include "dpareto/bo/surrogate_acquisition.hpp"

#include <cmath>
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
  const Eigen::VectorXd mean_e = surrogates_.epsilon().predict_mean_batch(X);
  const Eigen::VectorXd mean_u = surrogates_.utility().predict_mean_batch(X);
  active_ = &acquisition_;
  std::vector<double> values(static_cast<std::size_t>(n), 0.0);
  std::vector<Eigen::Index> to_score;
  for (Eigen::Index i = 0; i < n; ++i)
    if (acquisition_.may_improve(region_, mean_e(i), mean_u(i))) to_score.push_back(i);
  if (to_score.empty()) {
    active_ = &fallback_;
    to_score.resize(static_cast<std::size_t>(n));
    std::iota(to_score.begin(), to_score.end(), 0);
  }
  Eigen::MatrixXd S(static_cast<Eigen::Index>(to_score.size()), X.cols());
  for (std::size_t k = 0; k < to_score.size(); ++k) S.row(static_cast<Eigen::Index>(k)) = X.row(to_score[k]);
  Eigen::VectorXd me, ve, mu, vu;
  surrogates_.epsilon().predict_batch(S, me, ve);
  surrogates_.utility().predict_batch(S, mu, vu);
  for (std::size_t k = 0; k < to_score.size(); ++k) {
    const auto j = static_cast<Eigen::Index>(k);
    values[static_cast<std::size_t>(to_score[k])] = active_->value(
        region_, GpPrediction{me(j), std::sqrt(std::max(ve(j), 0.0)), mu(j), std::sqrt(std::max(vu(j), 0.0))});
  }
  return values;
}

}  // namespace dpareto::bo
