#include "dpareto/explore/robust_front.hpp"

#include <Eigen/Dense>

#include "dpareto/core/error.hpp"

namespace dpareto::explore {

study::RunData robust_run(const RunModel& model, const study::RunData& run) {
  study::RunData robust = run;
  std::vector<std::size_t> ok;
  for (std::size_t i = 0; i < run.records.size(); ++i)
    if (run.records[i].ok()) ok.push_back(i);
  if (ok.empty()) return robust;
  const auto& space = model.space();
  Eigen::MatrixXd X(static_cast<Eigen::Index>(ok.size()), static_cast<Eigen::Index>(space.dimension()));
  for (std::size_t k = 0; k < ok.size(); ++k) {
    const auto unit = space.to_unit(model.params_of(run.records[ok[k]]));
    for (std::size_t j = 0; j < unit.size(); ++j)
      X(static_cast<Eigen::Index>(k), static_cast<Eigen::Index>(j)) = unit[j];
  }
  // The utility is objective 1 (error = 1 − utility); predict_means gives its latent mean in GP space.
  const auto& surrogates = model.explorer->surrogates();
  const auto& utility = surrogates.objectives()[1];
  const auto means = surrogates.predict_means(X);
  for (std::size_t k = 0; k < ok.size(); ++k) robust.records[ok[k]].utility = utility.from_gp(means[k][1]);
  return robust;
}

std::string robust_front_unavailable(const study::RunData& run) {
  const int evaluations = study::evaluation_count(run.records);
  if (evaluations <= bo::Explorer::kMaxGpObservations) return "";
  return std::to_string(evaluations) + " evaluations, more than the " +
         std::to_string(bo::Explorer::kMaxGpObservations) + " a GP is fitted on";
}

std::optional<study::RunData> robust_run_of(const study::RunData& run, const std::string& directory, std::string& why) {
  why = robust_front_unavailable(run);
  if (!why.empty()) return std::nullopt;
  try {
    return robust_run(rebuild_run_model(run, directory), run);
  } catch (const Error& e) {  // a run that cannot be modelled (InputError) or a GP that failed (NumericalError)
    why = e.what();
    return std::nullopt;
  }
}

}  // namespace dpareto::explore
