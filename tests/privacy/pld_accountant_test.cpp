// The PLD accountant (issue 15 item 1): never above RDP, a tight certified bracket, the exact
// full-batch Gaussian, the reference DP-SGD figure, a Monte-Carlo check of δ(ε), mixed PLD + RDP
// composition, monotonicity, calibration and bad input.
#include <doctest/doctest.h>

#include <chrono>
#include <cmath>
#include <random>
#include <thread>
#include <tuple>
#include <vector>

#include "dpareto/core/error.hpp"
#include "dpareto/privacy/analytic_gaussian.hpp"
#include "dpareto/privacy/calibration.hpp"
#include "dpareto/privacy/composition.hpp"
#include "dpareto/privacy/pld_accountant.hpp"
#include "poisson_bracket.hpp"

using namespace dpareto::privacy;

TEST_CASE("PLD: below RDP and a bracket narrower than 1% over the DP-SGD grid") {
  // 48 accountants (automatic discretization), 96 (ε, δ) answers, each with both estimates and
  // both directions: about 3 s on 2 cores.
  const auto start = std::chrono::steady_clock::now();
  double widest = 0;
  for (double q : {0.001, 0.01, 0.05, 0.2})
    for (double sigma : {0.8, 1.1, 2.0, 4.0})
      for (long long steps : {100LL, 1000LL, 10000LL}) {
        PldAccountant accountant;
        accountant.compose_subsampled_gaussian(Sampling::poisson, q, sigma, steps);
        for (double delta : {1e-5, 1e-7}) {
          const PldEpsilon b = accountant.epsilon_bracket(delta);
          const double rdp = dpsgd_epsilon(Sampling::poisson, q, sigma, steps, delta).epsilon;
          INFO("q = ", q, " sigma = ", sigma, " T = ", steps, " delta = ", delta, ": PLD ", b.pld, " [", b.optimistic,
               "], RDP ", rdp, ", h = ", b.discretization);
          CHECK(b.pld <= rdp);
          CHECK(b.rdp == rdp);
          CHECK(b.epsilon == std::min(b.pld, rdp));
          CHECK(b.optimistic <= b.pld);
          CHECK(b.optimistic > 0);
          if (b.pld >= 0.1) {
            CHECK(b.pld - b.optimistic < 0.01 * b.pld);
            widest = std::max(widest, (b.pld - b.optimistic) / b.pld);
          }
        }
      }
  MESSAGE("widest bracket (eps >= 0.1): ", 100 * widest, "%; grid took ",
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), " s");
}

TEST_CASE("PLD: T full-batch Gaussian steps are one Gaussian of sigma/sqrt(T)") {
  for (double sigma : {0.8, 2.0, 5.0})
    for (long long steps : {1LL, 10LL, 1000LL})
      for (double delta : {1e-5, 1e-7}) {
        const double exact = analytic_gaussian_epsilon(sigma / std::sqrt(static_cast<double>(steps)), delta, 1);
        INFO("sigma = ", sigma, " T = ", steps, " delta = ", delta, " exact ", exact);
        const PldEpsilon b = poisson_bracket(1, sigma, steps, delta);  // the exact path
        CHECK(b.epsilon == doctest::Approx(exact).epsilon(1e-6));
        CHECK(b.discretization == 0);
      }
  // The discretized path brackets the exact value (and is within 1e-6 of it).
  for (double sigma : {0.8, 5.0})
    for (long long steps : {1LL, 1000LL}) {
      const double delta = 1e-5;
      const double exact = analytic_gaussian_epsilon(sigma / std::sqrt(static_cast<double>(steps)), delta, 1);
      INFO("sigma = ", sigma, " T = ", steps, " exact ", exact);
      PldAccountant grid(kAutoDiscretization, default_orders(), Conversion::improved, /*exact_full_batch=*/false);
      grid.compose_subsampled_gaussian(Sampling::poisson, 1, sigma, steps);
      const PldEpsilon g = grid.epsilon_bracket(delta);
      CHECK(g.discretization > 0);
      CHECK(g.pld >= exact * (1 - 1e-12));
      CHECK(g.optimistic <= exact * (1 + 1e-12));
      CHECK(g.pld == doctest::Approx(exact).epsilon(1e-6));
      CHECK(grid.delta_bracket(exact).delta >= delta * (1 - 1e-12));
      CHECK(grid.delta_bracket(exact).optimistic <= delta * (1 + 1e-12));
    }
  // Gaussians of different σ compose exactly too: 1/σ² adds.
  PldAccountant two;
  two.compose_subsampled_gaussian(Sampling::poisson, 1, 2, 3);
  two.compose_subsampled_gaussian(Sampling::poisson, 1, 4, 4);
  CHECK(two.epsilon(1e-5).epsilon ==
        doctest::Approx(analytic_gaussian_epsilon(1 / std::sqrt(3 / 4.0 + 4 / 16.0), 1e-5, 1)));
}

TEST_CASE("PLD: the DP-SGD reference q = 0.01, sigma = 1.1, T = 1e4, delta = 1e-5") {
  const PldEpsilon b = poisson_bracket(0.01, 1.1, 10000, 1e-5);
  MESSAGE("PLD epsilon = ", b.epsilon, " (optimistic ", b.optimistic, ", h = ", b.discretization, "); RDP ", b.rdp);
  // The certified bracket is [5.1925, 5.1927] (docs/privacy.md); published PLD/PRV accountants give
  // 5.19 for this setting, the RDP accountant 5.63.
  CHECK(b.epsilon > 5.18);
  CHECK(b.epsilon < 5.21);
  CHECK(b.optimistic > 5.18);
  CHECK(b.rdp == doctest::Approx(5.63).epsilon(0.002));
  CHECK(b.discretization == 1e-4);
}

TEST_CASE("PLD: delta(eps) agrees with a Monte-Carlo estimate of the composed privacy loss") {
  // T = 5 steps, q = 0.2, σ = 1; both directions sampled under P with a fixed seed:
  // remove: x ~ (1−q)N(0,σ²) + qN(1,σ²), L = log(1 − q + q e^{(2x−1)/(2σ²)}); add: x ~ N(0,σ²), L = −that.
  const double q = 0.2, sigma = 1;
  const int steps = 5, samples = 400000;
  PldAccountant accountant;
  accountant.compose_subsampled_gaussian(Sampling::poisson, q, sigma, steps);
  std::mt19937_64 rng(20240515);
  std::normal_distribution<double> noise(0, sigma);
  std::bernoulli_distribution sampled(q);
  auto loss = [&](double x) { return std::log(1 - q + q * std::exp((2 * x - 1) / (2 * sigma * sigma))); };
  std::vector<double> remove(samples), add(samples);
  for (int i = 0; i < samples; ++i) {
    double lr = 0, la = 0;
    for (int t = 0; t < steps; ++t) {
      lr += loss(noise(rng) + (sampled(rng) ? 1 : 0));
      la -= loss(noise(rng));
    }
    remove[i] = lr;
    add[i] = la;
  }
  for (double eps : {0.25, 0.5, 1.0, 1.5}) {
    double best = 0, best_se = 0;
    for (const auto* sample : {&remove, &add}) {
      double sum = 0, sum2 = 0;
      for (double l : *sample) {
        const double v = l > eps ? -std::expm1(eps - l) : 0.0;
        sum += v;
        sum2 += v * v;
      }
      const double mean = sum / samples, se = std::sqrt((sum2 / samples - mean * mean) / samples);
      if (mean > best) best = mean, best_se = se;
    }
    const PldDelta b = accountant.delta_bracket(eps);
    INFO("eps = ", eps, ": Monte Carlo ", best, " +- ", best_se, ", PLD [", b.optimistic, ", ", b.pld, "]");
    CHECK(b.optimistic <= b.pld);
    CHECK(best >= b.optimistic - 5 * best_se);
    CHECK(best <= b.pld + 5 * best_se);
    CHECK(b.pld - b.optimistic < best_se);  // the bracket is far tighter than the simulation
  }
}

TEST_CASE("PLD: mixed with an RDP part, below the pure RDP answer and above either part") {
  const auto orders = default_orders();
  std::vector<double> pure;
  for (double a : orders) pure.push_back(pure_dp_rdp(0.3, a));
  const RdpCurve score(orders, pure);
  PldAccountant mixed;
  mixed.compose_subsampled_gaussian(Sampling::poisson, 0.01, 1.1, 2000);
  mixed.compose_rdp(score);
  RdpAccountant rdp_all, rdp_part;
  rdp_all.compose_subsampled_gaussian(Sampling::poisson, 0.01, 1.1, 2000);
  rdp_all.compose_rdp(score);
  rdp_part.compose_rdp(score);
  const PldEpsilon poisson_part = poisson_bracket(0.01, 1.1, 2000, 1e-5);
  const double eps = mixed.epsilon(1e-5).epsilon;
  MESSAGE("mixed: PLD+RDP ", eps, ", pure RDP ", rdp_all.epsilon(1e-5).epsilon, ", Poisson part ", poisson_part.epsilon,
          ", RDP part ", rdp_part.epsilon(1e-5).epsilon);
  CHECK(eps <= rdp_all.epsilon(1e-5).epsilon);
  CHECK(eps >= poisson_part.epsilon);
  CHECK(eps >= rdp_part.epsilon(1e-5).epsilon);
  CHECK(mixed.epsilon_bracket(1e-5).optimistic == doctest::Approx(poisson_part.optimistic));
  CHECK(mixed.delta(eps).delta <= 1.5e-5);  // δ by ε-splits: not the exact inverse of ε by δ-splits
  CHECK(mixed.delta(eps).delta <= rdp_all.delta(eps).delta);
  // Fixed-size lots (replace-one) go to the RDP part: alone, exactly the RDP accountant.
  PldAccountant fixed;
  fixed.compose_subsampled_gaussian(Sampling::fixed_size, 0.01, 1.1, 1000);
  RdpAccountant fixed_rdp;
  fixed_rdp.compose_subsampled_gaussian(Sampling::fixed_size, 0.01, 1.1, 1000);
  CHECK(fixed.epsilon(1e-5).epsilon == fixed_rdp.epsilon(1e-5).epsilon);
  CHECK(fixed.epsilon(1e-5).order == fixed_rdp.epsilon(1e-5).order);
  // A PLD answer has no RDP order.
  CHECK(std::isnan(mixed.epsilon(1e-5).order));
}

TEST_CASE("PLD: monotone in sigma and in steps; delta(epsilon(delta)) = delta") {
  double last = 1e300;
  for (double sigma : {0.9, 1.0, 1.2, 1.5, 2.0}) {
    const double eps = poisson_bracket(0.01, sigma, 1000, 1e-5).epsilon;
    CHECK(eps < last);
    last = eps;
  }
  last = 0;
  for (long long steps : {10LL, 100LL, 1000LL, 5000LL, 20000LL}) {
    const double eps = poisson_bracket(0.01, 1.1, steps, 1e-5).epsilon;
    CHECK(eps > last);
    last = eps;
  }
  PldAccountant accountant;
  accountant.compose_subsampled_gaussian(Sampling::poisson, 0.02, 1.3, 3000);
  const double eps = accountant.epsilon(1e-6).epsilon;
  CHECK(accountant.delta(eps).delta == doctest::Approx(1e-6).epsilon(1e-6));
  CHECK(accountant.delta(eps).delta <= 1e-6 * (1 + 1e-9));
}

TEST_CASE("PLD: accountant kinds, dpsgd_epsilon and calibration") {
  CHECK(parse_accountant("pld", "--accountant") == AccountantKind::pld);
  CHECK(std::string(to_string(AccountantKind::rdp)) == "rdp");
  CHECK_THROWS_WITH_AS(parse_accountant("moments", "--accountant"), doctest::Contains("--accountant: 'moments'"),
                       dpareto::InputError);
  CHECK(dynamic_cast<PldAccountant*>(make_accountant(AccountantKind::pld).get()) != nullptr);
  CHECK(dynamic_cast<RdpAccountant*>(make_accountant(AccountantKind::rdp).get()) != nullptr);
  // The RDP kind is bit-identical to the RDP functions.
  CHECK(dpsgd_epsilon(AccountantKind::rdp, Sampling::poisson, 0.01, 1.1, 10000, 1e-5).epsilon ==
        dpsgd_epsilon(Sampling::poisson, 0.01, 1.1, 10000, 1e-5).epsilon);
  CHECK(calibrate_sigma(AccountantKind::rdp, Sampling::poisson, 0.01, 10000, 1, 1e-5) ==
        calibrate_sigma(Sampling::poisson, 0.01, 10000, 1, 1e-5));
  CHECK(max_steps(AccountantKind::rdp, Sampling::poisson, 0.004, 1.1, 3, 1e-5) ==
        max_steps(Sampling::poisson, 0.004, 1.1, 3, 1e-5));
  // PLD calibration: less noise for the same target (its speed is bench_pld_accounting's).
  const double sigma = calibrate_sigma(AccountantKind::pld, Sampling::poisson, 0.01, 10000, 1, 1e-5);
  const double rdp_sigma = calibrate_sigma(Sampling::poisson, 0.01, 10000, 1, 1e-5);
  CHECK(sigma < rdp_sigma);
  CHECK(dpsgd_epsilon(AccountantKind::pld, Sampling::poisson, 0.01, sigma, 10000, 1e-5).epsilon <= 1);
  CHECK(dpsgd_epsilon(AccountantKind::pld, Sampling::poisson, 0.01, sigma * (1 - 1e-5), 10000, 1e-5).epsilon > 1);
  const long long steps = max_steps(AccountantKind::pld, Sampling::poisson, 0.01, 1.1, 2, 1e-5);
  CHECK(steps > max_steps(Sampling::poisson, 0.01, 1.1, 2, 1e-5));
  CHECK(dpsgd_epsilon(AccountantKind::pld, Sampling::poisson, 0.01, 1.1, steps, 1e-5).epsilon <= 2);
  CHECK(dpsgd_epsilon(AccountantKind::pld, Sampling::poisson, 0.01, 1.1, steps + 1, 1e-5).epsilon > 2);
}

TEST_CASE("PLD: bad input is an InputError naming the value") {
  PldAccountant accountant;
  CHECK_THROWS_WITH_AS(accountant.compose_subsampled_gaussian(Sampling::poisson, 0, 1, 10), doctest::Contains("q = 0"),
                       dpareto::InputError);
  CHECK_THROWS_WITH_AS(accountant.compose_subsampled_gaussian(Sampling::poisson, 1.5, 1, 10), doctest::Contains("1.5"),
                       dpareto::InputError);
  CHECK_THROWS_WITH_AS(accountant.compose_subsampled_gaussian(Sampling::poisson, 0.1, 0, 10),
                       doctest::Contains("sigma = 0"), dpareto::InputError);
  CHECK_THROWS_AS(accountant.compose_subsampled_gaussian(Sampling::poisson, 0.1, HUGE_VAL, 10), dpareto::InputError);
  CHECK_THROWS_WITH_AS(accountant.compose_subsampled_gaussian(Sampling::poisson, 0.1, 1, 0),
                       doctest::Contains("steps = 0"), dpareto::InputError);
  accountant.compose_subsampled_gaussian(Sampling::poisson, 0.1, 1, 10);
  for (double delta : {0.0, 1.0, -1e-5, std::nan("")})
    CHECK_THROWS_WITH_AS(accountant.epsilon(delta), doctest::Contains("delta"), dpareto::InputError);
  CHECK_THROWS_AS(accountant.epsilon_bracket(1.5), dpareto::InputError);
  CHECK_THROWS_AS(accountant.delta(-1), dpareto::InputError);
  CHECK_THROWS_WITH_AS(PldAccountant(-1e-4), doctest::Contains("h = -1e-04"), dpareto::InputError);
  // A grid that would need more than 2^27 points.
  PldAccountant fine(1e-9);
  fine.compose_subsampled_gaussian(Sampling::poisson, 0.1, 1, 1000);
  CHECK_THROWS_WITH_AS(fine.epsilon(1e-5), doctest::Contains("h = 1e-09"), dpareto::InputError);
  CHECK_THROWS_WITH_AS(dpsgd_epsilon(AccountantKind::pld, Sampling::poisson, 0.1, 1, 10, 2),
                       doctest::Contains("delta = 2"), dpareto::InputError);
}

TEST_CASE("PLD: accountants in several threads at once give the serial answers (shared FFT plans)") {
  // More distinct transform sizes than the plan cache keeps (16), so plans are evicted while other
  // threads may still be executing them.
  std::vector<std::tuple<double, double, long long>> settings;
  for (double q : {0.003, 0.01, 0.03, 0.1})
    for (double sigma : {0.9, 1.3, 2.5})
      for (long long steps : {50LL, 400LL}) settings.emplace_back(q, sigma, steps);
  const auto epsilon_of = [](const std::tuple<double, double, long long>& s) {
    PldAccountant accountant;
    accountant.compose_subsampled_gaussian(Sampling::poisson, std::get<0>(s), std::get<1>(s), std::get<2>(s));
    return accountant.epsilon_bracket(1e-5).pld;
  };
  std::vector<double> serial;
  for (const auto& s : settings) serial.push_back(epsilon_of(s));
  std::vector<double> parallel(settings.size());
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (std::size_t i = static_cast<std::size_t>(t); i < settings.size(); i += 4)
        parallel[i] = epsilon_of(settings[i]);
    });
  for (auto& thread : threads) thread.join();
  CHECK(parallel == serial);
}
