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
#include "dpareto/problems/registry.hpp"
#include "dpareto/study/run_record.hpp"

namespace dpareto::explore {

// A record's parameter values in a space's order: record.params[record_column[i]] for each i.
space::Params params_in_space_order(const std::vector<std::size_t>& record_column, const study::EvaluationRecord& record);

struct RunModel {
  // The run's problem; null for an external oracle's run whose command is not trusted.
  std::unique_ptr<problems::Problem> problem;
  // Whether ε is the problem's own accountant (cheap, exact at any setting). False for an external
  // oracle: its ε is known only where the script ran, elsewhere the ε surrogate predicts it.
  bool exact_privacy = true;
  std::unique_ptr<bo::Explorer> explorer;
  const space::Space& space() const { return explorer->space(); }
  // The record's parameter values in the space's order.
  space::Params params_of(const study::EvaluationRecord& record) const {
    return params_in_space_order(record_column, record);
  }
  std::vector<std::size_t> record_column;  // space index -> index into record.params
};

// Throws InputError naming the directory when the problem or space cannot be rebuilt, a space
// parameter is missing from the run, or fewer than 2 evaluations are ok. `trust_command`: rebuild
// an external oracle's recorded command as a runnable problem (`pick --verify`).
RunModel rebuild_run_model(const study::RunData& run, const std::string& directory, bool trust_command = false);

// A built-in problem's run: the problem it was started with, `overrides` replacing recorded options
// (say, threads), and the record columns of its space's parameters (RunModel::record_column). Nothing
// is fitted. InputError naming summary.json for an external oracle's run or one it cannot rebuild.
struct RunProblem {
  std::unique_ptr<problems::Problem> problem;
  std::vector<std::size_t> record_column;
  space::Params params_of(const study::EvaluationRecord& record) const {
    return params_in_space_order(record_column, record);
  }
};
RunProblem rebuild_run_problem(const study::RunData& run, const std::string& directory,
                               const problems::ProblemOptions& overrides = {});

}  // namespace dpareto::explore
