#include "dpareto/explore/explorer_proposer.hpp"

namespace dpareto::explore {

std::optional<study::Proposal> ExplorerProposer::ask(const std::vector<std::vector<double>>& pending) {
  auto suggestion = explorer_.ask(pending);
  if (!suggestion) return std::nullopt;
  return study::Proposal{suggestion->params, suggestion->phase};
}

void ExplorerProposer::tell(const study::EvaluationRecord& record) {
  explorer_.tell({record.params, record.ok(), study::column_values(record, objectives_), record.is_intermediate(),
                  record.seconds});
}

}  // namespace dpareto::explore
