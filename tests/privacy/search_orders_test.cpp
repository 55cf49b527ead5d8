// privacy::search_orders() (issue 18 item 1): the order grid `explore --known-epsilon` accounts with
// inside the acquisition. It must never report less ε than the default grid (it is a subset) and
// stay close to it where fronts live.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "dpareto/privacy/dpsgd_accountant.hpp"

using namespace dpareto::privacy;

TEST_CASE("search orders: a subset of the default grid, never below its epsilon, equal above 0.1 on Adult") {
  const auto all = default_orders(), search = search_orders();
  CHECK(search.size() == 189);
  for (double a : search) CHECK(std::binary_search(all.begin(), all.end(), a));
  // Random settings of the Adult space (n = 32561, lot 8..512, epochs 1..64, σ log-uniform 0.1..16).
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(0, 1);
  const int n = 32561;
  int above_tenth = 0, small = 0;
  for (int i = 0; i < 300; ++i) {
    const int lot = 8 + static_cast<int>(u(rng) * 505), epochs = 1 + static_cast<int>(u(rng) * 64);
    const double sigma = 0.1 * std::pow(160.0, u(rng)), q = static_cast<double>(lot) / n;
    const long long steps = std::max(1LL, std::llround(static_cast<double>(n) / lot)) * epochs;
    for (auto sampling : {Sampling::poisson, Sampling::fixed_size}) {
      const double exact = dpsgd_epsilon(sampling, q, sigma, steps, 1e-5).epsilon;
      const double bound = dpsgd_epsilon(sampling, q, sigma, steps, 1e-5, search).epsilon;
      INFO("lot " << lot << ", epochs " << epochs << ", sigma " << sigma << ": " << bound << " vs " << exact);
      CHECK(bound >= exact);
      if (exact >= 0.1 && exact <= 10) {
        CHECK(bound <= exact * (1 + 1e-9));
        ++above_tenth;
      }
      if (exact >= 0.01 && exact < 0.1) {
        CHECK(bound <= exact * 1.035);
        ++small;
      }
    }
  }
  CHECK(above_tenth > 100);  // both bands are exercised
  CHECK(small > 20);
}
