#pragma once
// The study adapter: a bo::Proposer (the DPareto explorer or a baseline) seen from a
// study::StudyRunner as a study::Proposer.
#include "dpareto/bo/proposer.hpp"
#include "dpareto/pareto/objectives.hpp"
#include "dpareto/study/study_runner.hpp"

namespace dpareto::explore {

class ExplorerProposer : public study::Proposer {
 public:
  // `objectives`: which record columns the proposer is told (epsilon, utility, ...).
  ExplorerProposer(bo::Proposer& explorer, pareto::Objectives objectives)
      : explorer_(explorer), objectives_(std::move(objectives)) {}
  std::optional<study::Proposal> ask(const std::vector<std::vector<double>>& pending) override;
  void tell(const study::EvaluationRecord& record) override;
  nlohmann::json state() const override { return explorer_.state(); }
  void restore_state(const nlohmann::json& state) override { explorer_.restore_state(state); }
  GoOn go_on() const override { return explorer_.go_on(); }

 private:
  bo::Proposer& explorer_;
  pareto::Objectives objectives_;
};

}  // namespace dpareto::explore
