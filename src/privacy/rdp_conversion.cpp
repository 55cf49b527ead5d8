#include "dpareto/privacy/rdp_conversion.hpp"

#include <cmath>
#include <limits>
#include <string>

#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "log_math.hpp"

namespace dpareto::privacy {

using detail::kInf;

namespace {

void check_rdp_curve(const std::vector<double>& orders, const std::vector<double>& rdp) {
  if (orders.empty()) throw InputError("RDP conversion: the list of orders is empty");
  if (orders.size() != rdp.size())
    throw InputError("RDP conversion: " + std::to_string(orders.size()) + " orders but " + std::to_string(rdp.size()) +
                     " RDP values");
  for (std::size_t i = 0; i < orders.size(); ++i) {
    if (!(orders[i] > 1) || !std::isfinite(orders[i]))
      throw InputError("RDP order " + format_number(orders[i]) + " must be a finite number > 1");
    if (std::isnan(rdp[i]) || rdp[i] < 0)
      throw NumericalError("RDP value " + format_number(rdp[i]) + " at order " + format_number(orders[i]) +
                           " is not a number >= 0");
  }
}

// ε at one order for a given log δ (Mironov 2017 Prop. 3; Canonne et al. 2020 Prop. 12).
double epsilon_at(double alpha, double rdp, double log_delta, Conversion conversion) {
  if (rdp == kInf) return kInf;
  if (conversion == Conversion::classic) return rdp - log_delta / (alpha - 1);
  return rdp + std::log1p(-1 / alpha) - (log_delta + std::log(alpha)) / (alpha - 1);
}

// log δ at one order for a given ε: the inverse of epsilon_at.
double log_delta_at(double alpha, double rdp, double epsilon, Conversion conversion) {
  if (rdp == kInf) return kInf;
  if (conversion == Conversion::classic) return (alpha - 1) * (rdp - epsilon);
  return (alpha - 1) * (rdp - epsilon + std::log1p(-1 / alpha)) - std::log(alpha);
}

}  // namespace

EpsilonResult rdp_to_epsilon(const std::vector<double>& orders, const std::vector<double>& rdp, double delta,
                             Conversion conversion) {
  if (!(delta > 0 && delta < 1)) throw InputError("delta = " + format_number(delta) + " must be in (0, 1)");
  check_rdp_curve(orders, rdp);
  const double log_delta = std::log(delta);
  EpsilonResult best{kInf, delta, orders.front(), conversion};
  for (std::size_t i = 0; i < orders.size(); ++i) {
    if (rdp[i] == 0) return {0, delta, orders[i], conversion};  // D_α = 0: identical outputs
    const double eps = epsilon_at(orders[i], rdp[i], log_delta, conversion);
    if (eps < best.epsilon) {
      best.epsilon = eps;
      best.order = orders[i];
    }
  }
  // A negative bound means (0, δ)-DP holds (any ε above the bound does).
  best.epsilon = std::max(best.epsilon, 0.0);
  return best;
}

DeltaResult rdp_to_delta(const std::vector<double>& orders, const std::vector<double>& rdp, double epsilon,
                         Conversion conversion) {
  if (!(epsilon >= 0) || std::isinf(epsilon))
    throw InputError("epsilon = " + format_number(epsilon) + " must be a finite number >= 0");
  check_rdp_curve(orders, rdp);
  DeltaResult best{1, epsilon, orders.front(), conversion};
  double best_log = 0;
  for (std::size_t i = 0; i < orders.size(); ++i) {
    if (rdp[i] == 0) return {0, epsilon, orders[i], conversion};  // D_α = 0: identical outputs
    const double log_delta = log_delta_at(orders[i], rdp[i], epsilon, conversion);
    if (log_delta < best_log) {
      best_log = log_delta;
      best.order = orders[i];
    }
  }
  best.delta = std::exp(best_log);
  return best;
}

const char* to_string(Conversion conversion) {
  return conversion == Conversion::classic ? "classic" : "improved";
}

Conversion parse_conversion(const std::string& text, const std::string& source) {
  if (text == "improved") return Conversion::improved;
  if (text == "classic") return Conversion::classic;
  throw InputError(source + ": '" + text + "' is not a conversion (improved or classic)");
}

}  // namespace dpareto::privacy
