#include "dpareto/explore/run_model.hpp"

#include <algorithm>
#include <optional>

#include "dpareto/core/error.hpp"
#include "dpareto/problems/external_command_problem.hpp"
#include "dpareto/problems/registry.hpp"
#include "dpareto/space/space_json.hpp"

namespace dpareto::explore {
namespace {

// The problem options a run was started with (summary.json "problem_options"; runs that predate
// it used the defaults).
problems::ProblemOptions recorded_problem_options(const nlohmann::json& summary) {
  problems::ProblemOptions options;
  const auto it = summary.find("problem_options");
  if (it == summary.end() || !it->is_object()) return options;
  for (const auto& [key, value] : it->items())
    options[key] = value.is_string() ? value.get<std::string>() : value.dump();
  return options;
}

// The record columns of the space's parameters, in the space's order.
std::vector<std::size_t> record_columns(const space::Space& space, const study::RunData& run, const std::string& summary) {
  std::vector<std::size_t> columns;
  for (const auto& p : space.parameters()) {
    const auto& names = run.info.parameter_names;
    const auto it = std::find(names.begin(), names.end(), p.name);
    if (it == names.end())
      throw InputError(summary + ": the run has no column for parameter '" + p.name + "' of problem '" +
                       run.info.problem + "'");
    columns.push_back(static_cast<std::size_t>(it - names.begin()));
  }
  return columns;
}

// An external oracle's space, as the run recorded it (summary.json "space").
space::Space external_space(const nlohmann::json& summary, const std::string& where) {
  const auto it = summary.find("space");
  if (it == summary.end())
    throw InputError("the run records no \"space\" (written before runs recorded it); explore it again");
  return space::space_from_json(*it, where + ": space");
}

// The recorded command as a runnable problem (only for a caller that trusts it).
std::unique_ptr<problems::Problem> external_problem(const nlohmann::json& summary, const space::Space& space,
                                                    const std::string& where) {
  const auto settings = summary.find("settings");
  if (settings == summary.end() || !settings->is_object() || !settings->contains("command") ||
      !settings->at("command").is_string())
    throw InputError(where + ": the run records no oracle command (settings.command)");
  problems::ExternalCommandOptions options;
  options.command = settings->at("command").get<std::string>();
  options.source = where + ": settings.command";
  if (const auto delta = summary.find("delta"); delta != summary.end() && delta->is_number())
    options.delta = delta->get<double>();
  if (const auto known = settings->find("known_epsilon"); known != settings->end() && known->is_string())
    options.known_epsilon =
        problems::parse_recorded_known_epsilon(known->get<std::string>(), space, where + ": settings.known_epsilon");
  return std::make_unique<problems::ExternalCommandProblem>(space, options);
}

}  // namespace

space::Params params_in_space_order(const std::vector<std::size_t>& record_column, const study::EvaluationRecord& record) {
  space::Params p(record_column.size());
  for (std::size_t i = 0; i < record_column.size(); ++i) p[i] = record.params.at(record_column[i]);
  return p;
}

RunModel rebuild_run_model(const study::RunData& run, const std::string& directory, bool trust_command) {
  RunModel model;
  const std::string summary = directory + "/summary.json";
  std::optional<space::Space> space;
  try {
    if (run.info.problem == "external") {
      space = external_space(run.summary, summary);
      model.exact_privacy = false;
      if (trust_command) model.problem = external_problem(run.summary, *space, summary);
    } else {
      model.problem = problems::make_problem(run.info.problem, recorded_problem_options(run.summary));
      space = model.problem->space();
    }
  } catch (const InputError& e) {
    throw InputError(summary + ": cannot rebuild problem '" + run.info.problem + "' (" + e.what() + ")");
  }
  model.record_column = record_columns(*space, run, summary);
  bo::ExplorerOptions options;
  options.objectives = run.info.objectives;
  options.axis.kind = run.info.hv_axis == "log" ? pareto::EpsilonAxis::Kind::log10 : pareto::EpsilonAxis::Kind::linear;
  options.axis.floor = run.info.log_floor;
  // Runs that name no registered acquisition (or predate the field) used HVPoI.
  const auto acquisition = run.info.extra.value("acquisition", std::string(bo::kDefaultAcquisition));
  if (bo::acquisition_exists(acquisition)) options.acquisition = acquisition;
  if (run.info.extra.value("reference_mode", "fixed") == "estimated")
    options.reference_mode = bo::ReferenceMode::estimated;
  // Runs from before the choice cut their cells from the observed front.
  options.improvement_front = run.info.extra.value("improvement_front", std::string("observed")) == "posterior"
                                  ? bo::ImprovementFront::posterior
                                  : bo::ImprovementFront::observed;
  options.cost_aware = run.info.extra.value("cost_aware", false);  // its acquisition map: per predicted second
  model.explorer = std::make_unique<bo::Explorer>(*space, options, run.info.seed.value_or(0));
  for (const auto& r : run.records) {
    if (r.status == study::EvaluationStatus::running) continue;  // no outcome to tell yet
    model.explorer->tell(
        bo::Observation{model.params_of(r), r.ok(), study::column_values(r, run.info.objectives), r.is_intermediate(),
                        r.seconds});
  }
  try {
    model.explorer->fit_surrogates();
  } catch (const InputError& e) {
    throw InputError(directory + ": " + e.what());
  }
  return model;
}

RunProblem rebuild_run_problem(const study::RunData& run, const std::string& directory,
                               const problems::ProblemOptions& overrides) {
  const std::string summary = directory + "/summary.json";
  if (run.info.problem == "external")
    throw InputError(summary + ": an external oracle's run (its command is not run again here)");
  problems::ProblemOptions options = recorded_problem_options(run.summary);
  for (const auto& [key, value] : overrides) options[key] = value;
  RunProblem rebuilt;
  try {
    rebuilt.problem = problems::make_problem(run.info.problem, options);
  } catch (const InputError& e) {
    throw InputError(summary + ": cannot rebuild problem '" + run.info.problem + "' (" + e.what() + ")");
  }
  rebuilt.record_column = record_columns(rebuilt.problem->space(), run, summary);
  return rebuilt;
}

}  // namespace dpareto::explore
