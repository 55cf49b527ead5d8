#include "dpareto/privacy/analytic_gaussian.hpp"

#include <algorithm>
#include <boost/math/tools/toms748_solve.hpp>
#include <cmath>
#include <cstdint>

#include "argument_checks.hpp"
#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "log_math.hpp"

namespace dpareto::privacy {

namespace {

// Mills-type ratio R(x) = Φ(x)/φ(x) for x < 0: direct for x > −5, else the continued fraction
// Φ(−t)/φ(t) = 1/(t + 1/(t + 2/(t + 3/(t + ...)))), evaluated bottom-up.
double mills_ratio(double x) {
  if (x > -5) return detail::normal_cdf(x) * std::sqrt(2 * M_PI) * std::exp(0.5 * x * x);
  const double t = -x;
  double tail = t;
  for (int k = 200; k >= 1; --k) tail = t + k / tail;
  return 1 / tail;
}

// Relative tolerance for the bracketing solvers (toms748 stops when the bracket is this tight).
bool tight(double a, double b) {
  return std::abs(b - a) <= 1e-12 * std::max(std::abs(a), std::abs(b));
}

}  // namespace

double analytic_gaussian_delta(double epsilon, double sigma, double sensitivity) {
  if (!(epsilon >= 0)) throw InputError("epsilon = " + format_number(epsilon) + " must be >= 0");
  detail::check_positive_finite(sigma, "sigma");
  detail::check_positive_finite(sensitivity, "sensitivity");
  if (std::isinf(epsilon)) return 0;
  // Balle & Wang 2018, Thm 8: δ = Φ(a) − e^ε Φ(b), a = Δ/(2σ) − εσ/Δ, b = −Δ/(2σ) − εσ/Δ.
  const double a = sensitivity / (2 * sigma) - epsilon * sigma / sensitivity;
  const double b = -sensitivity / (2 * sigma) - epsilon * sigma / sensitivity;
  double delta;
  if (a >= 0) {
    delta = detail::normal_cdf(a) - std::exp(epsilon + detail::log_normal_cdf(b));
  } else {
    // e^ε φ(b) = φ(a) exactly (a² − b² = −2ε), so δ = φ(a) (R(a) − R(b)) with no overflow.
    const double phi_a = std::exp(-0.5 * a * a) / std::sqrt(2 * M_PI);
    delta = phi_a * (mills_ratio(a) - mills_ratio(b));
  }
  return std::clamp(delta, 0.0, 1.0);
}

double analytic_gaussian_sigma(double epsilon, double delta, double sensitivity) {
  if (!(epsilon >= 0) || std::isinf(epsilon))
    throw InputError("epsilon = " + format_number(epsilon) + " must be a finite number >= 0");
  detail::check_delta_open(delta);
  detail::check_positive_finite(sensitivity, "sensitivity");
  // δ(σ) decreases in σ; solve log δ(e^s) = log δ_target in s = log σ.
  const double log_target = std::log(delta);
  auto f = [&](double s) {
    const double d = analytic_gaussian_delta(epsilon, std::exp(s), sensitivity);
    return (d > 0 ? std::log(d) : -1e300) - log_target;
  };
  double lo = std::log(sensitivity), hi = lo;
  for (int i = 0; f(lo) <= 0; ++i) {
    if (i > 200) throw NumericalError("analytic Gaussian: no sigma bracket for delta = " + format_number(delta));
    lo -= 1;
  }
  for (int i = 0; f(hi) > 0; ++i) {
    if (i > 200) throw NumericalError("analytic Gaussian: no sigma bracket for delta = " + format_number(delta));
    hi += 1;
  }
  std::uintmax_t iterations = 200;
  const auto bracket = boost::math::tools::toms748_solve(
      f, lo, hi, [](double x, double y) { return std::abs(y - x) <= 1e-13; }, iterations);
  return std::exp(bracket.second);  // the upper end: δ(σ) <= δ_target
}

double analytic_gaussian_epsilon(double sigma, double delta, double sensitivity) {
  detail::check_positive_finite(sigma, "sigma");
  detail::check_delta_open(delta);
  detail::check_positive_finite(sensitivity, "sensitivity");
  auto f = [&](double eps) { return analytic_gaussian_delta(eps, sigma, sensitivity) - delta; };
  if (f(0) <= 0) return 0;
  double hi = 1;
  for (int i = 0; f(hi) > 0; ++i) {
    if (i > 2000) throw NumericalError("analytic Gaussian: no epsilon bracket for delta = " + format_number(delta));
    hi *= 2;
  }
  std::uintmax_t iterations = 300;
  const auto bracket = boost::math::tools::toms748_solve(f, 0.0, hi, tight, iterations);
  return bracket.second;  // the upper end: δ(ε) <= δ_target
}

double classic_gaussian_sigma(double epsilon, double delta, double sensitivity) {
  if (!(epsilon > 0 && epsilon < 1))
    throw InputError("epsilon = " + format_number(epsilon) +
                     ": the classic Gaussian calibration holds only for 0 < epsilon < 1 (use the analytic one)");
  detail::check_delta_open(delta);
  detail::check_positive_finite(sensitivity, "sensitivity");
  return sensitivity * std::sqrt(2 * std::log(1.25 / delta)) / epsilon;  // Dwork & Roth 2014, Thm A.1
}

}  // namespace dpareto::privacy
