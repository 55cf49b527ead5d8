#pragma once
// A study's work rebuilt from the study alone, for `dpareto worker` on any host: its problem (from
// the recorded problem name and options, or the external oracle's command and space), checked
// against the study's identity, and its explorer configuration.
#include <memory>

#include "dpareto/bo/explorer_options.hpp"
#include "dpareto/problems/problem.hpp"
#include "dpareto/problems/registry.hpp"
#include "dpareto/study/storage.hpp"

namespace dpareto::explore {

// What may differ on this host: the data directory (the same files, checked by the identity's
// checksums), threads per evaluation, the oracle's timeout.
struct HostOverrides {
  problems::ProblemOptions problem_options;  // data_dir, threads
  double oracle_timeout_seconds = 0;
  std::string oracle_log_directory;
  // An external oracle's command is run from the study only when the user says so
  // (--trust-study-command): a study file from elsewhere may hold any command.
  bool trust_study_command = false;
};

// InputError naming the study when the problem cannot be rebuilt here or differs from the study's.
std::unique_ptr<problems::Problem> study_problem(const study::Storage& study, const HostOverrides& overrides);
// The explorer configuration study_config recorded (InputError naming the study when malformed).
bo::ExplorerOptions study_explorer_options(const study::Storage& study);

}  // namespace dpareto::explore
