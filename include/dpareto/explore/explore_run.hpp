#pragma once
// One `dpareto explore` run assembled: the method's proposer over the problem's space (behind the
// study adapter), the study runner evaluating the problem on `workers` threads, and the run directory
// rewritten as each evaluation completes.
#include <cstddef>
#include <functional>
#include <memory>

#include "dpareto/bo/explorer.hpp"
#include "dpareto/explore/explore_settings.hpp"
#include "dpareto/explore/explorer_proposer.hpp"
#include "dpareto/study/storage.hpp"
#include "dpareto/study/study_runner.hpp"

namespace dpareto::explore {

// A run whose first this-many evaluations all fail with the same message stops (unless keep_going):
// a missing oracle program or a broken script would otherwise spend the whole budget.
constexpr std::size_t kSameFailureLimit = 3;
bool same_failure_from_the_start(const std::vector<study::EvaluationRecord>& records);

// The problem's privacy oracle for options.known_epsilon (empty without it); InputError naming the
// problem and why when its ε cannot be computed inside the acquisition.
bo::EpsilonOracle known_epsilon_oracle(const problems::Problem& problem, const bo::ExplorerOptions& options);
// InputError naming the problem and why when options.early_stop cannot take effect: not the DPareto
// loop, objectives beyond (ε, error), or a utility oracle that cannot stop (early_stop_obstacle).
void check_early_stop(const problems::Problem& problem, const bo::ExplorerOptions& options);

class ExploreRun {
 public:
  // `study` is open_run_study(problem, settings). Creates the external oracle's log directory
  // (settings.out/oracle-logs) and the run directory. InputError for explorer options or workers
  // out of range. `problem` must outlive the run.
  ExploreRun(const problems::Problem& problem, const ExploreSettings& settings, std::unique_ptr<study::Storage> study);

  // Replays a resumed study, then runs to the budget; `on_record` sees the run directory after each
  // completed evaluation is written (with its intermediate results). Stops early on a stop signal, or on identical failures from the
  // start (RunnerOutcome::stopped; see kSameFailureLimit) unless keep_going.
  study::RunnerOutcome run(const std::function<void(const study::RunDirectoryWriter&)>& on_record);

  const study::RunInfo& info() const { return writer_->info(); }
  const study::RunDirectoryWriter& writer() const { return *writer_; }
  const bo::Proposer& proposer() const { return *proposer_; }
  const study::Storage& study() const { return *study_; }

 private:
  ExploreSettings settings_;
  std::unique_ptr<study::Storage> study_;
  std::unique_ptr<bo::Proposer> proposer_;
  std::unique_ptr<ExplorerProposer> adapter_;
  std::unique_ptr<study::StudyRunner> runner_;
  std::unique_ptr<study::RunDirectoryWriter> writer_;
};

}  // namespace dpareto::explore
