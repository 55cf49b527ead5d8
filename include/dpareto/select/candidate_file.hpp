#pragma once
// The candidates of a tuning run (issue 7, `dpareto tune --candidates FILE`):
//   {"problem": "NAME", "candidates": [{"lr": 0.1, "epochs": 5}, {"lr": 0.05, "epochs": 10}],
//    "measured_on": {...}}   (optional, below)
// Every error is one InputError line starting with the file name (or `source`).
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "dpareto/space/space.hpp"

namespace dpareto::select {

// Where the front the candidates were picked from was measured (issue 17): written by `dpareto
// pick` from the run's problem settings, absent from a hand-written (data-independent) list.
//   {"data_role": "public"|"private", "split": "all"|"proxy"|"private", "proxy_fraction": F,
//    "data_id": "<sha-256>", "features": D}
// proxy_fraction only with split proxy|private; data_id "" and features 0 when the run did not
// record them (runs made before data roles existed: their training rows count as private).
struct MeasuredOn {
  std::string data_role;
  std::string split;
  double proxy_fraction = 0;
  std::string data_id;
  int features = 0;
};
MeasuredOn measured_on_from_json(const nlohmann::json& value, const std::string& where);
nlohmann::json to_json(const MeasuredOn& measured);
// From a run's problem settings (summary.json "settings", all strings); nullopt when the problem
// has no training data (not a DP-training problem). InputError naming `where` for a bad value.
std::optional<MeasuredOn> measured_on_from_settings(const nlohmann::json& settings, const std::string& where);

struct CandidateFile {
  std::string source;  // file name, for later error messages
  std::string problem;
  std::vector<std::map<std::string, double>> candidates;  // name -> finite value, non-empty list
  std::optional<MeasuredOn> measured_on;
};

CandidateFile candidates_from_json(const nlohmann::json& document, const std::string& source);
CandidateFile read_candidate_file(const std::string& path);

// The candidates as points of `space`: every parameter exactly once, integers whole, within bounds.
std::vector<space::Params> candidate_params(const CandidateFile& file, const space::Space& space);

}  // namespace dpareto::select
