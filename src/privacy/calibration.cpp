#include "dpareto/privacy/calibration.hpp"

#include <boost/math/tools/toms748_solve.hpp>
#include <cmath>
#include <cstdint>
#include <string>

#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"

namespace dpareto::privacy {

namespace {
void check_target(double epsilon, double delta) {
  if (!(epsilon > 0) || std::isinf(epsilon))
    throw InputError("target epsilon = " + format_number(epsilon) + " must be a finite number > 0");
  if (!(delta > 0 && delta < 1)) throw InputError("delta = " + format_number(delta) + " must be in (0, 1)");
}
}  // namespace

double calibrate_sigma(Sampling sampling, double q, long long steps, double epsilon, double delta,
                       const std::vector<double>& orders, Conversion conversion) {
  check_target(epsilon, delta);
  if (steps < 1) throw InputError("steps = " + std::to_string(steps) + " must be >= 1 to calibrate sigma");
  if (!(q > 0 && q <= 1))
    throw InputError("sampling rate q = " + format_number(q) + " must be in (0, 1] to calibrate sigma");
  // ε(σ) is continuous and nonincreasing; solve in s = log σ.
  auto f = [&](double s) {
    return dpsgd_epsilon(sampling, q, std::exp(s), steps, delta, orders, conversion).epsilon - epsilon;
  };
  const double lo = std::log(kMinNoiseMultiplier), hi = std::log(kMaxNoiseMultiplier);
  const double f_hi = f(hi);
  if (f_hi > 0)
    throw InputError("target epsilon = " + format_number(epsilon) + " is not reachable with sigma <= " +
                     format_number(kMaxNoiseMultiplier) + " (epsilon there is " + format_number(f_hi + epsilon) + ")");
  const double f_lo = f(lo);
  if (f_lo <= 0)
    throw InputError("target epsilon = " + format_number(epsilon) + " is met already at sigma = " +
                     format_number(kMinNoiseMultiplier) + " (epsilon there is " + format_number(f_lo + epsilon) + ")");
  std::uintmax_t iterations = 200;
  const auto bracket = boost::math::tools::toms748_solve(
      f, lo, hi, f_lo, f_hi, [](double a, double b) { return std::abs(b - a) <= 1e-11; }, iterations);
  return std::exp(bracket.second);  // the upper end: ε(σ) <= target
}

long long max_steps(Sampling sampling, double q, double sigma, double epsilon, double delta,
                    const std::vector<double>& orders, Conversion conversion) {
  check_target(epsilon, delta);
  const std::vector<double> per_step = dpsgd_rdp(sampling, q, sigma, 1, orders);
  if (q == 0) throw InputError("sampling rate q = 0: any number of steps has epsilon = 0");
  std::vector<double> scaled(per_step.size());
  auto fits = [&](long long steps) {  // ε(T) <= target; RDP is linear in T (Mironov 2017, Prop. 1)
    for (std::size_t i = 0; i < per_step.size(); ++i) scaled[i] = static_cast<double>(steps) * per_step[i];
    return rdp_to_epsilon(orders, scaled, delta, conversion).epsilon <= epsilon;
  };
  if (!fits(1)) return 0;
  long long good = 1, bad = 2;
  while (fits(bad)) {
    good = bad;
    if (bad > (1LL << 61))
      throw InputError("sigma = " + format_number(sigma) + ": more than 2^61 steps fit the target");
    bad *= 2;
  }
  while (bad - good > 1) {
    const long long mid = good + (bad - good) / 2;
    (fits(mid) ? good : bad) = mid;
  }
  return good;
}

double calibrate_sigma(AccountantKind kind, Sampling sampling, double q, long long steps, double epsilon,
                       double delta) {
  const double rdp_sigma = calibrate_sigma(sampling, q, steps, epsilon, delta);  // validates; meets the target
  if (kind == AccountantKind::rdp) return rdp_sigma;
  // ε_PLD(σ) <= ε_RDP(σ), so the RDP σ meets the target; step down until it is missed.
  auto f = [&](double s) { return dpsgd_epsilon(kind, sampling, q, std::exp(s), steps, delta).epsilon - epsilon; };
  const double hi = std::log(rdp_sigma), f_hi = f(hi);
  double lo = hi, f_lo = f_hi;
  const double floor = std::log(kMinNoiseMultiplier);
  while (f_lo <= 0) {
    if (lo <= floor)
      throw InputError("target epsilon = " + format_number(epsilon) +
                       " is met already at sigma = " + format_number(kMinNoiseMultiplier) + " (epsilon there is " +
                       format_number(f_lo + epsilon) + ")");
    lo = std::max(lo - std::log(1.25), floor);
    f_lo = f(lo);
  }
  if (f_hi > 0) return rdp_sigma;  // not reached: ε_PLD <= ε_RDP <= target at rdp_sigma
  std::uintmax_t iterations = 100;
  const auto bracket = boost::math::tools::toms748_solve(
      f, lo, hi, f_lo, f_hi, [](double a, double b) { return std::abs(b - a) <= 1e-7; }, iterations);
  return std::exp(bracket.second);  // f(second) <= 0 throughout the solve
}

long long max_steps(AccountantKind kind, Sampling sampling, double q, double sigma, double epsilon, double delta) {
  const long long rdp_steps = max_steps(sampling, q, sigma, epsilon, delta);  // validates
  if (kind == AccountantKind::rdp) return rdp_steps;
  auto fits = [&](long long steps) { return dpsgd_epsilon(kind, sampling, q, sigma, steps, delta).epsilon <= epsilon; };
  long long good = rdp_steps, bad = std::max(2 * rdp_steps, 1LL);  // ε_PLD(T) <= ε_RDP(T): rdp_steps fit
  if (good == 0 && !fits(1)) return 0;
  if (good == 0) good = 1, bad = 2;
  while (fits(bad)) {
    good = bad;
    if (bad > (1LL << 40))
      throw InputError("sigma = " + format_number(sigma) + ": more than 2^40 steps fit the target");
    bad *= 2;
  }
  while (bad - good > 1) {
    const long long mid = good + (bad - good) / 2;
    (fits(mid) ? good : bad) = mid;
  }
  return good;
}

}  // namespace dpareto::privacy
