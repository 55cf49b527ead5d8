#pragma once
// What a `dpareto tune` run will spend, known before it touches data (issue 15 item 4): every
// method's calibration and RDP curves depend only on the candidates' configurations, the row
// counts and the settings. `tune` executes exactly this plan (on the row counts its random splits
// drew); `dpareto account tuning --method` prints it, so a budget can be planned in advance.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "dpareto/learn/dp_optimizer.hpp"
#include "dpareto/privacy/rdp_conversion.hpp"
#include "dpareto/problems/dp_training_problem.hpp"
#include "dpareto/select/candidate_file.hpp"
#include "dpareto/select/tuning_pipeline.hpp"

namespace dpareto::select {

// The candidates of `file` as points of the problem's space and as training configurations on
// all its training rows (lot size capped at n). σ is calibrated by every method, so a candidate may
// omit noise_multiplier; a value it gives is overridden. InputError when the file names another
// problem or a candidate is not a point of the space.
struct TuningCandidates {
  std::vector<space::Params> params;
  std::vector<learn::TrainConfig> configs;
};
TuningCandidates tuning_candidates(const problems::DpTrainingProblem& problem, const CandidateFile& file);

// InputError when the settings cannot work on n rows and `candidates` candidates (dp-hype's top-k
// above the candidates or more clients than rows, propose-test's partitions above the rows).
void check_settings_fit(const TuningSettings& settings, std::size_t candidates, int n, const std::string& problem,
                        const std::string& candidate_source);

// The split sizes a plan depends on. tune draws its splits row by row (Bernoulli), so the sizes it
// certifies vary around the expected ones; its certificate records them (validation.rows,
// rows.subsample, rows.tuning_validation), and passing those here reproduces its ε exactly.
struct TuningSizes {
  int rows = 0;             // n, all training rows
  int validation_rows = 0;  // random-stopping, grid: held out of n; subsampled: held out of X₁
  int subsample_rows = 0;   // subsampled: |X₁|
};
// round(f·n) validation rows (random-stopping, grid); |X₁| = round(q·n) with round(f·|X₁|) of
// them held out (subsampled); f = --validation-fraction, q = --subsample-rate.
TuningSizes expected_sizes(const TuningSettings& settings, int rows);

struct TuningPlanSummary {
  privacy::EpsilonResult total{};         // of the whole procedure, as the certificate states it
  std::vector<double> noise_multipliers;  // per candidate, the σ its (final) training uses
  nlohmann::json details;                 // the certificate's split and method-specific calibration
};
// InputError for sizes that leave an empty split and for an unreachable target, as tune.
TuningPlanSummary plan_tuning(const std::vector<learn::TrainConfig>& configs, const TuningSettings& settings,
                              const TuningSizes& sizes);

}  // namespace dpareto::select
