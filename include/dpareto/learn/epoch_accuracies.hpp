#pragma once
// The accuracy on one dataset of a training's parameters after each of its epochs (what an
// EpochObserver sees). A network without hidden layers has its vectors kept (a9a's logistic
// regression: 124 floats an epoch) and scored together when they are read, one pass over the data
// for all of them (accuracies()); a deeper network's are scored as they come, since keeping MLP1's
// would cost 3 MB an epoch and its hidden layers share no work between vectors. Scoring after the
// training also keeps the test rows out of the cache while it runs. A training that needs each
// epoch's accuracy as it ends (repeats stopped early together, issue 18) scores every vector as it
// comes instead (EpochScoring::as_added).
#include <Eigen/Core>
#include <cstddef>
#include <vector>

#include "dpareto/learn/network.hpp"

namespace dpareto::learn {

enum class EpochScoring { together, as_added };

class EpochAccuracies {
 public:
  // Parameters with a non-finite value (a diverged run) score `non_finite_score`.
  EpochAccuracies(const Network& net, const Dataset& data, int threads, double non_finite_score,
                  EpochScoring scoring = EpochScoring::together);

  void add(const Eigen::VectorXf& params);
  // One accuracy per add(), in order.
  std::vector<double> scores() const;
  // The accuracy of the last add() (as_added: already scored).
  double latest() const;

 private:
  const Network& net_;
  const Dataset& data_;
  int threads_;
  double non_finite_score_;
  EpochScoring scoring_;
  std::vector<double> scores_;          // one per add(); a kept vector's is filled in by scores()
  std::vector<Eigen::VectorXf> kept_;   // the vectors scored later, in order
  std::vector<std::size_t> kept_at_;    // their places in scores_
};

}  // namespace dpareto::learn
