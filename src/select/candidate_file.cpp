#include "dpareto/select/candidate_file.hpp"

#include <cmath>

#include "dpareto/core/error.hpp"
#include "dpareto/core/json_file.hpp"
#include "dpareto/core/json_number.hpp"

namespace dpareto::select {

CandidateFile candidates_from_json(const nlohmann::json& document, const std::string& source) {
  if (!document.is_object()) throw InputError(source + ": expected a JSON object with \"problem\" and \"candidates\"");
  for (const auto& [key, value] : document.items()) {
    if (key != "problem" && key != "candidates") throw InputError(source + ": unknown key \"" + key + "\"");
  }
  CandidateFile file;
  file.source = source;
  if (!document.contains("problem") || !document["problem"].is_string() || document["problem"].get<std::string>().empty()) {
    throw InputError(source + ": \"problem\" must be a non-empty string");
  }
  file.problem = document["problem"].get<std::string>();
  if (!document.contains("candidates") || !document["candidates"].is_array() || document["candidates"].empty()) {
    throw InputError(source + ": \"candidates\" must be a non-empty array of objects");
  }
  std::size_t index = 0;
  for (const auto& candidate : document["candidates"]) {
    const std::string where = source + ": candidate " + std::to_string(index);
    if (!candidate.is_object() || candidate.empty()) throw InputError(where + " must be a non-empty object");
    std::map<std::string, double> values;
    for (const auto& [name, value] : candidate.items()) {
      if (!value.is_number() || !std::isfinite(value.get<double>())) {
        throw InputError(where + ": value of \"" + name + "\" is not a finite number");
      }
      values[name] = value.get<double>();
    }
    file.candidates.push_back(std::move(values));
    ++index;
  }
  return file;
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
