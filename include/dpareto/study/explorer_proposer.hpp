#pragma once
// Glue between a study and the rest of dpareto: bo::Explorer as a study::Proposer, and a
// problems::Problem as a study::Evaluator.
#include "dpareto/bo/explorer.hpp"
#include "dpareto/problems/problem.hpp"
#include "dpareto/study/study_runner.hpp"

namespace dpareto::study {

class ExplorerProposer : public Proposer {
 public:
  explicit ExplorerProposer(bo::Explorer& explorer) : explorer_(explorer) {}
  std::optional<Proposal> ask(const std::vector<std::vector<double>>& pending) override {
    auto suggestion = explorer_.ask(pending);
    if (!suggestion) return std::nullopt;
    return Proposal{suggestion->params, suggestion->phase};
  }
  void tell(const EvaluationRecord& record) override {
    explorer_.tell({record.params, record.ok(), record.epsilon, record.utility});
  }
  nlohmann::json state() const override { return explorer_.state(); }
  void restore_state(const nlohmann::json& state) override { explorer_.restore_state(state); }

 private:
  bo::Explorer& explorer_;
};

// Runs Problem::evaluate and returns its outcome as a record (status, measurements, seconds, message).
inline Evaluator problem_evaluator(const problems::Problem& problem) {
  return [&problem](const std::vector<double>& params, std::uint64_t seed) {
    const problems::Evaluation e = problem.evaluate(params, seed);
    EvaluationRecord r;
    r.status = e.ok ? "ok" : "failed";
    r.epsilon = e.epsilon;
    r.delta = e.delta;
    r.utility = e.utility;
    r.utility_min = e.utility_min;
    r.utility_max = e.utility_max;
    r.seconds = e.seconds;
    r.message = e.message;
    return r;
  };
}

}  // namespace dpareto::study
