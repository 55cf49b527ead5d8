// Issue 18 item 1: ε computed exactly inside the acquisition (ExplorerOptions::known_epsilon).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "dpareto/bo/explorer.hpp"
#include "dpareto/core/error.hpp"
#include "trade_off_problem.hpp"

using namespace dpareto;

namespace {

using test::trade_off_space;

constexpr auto epsilon_of = &test::trade_off_epsilon;
constexpr auto evaluate = &test::trade_off_outcome;

bo::ExplorerOptions options(bool known) {
  bo::ExplorerOptions o = test::quick_trade_off_options();
  o.known_epsilon = known;
  return o;
}

// ε of each of `evaluations` proposals, each told its outcome.
std::vector<double> proposed_epsilons(bo::Explorer& explorer, int evaluations) {
  return test::propose_and_tell(explorer, evaluations, evaluate, epsilon_of);
}

}  // namespace

TEST_CASE("known epsilon: no proposal, initial or BO, beyond the epsilon reference") {
  for (std::uint64_t seed : {1, 2, 3}) {
    bo::Explorer known(trade_off_space(), options(true), seed, epsilon_of);
    const auto epsilons = proposed_epsilons(known, 24);
    INFO("seed " << seed);
    CHECK(*std::max_element(epsilons.begin(), epsilons.end()) <= 10);
    // The same loop with ε modelled does propose beyond it (a test that can fail): uniform initial
    // settings have ε > 10 with probability about 0.6.
    bo::Explorer modelled(trade_off_space(), options(false), seed, epsilon_of);
    const auto modelled_epsilons = proposed_epsilons(modelled, 24);
    CHECK(*std::max_element(modelled_epsilons.begin(), modelled_epsilons.end()) > 10);
  }
}

TEST_CASE("known epsilon: the surrogates predict the oracle's epsilon as a point mass, no GP fitted") {
  bo::Explorer explorer(trade_off_space(), options(true), 5, epsilon_of);
  proposed_epsilons(explorer, 12);
  explorer.fit_surrogates();
  CHECK(explorer.surrogates().is_exact(0));
  CHECK_FALSE(explorer.surrogates().is_exact(1));
  CHECK(explorer.surrogates().gp(0).theta().size() == 0);
  for (const auto& x : {std::vector<double>{0.1, 0.2}, {0.5, 0.5}, {0.93, 1.0}}) {
    const auto p = explorer.predict(x);
    CHECK(p.sd[0] == 0.0);
    CHECK(p.mean[0] == doctest::Approx(std::log(epsilon_of(trade_off_space().from_unit(x)))).epsilon(1e-12));
    CHECK(p.sd[1] > 0);
  }
  // Means, batches and single predictions agree.
  Eigen::MatrixXd X(2, 2);
  X << 0.1, 0.2, 0.7, 0.4;
  const auto means = explorer.surrogates().predict_means(X);
  const auto batch = explorer.surrogates().predict_batch(X);
  for (int i = 0; i < 2; ++i) {
    const auto single = explorer.predict({X(i, 0), X(i, 1)});
    CHECK(means[static_cast<std::size_t>(i)][0] == single.mean[0]);
    CHECK(batch[static_cast<std::size_t>(i)].mean[0] == single.mean[0]);
    CHECK(batch[static_cast<std::size_t>(i)].sd[0] == 0.0);
  }
  // The two-step batch at row 1 only: the exact ε and the utility GP's mean and sd of that row.
  const auto step = explorer.surrogates().batch_predictions(explorer.surrogates().batch_means(X), {1});
  REQUIRE(step.size() == 1);
  CHECK(step[0].mean == batch[1].mean);
  CHECK(step[0].sd[0] == 0.0);
  CHECK(step[0].sd[1] == doctest::Approx(batch[1].sd[1]).epsilon(1e-13));
}

TEST_CASE("known epsilon: a resumed explorer continues identically; the option needs an oracle") {
  bo::Explorer uninterrupted(trade_off_space(), options(true), 9, epsilon_of);
  const auto full = proposed_epsilons(uninterrupted, 14);
  bo::Explorer first(trade_off_space(), options(true), 9, epsilon_of);
  auto head = proposed_epsilons(first, 9);
  bo::Explorer resumed(trade_off_space(), options(true), 9, epsilon_of);
  for (const auto& o : first.observations()) resumed.tell(o);
  resumed.restore_state(first.state());
  const auto tail = proposed_epsilons(resumed, 5);
  head.insert(head.end(), tail.begin(), tail.end());
  CHECK(head == full);

  CHECK_THROWS_WITH_AS(bo::Explorer(trade_off_space(), options(true), 1), doctest::Contains("privacy oracle"),
                       InputError);
}

TEST_CASE("known epsilon: an oracle that throws inside the parallel batch surfaces as its exception") {
  bo::Explorer explorer(trade_off_space(), options(true), 4, [](const space::Params& p) {
    if (p[1] > 15) throw InputError("cannot account steps " + std::to_string(p[1]));
    return epsilon_of(p);
  });
  for (int i = 0; i < 3; ++i) {  // initial points with few steps
    explorer.tell(evaluate({1.0 + i, 3.0 + i}));
  }
  explorer.fit_surrogates();
  Eigen::MatrixXd X(64, 2);
  for (int i = 0; i < 64; ++i) X.row(i) << (i + 0.5) / 64, (i + 0.5) / 64;
  CHECK_THROWS_WITH_AS(explorer.surrogates().predict_means(X), doctest::Contains("cannot account steps"), InputError);
}

TEST_CASE("known epsilon: a unit point is scored at the setting it rounds to, single and batched") {
  // steps is an integer in [1, 20]: unit (k + 0.3) / 19 is k + 1.3 steps before rounding (to k + 1).
  const auto space = trade_off_space();
  for (const bool known : {true, false}) {
    bo::Explorer explorer(space, options(known), 6, epsilon_of);
    proposed_epsilons(explorer, 14);
    explorer.fit_surrogates();
    auto function = explorer.acquisition_function();
    Eigen::MatrixXd X(80, 2);
    for (int i = 0; i < 80; ++i) X.row(i) << (i / 8 + 0.5) / 10, (2 * (i % 8) + 0.3) / 19;
    const auto batched = function.values(X);
    int differ_from_snapped = 0;
    CHECK(std::count_if(batched.begin(), batched.end(), [](double v) { return v > 0; }) >= 5);  // not all flat zeros
    for (Eigen::Index i = 0; i < X.rows(); ++i) {
      const std::vector<double> x{X(i, 0), X(i, 1)};
      const auto at_setting = space.to_unit(space.from_unit(x));
      INFO("known " << known << ", row " << i);
      REQUIRE(at_setting[1] != x[1]);  // every row has fractional steps
      CHECK(explorer.acquisition_at(x) == doctest::Approx(function.value(x)).epsilon(1e-12));
      CHECK(batched[static_cast<std::size_t>(i)] == doctest::Approx(function.value(x)).epsilon(1e-9));
      if (known)
        CHECK(explorer.acquisition_at(x) == explorer.acquisition_at(at_setting));
      else
        differ_from_snapped += explorer.acquisition_at(x) != explorer.acquisition_at(at_setting);
    }
    // With ε modelled both GPs are continuous in the unit cube: no snapping (a check that can fail).
    if (!known) CHECK(differ_from_snapped > 0);
  }
}
