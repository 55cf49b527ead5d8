#include "dpareto/privacy/subsampled_tuning.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "log_math.hpp"

namespace dpareto::privacy {

namespace {

using detail::kInf;

void check_rate(double q) {
  if (!(q >= 0 && q <= 1)) throw InputError("tuning-set sampling rate q = " + format_number(q) + " must be in [0, 1]");
}

// ε(j) from a by-order table, validated.
class ByOrder {
 public:
  ByOrder(const std::vector<double>& values, const char* name) : values_(values), name_(name) {}
  // k · ε(j), with 0 · ε(j) = 0 even where ε(j) is +inf or unused (j = 1).
  double scaled(long long j, double k) const {
    if (k == 0) return 0;
    if (j < 2 || j >= static_cast<long long>(values_.size()))
      throw InputError(std::string(name_) + " RDP curve has no value at order " + std::to_string(j) +
                       " (given for orders 2.." + std::to_string(values_.size() - 1) + ")");
    const double v = values_[static_cast<std::size_t>(j)];
    if (std::isnan(v) || v < 0)
      throw InputError(std::string(name_) + " RDP value at order " + std::to_string(j) + " is not >= 0");
    return k * v;
  }

 private:
  const std::vector<double>& values_;
  const char* name_;
};

// log(q^k) with log(0^0) = 0.
double log_power(double q, double k) {
  return k == 0 ? 0 : k * std::log(q);
}

double log_binomial(long long n, long long k) {
  return std::lgamma(n + 1.0) - std::lgamma(k + 1.0) - std::lgamma(n - k + 1.0);
}

// log Σ e^{t} over terms (the terms may be −inf or +inf).
class LogSum {
 public:
  void add(double t) { value_ = detail::log_add(value_, t); }
  double value() const { return value_; }

 private:
  double value_ = -kInf;
};

bool integer_order(double alpha) {
  return alpha >= 2 && std::round(alpha) == alpha;
}

}  // namespace

std::vector<double> subsampled_tuning_rdp(const std::vector<double>& orders, const std::vector<double>& tune_by_order,
                                          const std::vector<double>& base_by_order, double q) {
  check_rate(q);
  const ByOrder tune(tune_by_order, "tuning"), base(base_by_order, "base");
  std::vector<double> out;
  for (double alpha : orders) {
    if (!(alpha > 1)) throw InputError("RDP order " + format_number(alpha) + " must be > 1");
    if (!integer_order(alpha)) {  // Thm 1 is proved for integer α only
      out.push_back(kInf);
      continue;
    }
    const auto a = static_cast<long long>(alpha);
    const double p = 1 - q;
    // ε₁ (KK23 eq. 3.6)
    LogSum s1;
    s1.add(log_power(q, alpha) + tune.scaled(a, alpha - 1));
    s1.add(log_power(p, alpha) + base.scaled(a, alpha - 1));
    for (long long j = 1; j <= a - 1; ++j)
      s1.add(log_binomial(a, j) + log_power(q, double(a - j)) + log_power(p, double(j)) +
             tune.scaled(a - j, double(a - j - 1)) + base.scaled(j, double(j - 1)));
    // ε₂ (KK23 eq. 3.7)
    LogSum s2;
    s2.add(log_power(p, alpha - 1) + base.scaled(a, alpha - 1));
    for (long long j = 1; j <= a - 1; ++j)
      s2.add(log_binomial(a - 1, j) + log_power(q, double(j)) + log_power(p, double(a - 1 - j)) +
             tune.scaled(j + 1, double(j)) + base.scaled(a - j, double(a - j - 1)));
    out.push_back(std::max(s1.value(), s2.value()) / (alpha - 1));
  }
  return out;
}

std::vector<double> poisson_subsampled_rdp(const std::vector<double>& orders,
                                           const std::vector<double>& mechanism_by_order, double q) {
  check_rate(q);
  const ByOrder mech(mechanism_by_order, "subsampled mechanism's");
  std::vector<double> out;
  for (double alpha : orders) {
    if (!(alpha > 1)) throw InputError("RDP order " + format_number(alpha) + " must be > 1");
    if (!integer_order(alpha)) {  // Zhu & Wang's bound is for integer α only
      out.push_back(kInf);
      continue;
    }
    if (q == 0) {
      out.push_back(0);
      continue;
    }
    const auto a = static_cast<long long>(alpha);
    const double p = 1 - q;
    // The bracket minus 1, using (1−γ)^{α−1}(αγ − γ + 1) = Σ_{j<2} C(α,j) γ^j (1−γ)^{α−j} and
    // Σ_j C(α,j) γ^j (1−γ)^{α−j} = 1: positive terms C(α,2)γ²(1−γ)^{α−2}(e^{ε(2)} − 1) and
    // C(α,j)γ^j(1−γ)^{α−j}(3e^{(j−1)ε(j)} − 1), so small values keep their relative precision.
    LogSum s;
    const double e2 = mech.scaled(2, 1);
    if (e2 > 0) s.add(log_binomial(a, 2) + 2 * std::log(q) + log_power(p, alpha - 2) + detail::log_expm1(e2));
    for (long long j = 3; j <= a; ++j) {
      const double e = mech.scaled(j, double(j - 1));
      s.add(log_binomial(a, j) + j * std::log(q) + log_power(p, double(a - j)) + detail::log_sub(std::log(3.0) + e, 0));
    }
    out.push_back(detail::log1p_exp(s.value()) / (alpha - 1));
  }
  return out;
}

}  // namespace dpareto::privacy
