// Student-t inference of DPareto's Table 2 (core/mean_difference): a hand-worked case checked against
// the closed-form t distribution with 4 degrees of freedom, and the intervals' coverage by Monte Carlo.
#include <doctest/doctest.h>

#include <cmath>
#include <random>

#include "dpareto/core/error.hpp"
#include "dpareto/core/mean_difference.hpp"

using namespace dpareto;

TEST_CASE("the paper's statistic on a hand-worked case: 4 minus 1..5") {
  // Differences 3, 2, 1, 0, -1: mean 1, sample sd sqrt(2.5), standard error sqrt(0.5), t = sqrt(2).
  const auto d = difference_from_fixed(4, {1, 2, 3, 4, 5});
  CHECK(d.mean == doctest::Approx(1).epsilon(1e-14));
  CHECK(d.t == doctest::Approx(std::sqrt(2.0)).epsilon(1e-12));
  CHECK(d.degrees_of_freedom == 4);
  // t(0.975; 4) = 2.776445105 (tables); half-width 2.776445105 · sqrt(0.5).
  CHECK(d.low == doctest::Approx(1 - 2.776445105 * std::sqrt(0.5)).epsilon(1e-8));
  CHECK(d.high == doctest::Approx(1 + 2.776445105 * std::sqrt(0.5)).epsilon(1e-8));
  // With 4 degrees of freedom the t CDF has a closed form: F(t) = 1/2 + (3/8) x (1 − x²/12),
  // x = t / sqrt(1 + t²/4); the two-sided p is 2 (1 − F(|t|)).
  const double x = d.t / std::sqrt(1 + d.t * d.t / 4);
  CHECK(d.p_value == doctest::Approx(1 - 0.75 * x * (1 - x * x / 12)).epsilon(1e-10));
  CHECK(d.p_value == doctest::Approx(0.2302).epsilon(1e-3));
}

TEST_CASE("Welch's t on a hand-worked case") {
  // a = {1, 2, 3}: mean 2, var 1; b = {2, 4, 6, 8}: mean 5, var 20/3. se² = 1/3 + 5/3 = 2.
  const auto d = welch_difference({1, 2, 3}, {2, 4, 6, 8});
  CHECK(d.mean == doctest::Approx(-3));
  CHECK(d.t == doctest::Approx(-3 / std::sqrt(2.0)));
  // Welch–Satterthwaite: 2² / ((1/3)²/2 + (5/3)²/3) = 4 / (1/18 + 25/27) = 216 / 53.
  CHECK(d.degrees_of_freedom == doctest::Approx(216.0 / 53));
  CHECK(d.low < -3);
  CHECK(d.high > -3);
  CHECK(d.p_value > 0.05);  // |t| = 2.12 on about 4 df
  CHECK(d.p_value < 0.2);
}

TEST_CASE("95% intervals cover the true difference 95% of the time (Monte Carlo, normal data)") {
  std::mt19937_64 rng(20261126);
  std::normal_distribution<double> noise(0, 1);
  const int trials = 4000;
  int fixed_covered = 0, welch_covered = 0;
  for (int i = 0; i < trials; ++i) {
    // Random parts with mean 3 and sd 0.5, 19 of them; a "DPareto" value of 3.2: true difference 0.2.
    std::vector<double> parts, seeds;
    for (int k = 0; k < 19; ++k) parts.push_back(3 + 0.5 * noise(rng));
    for (int k = 0; k < 5; ++k) seeds.push_back(3.2 + 0.1 * noise(rng));
    const auto fixed = difference_from_fixed(3.2, parts);
    fixed_covered += fixed.low <= 0.2 && 0.2 <= fixed.high;
    const auto welch = welch_difference(seeds, parts);
    welch_covered += welch.low <= 0.2 && 0.2 <= welch.high;
  }
  // Binomial standard deviation at 4000 trials: sqrt(0.95 · 0.05 / 4000) = 0.0034; 4 of them.
  CHECK(double(fixed_covered) / trials == doctest::Approx(0.95).epsilon(0.0138 / 0.95));
  CHECK(double(welch_covered) / trials == doctest::Approx(0.95).epsilon(0.0138 / 0.95));
}

TEST_CASE("no spread: the interval is the point; too few values or a bad level are refused") {
  const auto d = difference_from_fixed(5, {3, 3, 3});
  CHECK(d.low == 2);
  CHECK(d.high == 2);
  CHECK(std::isinf(d.t));
  CHECK(d.p_value == 0);
  CHECK_THROWS_AS(difference_from_fixed(1, {2}), InputError);
  CHECK_THROWS_AS(welch_difference({1}, {2, 3}), InputError);
  CHECK_THROWS_AS(difference_from_fixed(1, {2, 3}, 1.5), InputError);
  CHECK_THROWS_AS(difference_from_fixed(1, {2, NAN}), InputError);
}
