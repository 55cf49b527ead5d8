#pragma once
// A two-parameter privacy–utility trade-off for explorer tests: ε = steps / noise in [0.1, 200];
// with the ε reference 10, most of the space cannot improve the front. Utility rises with ε (less
// noise) and with steps up to a point.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "dpareto/bo/explorer.hpp"
#include "dpareto/space/space.hpp"

namespace dpareto::test {

inline space::Space trade_off_space() {
  return space::Space({{"noise", space::Kind::continuous, space::Scale::log, 0.1, 10, std::nullopt},
                       {"steps", space::Kind::integer, space::Scale::linear, 1, 20, std::nullopt}});
}

inline double trade_off_epsilon(const space::Params& p) {
  return p[1] / p[0];
}

// The setting's outcome (ε, utility), successful.
inline bo::Observation trade_off_outcome(const space::Params& p) {
  return {p, true, {trade_off_epsilon(p), 0.95 / (1 + 0.3 * p[0]) * (1 - std::exp(-0.4 * p[1]))}};
}

// A small, quick DPareto loop on it: 6 initial points, a light acquisition search, reference (10, 1).
inline bo::ExplorerOptions quick_trade_off_options() {
  bo::ExplorerOptions o;
  o.initial_points = 6;
  o.dense_candidates = 300;
  o.local_starts = 2;
  o.gp_restarts = 1;
  o.objectives.set_reference({10, 1});
  return o;
}

// measure(params) of each of `evaluations` proposals, each told outcome(params).
template <class Outcome, class Measure>
std::vector<double> propose_and_tell(bo::Explorer& explorer, int evaluations, Outcome outcome, Measure measure) {
  std::vector<double> measured;
  for (int i = 0; i < evaluations; ++i) {
    const auto s = explorer.ask();
    REQUIRE(s);
    measured.push_back(measure(s->params));
    explorer.tell(outcome(s->params));
  }
  return measured;
}

}  // namespace dpareto::test
