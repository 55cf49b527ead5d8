#pragma once
// Per-example predictions of a trained network (what `dpareto predict` writes): the predicted
// class by Network::predicted_class, on the same row chunks as accuracy(), so that the fraction of
// correct predictions equals accuracy() exactly; and the class scores:
//   logistic head: P[class 0] = 1 − σ(z), P[class 1] = σ(z)   (columns p0, p1)
//   softmax head:  softmax(z)_k                                   (columns p0 .. p{K−1})
//   hinge head:    the margin z (a linear SVM has no probabilities; class 1 iff z > 0) (column margin)
#include <string>
#include <vector>

#include "dpareto/learn/dataset.hpp"
#include "dpareto/learn/network.hpp"

namespace dpareto::learn {

struct Predictions {
  std::vector<int> classes;              // one per example
  MatrixF scores;                        // one row per example, one column per score name
  std::vector<std::string> score_names;  // CSV column names of the scores
  long long correct = 0;                 // examples whose class equals the label
};

// Evaluated in chunks of rows over `threads` threads.
Predictions predict(const Network& net, const Eigen::VectorXf& params, const Dataset& data, int threads);

}  // namespace dpareto::learn
