#pragma once
// space.json: a hyperparameter space for the external-command oracle (and for storing a space in a
// study). Format:
//   {"parameters": [{"name": "lr", "kind": "continuous", "low": 0.001, "high": 0.1, "scale": "log"},
//                   {"name": "epochs", "kind": "integer", "low": 1, "high": 20}]}
// "kind" is continuous | integer, "scale" is linear (default) | log. Unknown keys are rejected; a
// top-level "known_epsilon" is the external oracle's (problems/known_epsilon_declaration.hpp).
#include <nlohmann/json.hpp>
#include <string>

#include "dpareto/space/space.hpp"

namespace dpareto::space {

// Builds a space from the JSON above; `source` (a file name) starts every error message.
Space space_from_json(const nlohmann::json& document, const std::string& source);
// Reads and parses a space.json file; throws InputError naming the file and the problem.
Space read_space_json(const std::string& path);
// The JSON above for `space` (priors are not represented).
nlohmann::json space_to_json(const Space& space);

}  // namespace dpareto::space
