#pragma once
// The smallest study the storage tests use: problem "toy", one parameter x, a fixed seed.
#include "dpareto/study/storage.hpp"

namespace dpareto::test {

inline study::StudyIdentity identity_of(const std::string& problem) {
  study::StudyIdentity identity;
  identity.problem = problem;
  return identity;
}

// `evaluation` with the results measured on the way (issue 18 item 2's earlier epochs), one per
// entry of `params`: result k has those parameters, ε = (k + 1) / (n + 1) of the evaluation's and
// its utility.
inline study::EvaluationRecord with_earlier_results(study::EvaluationRecord evaluation,
                                                    const std::vector<std::vector<double>>& params) {
  const double n = static_cast<double>(params.size());
  for (std::size_t k = 0; k < params.size(); ++k) {
    study::EvaluationRecord& r = evaluation.intermediate.emplace_back();
    r.status = study::EvaluationStatus::ok;
    r.params = params[k];
    r.epsilon = evaluation.epsilon * (static_cast<double>(k) + 1) / (n + 1);
    r.utility = evaluation.utility;
  }
  return evaluation;
}

inline study::RunInfo one_parameter() {
  study::RunInfo info;
  info.problem = "toy";
  info.method = "random";
  info.seed = 3;
  info.parameter_names = {"x"};
  return info;
}

}  // namespace dpareto::test
