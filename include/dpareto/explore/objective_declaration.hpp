#pragma once
// space.json's "objectives" (issue 13 item 2): objectives beyond (ε, error) that the external oracle
// prints under their own keys, each minimized and modelled by its own GP:
//   "objectives": ["epsilon", "error", {"name": "seconds", "transform": "log", "reference": 600}]
// A string names a known objective (epsilon and error are always there; train_seconds is the
// command's wall time unless it prints its own); an object declares one: name (a lower-case
// identifier that is no parameter and no record column), transform identity | log | logit (default
// identity), reference (its anti-ideal value, for the hypervolume).
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "dpareto/pareto/objectives.hpp"
#include "dpareto/space/space.hpp"

namespace dpareto::explore {

// The further objectives of a declaration list, in order; InputError naming `source` and the entry.
std::vector<pareto::Objective> parse_objective_declarations(const nlohmann::json& list, const space::Space& space,
                                                            const std::string& source);

}  // namespace dpareto::explore
