// The mean of repeated utilities stays inside their [min, max]: ten repeats that all gave the
// majority-class accuracy of Adult's test split used to average an ulp above it, and
// Problem::evaluate rejected 7 of 8 evaluations of a fresh adult-logreg-sgd run as
// "utility outside its own [utility_min, utility_max]".
#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

#include "dpareto/problems/problem.hpp"

using dpareto::problems::mean_within_range;

TEST_CASE("mean_within_range: equal repeats average to themselves, others to their mean") {
  const std::vector<double> same(10, 0.7637737239727289);  // 12435 / 16281, Adult's majority class
  CHECK(std::accumulate(same.begin(), same.end(), 0.0) / 10 != 0.7637737239727289);  // the naive mean drifts
  CHECK(mean_within_range(same, same.front(), same.front()) == 0.7637737239727289);

  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(0.5, 0.9);
  for (int trial = 0; trial < 1000; ++trial) {
    std::vector<double> v(1 + trial % 20);
    for (auto& x : v) x = u(rng);
    const double lo = *std::min_element(v.begin(), v.end()), hi = *std::max_element(v.begin(), v.end());
    const double m = mean_within_range(v, lo, hi);
    REQUIRE(m >= lo);
    REQUIRE(m <= hi);
    REQUIRE(m == doctest::Approx(std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size())));
  }
}
