#include "dpareto/select/candidate_file.hpp"

#include <cmath>

#include "dpareto/core/error.hpp"
#include "dpareto/core/json_file.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/core/printable.hpp"

namespace dpareto::select {

CandidateFile candidates_from_json(const nlohmann::json& document, const std::string& source) {
  if (!document.is_object()) throw InputError(source + ": expected a JSON object with \"problem\" and \"candidates\"");
  for (const auto& [key, value] : document.items()) {
    if (key != "problem" && key != "candidates" && key != "measured_on")
      throw InputError(source + ": unknown key \"" + printable(key) + "\"");
  }
  CandidateFile file;
  file.source = source;
  if (!document.contains("problem") || !document["problem"].is_string() ||
      document["problem"].get<std::string>().empty()) {
    throw InputError(source + ": \"problem\" must be a non-empty string");
  }
  file.problem = document["problem"].get<std::string>();
  if (!document.contains("candidates") || !document["candidates"].is_array() || document["candidates"].empty()) {
    throw InputError(source + ": \"candidates\" must be a non-empty array of objects");
  }
  if (document.contains("measured_on"))
    file.measured_on = measured_on_from_json(document["measured_on"], source + ": measured_on");
  std::size_t index = 0;
  for (const auto& candidate : document["candidates"]) {
    const std::string where = source + ": candidate " + std::to_string(index);
    if (!candidate.is_object() || candidate.empty()) throw InputError(where + " must be a non-empty object");
    std::map<std::string, double> values;
    for (const auto& [name, value] : candidate.items()) {
      if (!value.is_number() || !std::isfinite(value.get<double>())) {
        throw InputError(where + ": value of \"" + printable(name) + "\" is not a finite number");
      }
      values[name] = value.get<double>();
    }
    file.candidates.push_back(std::move(values));
    ++index;
  }
  return file;
}

MeasuredOn measured_on_from_json(const nlohmann::json& value, const std::string& where) {
  if (!value.is_object()) throw InputError(where + " must be an object");
  for (const auto& [key, v] : value.items())
    if (key != "data_role" && key != "split" && key != "proxy_fraction" && key != "data_id" && key != "features")
      throw InputError(where + ": unknown key \"" + printable(key) + "\"");
  const auto text = [&](const char* key, std::initializer_list<const char*> allowed) {
    if (!value.contains(key) || !value[key].is_string()) throw InputError(where + ": \"" + key + "\" must be a string");
    const std::string v = value[key].get<std::string>();
    if (allowed.size() == 0) return v;
    for (const char* a : allowed)
      if (v == a) return v;
    throw InputError(where + ": " + key + " '" + printable(v) + "' is not one of the known values");
  };
  MeasuredOn m;
  m.data_role = text("data_role", {"public", "private"});
  m.split = text("split", {"all", "proxy", "private"});
  m.data_id = text("data_id", {});
  if (!value.contains("features") || !value["features"].is_number_integer() || value["features"].get<long long>() < 0 ||
      value["features"].get<long long>() > 100000000)
    throw InputError(where + ": \"features\" must be an integer in [0, 1e8]");
  m.features = value["features"].get<int>();
  if (m.split != "all") {
    if (!value.contains("proxy_fraction") || !value["proxy_fraction"].is_number() ||
        !(value["proxy_fraction"].get<double>() > 0 && value["proxy_fraction"].get<double>() < 1))
      throw InputError(where + ": split " + m.split + " needs \"proxy_fraction\" in (0, 1)");
    m.proxy_fraction = value["proxy_fraction"].get<double>();
  } else if (value.contains("proxy_fraction")) {
    throw InputError(where + ": \"proxy_fraction\" needs split proxy or private");
  }
  if (m.data_role == "public" && m.split == "private")
    throw InputError(where + ": the private split cannot have data_role public");
  return m;
}

nlohmann::json to_json(const MeasuredOn& m) {
  nlohmann::json j = {{"data_role", m.data_role}, {"split", m.split}, {"data_id", m.data_id}, {"features", m.features}};
  if (m.split != "all") j["proxy_fraction"] = json_number(m.proxy_fraction);
  return j;
}

std::optional<MeasuredOn> measured_on_from_settings(const nlohmann::json& settings, const std::string& where) {
  if (!settings.is_object() || !settings.contains("dataset")) return std::nullopt;  // no training data
  const auto text = [&](const char* key, const std::string& fallback) {
    return settings.contains(key) && settings[key].is_string() ? settings[key].get<std::string>() : fallback;
  };
  // Runs made before data roles existed trained on all rows, which count as private.
  nlohmann::json j = {
      {"data_role", text("data_role", "private")}, {"split", text("split", "all")}, {"data_id", text("data_id", "")}};
  const auto number = [&](const char* key) -> double {
    const std::string t = text(key, "");
    try {
      std::size_t used = 0;
      const double v = std::stod(t, &used);
      if (used == t.size()) return v;
    } catch (const std::exception&) {
    }
    throw InputError(where + ": setting " + key + " '" + printable(t) + "' is not a number");
  };
  j["features"] = 0;
  if (settings.contains("features")) {
    // Checked before the conversion: 1e30 or nan would not fit a long long (undefined behaviour).
    const double features = number("features");
    if (!(features >= 0 && features <= 1e8 && features == std::floor(features)))
      throw InputError(where + ": setting features '" + printable(text("features", "")) +
                       "' is not a whole number in [0, 1e8]");
    j["features"] = static_cast<long long>(features);
  }
  if (j["split"] != "all") j["proxy_fraction"] = number("proxy_fraction");
  return measured_on_from_json(j, where);
}

CandidateFile read_candidate_file(const std::string& path) {
  return candidates_from_json(read_json_file(path, "candidates file"), path);
}

std::vector<space::Params> candidate_params(const CandidateFile& file, const space::Space& space) {
  std::vector<space::Params> out;
  for (std::size_t c = 0; c < file.candidates.size(); ++c) {
    const std::string where = file.source + ": candidate " + std::to_string(c);
    space::Params params(space.dimension(), 0.0);
    for (const auto& [name, value] : file.candidates[c]) {
      std::size_t i = 0;
      try {
        i = space.index_of(name);
      } catch (const InputError& e) {
        throw InputError(where + ": " + e.what());
      }
      const auto& p = space.parameter(i);
      if (p.kind == space::Kind::integer && value != std::round(value)) {
        throw InputError(where + ": parameter \"" + name + "\" is an integer, got " + format_number(value));
      }
      if (value < p.low || value > p.high) {
        throw InputError(where + ": parameter \"" + name + "\" = " + format_number(value) + " is outside [" +
                         format_number(p.low) + ", " + format_number(p.high) + "]");
      }
      params[i] = value;
    }
    for (const auto& p : space.parameters()) {
      if (!file.candidates[c].contains(p.name)) throw InputError(where + ": parameter \"" + p.name + "\" is missing");
    }
    out.push_back(std::move(params));
  }
  return out;
}

}  // namespace dpareto::select
