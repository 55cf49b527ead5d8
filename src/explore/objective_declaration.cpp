#include "dpareto/explore/objective_declaration.hpp"

#include <algorithm>

#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/core/printable.hpp"

namespace dpareto::explore {

std::vector<pareto::Objective> parse_objective_declarations(const nlohmann::json& list, const space::Space& space,
                                                            const std::string& source) {
  if (!list.is_array()) throw InputError(source + ": \"objectives\" must be a list");
  std::vector<pareto::Objective> further;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const auto& entry = list[i];
    const std::string where = source + ": \"objectives\"[" + std::to_string(i) + "]";
    if (entry.is_string()) {
      const auto name = entry.get<std::string>();
      if (!pareto::is_known_objective(name))
        throw InputError(where + ": '" + printable(name) +
                         "' is no known objective (epsilon, error, train_seconds); declare it as "
                         "{\"name\": ..., \"transform\": ..., \"reference\": ...}");
      if (name != "epsilon" && name != "error") further.push_back(pareto::known_objective(name));
      continue;
    }
    if (!entry.is_object() || !entry.contains("name") || !entry.at("name").is_string())
      throw InputError(where + ": expected a name or {\"name\": ..., \"transform\": ..., \"reference\": ...}");
    for (const auto& [key, value] : entry.items())
      if (key != "name" && key != "transform" && key != "reference")
        throw InputError(where + ": unknown key \"" + printable(key) + "\" (known: name, transform, reference)");
    const auto name = entry.at("name").get<std::string>();
    if (!entry.contains("reference"))
      throw InputError(where + ": objective '" + printable(name) +
                       "' needs a \"reference\" (its anti-ideal value, for the hypervolume)");
    const auto transform_entry = entry.value("transform", nlohmann::json("identity"));
    if (!transform_entry.is_string()) throw InputError(where + ": \"transform\" must be a string");
    const auto transform = pareto::parse_transform(transform_entry.get<std::string>(), where);
    const double reference = number_from_json(entry.at("reference"), where + " \"reference\"");
    const auto& parameters = space.parameters();
    if (std::any_of(parameters.begin(), parameters.end(), [&](const auto& p) { return p.name == name; }))
      throw InputError(where + ": objective '" + printable(name) + "' has the name of a parameter");
    further.push_back(pareto::declared_objective(name, transform, reference, where));
  }
  return further;
}

}  // namespace dpareto::explore
