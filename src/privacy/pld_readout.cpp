// (ε, δ) readouts of a discrete PLD (pld.hpp).
#include <algorithm>
#include <cmath>
#include <limits>

#include "log_math.hpp"
#include "pld.hpp"

namespace dpareto::privacy::detail {

namespace {
double signed_error(const DiscretePld& pld, Estimate estimate) {
  return estimate == Estimate::pessimistic ? pld.delta_error : -pld.delta_error;
}
// Summing n nonnegative terms in floating point is off by at most n u of the sum (Higham 2002, §4.2):
// the factor by which a computed δ may be too small (pessimistic) or too large (optimistic).
double summation_factor(const DiscretePld& pld, Estimate estimate) {
  const double slack = 2 * static_cast<double>(pld.mass.size() + 4) * (std::numeric_limits<double>::epsilon() / 2);
  return estimate == Estimate::pessimistic ? 1 + slack : 1 - slack;
}
}  // namespace

double pld_delta(const DiscretePld& pld, double epsilon, Estimate estimate) {
  double delta = pld.infinity_mass;
  for (std::size_t i = pld.mass.size(); i-- > 0;) {
    const double l = static_cast<double>(pld.offset + static_cast<long long>(i)) * pld.h;
    if (l <= epsilon) break;
    delta += -std::expm1(epsilon - l) * pld.mass[i];
  }
  return std::clamp(delta * summation_factor(pld, estimate) + signed_error(pld, estimate), 0.0, 1.0);
}

double pld_epsilon(const DiscretePld& pld, double delta, Estimate estimate) {
  // δ read from the PMF must stay <= this.
  const double target = (delta - signed_error(pld, estimate)) / summation_factor(pld, estimate);
  if (!(target > 0)) return kInf;
  // From the top: above grid point s, δ(ε) = A − e^{ε − l_s} C with A = ∞-mass + Σ_{j>s} p_j and
  // C = Σ_{j>s} p_j e^{l_s − l_j}; at ε = l_s it is A − C.
  double a = pld.infinity_mass, c = 0;
  if (a > target) return kInf;
  const double decay = std::exp(-pld.h);
  for (std::size_t s = pld.mass.size(); s-- > 0;) {
    if (s + 1 < pld.mass.size()) c = (c + pld.mass[s + 1]) * decay;
    if (s + 1 < pld.mass.size()) a += pld.mass[s + 1];
    const double l = static_cast<double>(pld.offset + static_cast<long long>(s)) * pld.h;
    if (a - c > target) return std::max(l + std::log((a - target) / c), 0.0);  // A − e^{ε−l} C = target
  }
  // Even at the lowest grid point δ <= target: below it δ(ε) = A − e^{ε − l_0} C with every point.
  a += pld.mass.front();
  c += pld.mass.front();
  const double l0 = static_cast<double>(pld.offset) * pld.h;
  if (!(a > target)) return 0;
  return std::max(l0 + std::log((a - target) / c), 0.0);
}

}  // namespace dpareto::privacy::detail
