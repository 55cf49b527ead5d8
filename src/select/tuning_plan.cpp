#include "dpareto/select/tuning_plan.hpp"

#include <algorithm>
#include <cmath>

#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/privacy/dpsgd_accountant.hpp"
#include "tuning_plans.hpp"

namespace dpareto::select {

TuningCandidates tuning_candidates(const problems::DpTrainingProblem& problem, const CandidateFile& file) {
  if (file.problem != problem.name())
    throw InputError(file.source + ": problem '" + file.problem + "' does not match --problem " + problem.name());
  if (problem.noise_calibrated())
    throw InputError(problem.name() + ": option noise=calibrated: tune sets the noise itself, from --target-epsilon; "
                     "drop the option");
  CandidateFile filled = file;
  for (auto& c : filled.candidates) c["noise_multiplier"] = 1.0;
  TuningCandidates out{candidate_params(filled, problem.space()), {}};
  const int n = problem.data().train.size();
  for (const auto& p : out.params) {
    auto c = problem.config(p, problem.threads());
    c.lot_size = std::min(c.lot_size, n);
    out.configs.push_back(c);
  }
  return out;
}

void check_settings_fit(const TuningSettings& settings, std::size_t candidates, int n, const std::string& problem,
                        const std::string& candidate_source) {
  const auto rows = static_cast<std::size_t>(n);
  if (settings.method == TuningMethod::dp_hype && settings.top_k > candidates)
    throw InputError("--top-k " + std::to_string(settings.top_k) + " is larger than the " + std::to_string(candidates) +
                     " candidates of " + candidate_source);
  if (settings.method == TuningMethod::dp_hype && settings.clients > rows)
    throw InputError("--clients " + std::to_string(settings.clients) + " is more than the " + std::to_string(n) +
                     " training examples of --problem " + problem);
  if (settings.method == TuningMethod::propose_test && settings.partitions > rows)
    throw InputError("--partitions " + std::to_string(settings.partitions) + " is more than the " + std::to_string(n) +
                     " training examples of --problem " + problem);
}

TuningSizes expected_sizes(const TuningSettings& settings, int rows) {
  TuningSizes sizes{rows, 0, 0};
  const auto share = [](int of, double fraction) { return static_cast<int>(std::lround(fraction * of)); };
  if (settings.method == TuningMethod::subsampled) {
    sizes.subsample_rows = share(rows, settings.subsample_rate);
    sizes.validation_rows = share(sizes.subsample_rows, settings.validation_fraction);
  } else {
    sizes.validation_rows = share(rows, settings.validation_fraction);
  }
  return sizes;
}

namespace {

// noise_multiplier of each configuration.
std::vector<double> sigmas_of(const std::vector<learn::TrainConfig>& configs) {
  std::vector<double> out;
  for (const auto& c : configs) out.push_back(c.noise_multiplier);
  return out;
}

}  // namespace

TuningPlanSummary plan_tuning(const std::vector<learn::TrainConfig>& configs, const TuningSettings& settings,
                              const TuningSizes& sizes) {
  check_tuning_settings(settings);
  if (configs.empty()) throw InputError("no candidates to account for");
  if (sizes.rows < 1) throw InputError("--rows " + std::to_string(sizes.rows) + " must be >= 1");
  const std::vector<double> orders = privacy::default_orders();
  const PlanInputs in{configs, sizes.rows, settings, orders};
  TuningPlanSummary out;
  // propose-test, dp-hype: a tuning step (its calibrated parameter named `what`), then the final training.
  const auto retrained = [&](const FinalTraining& f, const nlohmann::json& split, const char* what, double value) {
    out.total = f.total;
    out.noise_multipliers = f.sigmas;
    out.details = {{"split", split},
                   {what, json_number(value)},
                   {"per_candidate_epsilon", json_number(f.candidate_epsilon)},
                   {"accountant", privacy::to_string(f.accountant)}};
  };
  switch (settings.method) {
    case TuningMethod::random_stopping:
    case TuningMethod::grid: {
      const auto plan = plan_random_stopping_or_grid(in, sizes.validation_rows);
      out.total = plan.total;
      out.noise_multipliers = sigmas_of(plan.configs);
      out.details = {{"split", plan.split},
                     {"calibration", plan.calibration},
                     {"score_epsilon", json_number(plan.score_epsilon)},
                     {"rows", {{"validation", sizes.validation_rows}, {"training", plan.n_train}}}};
      break;
    }
    case TuningMethod::subsampled: {
      const int tuning_rows = sizes.subsample_rows - sizes.validation_rows;
      const int final_rows = settings.subsampled_variant == 1 ? sizes.rows - sizes.subsample_rows : sizes.rows;
      const auto plan = plan_subsampled(in, tuning_rows, sizes.validation_rows, final_rows);
      out.total = plan.total;
      out.noise_multipliers = sigmas_of(plan.final_configs);
      out.details = {{"split", plan.split},
                     {"score_epsilon", json_number(plan.score_epsilon)},
                     {"rows",
                      {{"subsample", sizes.subsample_rows},
                       {"tuning_training", tuning_rows},
                       {"tuning_validation", sizes.validation_rows},
                       {"final_training", final_rows}}}};
      break;
    }
    case TuningMethod::propose_test: {
      const auto plan = plan_propose_test(in);
      retrained(plan.final_training, plan.split, "epsilon0", plan.options.epsilon0);
      break;
    }
    case TuningMethod::dp_hype: {
      const auto plan = plan_dp_hype(in);
      retrained(plan.final_training, plan.split, "vote_sigma", plan.options.sigma);
      break;
    }
  }
  return out;
}

}  // namespace dpareto::select
