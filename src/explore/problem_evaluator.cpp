#include "dpareto/explore/problem_evaluator.hpp"

namespace dpareto::explore {

study::Evaluator problem_evaluator(const problems::Problem& problem) {
  return [&problem](const std::vector<double>& params, std::uint64_t seed) {
    const problems::Evaluation e = problem.evaluate(params, seed);
    study::EvaluationRecord r;
    r.status = e.ok ? study::EvaluationStatus::ok : study::EvaluationStatus::failed;
    r.epsilon = e.epsilon;
    r.delta = e.delta;
    r.utility = e.utility;
    r.utility_min = e.utility_min;
    r.utility_max = e.utility_max;
    r.seconds = e.seconds;
    r.message = e.message;
    if (e.ok)
      for (const problems::IntermediateResult& i : e.intermediate) {
        study::EvaluationRecord& m = r.intermediate.emplace_back();
        m.status = study::EvaluationStatus::ok;
        m.params = i.params;
        m.epsilon = *i.epsilon;  // set by Problem::evaluate
        m.delta = e.delta;
        m.utility = i.utility;
        m.utility_min = i.utility_min;
        m.utility_max = i.utility_max;
      }
    return r;
  };
}

}  // namespace dpareto::explore
