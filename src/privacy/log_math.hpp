#pragma once
// Private helpers of the privacy module: log-space arithmetic and the normal CDF in log space.
#include <cmath>
#include <limits>

namespace dpareto::privacy::detail {

inline constexpr double kInf = std::numeric_limits<double>::infinity();

// log(e^a + e^b).
inline double log_add(double a, double b) {
  if (a == -kInf) return b;
  if (b == -kInf) return a;
  const double hi = std::max(a, b), lo = std::min(a, b);
  return hi + std::log1p(std::exp(lo - hi));
}

// log(e^a − e^b) for a >= b (−inf when equal).
inline double log_sub(double a, double b) {
  if (b == -kInf) return a;
  if (b >= a) return -kInf;
  const double d = b - a;
  return a + (d > -0.693 ? std::log(-std::expm1(d)) : std::log1p(-std::exp(d)));
}

// log(e^x − 1) for x > 0.
inline double log_expm1(double x) {
  return x > 40 ? x + std::log1p(-std::exp(-x)) : std::log(std::expm1(x));
}

// log(1 + e^x).
inline double log1p_exp(double x) {
  return x > 0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
}

// A sum of signed terms given by (log magnitude, sign), accumulated in linear scale relative to
// a running reference exponent (rescaled when a term is much larger), so adding costs one exp.
class SignedLogSum {
 public:
  void add(double log_magnitude, bool negative) {
    if (log_magnitude == -kInf) return;
    if (ref_ == -kInf) ref_ = log_magnitude;
    if (log_magnitude > ref_ + 300) {
      const double f = std::exp(ref_ - log_magnitude);
      pos_ *= f;
      neg_ *= f;
      ref_ = log_magnitude;
    }
    (negative ? neg_ : pos_) += std::exp(log_magnitude - ref_);
  }
  // log of the larger of the positive and negative parts (the scale for stopping rules).
  double log_scale() const { return ref_ + std::log(std::max(pos_, neg_)); }
  bool positive() const { return pos_ > neg_; }
  double log_value() const { return ref_ + std::log(pos_ - neg_); }  // requires positive()

 private:
  double ref_ = -kInf;
  double pos_ = 0;
  double neg_ = 0;
};

// log Φ(x), accurate in both tails: for x < −35 the asymptotic series of the Mills ratio.
inline double log_normal_cdf(double x) {
  if (x > 5) return std::log1p(-0.5 * std::erfc(x / std::sqrt(2.0)));
  if (x > -35) return std::log(0.5 * std::erfc(-x / std::sqrt(2.0)));
  const double z = 1 / (x * x);
  const double series = 1 - z * (1 - 3 * z * (1 - 5 * z * (1 - 7 * z * (1 - 9 * z))));
  return -0.5 * x * x - std::log(-x) - 0.5 * std::log(2 * M_PI) + std::log(series);
}

inline double normal_cdf(double x) {
  return 0.5 * std::erfc(-x / std::sqrt(2.0));
}

}  // namespace dpareto::privacy::detail
