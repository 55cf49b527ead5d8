#include "dpareto/explore/problem_evaluator.hpp"

#include "dpareto/core/json_number.hpp"

namespace dpareto::explore {
namespace {

// The further objectives' values among `measured`, into `into` ("" when all are there and in their
// transforms' domains, else why not).
std::string take_further(const std::vector<pareto::Objective>& further, const std::map<std::string, double>& measured,
                         std::map<std::string, double>& into) {
  for (const auto& o : further) {
    const auto it = measured.find(o.column());
    if (it == measured.end()) return "the oracle reported no '" + o.column() + "' (a declared objective)";
    if (const std::string why = pareto::transform_domain_problem(o.surrogate, it->second); !why.empty())
      return "objective '" + o.column() + "' = " + format_number(it->second) + " " + why;
    into[o.column()] = it->second;
  }
  return "";
}

}  // namespace

study::Evaluator problem_evaluator(const problems::Problem& problem, const pareto::Objectives& objectives) {
  const std::vector<pareto::Objective> further(objectives.list.begin() + 2, objectives.list.end());
  return [&problem, further](const std::vector<double>& params, std::uint64_t seed, const GoOn& go_on) {
    const problems::Evaluation e = problem.evaluate(params, seed, go_on);
    study::EvaluationRecord r;
    r.status = e.ok ? study::EvaluationStatus::ok : study::EvaluationStatus::failed;
    r.epsilon = e.epsilon;
    r.delta = e.delta;
    r.utility = e.utility;
    r.utility_min = e.utility_min;
    r.utility_max = e.utility_max;
    r.seconds = e.seconds;
    r.message = e.message;
    if (!e.ok) return r;
    r.params = e.stopped_at;  // empty unless a training stopped early
    if (const std::string why = take_further(further, e.further, r.further); !why.empty()) {
      r.status = study::EvaluationStatus::failed;
      r.message = why + (r.message.empty() ? "" : "; " + r.message);
      return r;
    }
    int unrecorded = 0;
    for (const problems::IntermediateResult& i : e.intermediate) {
      study::EvaluationRecord m;
      m.status = study::EvaluationStatus::ok;
      m.params = i.params;
      m.epsilon = *i.epsilon;  // set by Problem::evaluate
      m.delta = e.delta;
      m.utility = i.utility;
      m.utility_min = i.utility_min;
      m.utility_max = i.utility_max;
      if (take_further(further, i.further, m.further).empty())
        r.intermediate.push_back(m);
      else
        ++unrecorded;
    }
    if (unrecorded > 0)
      r.message += (r.message.empty() ? "" : "; ") + std::to_string(unrecorded) +
                   " intermediate results not recorded: they lack a declared objective";
    return r;
  };
}

}  // namespace dpareto::explore
