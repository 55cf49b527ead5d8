// DP-HYPE voting (Liebenow et al. 2025): votes, noisy secure sum, argmax, ε(α) = αk/(2σ²).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "dpareto/core/error.hpp"
#include "dpareto/privacy/dpsgd_accountant.hpp"
#include "dpareto/privacy/rdp_conversion.hpp"
#include "dpareto/privacy/secure_noise.hpp"
#include "dpareto/select/dp_hype.hpp"

using namespace dpareto::select;
using dpareto::privacy::ChaChaRandomSource;

TEST_CASE("dp-hype: a client votes for its k smallest losses") {
  const std::vector<double> losses{0.5, 0.1, 0.9, 0.1, 0.3};
  CHECK(top_k_vote(losses, 1) == std::vector<std::uint8_t>{0, 1, 0, 0, 0});  // tie: lower index
  CHECK(top_k_vote(losses, 2) == std::vector<std::uint8_t>{0, 1, 0, 1, 0});
  CHECK(top_k_vote(losses, 3) == std::vector<std::uint8_t>{0, 1, 0, 1, 1});
  CHECK_THROWS_AS(top_k_vote(losses, 0), dpareto::InputError);
  CHECK_THROWS_AS(top_k_vote(losses, 6), dpareto::InputError);
  const std::vector<double> with_nan{0.1, std::nan("")};
  CHECK_THROWS_AS(top_k_vote(with_nan, 1), dpareto::InputError);
}

TEST_CASE("top-k vote with a tie-break source splits ties uniformly") {
  const std::vector<double> losses{1.0, 0.5, 0.5, 0.5};
  dpareto::privacy::ChaChaRandomSource source(5);
  const int draws = 6000;
  int won[4] = {0, 0, 0, 0};
  for (int d = 0; d < draws; ++d) {
    const auto vote = top_k_vote(losses, 1, &source);
    for (int c = 0; c < 4; ++c) won[c] += vote[static_cast<std::size_t>(c)];
  }
  CHECK(won[0] == 0);
  for (int c = 1; c < 4; ++c) CHECK(std::abs(won[c] - draws / 3.0) < 5 * std::sqrt(draws * (1 / 3.0) * (2 / 3.0)));
  CHECK(top_k_vote(losses, 3, &source) == std::vector<std::uint8_t>{0, 1, 1, 1});  // no tie at the cut
}

TEST_CASE("dp-hype: the server's total is the vote count plus N(0, sigma^2)") {
  ChaChaRandomSource noise(21), keys(22);
  const std::size_t n = 5, p = 200;
  // Client c's losses make candidates c, c+1, c+2 its top-3: true totals are known.
  std::vector<std::vector<double>> losses(n, std::vector<double>(p, 1.0));
  std::vector<double> truth(p, 0.0);
  for (std::size_t c = 0; c < n; ++c) {
    for (std::size_t j = c; j < c + 3; ++j) {
      losses[c][j] = 0;
      truth[j] += 1;
    }
  }
  DpHypeOptions options;
  options.top_k = 3;
  options.sigma = 3;
  double sum = 0, sum2 = 0;
  const int rounds = 20;
  for (int round = 0; round < rounds; ++round) {
    const auto outcome = dp_hype_select(losses, options, noise, keys);
    REQUIRE(outcome.noisy_votes.size() == p);
    for (std::size_t j = 0; j < p; ++j) {
      const double e = outcome.noisy_votes[j] - truth[j];
      sum += e;
      sum2 += e * e;
    }
  }
  const double m = rounds * double(p), mean = sum / m, var = sum2 / m - mean * mean;
  CHECK(std::abs(mean) < 5 * 3 / std::sqrt(m));
  CHECK(std::abs(var - 9) < 5 * 9 * std::sqrt(2 / m));
}

TEST_CASE("dp-hype: a clear winner is selected") {
  ChaChaRandomSource noise(23), keys(24);
  std::vector<std::vector<double>> losses(50, std::vector<double>(30, 1.0));
  for (auto& client : losses) client[17] = 0;
  DpHypeOptions options;
  options.sigma = 2;
  CHECK(dp_hype_select(losses, options, noise, keys).selected == 17);
  std::vector<std::vector<double>> ragged{{0.1, 0.2}, {0.3}};
  CHECK_THROWS_AS(dp_hype_select(ragged, options, noise, keys), dpareto::InputError);
  options.sigma = 0;
  CHECK_THROWS_AS(dp_hype_select(losses, options, noise, keys), dpareto::InputError);
}

TEST_CASE("dp-hype: epsilon(alpha) = alpha k / (2 sigma^2), independent of the number of candidates") {
  const std::vector<double> orders{1.5, 2, 8, 64};
  DpHypeOptions options;
  options.top_k = 3;
  options.sigma = 7;
  for (std::size_t p : {std::size_t(3), std::size_t(100), std::size_t(1000000)}) {
    const auto rdp = dp_hype_rdp(orders, options, 250, p);
    for (std::size_t i = 0; i < orders.size(); ++i)
      CHECK(rdp[i] == doctest::Approx(orders[i] * 3 / (2 * 49.0)).epsilon(1e-14));
  }
  // On a coarse grid (scale 2, per-client std s = 14/√250 ≈ 0.885) the KLS21 Thm 1 τ terms are
  // visible and grow with the dimension d: the sum of discrete Gaussians is not exactly Gaussian.
  // Hand-checked: ε = min{√(Δ₂²/(ns²) + τd/2), Δ₂/(√n s) + τ√d}, Δ₂²/(ns²) = k/σ² = 3/49.
  options.fixed_point_scale = 2;
  const double s2 = 49.0 * 4 / 250;
  double tau = 0;
  for (int j = 1; j < 250; ++j) tau += 10 * std::exp(-2 * M_PI * M_PI * s2 * j / (j + 1.0));
  CHECK(tau > 1e-4);
  for (std::size_t d : {std::size_t(10), std::size_t(1000)}) {
    const double eps = std::min(std::sqrt(3 / 49.0 + tau * d / 2), std::sqrt(3 / 49.0) + tau * std::sqrt(double(d)));
    const auto coarse = dp_hype_rdp(orders, options, 250, d);
    for (std::size_t i = 0; i < orders.size(); ++i)
      CHECK(coarse[i] == doctest::Approx(orders[i] * eps * eps / 2).epsilon(1e-12));
    CHECK(coarse[1] > 2 * 3 / (2 * 49.0));
  }
  CHECK(dp_hype_rdp(orders, options, 250, 1000)[1] > dp_hype_rdp(orders, options, 250, 10)[1]);
  // Below s = 1/2 (scale 1: s ≈ 0.44) the theorem does not apply: refused, not extrapolated.
  options.fixed_point_scale = 1;
  CHECK_THROWS_WITH_AS(dp_hype_rdp(orders, options, 250, 10), doctest::Contains("is below 1/2"), dpareto::InputError);
}

TEST_CASE("dp-hype: calibrated sigma meets the target epsilon") {
  const auto orders = dpareto::privacy::default_orders();
  for (double target : {0.1, 1.0, 8.0}) {
    for (std::size_t k : {std::size_t(1), std::size_t(5)}) {
      const double sigma = dp_hype_sigma(k, target, 1e-5, orders);
      DpHypeOptions options;
      options.top_k = k;
      options.sigma = sigma;
      const double eps = dpareto::privacy::rdp_to_epsilon(orders, dp_hype_rdp(orders, options, 250, 100), 1e-5).epsilon;
      CHECK(eps <= target * (1 + 1e-12));
      CHECK(eps >= target * (1 - 1e-6));
    }
  }
  // σ grows like √k at a fixed ε.
  CHECK(dp_hype_sigma(4, 1.0, 1e-5, orders) == doctest::Approx(2 * dp_hype_sigma(1, 1.0, 1e-5, orders)).epsilon(1e-6));
}
