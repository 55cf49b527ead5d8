#pragma once
// How `account dpsgd` and `calibrate` print a PLD ε bracket: the one-line text
// "X (PLD, optimistic Y, bracket width Z%, discretization h)" and the JSON keys accountant, epsilon,
// epsilon_optimistic, epsilon_rdp, discretization.
#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

#include "dpareto/core/readable_number.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/privacy/pld_accountant.hpp"

namespace dpareto::apps {

inline std::string pld_epsilon_text(const privacy::PldEpsilon& r) {
  if (r.discretization == 0 && r.optimistic == 0)  // no Poisson steps: the RDP part alone
    return readable_rounded_up(r.epsilon) + " (PLD accountant, RDP part only: no Poisson steps)";
  const double width = r.epsilon > 0 ? 100 * (r.epsilon - r.optimistic) / r.epsilon : 0;
  char tail[96];  // width and h to 3 digits; ε to 4, rounded up (core/readable_number)
  if (r.discretization > 0)
    std::snprintf(tail, sizeof tail, ", bracket width %.3g%%, discretization %.3g)", width, r.discretization);
  else
    std::snprintf(tail, sizeof tail, ", bracket width %.3g%%, discretization exact)", width);
  return readable_rounded_up(r.epsilon) + " (PLD, optimistic " + readable_number(r.optimistic) + tail;
}

inline nlohmann::json pld_json(const privacy::PldEpsilon& r) {
  return {{"accountant", "pld"},
          {"epsilon", json_number(r.epsilon)},
          {"epsilon_optimistic", json_number(r.optimistic)},
          {"epsilon_rdp", json_number(r.rdp)},
          {"discretization", json_number(r.discretization)}};
}

}  // namespace dpareto::apps
