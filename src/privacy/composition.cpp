#include "dpareto/privacy/composition.hpp"

#include <algorithm>
#include <boost/math/tools/toms748_solve.hpp>
#include <cmath>
#include <cstdint>
#include <string>

#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "log_math.hpp"

namespace dpareto::privacy {

namespace {

void check_epsilon(double epsilon, const char* name = "epsilon") {
  if (!(epsilon >= 0)) throw InputError(std::string(name) + " = " + format_number(epsilon) + " must be >= 0");
}

void check_delta(double delta, const char* name = "delta") {
  if (!(delta >= 0 && delta <= 1))
    throw InputError(std::string(name) + " = " + format_number(delta) + " must be in [0, 1]");
}

void check_count(long long k) {
  if (k < 1) throw InputError("number of compositions k = " + std::to_string(k) + " must be >= 1");
}

}  // namespace

ApproxDp basic_composition(const std::vector<ApproxDp>& mechanisms) {
  ApproxDp total{0, 0};
  for (const auto& m : mechanisms) {
    check_epsilon(m.epsilon);
    check_delta(m.delta);
    total.epsilon += m.epsilon;
    total.delta += m.delta;
  }
  total.delta = std::min(total.delta, 1.0);
  return total;
}

ApproxDp advanced_composition(double epsilon, double delta, long long k, double delta_slack) {
  check_epsilon(epsilon);
  check_delta(delta);
  check_count(k);
  if (!(delta_slack > 0 && delta_slack < 1))
    throw InputError("slack delta' = " + format_number(delta_slack) + " must be in (0, 1)");
  const double kd = static_cast<double>(k);
  const double eps = std::sqrt(2 * kd * std::log(1 / delta_slack)) * epsilon + kd * epsilon * std::expm1(epsilon);
  return {eps, std::min(1.0, kd * delta + delta_slack)};
}

double optimal_composition_delta(double epsilon, double delta, long long k, double epsilon_total) {
  check_epsilon(epsilon);
  check_delta(delta);
  check_count(k);
  check_epsilon(epsilon_total, "total epsilon");
  if (std::isinf(epsilon)) return 1;
  // δ' = Σ_i C(k,i) (e^{(k−i)ε} − e^{ε_g + iε})₊ / (1 + e^ε)^k, in log space; the positive
  // part is nonzero only while (k − 2i) ε > ε_g.
  const double log_norm = static_cast<double>(k) * detail::log1p_exp(epsilon);
  double log_sum = -detail::kInf;
  for (long long i = 0; i <= k; ++i) {
    const double hi = static_cast<double>(k - i) * epsilon, lo = epsilon_total + static_cast<double>(i) * epsilon;
    if (!(hi > lo)) break;
    const double log_binomial = std::lgamma(k + 1.0) - std::lgamma(i + 1.0) - std::lgamma(k - i + 1.0);
    log_sum = detail::log_add(log_sum, log_binomial + detail::log_sub(hi, lo));
  }
  const double delta_prime = std::exp(log_sum - log_norm);
  // 1 − (1−δ)^k (1 − δ'), computed without cancellation for small δ, δ'.
  const double log_keep = static_cast<double>(k) * std::log1p(-delta) + std::log1p(-std::min(delta_prime, 1.0));
  return std::clamp(-std::expm1(log_keep), 0.0, 1.0);
}

double optimal_composition_epsilon(double epsilon, double delta, long long k, double delta_total) {
  if (!(delta_total > 0 && delta_total < 1))
    throw InputError("total delta = " + format_number(delta_total) + " must be in (0, 1)");
  auto f = [&](double eg) { return optimal_composition_delta(epsilon, delta, k, eg) - delta_total; };
  if (f(0) <= 0) return 0;
  const double hi = static_cast<double>(k) * epsilon;  // δ(kε) = 1 − (1−δ)^k: basic composition
  if (f(hi) > 0)
    throw InputError("total delta = " + format_number(delta_total) + " is below 1 - (1 - delta)^k = " +
                     format_number(optimal_composition_delta(epsilon, delta, k, hi)));
  std::uintmax_t iterations = 200;
  const auto bracket = boost::math::tools::toms748_solve(
      f, 0.0, hi, [](double a, double b) { return std::abs(b - a) <= 1e-12 * std::max(1.0, std::abs(b)); }, iterations);
  return bracket.second;  // the upper end: δ(ε_g) <= delta_total
}

double pure_dp_rdp(double epsilon, double alpha) {
  check_epsilon(epsilon);
  if (!(alpha > 1)) throw InputError("RDP order " + format_number(alpha) + " must be > 1");
  return std::min(epsilon, alpha * epsilon * epsilon / 2);
}

double zcdp_to_epsilon(double rho, double delta) {
  if (!(rho >= 0)) throw InputError("zCDP rho = " + format_number(rho) + " must be >= 0");
  if (!(delta > 0 && delta < 1)) throw InputError("delta = " + format_number(delta) + " must be in (0, 1)");
  return rho + 2 * std::sqrt(rho * std::log(1 / delta));
}

}  // namespace dpareto::privacy
