#include "dpareto/space/space_json.hpp"

#include <set>

#include "dpareto/core/error.hpp"
#include "dpareto/core/json_file.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/core/printable.hpp"

namespace dpareto::space {
namespace {

double bound(const nlohmann::json& entry, const char* key, const std::string& where) {
  if (!entry.contains(key)) throw InputError(where + ": missing \"" + key + "\"");
  if (!entry.at(key).is_number())
    throw InputError(where + ": \"" + key + "\" must be a number, got " + entry.at(key).dump());
  return entry.at(key).get<double>();
}

std::string text_field(const nlohmann::json& entry, const char* key, const std::string& where,
                       const std::string& fallback) {
  if (!entry.contains(key)) {
    if (fallback.empty()) throw InputError(where + ": missing \"" + key + "\"");
    return fallback;
  }
  if (!entry.at(key).is_string())
    throw InputError(where + ": \"" + key + "\" must be a string, got " + entry.at(key).dump());
  return entry.at(key).get<std::string>();
}

}  // namespace

Space space_from_json(const nlohmann::json& document, const std::string& source) {
  if (!document.is_object() || !document.contains("parameters") || !document.at("parameters").is_array())
    throw InputError(source + ": expected an object {\"parameters\": [...]}");
  for (const auto& [key, value] : document.items())
    if (key != "parameters" && key != "known_epsilon" && key != "objectives")  // the external oracle reads these
      throw InputError(source + ": unknown key \"" + printable(key) + "\"");
  const auto& list = document.at("parameters");
  if (list.empty()) throw InputError(source + ": \"parameters\" is empty");
  static const std::set<std::string> known{"name", "kind", "low", "high", "scale"};
  std::vector<Parameter> parameters;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const auto& entry = list[i];
    std::string where = source + ": parameter " + std::to_string(i + 1);
    if (!entry.is_object()) throw InputError(where + ": expected an object, got " + entry.dump());
    Parameter p;
    p.name = text_field(entry, "name", where, "");
    where += " ('" + printable(p.name) + "')";
    for (const auto& [key, value] : entry.items())
      if (!known.count(key))
        throw InputError(where + ": unknown key \"" + printable(key) + "\" (known: name, kind, low, high, scale)");
    const std::string kind = text_field(entry, "kind", where, "");
    if (kind == "continuous")
      p.kind = Kind::continuous;
    else if (kind == "integer")
      p.kind = Kind::integer;
    else
      throw InputError(where + ": unknown kind \"" + printable(kind) + "\" (expected continuous or integer)");
    const std::string scale = text_field(entry, "scale", where, "linear");
    if (scale == "linear")
      p.scale = Scale::linear;
    else if (scale == "log")
      p.scale = Scale::log;
    else
      throw InputError(where + ": unknown scale \"" + printable(scale) + "\" (expected linear or log)");
    p.low = bound(entry, "low", where);
    p.high = bound(entry, "high", where);
    parameters.push_back(std::move(p));
  }
  try {
    return Space(std::move(parameters));
  } catch (const InputError& e) {
    throw InputError(source + ": " + e.what());
  }
}

Space read_space_json(const std::string& path) {
  return space_from_json(read_json_file(path, "space file"), path);
}

nlohmann::json space_to_json(const Space& space) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& p : space.parameters())
    list.push_back({{"name", p.name},
                    {"kind", p.kind == Kind::integer ? "integer" : "continuous"},
                    {"low", p.low},
                    {"high", p.high},
                    {"scale", p.scale == Scale::log ? "log" : "linear"}});
  return {{"parameters", list}};
}

}  // namespace dpareto::space
