#pragma once
// Internal to the select module: what every `dpareto tune` method works from, and the parts of
// the certificate they share (tuning_pipeline.cpp builds the context and dispatches).
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "dpareto/privacy/rdp_conversion.hpp"
#include "dpareto/privacy/secure_noise.hpp"
#include "dpareto/select/candidate_scope.hpp"
#include "dpareto/select/tuning_pipeline.hpp"
#include "tuning_plans.hpp"

namespace dpareto::select {

struct TuningContext {
  const problems::DpTrainingProblem& problem;
  const TuningSettings& settings;
  const CandidateFile& file;
  std::vector<space::Params> params;        // the candidates as points of the problem's space
  std::vector<learn::TrainConfig> configs;  // on all training rows; noise_multiplier is set by each method
  std::vector<int> rows;                    // 0 .. n−1 of the problem's training split
  std::unique_ptr<privacy::RandomSource> source;
  std::vector<double> orders;
  SpendingHook before_spending;
  CandidateScope scope;  // what the certificate covers, given the candidates' origin

  // Every method calls this exactly once, with its whole curve, before it reads the private rows.
  void spend(const std::vector<double>& rdp, const privacy::EpsilonResult& total) const {
    if (before_spending) before_spending(orders, rdp, total);
  }

  const learn::Network& net() const { return problem.network(); }
  const learn::Dataset& data() const { return problem.data().train; }
  int n() const { return static_cast<int>(rows.size()); }
  int threads() const { return problem.threads(); }
  // What the method's plan (tuning_plans.hpp) is computed from.
  PlanInputs inputs() const { return {configs, n(), settings, orders}; }
};

// The methods (one file each).
TuningOutcome tune_random_stopping_or_grid(TuningContext& context);
TuningOutcome tune_subsampled(TuningContext& context);
TuningOutcome tune_propose_test(TuningContext& context);
TuningOutcome tune_dp_hype(TuningContext& context);

// Random stopping over `configs` (σ set) trained on `train`, each run scored on `validation` by
// noisy_accuracy; shared by random-stopping, grid and subsampled. Random stopping releases only
// the best (model, score) pair (Papernot & Steinke 2022), so nothing else about the runs may leave:
// not their scores, and not their number K either (with K known, best-of-K costs about K runs), nor
// which candidates were drawn (that list has K entries). A run whose weights
// are not all finite scores −∞ — a function of the run's output, so selection stays post-processing.
struct RandomStoppingRun {
  RandomStoppingResult selection;
  std::optional<Eigen::VectorXf> weights;  // of the selected run
};
RandomStoppingRun run_random_stopping(TuningContext& context, const std::vector<learn::TrainConfig>& configs,
                                      const learn::Dataset& train, const learn::Dataset& validation,
                                      const StoppingRule& stopping, double score_epsilon);
nlohmann::json stopping_description(const StoppingRule& rule);

// What the released validation_utility of a random-stopping run is: noisy, possibly outside [0, 1].
inline constexpr const char* noisy_score_note =
    "the selected run's noisy validation score, (correct predictions + discrete Laplace noise) / rows: noisy, so "
    "it may lie below 0 or above 1; it is released as drawn, never clamped";

// {"rows", "lot_size", "epochs", "learning_rate", "noise_multiplier", "clip_norm"}: what the
// released model was actually trained with (after extrapolation to its row count).
nlohmann::json trained_with(const learn::TrainConfig& config, int rows);

// {"name": name, "rdp": [[α, ε(α)], ...]}.
nlohmann::json rdp_component(const std::string& name, const std::vector<double>& orders,
                             const std::vector<double>& rdp);

// What the certificate's guarantee assumes: the neighbouring relation of `sampling`, which sizes are
// public, the floating-point caveat of the Gaussian noise, the exactness of the discrete noise.
nlohmann::json assumptions(privacy::Sampling sampling);

// The certificate fields every method writes: method, problem, candidates, epsilon, delta, order,
// conversion, accountant, target, randomness, assumptions.
// `final_training` (propose-test, dp-hype) says which accountant certified the total.
nlohmann::json certificate_header(const TuningContext& context, const privacy::EpsilonResult& total,
                                  const FinalTraining* final_training = nullptr);

// Fills selected / selected_index / validation_utility / test_utility and returns the outcome:
// with a model when `weights` is given, nothing released otherwise (`why` explains).
TuningOutcome finish(const TuningContext& context, nlohmann::json certificate, std::optional<std::size_t> selected,
                     double selected_sigma, std::optional<Eigen::VectorXf> weights,
                     std::optional<double> validation_utility, const std::string& why);

// "the tuning budget (--tuning-share s × --target-epsilon E)", for error messages.
std::string tuning_budget_name(const TuningSettings& settings);

// The certificate component of that training.
nlohmann::json final_training_component(const TuningContext& context, const FinalTraining& final_training);

// A configuration with its calibrated σ, trained on `rows` with keyed noise: the final model.
learn::TrainResult train_final(TuningContext& context, learn::TrainConfig config, const std::vector<int>& rows);

}  // namespace dpareto::select
