#include "dpareto/privacy/sampled_gaussian_rdp.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/privacy/gaussian_forward_difference.hpp"
#include "log_math.hpp"

namespace dpareto::privacy {

using detail::kInf;

namespace {

// Σ_j of log-space terms, then log(1 + Σ): the terms are positive, so log1p keeps relative
// precision when the RDP is tiny.
double log1p_sum(const std::vector<double>& terms) {
  double top = -kInf;
  for (double t : terms) top = std::max(top, t);
  if (top == -kInf) return 0;
  // exp(d) is exactly 0 in double for d < -746, so those terms are skipped without changing a bit;
  // glibc's exp takes a slow path for them (a fifth of a calibration's time before this).
  constexpr double kExpUnderflows = -746;
  double sum = 0;
  for (double t : terms) {
    const double d = t - top;
    if (d >= kExpUnderflows) sum += std::exp(d);
  }
  return detail::log1p_exp(top + std::log(sum));
}

// a(k) = (k² − k)/(2σ²): log E_{N(0,σ²)}[e^{k(2z−1)/(2σ²)}], the Gaussian's log moment.
double moment_exponent(double k, double sigma) {
  return (k * k - k) / (2 * sigma * sigma);
}

// Integer α (Mironov et al. 2019, Sec. 3.3): A_α = Σ_k C(α,k)(1−q)^{α−k} q^k e^{a(k)}. Since
// Σ_k C(α,k)(1−q)^{α−k} q^k = 1, A_α − 1 = Σ_{k≥2} C(α,k)(1−q)^{α−k} q^k expm1(a(k)): positive
// terms, summed in log space; log A_α = log1p(A_α − 1) keeps relative precision for tiny RDP.
double poisson_integer_log_a(double q, double sigma, long long alpha) {
  const double lq = std::log(q), l1q = std::log1p(-q);
  thread_local std::vector<double> terms;
  terms.clear();
  double log_binomial = std::log(static_cast<double>(alpha));  // log C(α, 1)
  for (long long k = 2; k <= alpha; ++k) {
    log_binomial += std::log(static_cast<double>(alpha - k + 1) / static_cast<double>(k));
    const double a = moment_exponent(static_cast<double>(k), sigma);
    const double t = log_binomial + static_cast<double>(alpha - k) * l1q + static_cast<double>(k) * lq +
                     (a > 40 ? a : std::log(std::expm1(a)));  // log(e^a − 1) = a to double precision
    terms.push_back(t);
  }
  return log1p_sum(terms);
}

// Fractional α (Mironov et al. 2019, Sec. 3.3). Split the line at z₀ = σ² log(1/q − 1) + ½,
// where q e^u = 1 − q with u = (2z − 1)/(2σ²); expand L^α = ((1−q) + q e^u)^α binomially on each
// side and integrate term by term against N(0, σ²):
//   S₁ = Σ_i C(α,i) (1−q)^{α−i} q^i e^{a(i)} Φ((z₀−i)/σ),
//   S₂ = Σ_i C(α,i) q^{α−i} (1−q)^i e^{a(α−i)} Φ((α−i−z₀)/σ),   A_α = S₁ + S₂.
// For q < 0.45 we sum A_α − 1 instead (tiny RDP would otherwise drown in rounding of A_α ≈ 1):
// with h_i(u) = e^{iu} − 1 − i(e^u − 1) >= 0 and Σ_i C(α,i)(1−q)^{α−i}q^i (1, i) = (1, αq)
// (valid for q < 1/2), A_α − 1 = Σ_{i≥2} C(α,i)(1−q)^{α−i} q^i B_i + D₂ where
// B_i = ∫_{−∞}^{z₀} N(z; 0, σ²) h_i(u) dz >= 0 and D₂ = S₂ − (1−αq)Φ(−z₀/σ) − αq Φ((1−z₀)/σ).
// Terms beyond the boundary index max(z₀, α − z₀) are bounded by |C(α,i)| (1−q)^α e^{−z₀²/(2σ²)},
// alternate in sign and decrease in magnitude, so the loop stops once the current terms (and
// that bound, before the boundary) are below 1e-9 of A − 1 (1e-13 of A for q >= 0.45), and adds the last term's
// magnitude, which bounds the omitted alternating tail: truncation never under-reports.
double poisson_fractional_log_a(double q, double sigma, double alpha) {
  const double lq = std::log(q), l1q = std::log1p(-q);
  const double z0 = sigma * sigma * (l1q - lq) + 0.5;
  const bool minus_one = q < 0.45;
  const double log_tol = std::log(minus_one ? 1e-9 : 1e-13);  // relative to A − 1 or A
  const double hump = alpha * l1q - z0 * z0 / (2 * sigma * sigma);
  const double boundary = std::max(z0, alpha - z0) + 1;
  const double log_margin = std::log(2 + std::abs(z0) + std::abs(alpha - z0));
  detail::SignedLogSum sum;
  // Φ at the four points B_i needs, precomputed.
  const double phi_m0 = detail::normal_cdf(-z0 / sigma), phi_m1 = detail::normal_cdf((1 - z0) / sigma);
  const double phi_p0 = detail::normal_cdf(z0 / sigma), phi_p1 = detail::normal_cdf((z0 - 1) / sigma);
  if (minus_one) {
    const double c = 1 - alpha * q;  // −(1−αq)Φ(−z₀/σ) − αqΦ((1−z₀)/σ)
    if (phi_m0 > 0) sum.add(std::log(std::abs(c)) + std::log(phi_m0), c > 0);
    sum.add(std::log(alpha * q) + detail::log_normal_cdf((1 - z0) / sigma), true);
  }
  double log_binomial = 0;  // log |C(α, i)|
  bool negative = false;    // sign of C(α, i)
  constexpr long long kMaxTerms = 10'000'000;
  for (long long n = 0; n < kMaxTerms; ++n) {
    const double i = static_cast<double>(n), j = alpha - i;
    double log_t1 = -kInf;
    if (!minus_one) {
      log_t1 = log_binomial + j * l1q + i * lq + moment_exponent(i, sigma) + detail::log_normal_cdf((z0 - i) / sigma);
    } else if (n >= 2) {
      const double a = moment_exponent(i, sigma);
      double log_b;
      if (i <= z0) {
        const double b =
            -std::expm1(-a) - detail::normal_cdf((i - z0) / sigma) + std::exp(-a) * ((1 - i) * phi_m0 + i * phi_m1);
        log_b = a + std::log(b);
      } else {
        const double log_p = a + detail::log_normal_cdf((z0 - i) / sigma);
        const double n_i = (1 - i) * phi_p0 + i * phi_p1;
        log_b = n_i <= 0 ? detail::log_add(log_p, std::log(-n_i)) : detail::log_sub(log_p, std::log(n_i));
      }
      log_t1 = log_binomial + j * l1q + i * lq + log_b;
    }
    const double log_t2 =
        log_binomial + j * lq + i * l1q + moment_exponent(j, sigma) + detail::log_normal_cdf((j - z0) / sigma);
    sum.add(log_t1, negative);
    sum.add(log_t2, negative);
    if (i > alpha + 1) {
      const double limit = sum.log_scale() + log_tol;
      const bool small = std::max(log_t1, log_t2) < limit;
      const bool past_hump = i > boundary || log_binomial + hump + log_margin < limit;
      if (small && past_hump) {
        sum.add(detail::log_add(log_t1, log_t2), false);  // bound of the omitted tail
        if (!sum.positive())
          throw NumericalError("Poisson-subsampled Gaussian RDP: series lost precision at q = " + format_number(q) +
                               ", sigma = " + format_number(sigma) + ", order = " + format_number(alpha));
        return minus_one ? detail::log1p_exp(sum.log_value()) : sum.log_value();
      }
    }
    // C(α, i+1) = C(α, i) (α − i)/(i + 1)
    log_binomial += std::log(std::abs(alpha - i)) - std::log(i + 1);
    if (alpha - i < 0) negative = !negative;
  }
  throw NumericalError("Poisson-subsampled Gaussian RDP: series did not converge at q = " + format_number(q) +
                       ", sigma = " + format_number(sigma) + ", order = " + format_number(alpha));
}

// log of the j = 2 term's factor, min{4(e^{ε(2)} − 1), 2e^{ε(2)}} with ε(2) = 1/σ² (WBK19 Thm 9 and
// Thm 27 share it).
double log_second_term(double sigma) {
  const double e2 = 1 / (sigma * sigma);
  return std::min(std::log(4.0) + detail::log_expm1(e2), std::log(2.0) + e2);
}

// log Δ^l g(0) for even l <= kMaxForwardDifferenceOrder at one σ, computed on demand and kept for
// the next call with the same σ (dpsgd_rdp asks for every order at one σ; calibration moves σ).
// +inf where the Thm 27 branch cannot win (see below) or the series cannot be summed: the min in
// the bound then takes the general branch 2e^{(j−1)ε(j)}, always valid.
class ForwardDifferenceCache {
 public:
  const double* at_sigma(double sigma, int max_l) {
    if (!(sigma == sigma_)) {
      sigma_ = sigma;
      filled_ = 0;
    }
    for (int l = filled_ + 2; l <= max_l; l += 2) log_delta_[l] = compute(l);
    filled_ = std::max(filled_, max_l);
    return log_delta_;
  }

 private:
  // Whether Δ^l g(0) >= g(l)/2 is certain: with U ~ N(−c, 2c), g(t) = E e^{tU}, so
  // Δ^l g(0) = E(e^U − 1)^l = g(l)·E'(1 − e^{−U})^l with U ~ N(c(2l−1), 2c) under E'; for even l
  // the integrand is >= 0, so Δ^l g(0)/g(l) >= Φ(3)·(1 − e^{−u₀})^l with u₀ = c(2l−1) − 3√(2c) > 0.
  bool at_least_half(int l) const {
    if (l < 2 || l > kMaxForwardDifferenceOrder) return true;  // no such neighbour in the bound
    const double c = 1 / (2 * sigma_ * sigma_);
    const double u0 = c * (2 * l - 1) - 3 * std::sqrt(2 * c);
    if (!(u0 > 0)) return false;
    return std::log(0.99865) + l * std::log1p(-std::exp(-u0)) >= std::log(0.5);
  }
  // Δ^l g(0) enters the terms j = l − 1, l, l + 1 (odd j through √(Δ^{j−1}Δ^{j+1})). If
  // Δ^k g(0) >= g(k)/2 for k = l − 2, l, l + 2, then 4Δ^l g(0) >= 2g(l) and
  // 4√(Δ^{l}Δ^{l±2}) >= 2√(g(l)g(l±2)) = 2g(l±1)e^{c} >= 2g(l±1): the general branch is the min
  // in all three terms, so the series (the costly part at small σ) is skipped without loss.
  double compute(int l) const {
    if (at_least_half(l - 2) && at_least_half(l) && at_least_half(l + 2)) return kInf;
    return log_gaussian_forward_difference(l, sigma_);
  }

  double sigma_ = std::numeric_limits<double>::quiet_NaN();
  int filled_ = 0;
  double log_delta_[kMaxForwardDifferenceOrder + 1] = {};
};

// (α−1)ε'(α) at integer α >= 2 for both bounds: the j >= 3 terms are γ^j C(α,j) times
// 2e^{(j−1)ε(j)} (WBK19 Thm 9, the general bound), or, when `log_delta` holds log Δ^l g(0) for
// even l <= α + 1, the smaller of that and 4√(Δ^{2⌊j/2⌋}g(0) Δ^{2⌈j/2⌉}g(0)) (Thm 27).
double integer_scaled(double gamma, double sigma, long long alpha, const double* log_delta) {
  const double lg = std::log(gamma);
  const double a = static_cast<double>(alpha);
  const double log2 = std::log(2.0), log4 = std::log(4.0);
  double log_binomial = std::log(a) + std::log(a - 1) - log2;  // log C(α, 2)
  thread_local std::vector<double> terms;
  terms.clear();
  terms.push_back(2 * lg + log_binomial + log_second_term(sigma));
  for (long long j = 3; j <= alpha; ++j) {
    log_binomial += std::log(static_cast<double>(alpha - j + 1) / static_cast<double>(j));
    const double jd = static_cast<double>(j);
    double log_factor = log2 + (jd - 1) * jd / (2 * sigma * sigma);  // 2e^{(j−1)ε(j)}
    if (log_delta) {
      const long long lo = j - (j % 2), hi = j + (j % 2);
      log_factor = std::min(log_factor, log4 + 0.5 * (log_delta[lo] + log_delta[hi]));
    }
    terms.push_back(jd * lg + log_binomial + log_factor);
  }
  return log1p_sum(terms);
}

// WBK19 Thm 9: the general bound.
double general_integer_scaled(double gamma, double sigma, long long alpha) {
  return integer_scaled(gamma, sigma, alpha, nullptr);
}

// WBK19 Thm 27 (Gaussian mechanism, sampling without replacement) at integer α >= 2:
// (α−1)ε'(α) = log(1 + γ² C(α,2) min{4(e^{ε(2)}−1), 2e^{ε(2)}}
//     + Σ_{j=3}^{α} γ^j C(α,j) min{4√(Δ^{2⌊j/2⌋}g(0) Δ^{2⌈j/2⌉}g(0)), 2e^{(j−1)ε(j)}}),
// g(t) = e^{t(t−1)/(2σ²)}. For α > kMaxForwardDifferenceOrder (256) every term takes the second
// branch, as dp_accounting does: the first branch would also be valid there, but keeping to the
// reference implementation's values means this accountant is never below it at any order.
double gaussian_integer_scaled(double gamma, double sigma, long long alpha) {
  if (alpha > kMaxForwardDifferenceOrder) return integer_scaled(gamma, sigma, alpha, nullptr);
  thread_local ForwardDifferenceCache cache;
  return integer_scaled(gamma, sigma, alpha, cache.at_sigma(sigma, static_cast<int>(alpha + (alpha % 2))));
}

// Fractional α by linear interpolation of (α−1)ε'(α) between ⌊α⌋ and ⌈α⌉ (WBK19 Cor. 10: the
// bound on the log moment is convex in α); ε'(2) for 1 < α < 2; capped by the unsubsampled
// α/(2σ²) (subsampling never increases RDP).
template <typename IntegerScaled>
double fixed_size_rdp(double gamma, double sigma, double alpha, IntegerScaled integer_scaled) {
  if (gamma == 0) return 0;
  const double unsampled = alpha / (2 * sigma * sigma);
  double bound;
  if (alpha <= 2) {
    bound = integer_scaled(gamma, sigma, 2);
  } else {
    const double lo = std::floor(alpha), hi = std::ceil(alpha);
    const double f_lo = integer_scaled(gamma, sigma, static_cast<long long>(lo));
    if (lo == hi) {
      bound = f_lo / (alpha - 1);
    } else {
      const double f_hi = integer_scaled(gamma, sigma, static_cast<long long>(hi));
      bound = (f_lo + (alpha - lo) * (f_hi - f_lo)) / (alpha - 1);
    }
  }
  return std::min(bound, unsampled);
}

}  // namespace

double poisson_gaussian_rdp(double q, double sigma, double alpha) {
  if (q == 0) return 0;
  if (q == 1) return alpha / (2 * sigma * sigma);  // the Gaussian mechanism itself
  const double rounded = std::round(alpha);
  if (rounded == alpha && alpha < 9e15) {
    return poisson_integer_log_a(q, sigma, static_cast<long long>(rounded)) / (alpha - 1);
  }
  return poisson_fractional_log_a(q, sigma, alpha) / (alpha - 1);
}

double fixed_size_gaussian_rdp(double gamma, double sigma, double alpha) {
  return fixed_size_rdp(gamma, sigma, alpha, gaussian_integer_scaled);
}

double fixed_size_general_rdp(double gamma, double sigma, double alpha) {
  return fixed_size_rdp(gamma, sigma, alpha, general_integer_scaled);
}

}  // namespace dpareto::privacy
