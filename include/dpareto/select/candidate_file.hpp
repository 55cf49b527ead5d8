#pragma once
// The candidates of a tuning run (issue 7, `dpareto tune --candidates FILE`):
//   {"problem": "NAME", "candidates": [{"lr": 0.1, "epochs": 5}, {"lr": 0.05, "epochs": 10}]}
// Every error is one InputError line starting with the file name (or `source`).
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "dpareto/space/space.hpp"

namespace dpareto::select {

struct CandidateFile {
  std::string source;  // file name, for later error messages
  std::string problem;
  std::vector<std::map<std::string, double>> candidates;  // name -> finite value, non-empty list
};

CandidateFile candidates_from_json(const nlohmann::json& document, const std::string& source);
CandidateFile read_candidate_file(const std::string& path);

// The candidates as points of `space`: every parameter exactly once, integers whole, within bounds.
std::vector<space::Params> candidate_params(const CandidateFile& file, const space::Space& space);

}  // namespace dpareto::select
