#pragma once
// Everything `dpareto explore` was asked to do, parsed and checked flag by flag (apps/explore.cpp);
// the explore module turns it into a run (run_description, run_study, ExploreRun).
#include <cstdint>
#include <optional>
#include <string>

#include "dpareto/bo/explorer.hpp"
#include "dpareto/problems/registry.hpp"
#include "dpareto/study/storage_registry.hpp"

namespace dpareto::explore {

struct ExploreSettings {
  bo::ExplorerOptions explorer;              // method, acquisition, reference, axis, k0, ...
  int budget = 64;                           // completed evaluations the run (study) holds at the end
  int workers = 1;                           // evaluations running at once
  std::optional<std::uint64_t> seed;         // absent: drawn from the OS CSPRNG and recorded
  std::string study;                         // SQLite study file or postgresql:// URI; empty: in memory
  study::StorageOptions storage;             // --study-name, and how a shared study is worked on
  bool retry_interrupted = true;             // resume: re-run evaluations a crash left running
  int crash_limit = 2;                       // resume: fail an evaluation running at this many abnormal ends
  bool keep_going = false;                   // run the whole budget even when the first ones fail alike
  std::string out;                           // run directory (evaluations.csv, front.csv, summary.json)
  problems::ProblemOptions problem_options;  // as given, recorded so that pick/plot rebuild the problem
  std::optional<double> baseline;            // --baseline: a utility to beat, else the problem's (if any)
  std::optional<double> non_private;         // --non-private: a model trained without DP reaches this utility
  std::string utility_name;                  // --utility-name: what the utility measures, else the problem's
};

}  // namespace dpareto::explore
