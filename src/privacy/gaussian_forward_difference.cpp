#include "dpareto/privacy/gaussian_forward_difference.hpp"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "log_math.hpp"

namespace dpareto::privacy {

using detail::kInf;

namespace {

constexpr int kL = kMaxForwardDifferenceOrder;

// Rows of the table: m <= terms(l). Non-increasing in l, as the recurrence below needs (row l at
// index m uses rows l − 1 and l − 2 at index m − 1).
int terms(int l) {
  return l <= kLongSeriesMaxOrder ? kLongSeriesTerms : kSeriesTerms;
}

struct SeriesTable {
  // coefficient[l][m − ⌈l/2⌉] = log(l! p_{m,l} / m!) for m = ⌈l/2⌉, ..., terms(l) (p_{m,l} = 0 below).
  std::vector<std::vector<double>> coefficient;
  std::vector<double> log_factorial;  // log m!, m = 0, ..., kLongSeriesTerms + 1
};

// The recurrence is run on r_{m,k} = p_{m,k} k! / (k(k−1))^m ∈ (0, 1] (k >= 2, m >= 1):
//   r_{m+1,k} = r_{m,k} + 2((k−2)/k)^m r_{m,k−1} + ((k−2)(k−3)/(k(k−1)))^m r_{m,k−2},
// sums of positive terms of moderate size (r_{⌈k/2⌉,k} >= e^{−k} > 1e-112), so each step adds at
// most ~3 roundings of relative error (< 1.5e-12 after 4096 steps; in practice ~1e-16); then
// log(l! p_{m,l}/m!) = log r_{m,l} + m log(l(l−1)) − log m! (absolute error ~5e-12 at m = 4096,
// i.e. that relative error in a term, the same order as the effect of rounding c itself).
SeriesTable build_table() {
  constexpr int kM = kLongSeriesTerms;
  SeriesTable t;
  long double log_factorial = 0;
  t.log_factorial.assign(kM + 2, 0.0);
  for (int m = 1; m <= kM + 1; ++m) {
    log_factorial += std::log(static_cast<long double>(m));
    t.log_factorial[m] = static_cast<double>(log_factorial);
  }
  t.coefficient.assign(kL + 1, {});
  std::vector<double> r(kL + 1, 0.0), power1(kL + 1, 0.0), power2(kL + 1, 0.0), ratio1(kL + 1, 0.0),
      ratio2(kL + 1, 0.0), log_kk(kL + 1, 0.0);
  for (int k = 2; k <= kL; ++k) {
    const double kd = k;
    ratio1[k] = (kd - 2) / kd;
    ratio2[k] = (kd - 2) * (kd - 3) / (kd * (kd - 1));
    power1[k] = ratio1[k];  // ((k−2)/k)^m at m = 1
    power2[k] = ratio2[k];
    log_kk[k] = std::log(kd * (kd - 1));
    t.coefficient[k].reserve(terms(k) - (k + 1) / 2 + 1);
  }
  r[2] = 1;         // (t^{(2)})^1 = t^{(2)}
  int active = kL;  // rows l <= active still need index m
  for (int m = 1; m <= kM; ++m) {
    while (terms(active) < m) --active;
    for (int k = 2; k <= active && k <= 2 * m; ++k)
      t.coefficient[k].push_back(std::log(r[k]) + (m * log_kk[k] - t.log_factorial[m]));
    if (m == kM) break;
    for (int k = std::min(active, 2 * m + 2); k >= 2; --k)  // descending: r[k−1], r[k−2] still hold index m
      r[k] += 2 * power1[k] * r[k - 1] + power2[k] * r[k - 2];
    for (int k = 2; k <= active; ++k) {  // underflow to 0 drops only contributions below 1e-308 of r
      power1[k] *= ratio1[k];
      power2[k] *= ratio2[k];
    }
  }
  return t;
}

const SeriesTable& table() {
  static const SeriesTable t = build_table();
  return t;
}

}  // namespace

double log_gaussian_forward_difference(int l, double sigma) {
  if (l < 0 || l > kL)
    throw InputError("forward difference order " + std::to_string(l) + " must be in [0, " + std::to_string(kL) + "]");
  if (!(sigma > 0) || !std::isfinite(sigma))
    throw InputError("noise multiplier sigma = " + format_number(sigma) + " must be a finite number > 0");
  if (l == 0) return 0;      // g(0) = 1
  if (l == 1) return -kInf;  // g(1) − g(0) = 0
  const double log_c = -std::log(2.0) - 2 * std::log(sigma);
  if (std::exp(log_c) == 0) return -kInf;  // σ > 1e154: c underflows, g ≡ 1 in double
  const SeriesTable& t = table();
  const std::vector<double>& coefficient = t.coefficient[l];
  const double log_x = log_c + std::log(static_cast<double>(l) * (l - 1));
  const double x = std::exp(log_x);
  const int last = terms(l);
  if (x >= last) return kInf;  // the tail test below cannot pass within the table
  const int first = (l + 1) / 2;
  // Σ_m e^{m log c + coefficient}, accumulated as e^{top}·sum with top the largest term so far.
  double top = first * log_c + coefficient[0];
  double sum = 1;
  for (int m = first;; ++m) {
    if (m > first) {
      const double log_term = m * log_c + coefficient[m - first];
      if (log_term > top) {
        sum = sum * std::exp(top - log_term) + 1;
        top = log_term;
      } else {
        sum += std::exp(log_term - top);
      }
    }
    // Tail: Σ_{i>m} term_i <= Σ_{i>m} x^i/i! <= x^{m+1}/(m+1)! · 1/(1 − x/(m+2)) once m + 2 > x
    // (a geometric bound: the ratio of consecutive terms of x^i/i! is at most x/(m+2) beyond m+1).
    if (m + 2 > x) {
      const double log_tail = (m + 1) * log_x - t.log_factorial[m + 1] - std::log1p(-x / (m + 2));
      if (log_tail < top + std::log(sum) - 40) return top + std::log(sum + std::exp(log_tail - top));
    }
    if (m == last) return kInf;  // the series needs more terms than the table holds
  }
}

}  // namespace dpareto::privacy
