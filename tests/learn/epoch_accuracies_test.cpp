// accuracies(): a linear model's parameter vectors scored side by side in one product must score
// exactly as accuracy() scores each alone; EpochAccuracies keeps the order of its vectors.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <random>
#include <set>
#include <vector>

#include "dpareto/core/error.hpp"
#include "dpareto/learn/epoch_accuracies.hpp"

using namespace dpareto::learn;

namespace {

// n rows of d features, each non-zero with probability 1/8 (a9a-like), labels from a noisy linear
// rule of `classes` classes, as sparse or dense storage.
Dataset random_dataset(int n, int d, int classes, bool sparse, std::uint64_t seed) {
  dpareto::Rng rng(seed);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::bernoulli_distribution non_zero(0.125);
  MatrixF x = MatrixF::Zero(n, d);
  std::vector<std::size_t> row_begin{0};
  std::vector<int> columns, labels;
  std::vector<float> values;
  for (int i = 0; i < n; ++i) {
    float score = normal(rng);
    for (int j = 0; j < d; ++j)
      if (non_zero(rng)) {
        x(i, j) = normal(rng);
        columns.push_back(j);
        values.push_back(x(i, j));
        score += (j % 3 == 0 ? 1.0f : -0.5f) * x(i, j);
      }
    row_begin.push_back(columns.size());
    labels.push_back(std::min(classes - 1, std::max(0, static_cast<int>(std::floor(score + classes / 2.0)))));
  }
  return sparse ? Dataset::from_sparse(row_begin, columns, values, d, labels, classes)
                : Dataset::from_dense(x, labels, classes);
}

std::vector<Eigen::VectorXf> random_vectors(const Network& net, int count, std::uint64_t seed) {
  dpareto::Rng rng(seed);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::vector<Eigen::VectorXf> result;
  for (int k = 0; k < count; ++k) {
    Eigen::VectorXf p(static_cast<Eigen::Index>(net.num_parameters()));
    for (auto& v : p) v = normal(rng);
    result.push_back(p);
  }
  return result;
}

}  // namespace

TEST_CASE("accuracies() equals accuracy() of each vector: linear models in one product, deeper ones alone") {
  const int d = 40;
  const std::vector<std::pair<Architecture, int>> cases = {
      {logistic_regression(d), 2},
      {linear_svm(d), 2},
      {{"softmax-linear", d, {}, 3, Loss::softmax_cross_entropy}, 3},  // column blocks of 3 logits
      {{"mlp", d, {7}, 3, Loss::softmax_cross_entropy}, 3}};
  for (const auto& [architecture, classes] : cases)
    for (const bool sparse : {true, false})
      for (const int threads : {1, 2}) {
        CAPTURE(architecture.name);
        CAPTURE(sparse);
        CAPTURE(threads);
        const Network net(architecture);
        // 2600 rows: three chunks of up to 1024, the last one short.
        const Dataset data = random_dataset(2600, d, classes, sparse, 5);
        const std::vector<Eigen::VectorXf> params = random_vectors(net, 9, 17);
        const std::vector<double> together = accuracies(net, params, data, threads);
        REQUIRE(together.size() == params.size());
        std::set<double> distinct;
        for (std::size_t k = 0; k < params.size(); ++k) {
          CHECK(together[k] == accuracy(net, params[k], data, threads));
          distinct.insert(together[k]);
        }
        CHECK(distinct.size() >= 5);  // the vectors score differently, so a swapped block would show
      }
}

TEST_CASE("accuracies() of no vector and of one; a vector of the wrong size is refused") {
  const Network net(logistic_regression(12));
  const Dataset data = random_dataset(300, 12, 2, true, 2);
  CHECK(accuracies(net, {}, data, 1).empty());
  const std::vector<Eigen::VectorXf> one = random_vectors(net, 1, 3);
  CHECK(accuracies(net, one, data, 1) == std::vector<double>{accuracy(net, one[0], data, 1)});
  std::vector<Eigen::VectorXf> bad = random_vectors(net, 3, 4);
  bad[1].resize(5);
  CHECK_THROWS_AS(accuracies(net, bad, data, 1), dpareto::InputError);
}

TEST_CASE("EpochAccuracies: one score per vector in order, a non-finite vector scoring the given floor") {
  for (const Architecture& architecture :
       {logistic_regression(20), Architecture{"mlp", 20, {6}, 2, Loss::softmax_cross_entropy}}) {
    CAPTURE(architecture.name);
    const Network net(architecture);
    const Dataset data = random_dataset(1500, 20, 2, true, 8);
    std::vector<Eigen::VectorXf> params = random_vectors(net, 6, 9);
    params[2][0] = std::numeric_limits<float>::quiet_NaN();
    params[4][1] = std::numeric_limits<float>::infinity();
    EpochAccuracies epochs(net, data, 1, 0.25);
    for (const Eigen::VectorXf& p : params) epochs.add(p);
    const std::vector<double> scores = epochs.scores();
    REQUIRE(scores.size() == 6);
    for (const std::size_t k : {0u, 1u, 3u, 5u}) CHECK(scores[k] == accuracy(net, params[k], data, 1));
    CHECK(scores[2] == 0.25);
    CHECK(scores[4] == 0.25);
    CHECK(scores == epochs.scores());  // reading twice changes nothing
  }
}
