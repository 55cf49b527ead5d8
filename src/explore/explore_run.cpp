#include "dpareto/explore/explore_run.hpp"

#include <algorithm>
#include <filesystem>

#include "dpareto/bo/make_proposer.hpp"
#include "dpareto/core/error.hpp"
#include "dpareto/explore/problem_evaluator.hpp"

namespace dpareto::explore {

bool same_failure_from_the_start(const std::vector<study::EvaluationRecord>& records) {
  if (records.size() < kSameFailureLimit) return false;
  return std::all_of(records.begin(), records.end(),
                     [&](const study::EvaluationRecord& r) { return !r.ok() && r.message == records.front().message; });
}

bo::EpsilonOracle known_epsilon_oracle(const problems::Problem& problem, const bo::ExplorerOptions& options) {
  if (!options.known_epsilon || options.method != bo::Method::dpareto) return {};
  const std::string obstacle = problem.known_privacy_obstacle();
  if (!obstacle.empty())
    throw InputError("--known-epsilon: problem " + problem.name() +
                     " cannot compute epsilon inside the acquisition: " + obstacle);
  return [&problem](const space::Params& params) { return problem.search_privacy(params); };
}

void check_early_stop(const problems::Problem& problem, const bo::ExplorerOptions& options) {
  if (!options.early_stop) return;
  std::string obstacle = problem.early_stop_obstacle();
  if (options.method != bo::Method::dpareto) obstacle = "it is for the DPareto loop, not --method " + bo::method_name(options.method);
  if (options.objectives.list.size() > 2) obstacle = "its rule weighs epsilon and utility only, not further objectives";
  if (!obstacle.empty()) throw InputError("--early-stop: problem " + problem.name() + ": " + obstacle);
}

ExploreRun::ExploreRun(const problems::Problem& problem, const ExploreSettings& settings,
                       std::unique_ptr<study::Storage> study)
    : settings_(settings), study_(std::move(study)) {
  const study::RunInfo info = study_->run_info();
  if (problem.name() == "external") std::filesystem::create_directories(settings_.out + "/oracle-logs");
  proposer_ = bo::make_proposer(problem.space(), settings_.explorer, *info.seed,
                                known_epsilon_oracle(problem, settings_.explorer));
  adapter_ = std::make_unique<ExplorerProposer>(*proposer_, settings_.explorer.objectives);
  runner_ = std::make_unique<study::StudyRunner>(
      *study_, *adapter_, problem_evaluator(problem, settings_.explorer.objectives),
      study::RunnerSettings{settings_.budget, settings_.workers, *info.seed, settings_.retry_interrupted,
                            settings_.crash_limit});
  writer_ = std::make_unique<study::RunDirectoryWriter>(settings_.out, info);
}

study::RunnerOutcome ExploreRun::run(const std::function<void(const study::RunDirectoryWriter&)>& on_record) {
  return runner_->run(
      [&](std::span<const study::EvaluationRecord> records) {
        writer_->add_many({records.begin(), records.end()});  // the files rewritten once
        on_record(*writer_);
      },
      [&] { return !settings_.keep_going && same_failure_from_the_start(writer_->records()); });
}

}  // namespace dpareto::explore
