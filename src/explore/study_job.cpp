#include "dpareto/explore/study_job.hpp"

#include "dpareto/core/error.hpp"
#include "dpareto/core/printable.hpp"
#include "dpareto/explore/run_description.hpp"
#include "dpareto/problems/external_command_problem.hpp"
#include "dpareto/problems/registry.hpp"
#include "dpareto/space/space_json.hpp"

namespace dpareto::explore {

std::unique_ptr<problems::Problem> study_problem(const study::Storage& study, const HostOverrides& overrides) {
  const auto& identity = study.identity();
  const std::string where = "study " + study.location();
  std::unique_ptr<problems::Problem> problem;
  try {
    if (identity.problem == "external") {
      problems::ExternalCommandOptions options;
      options.command = identity.settings.at("command").get<std::string>();
      if (!overrides.trust_study_command)
        throw InputError(where + ": it would run the oracle command recorded in it, '" + printable(options.command) +
                         "'; pass --trust-study-command if you trust it (or resume with --oracle-cmd and --space)");
      options.timeout_seconds = overrides.oracle_timeout_seconds;
      options.log_directory = overrides.oracle_log_directory;
      auto space = space::space_from_json(identity.space, where + ": space");
      if (identity.settings.contains("known_epsilon"))
        options.known_epsilon = problems::parse_recorded_known_epsilon(
            identity.settings.at("known_epsilon").get<std::string>(), space, where);
      options.objective_keys = study::objectives_from_json(study.config(), where).further_names();
      problem = std::make_unique<problems::ExternalCommandProblem>(std::move(space), options);
    } else {
      problems::ProblemOptions options;
      const auto recorded = study.run_info().extra.value("problem_options", nlohmann::json::object());
      for (const auto& [key, value] : recorded.items())
        options[key] = value.is_string() ? value.get<std::string>() : value.dump();
      for (const auto& [key, value] : overrides.problem_options) options[key] = value;
      problem = problems::make_problem(identity.problem, options);
    }
  } catch (const nlohmann::json::exception& e) {
    throw InputError(where + ": cannot rebuild its problem (" + e.what() + ")");
  } catch (const InputError& e) {
    throw InputError(where + ": cannot rebuild problem '" + identity.problem + "' here (" + e.what() + ")");
  }
  study.check_identity(study_identity(*problem));  // same problem, settings (data checksums) and space
  return problem;
}

bo::ExplorerOptions study_explorer_options(const study::Storage& study) {
  const auto& config = study.config();
  const std::string where = "study " + study.location() + ": explorer configuration";
  bo::ExplorerOptions options;
  try {
    const auto method = config.at("method").get<std::string>();
    options.method = method == "random" ? bo::Method::random
                     : method == "grid" ? bo::Method::grid
                                        : bo::Method::dpareto;
    if (bo::method_name(options.method) != method) throw InputError(where + ": unknown method '" + method + "'");
    options.acquisition = config.at("acquisition").get<std::string>();
    if (!bo::acquisition_exists(options.acquisition))
      throw InputError(where + ": unknown acquisition '" + options.acquisition + "'");
    options.reference_mode = config.at("reference_mode").get<std::string>() == "estimated"
                                 ? bo::ReferenceMode::estimated
                                 : bo::ReferenceMode::fixed;
    options.initial_points = config.at("initial_points").get<int>();
    options.initial_from_prior = config.at("initial_from_prior").get<bool>();
    options.grid_points = config.at("grid_points").get<int>();
    options.dense_candidates = config.at("candidates").get<int>();
    options.axis.kind = config.at("hv_axis").get<std::string>() == "log" ? pareto::EpsilonAxis::Kind::log10
                                                                         : pareto::EpsilonAxis::Kind::linear;
    options.axis.floor = config.at("log_floor").get<double>();
    options.known_epsilon = config.value("known_epsilon", false);
    options.cost_aware = config.value("cost_aware", false);
    options.early_stop = config.value("early_stop", false);
    options.improvement_front =
        bo::parse_improvement_front(config.value("improvement_front", "observed"), where + ": improvement_front");
  } catch (const nlohmann::json::exception& e) {
    throw InputError(where + " is malformed (" + e.what() + ")");
  }
  options.objectives = study::objectives_from_json(config, where);
  return options;
}

}  // namespace dpareto::explore
