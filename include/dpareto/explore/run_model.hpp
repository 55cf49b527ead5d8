#pragma once
// A finished run rebuilt for tools that need its surrogates (`pick --from model`, the surrogate
// figure): its space and problem, and an explorer over the space told every record, surrogates
// fitted. A built-in problem is rebuilt from summary.json "problem" and "problem_options" (the
// options the run was started with); an external oracle's run from summary.json "space" and
// "settings.command", the command kept only when the caller trusts it (it would run it).
#include <memory>
#include <string>
#include <vector>

#include "dpareto/bo/explorer.hpp"
#include "dpareto/problems/problem.hpp"
#include "dpareto/study/run_record.hpp"

namespace dpareto::explore {

struct RunModel {
  // The run's problem; null for an external oracle's run whose command is not trusted.
  std::unique_ptr<problems::Problem> problem;
  // Whether ε is the problem's own accountant (cheap, exact at any setting). False for an external
  // oracle: its ε is known only where the script ran, elsewhere the ε surrogate predicts it.
  bool exact_privacy = true;
  std::unique_ptr<bo::Explorer> explorer;
  const space::Space& space() const { return explorer->space(); }
  // The record's parameter values in the space's order.
  space::Params params_of(const study::EvaluationRecord& record) const;
  std::vector<std::size_t> record_column;  // space index -> index into record.params
};

// Throws InputError naming the directory when the problem or space cannot be rebuilt, a space
// parameter is missing from the run, or fewer than 2 evaluations are ok. `trust_command`: rebuild
// an external oracle's recorded command as a runnable problem (`pick --verify`).
RunModel rebuild_run_model(const study::RunData& run, const std::string& directory, bool trust_command = false);

}  // namespace dpareto::explore
