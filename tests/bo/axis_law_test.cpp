#include <doctest/doctest.h>

#include <algorithm>
#include <boost/math/quadrature/gauss.hpp>
#include <cmath>
#include <random>
#include <stdexcept>

#include "dpareto/bo/axis_law.hpp"

using namespace dpareto;

namespace {

using Kind = bo::AxisLaw::Kind;

double sigmoid(double z) {
  return pareto::inverse(pareto::Transform::logit, z);
}

// ψ(t) alone.
double psi(const bo::AxisLaw& law, double t) {
  return bo::expected_shortfall(law, {t})[0];
}

// Y = g(X) of the law.
double draw_on_axis(const bo::AxisLaw& law, double x) {
  switch (law.kind) {
    case Kind::normal:
      return std::max(law.floor, x);
    case Kind::log_normal:
      return std::exp(x);
    case Kind::logit_normal:
      return sigmoid(x);
    case Kind::arcsine_normal:
      return 0.5 * (1 + std::sin(2 * std::clamp(x, -pareto::kArcsineBound, pareto::kArcsineBound)));
  }
  return NAN;
}

// ψ(t) = E[(t − Y)⁺] within 5 standard errors of a 10^6-draw Monte Carlo.
void check_against_monte_carlo(const bo::AxisLaw& law, const std::vector<double>& ts, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> x(law.mean, law.sd);
  std::vector<double> ys(1000000);
  for (double& y : ys) y = draw_on_axis(law, x(rng));
  for (double t : ts) {
    double sum = 0, sum_sq = 0;
    for (double y : ys) {
      const double v = std::max(0.0, t - y);
      sum += v, sum_sq += v * v;
    }
    const double n = static_cast<double>(ys.size()), mean = sum / n, se = std::sqrt((sum_sq / n - mean * mean) / n);
    INFO("kind " << static_cast<int>(law.kind) << ", t = " << t << ": Monte Carlo " << mean << " ± " << se);
    CHECK(std::abs(psi(law, t) - mean) <= 5 * se + 1e-15);
  }
}

// ∫_{−∞}^{z_t} Φ((z − m)/s) σ'(z) dz + (t − 1)⁺ by 20-point Gauss–Legendre on 2000 equal panels of
// [max(−45, m − 10s), min(z_t, 45)], no split and no closed-form part: a reference to ~1e-14 for s ≥ 0.05.
double logit_normal_reference(double m, double s, double t) {
  const double y = std::min(t, 1.0);
  const double lo = std::max(-45.0, m - 10 * s), hi = std::min(y < 1 ? std::log(y / (1 - y)) : 45.0, 45.0);
  double sum = std::max(0.0, t - 1);
  const int panels = 2000;
  const double h = (hi - lo) / panels;
  const auto f = [&](double z) { return 0.5 * std::erfc(-(z - m) / s / std::sqrt(2.0)) * sigmoid(z) * sigmoid(-z); };
  for (int i = 0; lo < hi && i < panels; ++i)
    sum += boost::math::quadrature::gauss<double, 20>::integrate(f, lo + i * h, lo + (i + 1) * h);
  return sum;
}

// The same for the arcsine-normal: ∫ Φ((z − m)/s) cos 2z dz over [max(−π/4, m − 10s), min(z_t, π/4)],
// z_t = ½ asin(2 min(t, 1) − 1), plus (t − 1)⁺.
double arcsine_normal_reference(double m, double s, double t) {
  const double y = std::min(t, 1.0);
  const double lo = std::max(-pareto::kArcsineBound, m - 10 * s), hi = 0.5 * std::asin(2 * y - 1);
  double sum = std::max(0.0, t - 1);
  const int panels = 2000;
  const double h = (hi - lo) / panels;
  const auto f = [&](double z) { return 0.5 * std::erfc(-(z - m) / s / std::sqrt(2.0)) * std::cos(2 * z); };
  for (int i = 0; lo < hi && i < panels; ++i)
    sum += boost::math::quadrature::gauss<double, 20>::integrate(f, lo + i * h, lo + (i + 1) * h);
  return sum;
}

}  // namespace

TEST_CASE("axis_law: each objective's GP prediction is carried onto its hypervolume axis") {
  bo::ImprovementRegion region;
  region.objectives = pareto::Objectives::with({"train_seconds"}, {10, 1, 100});
  const auto check = [](const bo::AxisLaw& law, Kind kind, double mean, double sd, double floor) {
    CHECK(law.kind == kind);
    CHECK(law.mean == doctest::Approx(mean).epsilon(1e-15));
    CHECK(law.sd == doctest::Approx(sd).epsilon(1e-15));
    CHECK(law.floor == floor);
  };
  const double inf = std::numeric_limits<double>::infinity();
  check(bo::axis_law(region, 0, 0.5, 2.0), Kind::log_normal, 0.5, 2.0, -inf);  // linear ε axis
  check(bo::axis_law(region, 1, 0.5, 2.0), Kind::logit_normal, 0.5, 2.0, -inf);
  check(bo::axis_law(region, 2, 0.5, 2.0), Kind::log_normal, 0.5, 2.0, -inf);
  region.axis.kind = pareto::EpsilonAxis::Kind::log10;
  region.axis.floor = 1e-3;
  check(bo::axis_law(region, 0, 0.5, 2.0), Kind::normal, 0.5 / std::log(10.0), 2.0 / std::log(10.0), -3);
  check(bo::axis_law(region, 1, 0.5, 2.0), Kind::logit_normal, 0.5, 2.0, -inf);
  region.gp_space_geometry = true;  // the estimated reference measures in GP space
  check(bo::axis_law(region, 0, 0.5, 2.0), Kind::normal, 0.5, 2.0, -inf);
  check(bo::axis_law(region, 1, 0.5, 2.0), Kind::normal, 0.5, 2.0, -inf);
  region.gp_space_geometry = false;
  region.objectives[2].surrogate = pareto::Transform::identity;
  region.objectives[2].complement = true;  // objective 1 − c with c = −Z modelled as it is: Y = 1 + Z
  check(bo::axis_law(region, 2, 0.5, 2.0), Kind::normal, 1.5, 2.0, -inf);
  region.objectives[2].surrogate = pareto::Transform::log;  // Y = 1 − e^{−Z}: no law written for it
  CHECK_THROWS_AS(bo::axis_law(region, 2, 0.5, 2.0), std::logic_error);
  region.objectives[1].surrogate = pareto::Transform::arcsine;  // error = 1 − h(−Z) = h(Z)
  check(bo::axis_law(region, 1, 0.5, 2.0), Kind::arcsine_normal, 0.5, 2.0, -inf);
}

TEST_CASE("expected_shortfall: the closed forms and the quadrature match Monte Carlo (10^6 draws)") {
  // A log10 ε axis clipped at −2 with much of the mass below it; ε on a linear axis; error.
  check_against_monte_carlo({Kind::normal, -1.8, 0.6, -2.0}, {-2.5, -2.0, -1.9, -1.0, 3.0}, 1);
  check_against_monte_carlo({Kind::log_normal, std::log(0.5), 0.8}, {0.0, 0.1, 0.5, 2.0, 10.0}, 2);
  check_against_monte_carlo({Kind::logit_normal, -0.8, 0.7}, {0.0, 0.05, 0.3, 0.31, 0.9, 1.0, 1.5}, 3);
  check_against_monte_carlo({Kind::logit_normal, 9.0, 3.0}, {0.5, 0.999, 1.0}, 4);  // near error 1
  // Arcsine: 11% of the mass at 1 (0.3% at 0); then 26% at 0 and 2% at 1.
  check_against_monte_carlo({Kind::arcsine_normal, 0.3, 0.4}, {0.0, 0.01, 0.3, 0.5, 0.9, 1.0, 1.5}, 5);
  check_against_monte_carlo({Kind::arcsine_normal, -0.4, 0.6}, {1e-6, 0.05, 0.5, 0.99, 1.0}, 6);
}

TEST_CASE("expected_shortfall: closed-form golden values") {
  // ψ_N(t) = (t − m)Φ(z) + s φ(z): m = 0, s = 1, t = 1: Φ(1) + φ(1) = 0.8413447461 + 0.2419707245.
  CHECK(psi({Kind::normal, 0, 1}, 1.0) == doctest::Approx(1.0833154706).epsilon(1e-10));
  // Clipped at 0.5: ψ_N(1) − ψ_N(0.5) = 1.0833154706 − (0.5 Φ(0.5) + φ(0.5)) = 1.0833154706 − 0.6977965574.
  CHECK(psi({Kind::normal, 0, 1, 0.5}, 1.0) == doctest::Approx(0.3855189132).epsilon(1e-9));
  CHECK(psi({Kind::normal, 0, 1, 0.5}, 0.4) == 0.0);
  // Log-normal m = 0, s = 1, t = 1: Φ(0) − e^{1/2} Φ(−1) = 0.5 − 1.6487212707 · 0.1586552539.
  CHECK(psi({Kind::log_normal, 0, 1}, 1.0) == doctest::Approx(0.2384217081).epsilon(1e-9));
  // Logit-normal above 1: ψ(t) = ψ(1) + t − 1 and ψ(1) = E[1 − σ(X)] = 1/2 for m = 0 (symmetry).
  CHECK(psi({Kind::logit_normal, 0, 1.7}, 1.0) == doctest::Approx(0.5).epsilon(1e-10));
  CHECK(psi({Kind::logit_normal, 0, 1.7}, 1.25) == doctest::Approx(0.75).epsilon(1e-10));
  // Arcsine-normal: ψ(1) = 1 − E[h(X)] = ½(1 − E[sin 2X]) = ½(1 − sin(2m) e^{−2s²}) when the clamp is
  // out of reach (m = 0.2, s = 0.05: π/4 is 11.7 sd away); 1/2 for m = 0 by symmetry, clamp or not.
  CHECK(psi({Kind::arcsine_normal, 0.2, 0.05}, 1.0) ==
        doctest::Approx(0.5 * (1 - std::sin(0.4) * std::exp(-2 * 0.05 * 0.05))).epsilon(1e-10));
  CHECK(psi({Kind::arcsine_normal, 0, 2.0}, 1.0) == doctest::Approx(0.5).epsilon(1e-10));
  CHECK(psi({Kind::arcsine_normal, 0, 2.0}, 1.5) == doctest::Approx(1.0).epsilon(1e-10));
  // Far below −π/4 nearly all the mass is at 0: ψ(t) = t for t in (0, 1].
  CHECK(psi({Kind::arcsine_normal, -3.0, 0.1}, 0.4) == doctest::Approx(0.4).epsilon(1e-12));
}

TEST_CASE("expected_shortfall: the arcsine-normal quadrature is within its bound of a fine reference") {
  const std::vector<double> ts = {1e-4, 0.2, 0.5, 0.97, 1.0, 1.3};
  for (double m : {-2.0, -0.7, 0.0, 0.5, 0.78, 3.0})
    for (double s : {0.01, 0.1, 0.5, 2.0, 30.0}) {
      const bo::AxisLaw law{Kind::arcsine_normal, m, s};
      const std::vector<double> together = bo::expected_shortfall(law, ts);
      for (std::size_t i = 0; i < ts.size(); ++i) {
        const double alone = psi(law, ts[i]), reference = arcsine_normal_reference(m, s, ts[i]);
        INFO("m = " << m << ", s = " << s << ", t = " << ts[i] << ": " << alone << ", " << together[i] << " vs "
                    << reference);
        CHECK(std::abs(alone - reference) <= 1e-13 + 1e-9 * reference);
        CHECK(std::abs(together[i] - reference) <= 1e-13 + 1e-9 * reference);
      }
    }
}

TEST_CASE("expected_shortfall: the logit-normal quadrature is within its bound of a fine reference") {
  // Each point alone, and all of them in one ascending call (the integral accumulated piece by piece).
  const std::vector<double> ts = {1e-4, 0.2, 0.5, 0.97, 1.0, 1.3};
  for (double m : {-13.8, -3.0, 0.0, 1.5, 13.8})
    for (double s : {0.05, 0.3, 1.0, 5.0, 30.0}) {
      const bo::AxisLaw law{Kind::logit_normal, m, s};
      const std::vector<double> together = bo::expected_shortfall(law, ts);
      for (std::size_t i = 0; i < ts.size(); ++i) {
        const double alone = psi(law, ts[i]), reference = logit_normal_reference(m, s, ts[i]);
        INFO("m = " << m << ", s = " << s << ", t = " << ts[i] << ": " << alone << ", " << together[i] << " vs "
                    << reference);
        CHECK(std::abs(alone - reference) <= 1e-13 + 1e-9 * reference);
        CHECK(std::abs(together[i] - reference) <= 1e-13 + 1e-9 * reference);
      }
    }
}

TEST_CASE("expected_shortfall: a near-zero sd gives (t − g(mean))⁺; every value finite at the extremes") {
  const double sd = 1e-12;
  for (double t : {0.01, 0.3, 0.7, 1.0, 2.0}) {
    CHECK(psi({Kind::normal, 0.5, sd, -1}, t) == doctest::Approx(std::max(0.0, t - 0.5)));
    CHECK(psi({Kind::log_normal, std::log(0.5), sd}, t) == doctest::Approx(std::max(0.0, t - 0.5)));
    CHECK(psi({Kind::logit_normal, 0.2, sd}, t) == doctest::Approx(std::max(0.0, t - sigmoid(0.2))).epsilon(1e-10));
    const double h = 0.5 * (1 + std::sin(0.4));
    CHECK(psi({Kind::arcsine_normal, 0.2, sd}, t) == doctest::Approx(std::max(0.0, t - h)).epsilon(1e-10));
  }
  // Below the floor a prediction counts as the floor.
  CHECK(psi({Kind::normal, -5, sd, -2}, 1.0) == doctest::Approx(3.0));
  const double inf = std::numeric_limits<double>::infinity();
  for (Kind kind : {Kind::normal, Kind::log_normal, Kind::logit_normal, Kind::arcsine_normal})
    for (double m : {-800.0, -40.0, -13.8, 0.0, 13.8, 40.0, 800.0})
      for (double s : {1e-12, 1e-3, 1.0, 30.0, 1e3})
        for (double t : {-inf, -1.0, 0.0, 1e-300, 1e-6, 0.5, 1.0 - 1e-12, 1.0, 3.0, 1e6}) {
          const double value = psi({kind, m, s, kind == Kind::normal ? -2.0 : -inf}, t);
          INFO("kind " << static_cast<int>(kind) << ", m = " << m << ", s = " << s << ", t = " << t);
          CHECK(std::isfinite(value));
          CHECK(value >= 0);
        }
}
