#include "dpareto/learn/epoch_accuracies.hpp"

namespace dpareto::learn {

EpochAccuracies::EpochAccuracies(const Network& net, const Dataset& data, int threads, double non_finite_score,
                                 EpochScoring scoring)
    : net_(net), data_(data), threads_(threads), non_finite_score_(non_finite_score), scoring_(scoring) {}

void EpochAccuracies::add(const Eigen::VectorXf& params) {
  if (!params.allFinite()) {
    scores_.push_back(non_finite_score_);
  } else if (net_.num_layers() == 1 && scoring_ == EpochScoring::together) {
    kept_at_.push_back(scores_.size());
    scores_.push_back(0);
    kept_.push_back(params);
  } else {
    scores_.push_back(accuracy(net_, params, data_, threads_));
  }
}

std::vector<double> EpochAccuracies::scores() const {
  std::vector<double> result = scores_;
  const std::vector<double> pending = accuracies(net_, kept_, data_, threads_);
  for (std::size_t k = 0; k < kept_.size(); ++k) result[kept_at_[k]] = pending[k];
  return result;
}

double EpochAccuracies::latest() const {
  if (!kept_at_.empty() && kept_at_.back() + 1 == scores_.size())
    return accuracy(net_, kept_.back(), data_, threads_);
  return scores_.back();
}

}  // namespace dpareto::learn
