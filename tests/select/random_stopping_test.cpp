// Random stopping: K's distributions against their pmfs, and the best-of-K selection.
// Chi-square over the bins K = lo..hi with both tails pooled, 100000 draws from a seeded source;
// critical values χ²_{0.999}(df) from tables: df 10 → 29.588, df 12 → 32.909.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "dpareto/core/error.hpp"
#include "dpareto/privacy/secure_noise.hpp"
#include "dpareto/select/random_stopping.hpp"

using namespace dpareto::select;
using dpareto::privacy::ChaChaRandomSource;

namespace {

// Bins {<= lo}, lo+1, ..., hi−1, {>= hi}: hi − lo + 1 bins.
double chi2_of_draws(const StoppingRule& rule, std::uint64_t lo, std::uint64_t hi, ChaChaRandomSource& source,
                     double* mean) {
  const int n = 100000;
  std::vector<double> counts(hi - lo + 1, 0.0), expected(hi - lo + 1, 0.0);
  double sum = 0;
  for (int i = 0; i < n; ++i) {
    const std::uint64_t k = draw_stopping_count(rule, source);
    sum += double(k);
    counts[k <= lo ? 0 : k >= hi ? hi - lo : k - lo] += 1;
  }
  double below = 0;
  for (std::uint64_t k = 0; k <= lo; ++k) below += stopping_pmf(rule, k);
  expected[0] = below;
  double inner = below;
  for (std::uint64_t k = lo + 1; k < hi; ++k) {
    expected[k - lo] = stopping_pmf(rule, k);
    inner += expected[k - lo];
  }
  expected[hi - lo] = 1 - inner;
  double chi2 = 0;
  for (std::size_t b = 0; b < counts.size(); ++b) {
    REQUIRE(expected[b] * n >= 5);
    chi2 += (counts[b] - expected[b] * n) * (counts[b] - expected[b] * n) / (expected[b] * n);
  }
  *mean = sum / n;
  return chi2;
}

}  // namespace

TEST_CASE("random stopping: K follows its distribution") {
  ChaChaRandomSource source(41);
  double mean = 0;
  SUBCASE("Poisson(3.5), df 10") {
    const StoppingRule rule = PoissonStopping{3.5};
    CHECK(chi2_of_draws(rule, 0, 10, source, &mean) < 29.588);
    CHECK(std::abs(mean - 3.5) < 5 * std::sqrt(3.5 / 100000));
  }
  SUBCASE("geometric (eta = 1, gamma = 0.2), df 12") {
    const StoppingRule rule = TruncatedNegativeBinomialStopping{1, 0.2};
    CHECK(stopping_pmf(rule, 3) == doctest::Approx(0.2 * 0.8 * 0.8));
    CHECK(stopping_mean(rule) == doctest::Approx(5));
    CHECK(chi2_of_draws(rule, 1, 13, source, &mean) < 32.909);
    CHECK(std::abs(mean - 5) < 5 * std::sqrt(20.0 / 100000));
  }
  SUBCASE("logarithmic (eta = 0, gamma = 0.1), df 10") {
    const StoppingRule rule = TruncatedNegativeBinomialStopping{0, 0.1};
    CHECK(stopping_pmf(rule, 2) == doctest::Approx(0.81 / (2 * std::log(10.0))));
    CHECK(chi2_of_draws(rule, 1, 11, source, &mean) < 29.588);
    CHECK(mean == doctest::Approx(stopping_mean(rule)).epsilon(0.03));
  }
  SUBCASE("eta = -0.5, gamma = 0.05, df 10") {
    const StoppingRule rule = TruncatedNegativeBinomialStopping{-0.5, 0.05};
    double total = 0;
    for (std::uint64_t k = 1; k < 20000; ++k) total += stopping_pmf(rule, k);
    CHECK(total == doctest::Approx(1).epsilon(1e-6));
    CHECK(chi2_of_draws(rule, 1, 11, source, &mean) < 29.588);
    CHECK(mean == doctest::Approx(stopping_mean(rule)).epsilon(0.05));
  }
}

TEST_CASE("random stopping: the best of the K runs is released") {
  ChaChaRandomSource source(42);
  const std::vector<double> utility{0.1, 0.7, 0.3, 0.9, 0.5};
  for (int trial = 0; trial < 50; ++trial) {
    std::vector<std::size_t> seen;
    const auto result = random_stopping_select(
        utility.size(), PoissonStopping{4},
        [&](std::size_t c, std::uint64_t) {
          seen.push_back(c);
          return utility[c];
        },
        source);
    REQUIRE(seen.size() == result.runs);
    if (result.runs == 0) {
      CHECK_FALSE(result.selected.has_value());
      continue;
    }
    std::size_t best = seen.front();
    for (std::size_t c : seen) best = utility[c] > utility[best] ? c : best;
    CHECK(*result.selected == best);
    CHECK(result.best_utility == utility[best]);
  }
  CHECK_THROWS_AS(random_stopping_select(
                      0, PoissonStopping{1}, [](std::size_t, std::uint64_t) { return 0.5; }, source),
                  dpareto::InputError);
  CHECK_THROWS_AS(draw_stopping_count(TruncatedNegativeBinomialStopping{-1, 0.5}, source), dpareto::InputError);
  CHECK_THROWS_AS(draw_stopping_count(TruncatedNegativeBinomialStopping{1, 1}, source), dpareto::InputError);
  CHECK_THROWS_AS(draw_stopping_count(PoissonStopping{0}, source), dpareto::InputError);
}
