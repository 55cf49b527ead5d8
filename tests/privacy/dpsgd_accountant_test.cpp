#include <doctest/doctest.h>

#include <algorithm>
#include <boost/multiprecision/cpp_bin_float.hpp>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <utility>
#include <vector>

#include "../support/test_support.hpp"
#include "dpareto/core/error.hpp"
#include "dpareto/privacy/dpsgd_accountant.hpp"
#include "dpareto/privacy/sampled_gaussian_rdp.hpp"

using namespace dpareto::privacy;

using dpareto::test::rel_diff;

namespace {

std::vector<double> integer_orders(int lo, int hi) {
  std::vector<double> orders(hi - lo + 1);
  std::iota(orders.begin(), orders.end(), lo);
  return orders;
}

// Per-step RDP at an integer order by the binomial sum of Mironov et al. 2019 in 50-digit
// arithmetic: the reference for the double-precision accountant.
double reference_rdp(double q, double sigma, int alpha) {
  using Big = boost::multiprecision::cpp_bin_float_50;
  const Big bq(q), bs(sigma);
  Big sum = 0, binomial = 1;
  for (int k = 0; k <= alpha; ++k) {
    sum += binomial * pow(1 - bq, alpha - k) * pow(bq, k) * exp(Big(k * k - k) / (2 * bs * bs));
    binomial = binomial * (alpha - k) / (k + 1);
  }
  return static_cast<double>(log(sum) / (alpha - 1));
}

}  // namespace

TEST_CASE("published figures") {
  // Abadi et al. 2016: q = 0.01, σ = 4, 10⁴ steps, δ = 1e-5 -> ε ≈ 1.26.
  const auto abadi = dpsgd_epsilon(Sampling::poisson, 0.01, 4, 10000, 1e-5, integer_orders(2, 32), Conversion::classic);
  CHECK(abadi.epsilon == doctest::Approx(1.26).epsilon(0.005));
  // TensorFlow Privacy tutorial: n = 60000, lot 256, σ = 1.1, 60 epochs = 14063 steps -> ε ≈ 3.01.
  const auto tfp =
      dpsgd_epsilon(Sampling::poisson, 256.0 / 60000, 1.1, 14063, 1e-5, integer_orders(2, 32), Conversion::classic);
  CHECK(tfp.epsilon == doctest::Approx(3.01).epsilon(0.002));
  // DPareto's Adult runs: n = 30956, fixed-size lots, T = epochs · round(n/lot), orders 2–256,
  // accounted by WBK19's general Thm 9 bound (Sampling::fixed_size_general), as DPareto did.
  const double n = 30956;
  auto adult = [&](Sampling sampling, int epochs, int lot) {
    const long long steps = epochs * std::llround(n / lot);
    return dpsgd_epsilon(sampling, lot / n, 1.0, steps, 1e-5, integer_orders(2, 256), Conversion::classic).epsilon;
  };
  CHECK(std::abs(adult(Sampling::fixed_size_general, 2, 32) - 1.0386) < 5e-5);
  CHECK(std::abs(adult(Sampling::fixed_size_general, 2, 128) - 1.5337) < 5e-5);
  CHECK(std::abs(adult(Sampling::fixed_size_general, 4, 128) - 1.7882) < 5e-5);
  // The Gaussian-specific Thm 27 bound is never above it; at σ = 1 its other branch never wins
  // (4Δ^j g(0) >= 2g(j) for every j >= 3), so the figures are the same.
  for (auto [epochs, lot] : {std::pair{2, 32}, std::pair{2, 128}, std::pair{4, 128}})
    CHECK(adult(Sampling::fixed_size, epochs, lot) == adult(Sampling::fixed_size_general, epochs, lot));
}

TEST_CASE("closed forms") {
  // q = 1: the Gaussian mechanism, α/(2σ²) per step; q = 0: nothing.
  for (double alpha : {1.5, 2.0, 3.25, 64.0}) {
    CHECK(poisson_gaussian_rdp(1, 2, alpha) == doctest::Approx(alpha / 8).epsilon(1e-15));
    CHECK(poisson_gaussian_rdp(0, 2, alpha) == 0);
    CHECK(fixed_size_gaussian_rdp(0, 2, alpha) == 0);
  }
  const auto t = dpsgd_rdp(Sampling::poisson, 1, 0.5, 100, {2, 10});
  CHECK(t[0] == doctest::Approx(100 * 2 / 0.5).epsilon(1e-15));
  CHECK(t[1] == doctest::Approx(100 * 10 / 0.5).epsilon(1e-15));
  // α = 2 by hand: A₂ = (1−q)² + 2q(1−q) + q² e^{1/σ²} = 1 + q² (e^{1/σ²} − 1).
  for (double q : {1e-4, 0.01, 0.3, 0.9})
    for (double sigma : {0.3, 1.0, 50.0}) {
      const double expected = std::log1p(q * q * std::expm1(1 / (sigma * sigma)));
      CHECK(rel_diff(poisson_gaussian_rdp(q, sigma, 2), expected) < 1e-13);
    }
  // Fixed-size at α = 2 (WBK19 Thm 9 and Thm 27 alike): log(1 + γ² min{4(e^{1/σ²} − 1), 2e^{1/σ²}}).
  const double g = 0.01, s = 1.0;
  CHECK(rel_diff(fixed_size_gaussian_rdp(g, s, 2),
                 std::log1p(g * g * std::min(4 * std::expm1(1.0), 2 * std::exp(1.0)))) < 1e-14);
  CHECK(fixed_size_gaussian_rdp(g, s, 1.5) == fixed_size_gaussian_rdp(g, s, 2));
  // γ = 1 is capped by the unsubsampled Gaussian.
  CHECK(fixed_size_gaussian_rdp(1, s, 7) == doctest::Approx(3.5));
}

TEST_CASE("integer orders match a 50-digit reference to 1e-9") {
  for (double q : {1e-4, 1e-3, 0.02, 0.3, 0.999})
    for (double sigma : {0.3, 0.7, 1.0, 4.0, 50.0})
      for (int alpha : {2, 3, 7, 32, 128, 512}) {
        const double ours = poisson_gaussian_rdp(q, sigma, alpha), ref = reference_rdp(q, sigma, alpha);
        INFO("q = ", q, " sigma = ", sigma, " alpha = ", alpha, " ours = ", ours, " ref = ", ref);
        CHECK(rel_diff(ours, ref) < 1e-9);
      }
}

TEST_CASE("fractional orders agree with the integer formula at nearby orders") {
  // (f(α−h) + f(α+h))/2 = f(α) + O(h²): compares the series against the exact sum to ~1e-9.
  const double h = 1e-6;
  for (double q : {1e-4, 1e-3, 0.01, 0.1, 0.24, 0.26, 0.5, 0.9, 0.9999})
    for (double sigma : {0.3, 0.5, 1.0, 2.0, 5.0, 20.0, 50.0})
      for (double alpha : {2.0, 3.0, 4.0, 10.0, 64.0, 512.0}) {
        const double exact = poisson_gaussian_rdp(q, sigma, alpha);
        const double lo = poisson_gaussian_rdp(q, sigma, alpha - h), hi = poisson_gaussian_rdp(q, sigma, alpha + h);
        INFO("q = ", q, " sigma = ", sigma, " alpha = ", alpha);
        CHECK(rel_diff((lo + hi) / 2, exact) < 1e-7);
        CHECK(lo <= exact * (1 + 1e-9));
        CHECK(hi >= exact * (1 - 1e-9));
      }
}

TEST_CASE("finite, non-negative, monotone over the whole range") {
  const auto orders = default_orders();
  for (Sampling sampling : {Sampling::poisson, Sampling::fixed_size, Sampling::fixed_size_general})
    for (double q : {1e-4, 1e-2, 0.2, 0.7, 1.0})
      for (double sigma : {0.3, 1.0, 8.0, 50.0}) {
        const auto rdp = dpsgd_rdp(sampling, q, sigma, 1'000'000, orders);
        REQUIRE(rdp.size() == orders.size());
        for (std::size_t i = 0; i < rdp.size(); ++i) {
          INFO("q = ", q, " sigma = ", sigma, " alpha = ", orders[i]);
          CHECK(std::isfinite(rdp[i]));
          CHECK(rdp[i] >= 0);
          // the exact Poisson RDP is nondecreasing in α, and so is the Thm 27 bound up to α = 256
          // (WBK19's general Thm 9 bound, which fixed_size uses beyond 256 as dp_accounting does,
          // need not be)
          const bool monotone = sampling == Sampling::poisson || (sampling == Sampling::fixed_size && orders[i] <= 256);
          if (i > 0 && monotone) CHECK(rdp[i] >= rdp[i - 1] * (1 - 1e-9));
        }
        // more noise, less privacy loss; larger q, more loss; more steps, more loss
        const auto more_noise = dpsgd_rdp(sampling, q, sigma * 1.1, 1'000'000, orders);
        const auto fewer_steps = dpsgd_rdp(sampling, q, sigma, 999'999, orders);
        const auto smaller_q = dpsgd_rdp(sampling, q * 0.9, sigma, 1'000'000, orders);
        for (std::size_t i = 0; i < rdp.size(); ++i) {
          CHECK(more_noise[i] <= rdp[i]);
          CHECK(fewer_steps[i] <= rdp[i]);
          CHECK(smaller_q[i] <= rdp[i]);
        }
      }
  // ε is monotone in δ.
  const auto e1 = dpsgd_epsilon(Sampling::poisson, 0.01, 1, 1000, 1e-5);
  const auto e2 = dpsgd_epsilon(Sampling::poisson, 0.01, 1, 1000, 1e-6);
  CHECK(e2.epsilon > e1.epsilon);
}

TEST_CASE("default order grid: dense, and a superset of the earlier grid, so epsilon only tightens") {
  const auto orders = default_orders();
  CHECK(orders.front() == 1.01);
  CHECK(orders.back() == 10000);
  CHECK(orders.size() == 307);
  CHECK(std::is_sorted(orders.begin(), orders.end()));
  std::vector<double> earlier;
  for (int i = 5; i <= 40; ++i) earlier.push_back(0.25 * i);
  for (int a = 11; a <= 64; ++a) earlier.push_back(a);
  for (double a : {80.0, 96.0, 128.0, 256.0, 512.0}) earlier.push_back(a);
  for (double a : earlier) CHECK(std::find(orders.begin(), orders.end(), a) != orders.end());
  for (int a = 2; a <= 256; ++a) CHECK(std::find(orders.begin(), orders.end(), double(a)) != orders.end());
  // Over a sweep of DP-SGD runs the new grid's epsilon is never above the earlier grid's, and it is
  // strictly below somewhere (the gain docs/privacy.md reports).
  int tighter = 0;
  for (Sampling sampling : {Sampling::poisson, Sampling::fixed_size})
    for (double q : {1e-3, 0.01, 0.1})
      for (double sigma : {0.6, 1.1, 4.0, 20.0})
        for (long long steps : {10LL, 1000LL, 100000LL}) {
          CAPTURE(q);
          CAPTURE(sigma);
          CAPTURE(steps);
          const double now = dpsgd_epsilon(sampling, q, sigma, steps, 1e-5).epsilon;
          const double before = dpsgd_epsilon(sampling, q, sigma, steps, 1e-5, earlier).epsilon;
          CHECK(now <= before);
          tighter += now < before * (1 - 1e-6);
        }
  CHECK(tighter > 10);
}

TEST_CASE("conversions") {
  const auto orders = default_orders();
  const auto rdp = dpsgd_rdp(Sampling::poisson, 0.01, 1.1, 10000, orders);
  for (Conversion c : {Conversion::improved, Conversion::classic})
    for (double delta : {1e-3, 1e-5, 1e-9}) {
      const auto e = rdp_to_epsilon(orders, rdp, delta, c);
      const auto d = rdp_to_delta(orders, rdp, e.epsilon, c);
      CHECK(rel_diff(d.delta, delta) < 1e-9);  // δ(ε(δ)) = δ
      CHECK(d.order == e.order);
    }
  // improved is never worse than classic
  CHECK(rdp_to_epsilon(orders, rdp, 1e-5).epsilon <= rdp_to_epsilon(orders, rdp, 1e-5, Conversion::classic).epsilon);
  // the reported order attains the minimum
  const auto e = rdp_to_epsilon({2, 3}, {1.0, 1.2}, 1e-5, Conversion::classic);
  CHECK(e.order == 3);
  CHECK(e.epsilon == doctest::Approx(1.2 + std::log(1e5) / 2));
  // +inf stays +inf; an infinite order is skipped only in favour of a finite one
  const double inf = std::numeric_limits<double>::infinity();
  CHECK(std::isinf(rdp_to_epsilon({2, 3}, {inf, inf}, 1e-5).epsilon));
  CHECK(rdp_to_epsilon({2, 3}, {inf, 1.0}, 1e-5).order == 3);
  CHECK(rdp_to_delta({2, 3}, {inf, inf}, 1.0).delta == 1);
  CHECK_THROWS_AS(rdp_to_epsilon({2, 3}, {1.0, std::nan("")}, 1e-5), dpareto::NumericalError);
  // zero steps (or q = 0): nothing leaks
  CHECK(dpsgd_epsilon(Sampling::poisson, 0.01, 1, 0, 1e-5).epsilon == 0);
  CHECK(dpsgd_epsilon(Sampling::fixed_size, 0, 1, 100, 1e-5).epsilon == 0);
  CHECK(dpsgd_epsilon(Sampling::fixed_size_general, 0, 1, 100, 1e-5).epsilon == 0);
  CHECK(rdp_to_delta({2, 3}, {0.0, 0.0}, 0.0).delta == 0);
}

TEST_CASE("bad input") {
  using dpareto::InputError;
  CHECK_THROWS_AS(dpsgd_rdp(Sampling::poisson, 1.5, 1, 10, {2}), InputError);
  CHECK_THROWS_AS(dpsgd_rdp(Sampling::poisson, -0.1, 1, 10, {2}), InputError);
  CHECK_THROWS_AS(dpsgd_rdp(Sampling::poisson, 0.1, 0, 10, {2}), InputError);
  CHECK_THROWS_AS(dpsgd_rdp(Sampling::poisson, 0.1, -1, 10, {2}), InputError);
  CHECK_THROWS_AS(dpsgd_rdp(Sampling::poisson, 0.1, 1, -1, {2}), InputError);
  CHECK_THROWS_AS(dpsgd_rdp(Sampling::poisson, 0.1, 1, 10, {1.0}), InputError);
  CHECK_THROWS_AS(dpsgd_rdp(Sampling::fixed_size, 0.1, 1, 10, {0.5}), InputError);
  CHECK_THROWS_AS(dpsgd_rdp(Sampling::fixed_size_general, 1.5, 1, 10, {2}), InputError);
  CHECK_THROWS_AS(dpsgd_epsilon(Sampling::poisson, 0.1, 1, 10, 0), InputError);
  CHECK_THROWS_AS(dpsgd_epsilon(Sampling::poisson, 0.1, 1, 10, 1), InputError);
  CHECK_THROWS_WITH_AS(dpsgd_rdp(Sampling::poisson, 1.5, 1, 10, {2}), doctest::Contains("1.5"), InputError);
  CHECK_THROWS_AS(parse_sampling("uniform", "--sampling"), InputError);
  CHECK_THROWS_AS(parse_conversion("best", "--conversion"), InputError);
}

TEST_CASE("random points of the supported range: finite, and nondecreasing in the order") {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> unit(0, 1);
  for (int i = 0; i < 3000; ++i) {
    const double q = std::min(1.0, std::pow(10.0, -4 + 4 * unit(rng)));
    const double sigma = 0.3 * std::pow(50 / 0.3, unit(rng));
    const double alpha = 1 + std::pow(511.0, unit(rng));
    const double r = poisson_gaussian_rdp(q, sigma, alpha), r2 = poisson_gaussian_rdp(q, sigma, alpha * 1.01);
    INFO("q = ", q, " sigma = ", sigma, " alpha = ", alpha);
    CHECK(std::isfinite(r));
    CHECK(r > 0);
    CHECK(r2 >= r * (1 - 1e-9));
    const double f = fixed_size_gaussian_rdp(q, sigma, alpha), f2 = fixed_size_gaussian_rdp(q, sigma, alpha * 1.01);
    const double general = fixed_size_general_rdp(q, sigma, alpha);
    CHECK(std::isfinite(f));
    CHECK(f > 0);
    if (alpha * 1.01 <= 256) CHECK(f2 >= f * (1 - 1e-12));  // beyond 256: the general terms, as dp_accounting
    CHECK(f <= general);
    CHECK(std::isfinite(general));
  }
}

TEST_CASE("dpsgd_steps: round(n / lot) steps an epoch, at least one") {
  CHECK(dpsgd_steps(60000, 256, 5) == 5 * 234);  // 234.375 rounds down
  CHECK(dpsgd_steps(1000, 3, 2) == 2 * 333);
  CHECK(dpsgd_steps(1000, 400, 7) == 7 * 3);  // 2.5 rounds away from zero
  CHECK(dpsgd_steps(100, 300, 3) == 3);       // a lot above n: still one step an epoch
}
