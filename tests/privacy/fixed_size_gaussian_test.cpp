// The Gaussian-specific bound for fixed-size sampling without replacement (WBK19 Thm 27):
// the forward differences against multiprecision alternating sums, the whole bound against an
// independent multiprecision evaluation, closed forms, order with the general Thm 9 bound,
// monotonicity, and the calibration figures that show the general bound's floor is gone.
#include <doctest/doctest.h>

#include <algorithm>
#include <boost/multiprecision/cpp_bin_float.hpp>
#include <chrono>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "../support/test_support.hpp"
#include "dpareto/core/error.hpp"
#include "dpareto/privacy/calibration.hpp"
#include "dpareto/privacy/dpsgd_accountant.hpp"
#include "dpareto/privacy/gaussian_forward_difference.hpp"
#include "dpareto/privacy/sampled_gaussian_rdp.hpp"

using namespace dpareto::privacy;

using dpareto::test::rel_diff;

namespace {

using Big100 = boost::multiprecision::cpp_bin_float_100;
using Big700 = boost::multiprecision::number<boost::multiprecision::cpp_bin_float<700>>;

// g(i) = exp(i(i−1)/(2σ²)), i = 0..n, with σ taken exactly from the double:
// g(i+1) = g(i)·E^i with E = e^{1/σ²} (one exp; products lose a few of Big's digits at most).
template <typename Big>
std::vector<Big> moments(double sigma, int n) {
  const Big e = exp(Big(1) / (Big(sigma) * Big(sigma)));
  std::vector<Big> g(n + 1);
  Big factor = 1;  // E^i
  g[0] = 1;
  for (int i = 0; i < n; ++i) {
    g[i + 1] = g[i] * factor;
    factor *= e;
  }
  return g;
}

// Δ^l g(0) = Σ_i (−1)^{l−i} C(l,i) g(i): the textbook alternating sum, exact up to Big's digits.
template <typename Big>
Big alternating_difference(const std::vector<Big>& g, int l) {
  Big sum = 0, binomial = 1;  // C(l, i)
  for (int i = 0; i <= l; ++i) {
    sum += ((l - i) % 2 == 0 ? binomial : -binomial) * g[i];
    binomial = binomial * (l - i) / (i + 1);
  }
  return sum;
}

// WBK19 Thm 27 at integer α, in Big arithmetic from the alternating sums, capped by α/(2σ²):
// the reference for fixed_size_gaussian_rdp. Holds g(i) and Δ^l g(0) of one σ for α <= max_alpha.
template <typename Big>
class ReferenceBound {
 public:
  ReferenceBound(double sigma, int max_alpha)
      : sigma_(sigma), g_(moments<Big>(sigma, max_alpha + 1)), thm27_(max_alpha + 1) {
    std::vector<Big> delta(max_alpha + 2);
    for (int l = 2; l <= max_alpha + 1; l += 2) delta[l] = alternating_difference(g_, l);
    for (int j = 3; j <= max_alpha; ++j) thm27_[j] = 4 * sqrt(delta[2 * (j / 2)] * delta[2 * ((j + 1) / 2)]);
  }

  double operator()(double gamma, int alpha) const {
    const Big bg(gamma), e2 = g_[2];  // g(2) = e^{ε(2)} = e^{1/σ²}
    Big a = 1, binomial = Big(alpha) * (alpha - 1) / 2;
    a += bg * bg * binomial * std::min(Big(4 * (e2 - 1)), Big(2 * e2));
    Big power = bg * bg;  // γ^j
    for (int j = 3; j <= alpha; ++j) {
      binomial = binomial * (alpha - j + 1) / j;
      power *= bg;
      const Big general = 2 * g_[j];  // 2e^{(j−1)ε(j)}
      a += power * binomial * std::min(thm27_[j], general);
    }
    const double bound = static_cast<double>(log(a) / (alpha - 1));
    return std::min(bound, alpha / (2 * sigma_ * sigma_));
  }

 private:
  double sigma_;
  std::vector<Big> g_, thm27_;  // g(i); 4√(Δ^{2⌊j/2⌋}g(0) Δ^{2⌈j/2⌉}g(0))
};

}  // namespace

TEST_CASE("forward differences: positive series = multiprecision alternating sum") {
  // 100 digits cover the cancellation here (at σ = 20, l = 40: Δ ≈ 1e-26 from terms ≈ 1e11).
  for (double sigma : {0.5, 1.0, 4.0, 20.0}) {
    const auto g = moments<Big100>(sigma, 40);
    for (int l = 2; l <= 40; ++l) {
      const double ref = static_cast<double>(log(alternating_difference(g, l)));
      const double ours = log_gaussian_forward_difference(l, sigma);
      INFO("sigma = ", sigma, " l = ", l, " ours = ", ours, " ref = ", ref);
      REQUIRE(std::isfinite(ours));
      CHECK(std::abs(ours - ref) < 1e-10);  // difference of logs = relative difference
    }
  }
  // Large σ and l up to 256: Δ^256 g(0) ≈ 1e-515 at σ = 1e3 from terms ≈ 1e76, 700 digits.
  for (double sigma : {7.0, 100.0, 1e3}) {
    const auto g = moments<Big700>(sigma, 256);
    for (int l : {2, 3, 7, 16, 40, 41, 64, 100, 127, 128, 200, 255, 256}) {
      const double ref = static_cast<double>(log(alternating_difference(g, l)));
      const double ours = log_gaussian_forward_difference(l, sigma);
      INFO("sigma = ", sigma, " l = ", l, " ours = ", ours, " ref = ", ref);
      REQUIRE(std::isfinite(ours));
      CHECK(std::abs(ours - ref) < 1e-10);
    }
  }
  // l = 2: e^{2c} − 1 in closed form, down to tiny c.
  for (double sigma : {0.3, 1.0, 1e2, 1e6, 1e12})
    CHECK(rel_diff(log_gaussian_forward_difference(2, sigma), std::log(std::expm1(1 / (sigma * sigma)))) < 1e-13);
  CHECK(log_gaussian_forward_difference(0, 1.0) == 0);
  CHECK(std::isinf(log_gaussian_forward_difference(1, 1.0)));
  // Past the table (c·l(l−1) too large for the series): +inf, the caller's cue for the other branch.
  CHECK(log_gaussian_forward_difference(256, 1.0) == std::numeric_limits<double>::infinity());
  CHECK_THROWS_AS(log_gaussian_forward_difference(257, 1.0), dpareto::InputError);
  CHECK_THROWS_AS(log_gaussian_forward_difference(4, 0.0), dpareto::InputError);
}

TEST_CASE("forward differences: the series is summed wherever the accountant can need it") {
  // The accountant skips the series only when Δ^k g(0) >= g(k)/2 is certain for the neighbours
  // (then its branch loses); beyond that point, c·l(l−1) <= ~1.1·(l/2)·ln(1.44 l) (≈ 820 at
  // l = 256, σ ≈ 6.3). Check with margin: every l <= 256 is summed for σ >= 6, l <= 40 for σ >= 0.5.
  for (double sigma = 6.0; sigma < 1e7; sigma *= 1.5)
    for (int l = 2; l <= kMaxForwardDifferenceOrder; l += 2) {
      INFO("sigma = ", sigma, " l = ", l);
      CHECK(std::isfinite(log_gaussian_forward_difference(l, sigma)));
    }
  for (double sigma = 0.5; sigma < 7; sigma *= 1.1)
    for (int l = 2; l <= 40; ++l) CHECK(std::isfinite(log_gaussian_forward_difference(l, sigma)));
}

TEST_CASE("Thm 27 bound at integer orders = independent multiprecision evaluation to 1e-9") {
  for (double sigma : {0.6, 1.0, 1.7, 3.0, 5.0, 10.0, 50.0}) {
    const ReferenceBound<Big100> reference(sigma, 32);
    for (double gamma : {1e-4, 1e-2, 0.1, 0.5, 0.9})
      for (int alpha : {2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 16, 23, 32}) {
        const double ours = fixed_size_gaussian_rdp(gamma, sigma, alpha), ref = reference(gamma, alpha);
        INFO("gamma = ", gamma, " sigma = ", sigma, " alpha = ", alpha, " ours = ", ours, " ref = ", ref);
        CHECK(rel_diff(ours, ref) < 1e-9);
      }
  }
  // Large orders (the skip rule, long series, cancellation to 1e-515), 700 digits.
  for (double sigma : {4.0, 6.3, 9.0, 30.0, 300.0}) {
    const ReferenceBound<Big700> reference(sigma, 256);
    for (double gamma : {1e-3, 0.05})
      for (int alpha : {64, 255, 256}) {
        const double ours = fixed_size_gaussian_rdp(gamma, sigma, alpha), ref = reference(gamma, alpha);
        INFO("gamma = ", gamma, " sigma = ", sigma, " alpha = ", alpha, " ours = ", ours, " ref = ", ref);
        CHECK(rel_diff(ours, ref) < 1e-9);
      }
  }
}

TEST_CASE("Thm 27 bound: closed forms") {
  // γ = 1: no subsampling, the Gaussian mechanism's α/(2σ²) (the cap binds).
  for (double sigma : {0.5, 1.0, 3.0, 40.0})
    for (double alpha : {1.5, 2.0, 3.0, 7.5, 32.0, 300.0}) {
      CHECK(fixed_size_gaussian_rdp(1, sigma, alpha) == alpha / (2 * sigma * sigma));
      CHECK(fixed_size_general_rdp(1, sigma, alpha) == alpha / (2 * sigma * sigma));
    }
  // α = 2: log(1 + γ² min{4(e^{1/σ²} − 1), 2e^{1/σ²}}), the same for both bounds.
  for (double gamma : {1e-4, 0.01, 0.3})
    for (double sigma : {0.5, 1.0, 1.2, 5.0, 1e3}) {
      const double e = 1 / (sigma * sigma);
      const double expected = std::log1p(gamma * gamma * std::min(4 * std::expm1(e), 2 * std::exp(e)));
      CHECK(rel_diff(fixed_size_gaussian_rdp(gamma, sigma, 2), std::min(expected, 1 / (sigma * sigma))) < 1e-14);
      CHECK(fixed_size_gaussian_rdp(gamma, sigma, 2) == fixed_size_general_rdp(gamma, sigma, 2));
      CHECK(fixed_size_gaussian_rdp(gamma, sigma, 1.5) == fixed_size_gaussian_rdp(gamma, sigma, 2));
    }
  CHECK(fixed_size_gaussian_rdp(0, 1, 10) == 0);
}

TEST_CASE("Thm 27 bound: below the general bound, monotone in the order and in sigma") {
  std::vector<double> alphas;
  for (double a = 1.1; a < 600; a *= 1.07) alphas.push_back(a);
  for (double a : {2.0, 3.0, 4.0, 10.0, 64.0, 255.0, 256.0, 257.0, 258.0, 512.0}) alphas.push_back(a);
  std::sort(alphas.begin(), alphas.end());
  bool below = true, in_alpha = true, in_sigma = true;
  int not_equal = 0, far_below = 0;
  for (double gamma : {1e-4, 1e-2, 0.1, 0.5, 0.99})
    for (double sigma = 0.3; sigma < 3000; sigma *= 1.6) {
      double previous = 0;
      for (double alpha : alphas) {
        const double v = fixed_size_gaussian_rdp(gamma, sigma, alpha);
        const double general = fixed_size_general_rdp(gamma, sigma, alpha);
        const double more_noise = fixed_size_gaussian_rdp(gamma, sigma * 1.6, alpha);
        INFO("gamma = ", gamma, " sigma = ", sigma, " alpha = ", alpha, " v = ", v);
        if (!(v <= general)) {
          below = false;
          CHECK(v <= general);
        }
        // Nondecreasing up to α = 256; beyond, the general terms (as dp_accounting) need not be.
        if (alpha <= 256 && !(v >= previous * (1 - 1e-12))) {
          in_alpha = false;
          CHECK(v >= previous);
        }
        if (!(more_noise <= v * (1 + 1e-12))) {
          in_sigma = false;
          CHECK(more_noise <= v);
        }
        CHECK(std::isfinite(v));
        CHECK(v > 0);
        not_equal += v != general;
        far_below += v < 0.5 * general;
        previous = v;
      }
    }
  CHECK(below);
  CHECK(in_alpha);
  CHECK(in_sigma);
  CHECK(not_equal > 0);
  CHECK(far_below > 0);  // the Thm 27 branch does bite
}

TEST_CASE("the general bound's floor is gone: sigma for (1, 1e-5) at q = 0.01, T = 1e4") {
  const double q = 0.01, epsilon = 1, delta = 1e-5;
  const long long steps = 10000;
  const double poisson = calibrate_sigma(Sampling::poisson, q, steps, epsilon, delta);
  const double fixed = calibrate_sigma(Sampling::fixed_size, q, steps, epsilon, delta);
  const double general = calibrate_sigma(Sampling::fixed_size_general, q, steps, epsilon, delta);
  MESSAGE("sigma for (1, 1e-5), q = 0.01, T = 1e4, default orders, improved conversion: poisson = ", poisson,
          ", fixed (Thm 27) = ", fixed, ", fixed-general (Thm 9) = ", general);
  CHECK(poisson == doctest::Approx(4.1258).epsilon(1e-4));
  CHECK(general == doctest::Approx(404.54).epsilon(1e-4));
  CHECK(fixed < 10);       // far below the floor ...
  CHECK(fixed > poisson);  // ... but replace-one neighbours cost more than add/remove
  CHECK(fixed == doctest::Approx(8.1675).epsilon(1e-4));
  CHECK(dpsgd_epsilon(Sampling::fixed_size, q, fixed, steps, delta).epsilon <= epsilon);
}

TEST_CASE("Thm 27 accounting is fast: all default orders at a new sigma") {
  const auto orders = default_orders();
  dpsgd_rdp(Sampling::fixed_size, 0.01, 3.0, 1000, orders);  // builds the σ-independent table
  double worst = 0;
  for (double sigma = 0.4; sigma < 5000; sigma *= 1.25) {
    const auto start = std::chrono::steady_clock::now();
    const auto rdp = dpsgd_rdp(Sampling::fixed_size, 0.01, sigma, 1000, orders);
    worst =
        std::max(worst, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    CHECK(std::isfinite(rdp.back()));
  }
  MESSAGE("slowest dpsgd_rdp(fixed_size) over default_orders() at a new sigma: ", worst, " ms");
  CHECK(worst < 50);  // typically < 1 ms; generous for loaded machines
}

TEST_CASE("sampling names") {
  CHECK(parse_sampling("fixed", "--sampling") == Sampling::fixed_size);
  CHECK(parse_sampling("fixed-general", "--sampling") == Sampling::fixed_size_general);
  CHECK(parse_sampling("fixed_size_general", "--sampling") == Sampling::fixed_size_general);
  CHECK(std::string(to_string(Sampling::fixed_size)) == "fixed");
  CHECK(std::string(to_string(Sampling::fixed_size_general)) == "fixed-general");
  CHECK_THROWS_WITH_AS(parse_sampling("fixed-thm27", "--sampling"), doctest::Contains("fixed-general"),
                       dpareto::InputError);
}
