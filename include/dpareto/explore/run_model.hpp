#pragma once
// A finished run rebuilt for tools that need its surrogates (`pick --from model`, the surrogate
// figure): its problem, rebuilt from summary.json "problem" and "problem_options" (the options the
// run was started with), and an explorer over its space told every record, surrogates fitted.
#include <memory>
#include <string>
#include <vector>

#include "dpareto/bo/explorer.hpp"
#include "dpareto/problems/problem.hpp"
#include "dpareto/study/run_record.hpp"

namespace dpareto::explore {

struct RunModel {
  std::unique_ptr<problems::Problem> problem;
  std::unique_ptr<bo::Explorer> explorer;
  // The record's parameter values in the space's order.
  space::Params params_of(const study::EvaluationRecord& record) const;
  std::vector<std::size_t> record_column;  // space index -> index into record.params
};

// Throws InputError naming the directory when the problem cannot be rebuilt, a space parameter is
// missing from the run, or fewer than 2 evaluations are ok.
RunModel rebuild_run_model(const study::RunData& run, const std::string& directory);

}  // namespace dpareto::explore
