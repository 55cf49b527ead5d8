// dpareto worker: joins a study on any host and evaluates its proposals until the study's budget is
// reached (docs/study.md, "Many machines"). Everything the work needs (problem, space, explorer
// configuration, seed, budget) comes from the study; this host may only point at its own copy of
// the data (checked by checksum) and choose its threads, concurrency and oracle timeout.
#include <cmath>
#include <iostream>

#include "command.hpp"
#include "dpareto/bo/make_proposer.hpp"
#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/core/readable_number.hpp"
#include "dpareto/core/stop_request.hpp"
#include "dpareto/explore/explore_run.hpp"
#include "dpareto/explore/explorer_proposer.hpp"
#include "dpareto/explore/problem_evaluator.hpp"
#include "dpareto/explore/study_job.hpp"
#include "dpareto/study/storage_registry.hpp"
#include "dpareto/study/study_runner.hpp"
#include "storage_flags.hpp"

namespace dpareto::apps {
namespace {

int run_worker(int argc, char** argv) {
  po::options_description options("worker options");
  add_storage_flags(options);
  options.add_options()("study", po::value<std::string>()->required(), "postgresql:// URI or SQLite file (positional)")(
      "workers", po::value<int>()->default_value(1), "evaluations this process runs at once")(
      "max-evaluations", po::value<int>()->default_value(0),
      "leave after starting this many evaluations (0: no limit)")(
      "no-retry", po::bool_switch(), "record evaluations a lost worker left running as failed (default: re-run once)")(
      "crash-limit", po::value<int>()->default_value(2),
      "record as failed an evaluation whose worker was lost this many times (0: never)")(
      "data-dir", po::value<std::string>(), "this host's data directory (the same files, checked by checksum)")(
      "threads", po::value<std::string>(), "threads per evaluation (problem option 'threads')")(
      "oracle-timeout", po::value<double>()->default_value(0), "external oracle: seconds before a run is killed")(
      "oracle-logs", po::value<std::string>(), "external oracle: directory for each evaluation's stderr")(
      "trust-study-command", po::bool_switch(),
      "external oracle: run the command recorded in the study (only for a study you or your team created)")(
      "quiet", po::bool_switch(), "no line per evaluation");
  const auto parsed = parse_command_line("dpareto worker STUDY [--study-name NAME] [options]",
                                         "dpareto worker svt.db --workers 2", options, argc, argv, {"study"});
  if (!parsed) return 0;
  const auto& vm = *parsed;
  const std::string location = vm["study"].as<std::string>();
  const auto storage_options = storage_options_from(vm);
  study::RunnerSettings settings;
  settings.workers = vm["workers"].as<int>();
  settings.max_evaluations = vm["max-evaluations"].as<int>();
  settings.retry_interrupted = !vm["no-retry"].as<bool>();
  settings.crash_limit = vm["crash-limit"].as<int>();
  if (settings.max_evaluations < 0)
    throw InputError("--max-evaluations " + std::to_string(settings.max_evaluations) + ": must be >= 0");
  if (settings.crash_limit < 0)
    throw InputError("--crash-limit " + std::to_string(settings.crash_limit) + ": must be >= 0");
  explore::HostOverrides overrides;
  if (vm.count("data-dir")) overrides.problem_options["data_dir"] = vm["data-dir"].as<std::string>();
  if (vm.count("threads")) overrides.problem_options["threads"] = vm["threads"].as<std::string>();
  overrides.oracle_timeout_seconds = vm["oracle-timeout"].as<double>();
  if (!(overrides.oracle_timeout_seconds >= 0 && std::isfinite(overrides.oracle_timeout_seconds)))
    throw InputError("--oracle-timeout " + format_number(overrides.oracle_timeout_seconds) + ": expected seconds >= 0");
  if (vm.count("oracle-logs")) overrides.oracle_log_directory = vm["oracle-logs"].as<std::string>();
  overrides.trust_study_command = vm["trust-study-command"].as<bool>();

  if (!study::storage_exists(location, storage_options))
    throw InputError("study " + study::shown_location(location) +
                     ": no such study (create it with dpareto explore --study)");
  auto storage = study::open_storage(location, study::StorageAccess::read_write, storage_options);
  const auto problem = explore::study_problem(*storage, overrides);
  const auto explorer_options = explore::study_explorer_options(*storage);
  const auto& info = storage->run_info();
  if (!info.seed) throw InputError("study " + storage->location() + ": it records no run seed");
  settings.seed = *info.seed;
  settings.budget = info.extra.value("budget", 0);
  settings.budget_from_study = true;
  if (settings.budget < 1) throw InputError("study " + storage->location() + ": it records no budget");
  const auto explorer = bo::make_proposer(problem->space(), explorer_options, settings.seed,
                                          explore::known_epsilon_oracle(*problem, explorer_options));
  explore::ExplorerProposer proposer(*explorer, explorer_options.objectives);
  study::StudyRunner runner(*storage, proposer, explore::problem_evaluator(*problem, explorer_options.objectives),
                            settings);
  const bool quiet = vm["quiet"].as<bool>();
  std::cerr << "worker joined study " << storage->location() << " (" << info.problem << ", budget " << settings.budget
            << ")\n";
  install_stop_handlers();
  const auto outcome = runner.run([&](std::span<const study::EvaluationRecord> records) {
    for (const auto& r : records) {
      if (!quiet && !r.is_intermediate())
        std::cerr << "[" << r.id << "/" << storage->run_info().extra.value("budget", 0) << "] " << to_string(r.status)
                  << " epsilon " << readable_rounded_up(r.epsilon) << " utility " << readable_number(r.utility) << "\n";
    }
  });
  if (outcome.interrupted_signal) {
    std::cerr << "dpareto worker: interrupted by " << signal_name(outcome.interrupted_signal)
              << "; its running evaluations stay in the study for another worker\n";
    return 128 + outcome.interrupted_signal;
  }
  std::cerr << "worker leaves study " << storage->location() << ": " << study::evaluation_count(storage->completed())
            << " of " << storage->run_info().extra.value("budget", 0) << " evaluations completed; it recorded "
            << outcome.recorded << ", waited " << readable_number(outcome.lock_wait_seconds)
            << " s for the proposal lock and spent " << readable_number(outcome.storage_seconds)
            << " s in the study's storage and asked for " << readable_number(outcome.ask_seconds) << " s ("
            << outcome.asked_again << " asks repeated)\n";
  return 0;
}

const CommandRegistration worker_registration("worker",
                                              "join a study (PostgreSQL or SQLite) and evaluate its proposals",
                                              run_worker);

}  // namespace
}  // namespace dpareto::apps
