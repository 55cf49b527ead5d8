#pragma once
// Internal to the select module: each `dpareto tune` method's plan — every σ, curve and budget it
// will use — computed from public inputs only (the candidates' configurations, row counts and the
// settings), before anything reads a private row. The methods (tune_*.cpp) execute their plan;
// plan_tuning (tuning_plan.hpp) prints the same plan for `dpareto account tuning --method`.
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "dpareto/learn/dp_optimizer.hpp"
#include "dpareto/privacy/accountant.hpp"
#include "dpareto/privacy/rdp_conversion.hpp"
#include "dpareto/select/dp_hype.hpp"
#include "dpareto/select/propose_test.hpp"
#include "dpareto/select/tuning_pipeline.hpp"

namespace dpareto::select {

struct PlanInputs {
  const std::vector<learn::TrainConfig>& configs;  // on all n rows; noise_multiplier is the plan's to set
  int n;                                           // training rows
  const TuningSettings& settings;
  const std::vector<double>& orders;
};

// random-stopping, grid: K runs on the n − validation_rows training rows, scored on validation_rows.
struct StoppingPlan {
  std::vector<learn::TrainConfig> configs;  // extrapolated to n_train rows, σ set
  int n_train = 0;
  StoppingRule stopping;
  double score_epsilon = 0;
  nlohmann::json calibration;
  std::vector<double> run_curve, tuning_curve;
  privacy::EpsilonResult total{};
  nlohmann::json split;  // the certificate's budget split
};
StoppingPlan plan_random_stopping_or_grid(const PlanInputs& in, int validation_rows);

// subsampled: random stopping on X₁ (tuning_rows train, validation_rows score), the winner
// retrained on final_rows; at orders 2 … 128 (Koskela–Kulkarni's theorems are for integer orders).
struct SubsampledPlan {
  std::vector<double> orders;
  std::vector<learn::TrainConfig> tuning, final_configs;  // σ set
  StoppingRule stopping;
  double score_epsilon = 0, sigma = 0;
  std::vector<double> run_curve, tuning_curve, training_curve, total_curve;
  privacy::EpsilonResult total{};
  nlohmann::json split;
};
SubsampledPlan plan_subsampled(const PlanInputs& in, int tuning_rows, int validation_rows, int final_rows);

// The final training after a tuning step with curve `tuning_rdp` (propose-test, dp-hype;
// final_training.cpp): every candidate's σ on all rows. RDP: calibrated to the largest common
// per-candidate ε_c for which tuning + the candidates' uniform training curve, composed and
// converted once, meets the target. PLD: ε_c = target − the tuning's ε at δ/2, each σ by PLD at δ/2.
struct FinalTraining {
  std::vector<learn::TrainConfig> configs;  // the inputs', σ set
  double candidate_epsilon = 0;
  std::vector<double> sigmas;
  std::vector<double> training_rdp;
  std::vector<double> total_rdp;   // tuning + training, composed
  privacy::EpsilonResult total{};  // order NaN when the PLD split gives it
  // PLD (settings.accountant): the tuning step's RDP ε at tuning_delta plus the training's PLD ε at
  // training_delta (the largest over the candidates), basic composition.
  privacy::AccountantKind accountant = privacy::AccountantKind::rdp;
  double tuning_delta = 0, training_delta = 0, tuning_epsilon = 0, training_epsilon = 0;
  double training_optimistic = 0, discretization = 0;  // the PLD bracket's lower end and grid width h
};
FinalTraining calibrate_final_training(const PlanInputs& in, const std::vector<double>& tuning_rdp);

struct ProposeTestPlan {
  ProposeTestOptions options;  // ε₀ calibrated to the tuning share
  std::vector<double> tuning_curve;
  FinalTraining final_training;
  nlohmann::json split;
};
ProposeTestPlan plan_propose_test(const PlanInputs& in);

struct DpHypePlan {
  DpHypeOptions options;  // vote σ calibrated to the tuning share
  VoteNeighbours record = VoteNeighbours::record;
  std::vector<double> tuning_curve;
  FinalTraining final_training;
  nlohmann::json split;
};
DpHypePlan plan_dp_hype(const PlanInputs& in);

// {"tuning_epsilon", "training_epsilon", "epsilon", "note"}: each part converted on its own at
// the settings' δ, the total converted once from the composed curve.
nlohmann::json budget_split(const PlanInputs& in, const std::vector<double>& tuning_rdp,
                            const std::vector<double>& training_rdp, const privacy::EpsilonResult& total);

// budget_split of a tuning step followed by the final training, with the tuning share.
nlohmann::json retraining_split(const PlanInputs& in, const std::vector<double>& tuning_rdp,
                                const FinalTraining& final_training);

}  // namespace dpareto::select
