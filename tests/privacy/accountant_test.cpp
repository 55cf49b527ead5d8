// The RDP curve value type and the accountant seam (issue 19 item 5): composition adds at equal
// orders only, the accountant reproduces the DP-SGD accountant and a published figure, and the
// random-stopping curve is the one function `tune` and `account tuning` share.
#include <doctest/doctest.h>

#include <cmath>
#include <numeric>
#include <vector>

#include "dpareto/core/error.hpp"
#include "dpareto/privacy/accountant.hpp"
#include "dpareto/privacy/composition.hpp"
#include "dpareto/privacy/random_stopping_bound.hpp"

using namespace dpareto::privacy;

TEST_CASE("RdpCurve: composition, repetition, maximum and conversion") {
  const RdpCurve a({2, 4, 8}, {0.1, 0.3, 0.9}), b({2, 4, 8}, {0.2, 0.1, 1.0});
  const RdpCurve sum = a + b;
  CHECK(sum.values() == std::vector<double>{0.1 + 0.2, 0.3 + 0.1, 0.9 + 1.0});
  CHECK(a.times(3).values() == std::vector<double>{3 * 0.1, 3 * 0.3, 3 * 0.9});
  CHECK(RdpCurve::max(a, b).values() == std::vector<double>{0.2, 0.3, 1.0});
  CHECK(sum.epsilon(1e-5).epsilon == rdp_to_epsilon({2, 4, 8}, sum.values(), 1e-5).epsilon);
  CHECK(sum.delta(3).delta == rdp_to_delta({2, 4, 8}, sum.values(), 3).delta);
  // Curves at other orders cannot be composed by accident; bad values are refused.
  CHECK_THROWS_AS(a + RdpCurve({2, 4}, {0.1, 0.2}), dpareto::InputError);
  CHECK_THROWS_AS(RdpCurve({2, 4}, {0.1}), dpareto::InputError);
  CHECK_THROWS_AS(RdpCurve({1, 4}, {0.1, 0.2}), dpareto::InputError);
  CHECK_THROWS_AS(RdpCurve({2, 4}, {-0.1, 0.2}), dpareto::InputError);
  CHECK(RdpCurve::zero({2, 3}).epsilon(1e-5).epsilon == 0);
}

TEST_CASE("RdpAccountant: events compose additively and reproduce Abadi et al.'s figure") {
  std::vector<double> integers(31);
  std::iota(integers.begin(), integers.end(), 2.0);
  RdpAccountant twice(integers, Conversion::classic);
  twice.compose_subsampled_gaussian(Sampling::poisson, 0.01, 4, 5000);
  twice.compose_subsampled_gaussian(Sampling::poisson, 0.01, 4, 5000);
  const auto whole = dpsgd_rdp(Sampling::poisson, 0.01, 4, 10000, integers);
  for (std::size_t i = 0; i < whole.size(); ++i)
    CHECK(twice.curve().values()[i] == doctest::Approx(whole[i]).epsilon(1e-12));
  CHECK(twice.epsilon(1e-5).epsilon == doctest::Approx(1.26).epsilon(0.005));  // Abadi et al. 2016
  // A pure-DP event through compose_rdp: ε-DP is (α, min(ε, αε²/2))-RDP.
  RdpAccountant pure(integers);
  std::vector<double> rdp;
  for (double a : integers) rdp.push_back(pure_dp_rdp(0.5, a));
  pure.compose_rdp(RdpCurve(integers, rdp));
  CHECK(pure.epsilon(1e-5).epsilon == rdp_to_epsilon(integers, rdp, 1e-5).epsilon);
  CHECK(pure.delta(pure.epsilon(1e-5).epsilon).delta <= 1e-5 * (1 + 1e-9));  // the two directions agree
}

TEST_CASE("random_stopping_rdp: the run's curve plus its score, then the stopping bound, by hand") {
  const auto orders = default_orders();
  const RdpCurve training(orders, dpsgd_rdp(Sampling::poisson, 0.02, 3, 500, orders));
  std::vector<double> run = training.values();
  for (std::size_t i = 0; i < orders.size(); ++i) run[i] += pure_dp_rdp(0.05, orders[i]);
  CHECK(random_stopping_rdp(PoissonStopping{6}, training, 0.05).values() == poisson_stopping_rdp(orders, run, 6));
  CHECK(random_stopping_rdp(TruncatedNegativeBinomialStopping{1, 0.2}, training, std::nullopt).values() ==
        truncated_negative_binomial_stopping_rdp(orders, training.values(), 1, 0.2));
  CHECK_THROWS_AS(scored_run_rdp(training, 0), dpareto::InputError);
}
