#include "dpareto/explore/run_description.hpp"

#include "dpareto/core/json_number.hpp"
#include "dpareto/space/space_json.hpp"

namespace dpareto::explore {

study::RunInfo run_info(const problems::Problem& problem, const ExploreSettings& settings, std::uint64_t seed,
                        bool seeded) {
  const auto& options = settings.explorer;
  study::RunInfo info;
  info.problem = problem.name();
  info.method = bo::method_name(options.method);
  info.seed = seed;
  for (const auto& p : problem.space().parameters()) info.parameter_names.push_back(p.name);
  info.objectives = options.objectives;
  info.hv_axis = options.axis.name();
  info.log_floor = options.axis.floor;
  info.extra = {{"seed_source", seeded ? "user" : "os"},
                {"acquisition", options.acquisition},
                {"reference_mode", bo::reference_mode_name(options.reference_mode)},
                {"improvement_front", bo::improvement_front_name(options.improvement_front)},
                {"initial_points", options.initial_points},
                {"budget", settings.budget},
                {"workers", settings.workers},
                {"delta", problem.delta()},
                {"settings", problem.settings()}};
  if (options.known_epsilon) info.extra["known_epsilon"] = true;
  if (options.cost_aware) info.extra["cost_aware"] = true;
  if (options.early_stop) info.extra["early_stop"] = true;
  set_current_run_keys(info.extra, problem, settings);
  return info;
}

void set_current_run_keys(nlohmann::json& extra, const problems::Problem& problem, const ExploreSettings& settings) {
  extra["space"] = space::space_to_json(problem.space());  // also for studies begun before runs recorded it
  // A resumed run's options are the recorded ones with its own --set on top (apps/explore.cpp):
  // recorded again, so that an option a resume needed (svt's bound_scale=linear for a study from
  // before the log scale) is not needed on the next one.
  extra["problem_options"] = settings.problem_options;
  if (!settings.out.empty()) extra["out"] = settings.out;  // where `explore --study FILE` alone writes
  if (settings.baseline)
    extra["baseline"] = {{"utility", *settings.baseline}, {"source", "--baseline"}};
  else if (const auto majority = problem.baseline_utility())
    extra["baseline"] = {{"utility", *majority}, {"source", "majority class"}};
  if (settings.non_private) extra["non_private"] = {{"utility", *settings.non_private}};
  if (!settings.utility_name.empty() || !extra.contains("utility_name"))
    extra["utility_name"] = settings.utility_name.empty() ? problem.utility_name() : settings.utility_name;
}

nlohmann::json study_config(const ExploreSettings& settings) {
  const auto& options = settings.explorer;
  nlohmann::json config = {{"method", bo::method_name(options.method)},
                           {"acquisition", options.acquisition},
                           {"reference_mode", bo::reference_mode_name(options.reference_mode)},
                           {"initial_points", options.initial_points},
                           {"initial_from_prior", options.initial_from_prior},
                           {"grid_points", options.grid_points},
                           {"candidates", options.dense_candidates},
                           {"hv_axis", options.axis.name()},
                           {"log_floor", options.axis.floor}};
  if (options.known_epsilon) config["known_epsilon"] = true;  // absent in studies from before it
  if (options.cost_aware) config["cost_aware"] = true;        // the same
  if (options.early_stop) config["early_stop"] = true;        // the same
  // Absent in studies from before the choice, which ran on the observed front (and resume so).
  if (options.improvement_front != bo::ImprovementFront::observed)
    config["improvement_front"] = bo::improvement_front_name(options.improvement_front);
  study::objectives_to_json(options.objectives, config);
  return config;
}

study::StudyIdentity study_identity(const problems::Problem& problem) {
  return {problem.name(), problem.settings(), space::space_to_json(problem.space())};
}

}  // namespace dpareto::explore
