#include "dpareto/core/mean_difference.hpp"

#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

#include "dpareto/core/error.hpp"

namespace dpareto {
namespace {

double mean_of(const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0) / double(v.size()); }

// Unbiased sample variance (n − 1 in the denominator).
double variance_of(const std::vector<double>& v) {
  const double m = mean_of(v);
  double sum = 0;
  for (double x : v) sum += (x - m) * (x - m);
  return sum / double(v.size() - 1);
}

void require_sample(const std::vector<double>& v, const char* what) {
  if (v.size() < 2)
    throw InputError(std::string(what) + ": a t test needs at least 2 values, got " + std::to_string(v.size()));
  for (double x : v)
    if (!std::isfinite(x)) throw InputError(std::string(what) + ": a value is not finite");
}

// Interval, t and p for an estimate with standard error `se` on `df` degrees of freedom.
MeanDifference t_inference(double mean, double se, double df, double level) {
  if (!(level > 0 && level < 1)) throw InputError("confidence level " + std::to_string(level) + " is not in (0, 1)");
  MeanDifference d;
  d.mean = mean;
  d.level = level;
  d.degrees_of_freedom = df;
  if (se == 0) {  // no spread: the interval is the point, and any non-zero difference is certain
    d.low = d.high = mean;
    d.t = mean == 0 ? 0 : std::copysign(std::numeric_limits<double>::infinity(), mean);
    d.p_value = mean == 0 ? 1 : 0;
    return d;
  }
  const boost::math::students_t distribution(df);
  const double half_width = boost::math::quantile(distribution, 0.5 + level / 2) * se;
  d.low = mean - half_width;
  d.high = mean + half_width;
  d.t = mean / se;
  d.p_value = 2 * boost::math::cdf(boost::math::complement(distribution, std::fabs(d.t)));
  return d;
}

}  // namespace

MeanDifference difference_from_fixed(double fixed, const std::vector<double>& samples, double level) {
  require_sample(samples, "difference from a fixed value");
  std::vector<double> differences;
  for (double x : samples) differences.push_back(fixed - x);
  const double n = double(differences.size());
  return t_inference(mean_of(differences), std::sqrt(variance_of(differences) / n), n - 1, level);
}

MeanDifference welch_difference(const std::vector<double>& a, const std::vector<double>& b, double level) {
  require_sample(a, "Welch test, first sample");
  require_sample(b, "Welch test, second sample");
  const double va = variance_of(a) / double(a.size()), vb = variance_of(b) / double(b.size());
  const double se = std::sqrt(va + vb);
  // Welch–Satterthwaite degrees of freedom.
  const double df = se == 0 ? double(a.size() + b.size() - 2)
                            : (va + vb) * (va + vb) /
                                  (va * va / double(a.size() - 1) + vb * vb / double(b.size() - 1));
  return t_inference(mean_of(a) - mean_of(b), se, df, level);
}

}  // namespace dpareto
