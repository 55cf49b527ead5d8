#pragma once
// The one-line text of a PLD ε bracket, shared by `account dpsgd` and `calibrate` with --accountant pld:
// "X (PLD, optimistic Y, bracket width Z%, discretization h)".
#include <cstdio>
#include <string>

#include "dpareto/core/json_number.hpp"
#include "dpareto/privacy/pld_accountant.hpp"

namespace dpareto::apps {

inline std::string pld_epsilon_text(const privacy::PldEpsilon& r) {
  if (r.discretization == 0 && r.optimistic == 0)  // no Poisson steps: the RDP part alone
    return format_number(r.epsilon) + " (PLD accountant, RDP part only: no Poisson steps)";
  const double width = r.epsilon > 0 ? 100 * (r.epsilon - r.optimistic) / r.epsilon : 0;
  char tail[96];  // width and h to 3 digits; ε values in full, as everywhere
  if (r.discretization > 0)
    std::snprintf(tail, sizeof tail, ", bracket width %.3g%%, discretization %.3g)", width, r.discretization);
  else
    std::snprintf(tail, sizeof tail, ", bracket width %.3g%%, discretization exact)", width);
  return format_number(r.epsilon) + " (PLD, optimistic " + format_number(r.optimistic) + tail;
}

}  // namespace dpareto::apps
