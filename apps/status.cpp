// dpareto status: how a study stands, read-only, while workers run it (SQLite or PostgreSQL):
// evaluations ok / failed / running out of the budget, the workers with their last heartbeat,
// running evaluations past the grace period, the hypervolume and its history, throughput and ETA.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <thread>

#include "command.hpp"
#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/core/readable_number.hpp"
#include "dpareto/core/stop_request.hpp"
#include "dpareto/study/storage_registry.hpp"
#include "storage_flags.hpp"

namespace dpareto::apps {
namespace {

nlohmann::json study_status(const study::Storage& s, double grace_seconds) {
  const auto completed = s.completed();
  const auto ok =
      std::count_if(completed.begin(), completed.end(), [](const auto& r) { return r.ok() && !r.is_intermediate(); });
  nlohmann::json running = nlohmann::json::array();
  for (const auto& t : s.trials()) {
    if (t.record.status != study::EvaluationStatus::running) continue;
    const bool stale = s.shared() && !(t.heartbeat_age <= grace_seconds);
    running.push_back(
        {{"trial", t.trial}, {"worker", t.worker}, {"heartbeat_age", json_number(t.heartbeat_age)}, {"stale", stale}});
  }
  nlohmann::json workers = nlohmann::json::array();
  for (const auto& w : s.workers())
    workers.push_back({{"worker", w.worker},
                       {"host", w.host},
                       {"heartbeat_age", json_number(w.heartbeat_age)},
                       {"state", w.left                             ? "left"
                                 : w.heartbeat_age <= grace_seconds ? "live"
                                                                    : "lost"}});
  std::vector<double> hv_history;
  std::vector<study::EvaluationRecord> so_far;
  for (const auto& r : completed) {  // after each evaluation, with its intermediate results
    so_far.push_back(r);
    const double hv = study::run_hypervolume(s.run_info(), so_far);
    if (r.is_intermediate() && !hv_history.empty())
      hv_history.back() = hv;
    else
      hv_history.push_back(hv);
  }
  // Throughput over the completions so far (first start to last finish), and the time left at that rate.
  double first_start = INFINITY, last_finish = -INFINITY;
  for (const auto& t : s.trials()) {
    first_start = std::min(first_start, t.started_at);
    if (t.record.id > 0) last_finish = std::max(last_finish, t.finished_at);
  }
  const int budget = s.run_info().extra.value("budget", 0);
  const double span = last_finish - first_start;
  const int evaluations = study::evaluation_count(completed);
  const double per_hour = evaluations == 0 || !(span > 0) ? 0 : 3600.0 * evaluations / span;
  const double left = std::max(0, budget - evaluations);
  const auto stale = std::count_if(running.begin(), running.end(), [](const auto& r) { return r.at("stale") == true; });
  return {{"study", s.location()},
          {"problem", s.run_info().problem},
          {"budget", budget},
          {"ok", ok},
          {"failed", static_cast<long>(evaluations) - ok},
          {"intermediate_results", static_cast<long>(completed.size()) - evaluations},
          {"running", running.size()},
          {"stale", stale},
          {"objectives", s.run_info().objectives.names()},
          {"hypervolume", json_number(hv_history.empty() ? 0.0 : hv_history.back())},
          {"hv_history", hv_history},
          {"evaluations_per_hour", json_number(per_hour)},
          {"eta_seconds", json_number(left == 0      ? 0.0
                                      : per_hour > 0 ? 3600.0 * left / per_hour
                                                     : INFINITY)},
          {"running_evaluations", running},
          {"workers", workers}};
}

void print_status(const nlohmann::json& j) {
  std::cout << "study " << j["study"].get<std::string>() << " (" << j["problem"].get<std::string>() << ")\n"
            << "evaluations: " << j["ok"] << " ok, " << j["failed"] << " failed, " << j["running"] << " running"
            << " of a budget of " << j["budget"];
  if (j["stale"] > 0) std::cout << " (" << j["stale"] << " running without a heartbeat past the grace period)";
  std::string objectives;
  for (const auto& name : j["objectives"]) objectives += (objectives.empty() ? "" : ", ") + name.get<std::string>();
  std::cout << "\nhypervolume: " << readable_number(number_from_json(j["hypervolume"], "hypervolume")) << " ("
            << objectives << ")\n";
  const double rate = number_from_json(j["evaluations_per_hour"], "rate");
  const double eta = number_from_json(j["eta_seconds"], "eta");
  if (rate > 0)
    std::cout << "throughput: " << readable_number(std::round(rate * 10) / 10) << " evaluations/hour, ETA "
              << (std::isfinite(eta) ? readable_number(std::round(eta)) + " s" : std::string("unknown")) << "\n";
  for (const auto& w : j["workers"])
    std::cout << "worker " << w["worker"].get<std::string>() << ": " << w["state"].get<std::string>()
              << ", last heartbeat "
              << readable_number(std::round(number_from_json(w["heartbeat_age"], "heartbeat age"))) << " s ago\n";
}

int run_status(int argc, char** argv) {
  po::options_description options("status options");
  add_storage_flags(options, StorageUse::read);
  options.add_options()("study", po::value<std::string>()->required(), "SQLite file or postgresql:// URI (positional)")(
      "json", po::bool_switch(), "print the status as one JSON object")(
      "grace", po::value<double>()->default_value(90), "seconds without a heartbeat after which work counts as lost")(
      "watch", po::value<double>(), "print the status again every this many seconds, until interrupted");
  const auto parsed = parse_command_line("dpareto status STUDY [--study-name NAME] [--json] [--watch S]",
                                         "dpareto status svt.db", options, argc, argv, {"study"});
  if (!parsed) return 0;
  const auto& vm = *parsed;
  const double grace = vm["grace"].as<double>();
  if (!(grace > 0 && std::isfinite(grace)))
    throw InputError("--grace " + format_number(grace) + ": expected seconds > 0");
  const double watch = vm.count("watch") ? vm["watch"].as<double>() : 0;
  if (vm.count("watch") && !(watch >= 0.1 && std::isfinite(watch)))
    throw InputError("--watch " + format_number(watch) + ": expected seconds >= 0.1");
  const auto open = [&] {
    return study::open_storage(vm["study"].as<std::string>(), study::StorageAccess::read_only,
                               storage_options_from(vm));
  };
  auto storage = open();
  install_stop_handlers();
  while (true) {
    const auto status = study_status(*storage, grace);
    if (vm["json"].as<bool>())
      std::cout << status.dump() << std::endl;
    else
      print_status(status);
    if (!watch) return 0;
    for (double waited = 0; waited < watch && !stop_signal(); waited += 0.1)
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    if (stop_signal()) return 0;
    if (storage->shared())
      storage->refresh();
    else
      storage = open();  // a file study: read it afresh
    if (!vm["json"].as<bool>()) std::cout << "\n";
  }
}

const CommandRegistration status_registration("status", "how a study stands: evaluations, workers, hypervolume, ETA",
                                              run_status);

}  // namespace
}  // namespace dpareto::apps
